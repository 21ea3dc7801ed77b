{* The full view of a content node: title, the attributes one by one,
   related children with a pager, and a little script for the image
   gallery. Expects: node, view_parameters. *}
{default view_parameters=hash('offset', 0)}
{let name=Node
     data_map=$node.data_map
     children=$node.children
     page_limit=5
     class_identifier=$node.class_identifier}
<div class="content-view-full">
<div class="class-{$Node:class_identifier}">

<div class="attribute-header">
<h1>{$node.name|wash}</h1>
<p class="byline">{'Published %date by %author'|i18n('design/standard/node/view',, hash('%date', $node.published|l10n('shortdate'), '%author', $node.owner_name|wash))}</p>
</div>

{section loop=$Node:data_map name=Attribute sequence=array('odd', 'even')}
{section-exclude match=$Attribute:key|eq('name')}
{section-exclude match=$Attribute:item.has_content|not}
<div class="attribute-{$Attribute:key} {$Attribute:sequence}">
<h2>{$Attribute:item.contentclass_name|i18n('design/standard/node/view')|wash}</h2>
{switch match=$Attribute:item.data_type}
{case match='ezxmltext'}
<div class="xmltext">{$Attribute:item.content}</div>
{/case}
{case match='ezimage'}
<div class="image"><img src={$Attribute:item.content.url|ezroot} alt="{$Attribute:item.content.alt|wash}" width="{$Attribute:item.content.width}" height="{$Attribute:item.content.height}" /></div>
{/case}
{case match='ezkeyword'}
<p class="keywords">{'Keywords'|i18n('design/standard/node/view')}: {$Attribute:item.content|implode(', ')|wash}</p>
{/case}
{case match='ezprice'}
<p class="price">{$Attribute:item.content|l10n('currency')}</p>
{/case}
{case}
<p>{$Attribute:item.content|wash|nl2br}</p>
{/case}
{/switch}
</div>
{delimiter}
<hr class="attribute-separator" />
{/delimiter}
{section-else}
<p class="empty">{'This item has no content yet.'|i18n('design/standard/node/view')}</p>
{/section}

{section show=$Node:children|count|gt(0)}
<div class="children">
<h2>{'Related items'|i18n('design/standard/node/view')} ({$Node:children|count})</h2>
<ul>
{section loop=$Node:children name=Child offset=$view_parameters.offset max=$Node:page_limit sequence=array('bglight', 'bgdark')}
<li class="{$Child:sequence}">
<a href={$Child:item.url_alias|ezurl}>{$Child:item.name|wash}</a>
<span class="class">{$Child:item.class_name|i18n('design/standard/node/view')|wash}</span>
{if $Child:item.modified|gt($node.published)}
<span class="updated">{'Updated %date'|i18n('design/standard/node/view',, hash('%date', $Child:item.modified|datetime('custom', '%j %M %Y')))}</span>
{/if}
</li>
{/section}
</ul>
{include uri='design:navigator/google.tpl'
         page_uri=$node.url_alias
         item_count=$Node:children|count
         view_parameters=$view_parameters
         item_limit=$Node:page_limit}
</div>
{/section}

<script type="text/javascript">
{literal}
(function () {
    var images = document.querySelectorAll('.content-view-full .image img');
    for (var i = 0; i < images.length; i++) {
        images[i].onclick = function () { this.classList.toggle('zoomed'); };
    }
{/literal}
    var labels = {ldelim} zoom: '{'Click to zoom'|i18n('design/standard/node/view')|wash('javascript')}', close: '{'Close'|i18n('design/standard/node/view')|wash('javascript')}' {rdelim};
{literal}
    window.galleryLabels = labels;
}());
{/literal}
</script>

</div>
</div>
{/let}
{/default}
