{* The content edit form: one input per attribute of the object being
   edited, validation messages on top, and the publish/draft buttons.
   Expects: object, attributes, validation, redirect_uri. *}
{def $can_publish=and($object.can_publish, $validation.processed|not)
     $required_count=0}
<form enctype="multipart/form-data" method="post" action={concat('/content/edit/', $object.id, '/', $object.version, '/', $object.language)|ezurl}>

<div class="context-block">
<h1 class="context-title">{'Edit &lt;%class&gt; %name'|i18n('design/standard/content/edit',, hash('%class', $object.class_name|wash, '%name', $object.name|wash))}</h1>
<p class="context-info">{'Version %version, language %language'|i18n('design/standard/content/edit',, hash('%version', $object.version, '%language', $object.language|upcase))}</p>
</div>

{if $validation.processed}
{if $validation.attributes|count}
<div class="message-warning">
<h2>{'The draft could not be stored.'|i18n('design/standard/content/edit')}</h2>
<p>{'Required data is either missing or is invalid'|i18n('design/standard/content/edit')}:</p>
<ul>
{foreach $validation.attributes as $invalid}
<li><b>{$invalid.name|wash}:</b> {$invalid.description|wash}</li>
{/foreach}
</ul>
</div>
{else}
<div class="message-feedback">
<h2>{'The draft was successfully stored.'|i18n('design/standard/content/edit')}</h2>
</div>
{/if}
{/if}

<div class="attributes">
{foreach $attributes as $attribute}
{if $attribute.is_required}
{set $required_count=inc($required_count)}
{/if}
<div class="block{if $validation.attributes|contains($attribute.identifier)} error{/if}">
<label for="attribute_{$attribute.id}">{$attribute.name|wash}{if $attribute.is_required} <span class="required">*</span>{/if}{if $attribute.is_information_collector} <span class="collector">({'information collector'|i18n('design/standard/content/edit')})</span>{/if}:</label>
{switch match=$attribute.datatype}
{case match='ezstring'}
<input id="attribute_{$attribute.id}" class="box" type="text" size="70" name="ContentObjectAttribute_data_text_{$attribute.id}" value="{$attribute.content|wash}" />
{/case}
{case match='eztext'}
<textarea id="attribute_{$attribute.id}" class="box" name="ContentObjectAttribute_data_text_{$attribute.id}" cols="70" rows="{first_set($attribute.rows, 5)}">{$attribute.content|wash}</textarea>
{/case}
{case match='ezinteger'}
<input id="attribute_{$attribute.id}" type="text" size="8" name="ContentObjectAttribute_data_integer_{$attribute.id}" value="{$attribute.content|int}" />
{/case}
{case match='ezboolean'}
<input id="attribute_{$attribute.id}" type="checkbox" name="ContentObjectAttribute_data_boolean_{$attribute.id}"{if $attribute.content} checked="checked"{/if} />
{/case}
{case match='ezselection'}
<select id="attribute_{$attribute.id}" name="ContentObjectAttribute_ezselect_selected_array_{$attribute.id}[]">
{foreach $attribute.options as $option_id => $option}
<option value="{$option_id}"{if $attribute.content|contains($option_id)} selected="selected"{/if}>{$option|wash}</option>
{/foreach}
</select>
{/case}
{case in=array('ezdate', 'ezdatetime')}
<input id="attribute_{$attribute.id}" type="text" size="10" name="ContentObjectAttribute_date_{$attribute.id}" value="{$attribute.content|datetime('custom', '%Y-%m-%d')}" />
{/case}
{case}
<p class="unsupported">{'No editor for the %type datatype.'|i18n('design/standard/content/edit',, hash('%type', $attribute.datatype|wash))}</p>
{/case}
{/switch}
{if $attribute.description}
<p class="description">{$attribute.description|wash|nl2br}</p>
{/if}
</div>
{/foreach}
</div>

<p class="note">{'%count of %total fields are required.'|i18n('design/standard/content/edit',, hash('%count', $required_count, '%total', $attributes|count))}</p>

<div class="buttonblock">
<input class="{cond($can_publish, 'defaultbutton', 'button-disabled')}" type="submit" name="PublishButton" value="{'Send for publishing'|i18n('design/standard/content/edit')}"{if $can_publish|not} disabled="disabled"{/if} />
<input class="button" type="submit" name="StoreButton" value="{'Store draft'|i18n('design/standard/content/edit')}" />
<input class="button" type="submit" name="DiscardButton" value="{'Discard draft'|i18n('design/standard/content/edit')}" onclick="return confirm('{'Are you sure you want to discard the draft?'|i18n('design/standard/content/edit')|wash('javascript')}');" />
<input type="hidden" name="RedirectURIAfterPublish" value="{$redirect_uri|wash}" />
</div>
</form>
{undef}
