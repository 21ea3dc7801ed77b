{* The administration page layout: left navigation tree, toolbars around
   the main area, and the user's preferences. The preference operator and
   the run-once block come from an extension: the engine warns about them
   and renders the block's body as is. *}
{def $admin_theme=first_set(ezini('AdminSettings', 'Theme', 'admin.ini'), 'default')
     $show_tree=ezini('AdminSettings', 'ShowContentTree', 'admin.ini')|eq('enabled')
     $left_width=first_set(ezpreference('admin_left_menu_width'), 13)
     $tabs=ezini('NavigationPart', 'Tabs', 'admin.ini')
     $node_id=first_set($module_result.node_id, 2)
     $navigation_part=first_set($module_result.navigation_part, 'content')
     $tools=array(hash('action', 'edit', 'label', 'Edit', 'disabled', false()),
                  hash('action', 'move', 'label', 'Move', 'disabled', $node_id|eq(2)),
                  hash('action', 'remove', 'label', 'Remove', 'disabled', $node_id|eq(2)))}
<!DOCTYPE html>
<html lang="{$site.language|downcase}">
<head>
{include uri='design:parts/page_head.tpl' enable_link=false()}
<link rel="stylesheet" type="text/css" href={concat('stylesheets/theme-', $admin_theme, '.css')|ezdesign} />
{run-once}
<script type="text/javascript">
{literal}
var Admin = {
    toggle: function (id) {
        var el = document.getElementById(id);
        el.style.display = (el.style.display === 'none') ? '' : 'none';
        return false;
    }
};
{/literal}
</script>
{/run-once}
<style type="text/css">
{literal}
#leftmenu { float: left; }
#maincolumn { overflow: hidden; }
{/literal}
#leftmenu {ldelim} width: {$left_width}em; {rdelim}
</style>
</head>
<body class="admin theme-{$admin_theme|wash}">

<div id="header">
<div id="header-logo">
<a href={'/content/dashboard'|ezurl} title="{'Administration'|i18n('design/admin/pagelayout')}"><img src={'admin-logo.png'|ezimage} alt="{'Administration'|i18n('design/admin/pagelayout')}" /></a>
</div>
<div id="header-search">
<form action={'/content/search'|ezurl} method="get">
<input id="searchtext" name="SearchText" type="text" value="{$module_result.search_text|wash}" />
<select name="SubTreeArray">
<option value="1">{'All content'|i18n('design/admin/pagelayout')}</option>
<option value="{$node_id}"{if $module_result.search_subtree|eq($node_id)} selected="selected"{/if}>{'Current location'|i18n('design/admin/pagelayout')}</option>
</select>
<input class="button" type="submit" value="{'Search'|i18n('design/admin/pagelayout')}" />
</form>
</div>
<div id="header-user">
<p>{'Logged in as %login'|i18n('design/admin/pagelayout',, hash('%login', $current_user.login|wash))}
(<a href={'/user/logout'|ezurl}>{'Log out'|i18n('design/admin/pagelayout')}</a>)</p>
</div>
</div>

{* The tabs: one per navigation part listed in admin.ini. *}
{cache-block keys=array($navigation_part, $current_user.login)}
<div id="tabs">
<ul>
{foreach $tabs as $tab_id => $tab_label}
<li id="tab-{$tab_id}" class="{if $tab_id|eq($navigation_part)}current{else}other{/if}"><a href={concat('/', $tab_id, '/dashboard')|ezurl}>{$tab_label|i18n('design/admin/pagelayout')|upfirst|wash}</a></li>
{/foreach}
</ul>
</div>
{/cache-block}

<div id="columns">
{if $show_tree}
<div id="leftmenu">
<h4>{'Content structure'|i18n('design/admin/pagelayout')}</h4>
{cache-block keys=array('tree', $node_id) expiry=0 ignore_content_expiry}
<ul class="content-tree">
{section loop=$module_result.tree name=Tree}
<li class="depth-{$Tree:item.depth}{if $Tree:item.node_id|eq($node_id)} current{/if}">
{section show=$Tree:item.depth|gt(1)}
{for 2 to $Tree:item.depth as $level}<span class="indent"></span>{/for}
{/section}
<a href={concat('/content/view/full/', $Tree:item.node_id)|ezurl}>{$Tree:item.name|wash|shorten(28)}</a>
{section show=$Tree:item.hidden}
<span class="hidden">({'hidden'|i18n('design/admin/pagelayout')})</span>
{/section}
</li>
{section-else}
<li class="empty">{'No content yet.'|i18n('design/admin/pagelayout')}</li>
{/section}
</ul>
{/cache-block}
</div>
{/if}

<div id="maincolumn">
{include uri='design:parts/toolbar.tpl' position='top' tools=$tools node_id=$node_id}

{if $module_result.path|count|gt(1)}
<div class="breadcrumbs">
{foreach $module_result.path as $step max=8}
{if $step.url}<a href={$step.url|ezurl}>{$step.text|wash}</a>{else}<strong>{$step.text|wash}</strong>{/if}
{delimiter} &gt; {/delimiter}
{/foreach}
</div>
{/if}

{if $module_result.modified}
<p class="modified">
{'Last modified %date by %author'|i18n('design/admin/pagelayout',, hash('%date', $module_result.modified|l10n('shortdatetime'), '%author', $module_result.modifier|wash))}
</p>
{/if}

<div id="maincontent">
{$module_result.content}
</div>

{include uri='design:parts/toolbar.tpl' position='bottom' tools=$tools|reverse node_id=$node_id}
</div>
</div>

{* Status bar: counters and the settings that matter when debugging. *}
<div id="statusbar">
{def $settings_shown=array(array('site.ini', 'SiteSettings', 'SiteName'),
                           array('site.ini', 'DatabaseSettings', 'DatabaseImplementation'),
                           array('admin.ini', 'AdminSettings', 'Theme'))}
<table class="settings">
<tr><th>{'File'|i18n('design/admin/pagelayout')}</th><th>{'Setting'|i18n('design/admin/pagelayout')}</th><th>{'Value'|i18n('design/admin/pagelayout')}</th></tr>
{foreach $settings_shown as $index => $s}
{def $value=ezini($s[1], $s[2], $s[0])}
<tr class="{$index|mod(2)|choose('bglight', 'bgdark')}">
<td>{$s[0]}</td>
<td>[{$s[1]}] {$s[2]}</td>
<td>{if $value|is_null}<em>{'unset'|i18n('design/admin/pagelayout')}</em>{else}{$value|wash}{/if}</td>
</tr>
{undef $value}
{/foreach}
</table>
<p class="counts">{'%nodes nodes, %users users online'|i18n('design/admin/pagelayout',, hash('%nodes', $module_result.node_count|l10n('number')|explode('.')|extract(0, 1)|implode(''), '%users', first_set($module_result.users_online, 0)))}</p>
</div>

{include uri='design:parts/page_footer.tpl'}

<script type="text/javascript">
{literal}
document.querySelectorAll('.content-tree a').forEach(function (a) {
    a.addEventListener('click', function () { a.className += ' loading'; });
});
{/literal}
</script>
</body>
</html>
