{* An admin toolbar: one button per tool, each a small form. *}
<div class="toolbar toolbar-{$position}">
{foreach $tools as $tool}
<form method="post" action={concat('/content/action/', $tool.action)|ezurl}>
<input type="hidden" name="NodeID" value="{$node_id}" />
<input class="button{if $tool.disabled}-disabled{/if}" type="submit" value="{$tool.label|i18n('design/admin/toolbar')|wash}"{if $tool.disabled} disabled="disabled"{/if} />
</form>
{/foreach}
</div>
