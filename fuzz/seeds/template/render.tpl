{* The render fixture: a product listing with a running total. *}
{def $total=0
     $featured=array()}
<!DOCTYPE html>
<html>
<head><title>{$title|wash}</title></head>
<body>
<h1>{$title|wash}</h1>
<form action={'/content/search'|ezurl} method="get"><input type="submit" value="{'Search'|i18n('design/standard/content/search')}" /></form>
<p>{count($items)} items</p>
<table class="list">
{foreach $items as $index => $item}
{set $total=sum($total, $item.price)}
{if $item.featured}
{set $featured=$featured|append($item.name)}
{/if}
<tr class="{cond($item.featured, 'featured', mod($index, 2)|eq(0), 'even', 'odd')}">
<td>{$item.id}</td>
<td><a href={concat('/content/view/full/', $item.id)|ezurl}>{$item.name|wash|shorten(30)}</a></td>
<td class="price">{$item.price|l10n('number')}</td>
<td>{$item.tags|implode(', ')|upcase}</td>
</tr>
{delimiter}
{if mod($index, 10)|eq(0)}
<tr class="separator"><td colspan="4"></td></tr>
{/if}
{/delimiter}
{/foreach}
</table>
<p class="total">{'Total'|i18n('design/standard/content/search')}: {$total|l10n('number')}</p>
{if $featured|count|gt(0)}
<p class="featured">{'Featured'|i18n('design/standard/content/search')}: {$featured|implode(' / ')|wash}</p>
{else}
<p>{'No featured items'|i18n('design/standard/content/search')}</p>
{/if}
{undef $total $featured}
</body>
</html>
