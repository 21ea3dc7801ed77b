{* The document head: title from the path, stylesheets from the settings. *}
{default enable_help=true() enable_link=true()}
{let name=Path
     path=$module_result.path
     reverse_path=array()}
{section loop=$:path}
{set reverse_path=$:reverse_path|prepend($:item)}
{/section}
<title>{section loop=$Path:reverse_path}{$:item.text|wash}{delimiter} / {/delimiter}{/section} - {$site.title|wash}</title>
{/let}
<meta http-equiv="Content-Type" content="text/html; charset={$site.charset}" />
<meta name="generator" content="yardstick reference kernel" />
{section loop=ezini('StylesheetSettings', 'CSSFileList', 'design.ini')}
<link rel="stylesheet" type="text/css" href={$:item|ezdesign} />
{/section}
{if $enable_link}
<link rel="home" href={'/'|ezurl} title="{'Front page'|i18n('design/standard/layout')}" />
{if $enable_help}
<link rel="help" href={'/content/view/full/2'|ezurl} title="{'Help'|i18n('design/standard/layout')}" />
{/if}
{/if}
{/default}
