{* The page of a URL that names nothing. Expects: uri. *}
<div class="error-view">
<h1>{'Page not found'|i18n('design/standard/error/kernel')}</h1>
<p>{'The page %uri does not exist on this site.'|i18n('design/standard/error/kernel',, hash('%uri', $uri|wash))}</p>
<p><a href={'/'|ezurl}>{'Go to the front page'|i18n('design/standard/error/kernel')}</a></p>
</div>
