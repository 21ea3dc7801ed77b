{* The search page: the form again, how many nodes matched, and the first
   of them. Expects: search_text, total, results (name, url, class_name). *}
<div class="content-search">
<h1>{'Search'|i18n('design/standard/content/search')}</h1>
<form action={'/content/search'|ezurl} method="get">
<input class="searchbox" name="SearchText" type="text" value="{$search_text|wash}" size="40" />
<input class="button" type="submit" value="{'Search'|i18n('design/standard/content/search')}" />
</form>
{if $search_text|eq('')}
<p class="hint">{'Type the words to look for.'|i18n('design/standard/content/search')}</p>
{elseif $total|eq(0)}
<p class="empty">{'No results were found when searching for "%text".'|i18n('design/standard/content/search',, hash('%text', $search_text|wash))}</p>
{else}
<p class="count">{'Search for "%text" returned %count matches'|i18n('design/standard/content/search',, hash('%text', $search_text|wash, '%count', $total))}</p>
<ul class="results">
{foreach $results as $item}
<li class="{$item.class_identifier|wash}"><a href={$item.url|ezurl}>{$item.name|wash}</a> <span class="class">{$item.class_name|wash}</span></li>
{/foreach}
</ul>
{/if}
</div>
