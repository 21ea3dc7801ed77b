{* The administrators' dashboard. Expects: csrf (the session's form token),
   message (empty: none). *}
<div class="dashboard">
<h1>{'Dashboard'|i18n('design/admin/dashboard')}</h1>
{if $message|eq('')}{else}
<p class="message">{$message|wash}</p>
{/if}
<p>{'You are logged in as the administrator.'|i18n('design/admin/dashboard')}</p>
<form method="post" action={'/content/dashboard/measure'|ezurl}>
<input type="hidden" name="csrf" value="{$csrf|wash}" />
<input class="button" type="submit" name="MeasureButton" value="{'Measure again'|i18n('design/admin/dashboard')}" />
<a href={'/speed'|ezurl}>{'The speed card'|i18n('design/admin/dashboard')}</a>
</form>
<form method="post" action={'/user/logout'|ezurl}>
<input type="hidden" name="csrf" value="{$csrf|wash}" />
<input class="button" type="submit" name="LogoutButton" value="{'Log out'|i18n('design/admin/dashboard')}" />
</form>
</div>
