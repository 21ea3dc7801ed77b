{* The administration's login form. Expects: redirect_uri, csrf (the form's
   token), message (empty: none). *}
<div class="user-login">
<h1>{'Log in to the administration'|i18n('design/admin/user/login')}</h1>
{if $message|eq('')}{else}
<p class="message">{$message|wash}</p>
{/if}
<form method="post" action={'/user/login'|ezurl}>
<div class="block">
<label for="id1">{'Username'|i18n('design/admin/user/login')}</label>
<input class="halfbox" type="text" size="10" name="Login" id="id1" value="" tabindex="1" />
</div>
<div class="block">
<label for="id2">{'Password'|i18n('design/admin/user/login')}</label>
<input class="halfbox" type="password" size="10" name="Password" id="id2" value="" tabindex="2" />
</div>
<div class="buttonblock">
<input class="defaultbutton" type="submit" name="LoginButton" value="{'Log in'|i18n('design/admin/user/login')}" tabindex="3" />
</div>
<input type="hidden" name="RedirectURI" value="{$redirect_uri|wash}" />
<input type="hidden" name="csrf" value="{$csrf|wash}" />
</form>
</div>
