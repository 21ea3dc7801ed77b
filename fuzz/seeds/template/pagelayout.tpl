{* The public page layout: every page of the site is rendered through it.
   Expects: module_result, current_user, site, current_year. *}
{def $site_name=ezini('SiteSettings', 'SiteName')
     $show_path=ezini('PathSettings', 'ShowPath', 'design.ini')|eq('enabled')
     $left_menu=first_set($module_result.left_menu, array())
     $top_menu=ezini('MenuSettings', 'TopMenuItems', 'menu.ini')
     $node_id=first_set($module_result.node_id, 2)
     $is_front_page=$module_result.uri|eq('/')
     $layout_class=cond($is_front_page, 'layout-front',
                        $left_menu|count|gt(0), 'layout-sidemenu',
                        'layout-plain')}
<!DOCTYPE html>
<html lang="{$site.language|downcase}">
<head>
{include uri='design:parts/page_head.tpl' enable_help=false()}
{* Analytics are only switched on where the settings say so. *}
{if ezini('AnalyticsSettings', 'Enabled', 'design.ini')|eq('true')}
<script type="text/javascript">
{literal}
(function (w, d) {
    var q = w._queue = w._queue || [];
    q.push({event: 'pageview', time: +new Date()});
    var s = d.createElement('script');
    s.async = true;
{/literal}
    s.src = '{ezini('AnalyticsSettings', 'ScriptURL', 'design.ini')|wash('javascript')}';
{literal}
    d.getElementsByTagName('head')[0].appendChild(s);
}(window, document));
{/literal}
</script>
{/if}
</head>
<body class="{$layout_class}">
<div id="page">

<div id="header">
{cache-block keys=array($site_name, $current_user.is_logged_in)}
<div id="logo">
<a href={'/'|ezurl} title="{$site_name|wash}"><img src={'logo.png'|ezimage} alt="{$site_name|wash}" /></a>
</div>
<div id="usermenu">
{if $current_user.is_logged_in}
<span class="greeting">{'Welcome, %name'|i18n('design/standard/layout',, hash('%name', $current_user.name|wash))}</span>
<a href={'/user/edit'|ezurl}>{'My profile'|i18n('design/standard/layout')}</a>
<a href={'/user/logout'|ezurl}>{'Log out'|i18n('design/standard/layout')}</a>
{else}
<a href={'/user/login'|ezurl}>{'Log in'|i18n('design/standard/layout')}</a>
{if ezini('RegistrationSettings', 'Enabled', 'site.ini')|eq('true')}
<a href={'/user/register'|ezurl}>{'Register'|i18n('design/standard/layout')}</a>
{/if}
{/if}
</div>
{/cache-block}

<form id="searchbox" action={'/content/search'|ezurl} method="get">
<label for="searchtext" class="hide">{'Search text'|i18n('design/standard/layout')}</label>
<input id="searchtext" name="SearchText" type="text" value="{$module_result.search_text|wash}" size="12" />
<input id="searchbutton" class="button" type="submit" value="{'Search'|i18n('design/standard/layout')}" />
</form>
</div>

{* The top menu comes from menu.ini; the current entry is marked. *}
{cache-block keys=array($module_result.uri, $top_menu|count) expiry=3600}
<div id="topmenu">
<ul>
{foreach $top_menu as $entry}
{def $entry_parts=$entry|explode(';')
     $entry_url=$entry_parts[1]
     $entry_current=cond($entry_url|eq('/'), $is_front_page,
                         $module_result.uri|begins_with($entry_url))}
<li{if $entry_current} class="current"{/if}><a href={$entry_url|ezurl}>{$entry_parts[0]|i18n('design/standard/menu')|wash}</a></li>
{undef $entry_parts $entry_url $entry_current}
{delimiter}
<li class="delimiter">|</li>
{/delimiter}
{/foreach}
</ul>
</div>
{/cache-block}

{if $show_path}
<div id="path">
<p>
{foreach $module_result.path as $step}
{if $step.url}
<a class="path" href={$step.url|ezurl}>{$step.text|wash|shorten(40)}</a>
{else}
<span class="path">{$step.text|wash|shorten(40)}</span>
{/if}
{delimiter}
<span class="slash">/</span>
{/delimiter}
{/foreach}
</p>
</div>
{/if}

<div id="columns">
{if $left_menu|count}
{cache-block keys=array($node_id, 'leftmenu') subtree_expiry=$node_id}
<div id="leftmenu">
<h2>{'Sections'|i18n('design/standard/layout')}</h2>
<ul>
{section loop=$left_menu name=Menu}
<li class="{$Menu:number|mod(2)|choose('even', 'odd')}"><a href={concat('/content/view/full/', $Menu:item.node_id)|ezurl}>{$Menu:item.name|wash}</a>
{section show=$Menu:item.children|count|gt(0)}
<ul>
{section loop=$Menu:item.children name=Child max=5}
<li><a href={concat('/content/view/full/', $Child:item.node_id)|ezurl}>{$Child:item.name|wash|shorten(25)}</a></li>
{/section}
</ul>
{/section}
</li>
{/section}
</ul>
</div>
{/cache-block}
{/if}

<div id="maincontent">
{if $module_result.warnings|count}
<div class="message-warning">
{foreach $module_result.warnings as $warning}
<p>{$warning|wash}</p>
{/foreach}
</div>
{/if}
{$module_result.content}
</div>

<div id="rightcolumn">
{switch match=$module_result.view}
{case match='full'}
<div class="box">
<h2>{'Tools'|i18n('design/standard/layout')}</h2>
<ul>
<li><a href={concat('/content/print/', $node_id)|ezurl}>{'Printable version'|i18n('design/standard/layout')}</a></li>
<li><a href={concat('/content/tipafriend/', $node_id)|ezurl}>{'Tip a friend'|i18n('design/standard/layout')}</a></li>
</ul>
</div>
{/case}
{case in=array('search', 'advancedsearch')}
<div class="box">
<p>{'Search tips: use quotes for phrases.'|i18n('design/standard/layout')}</p>
</div>
{/case}
{case}
{/case}
{/switch}
</div>
</div>

{include uri='design:parts/page_footer.tpl'}
</div>

{if ezini('DebugSettings', 'ShowDebugBox', 'site.ini')|eq('enabled')}
<div id="debug">
<p>{'Template debug'|i18n('design/standard/layout')}: {$module_result.uri|wash}, node {$node_id}, user {$current_user.login|wash}</p>
</div>
{/if}
<script type="text/javascript">
{literal}
document.getElementById('searchtext').addEventListener('focus', function () {
    if (this.value === '') { this.className = 'active'; }
});
{/literal}
var siteRoot = {'/'|ezroot};
</script>
{undef}
</body>
</html>
