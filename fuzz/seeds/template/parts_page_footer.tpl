{* The page footer: copyright line and the settings-driven footer links. *}
<div id="footer">
<address>
{'Copyright &copy; %year %owner'|i18n('design/standard/layout',, hash('%year', $current_year, '%owner', ezini('SiteSettings', 'SiteName')|wash))}
</address>
{def $footer_links=ezini('FooterSettings', 'Links', 'menu.ini')}
{if $footer_links|count}
<ul class="footer-links">
{foreach $footer_links as $label => $url}
<li><a href={$url|ezurl}>{$label|i18n('design/standard/layout')|wash}</a></li>
{/foreach}
</ul>
{/if}
{undef $footer_links}
</div>
