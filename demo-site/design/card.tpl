{* The speed card: the same pages through two servers, cached and rendered.
   Expects: measured, failure, damaged, limits; when measured: server_a,
   server_b, measured_at, seconds and lines (page; cached and rendered,
   each with a and b (median, n, errors) and ratio). *}
<div class="speed-card">
<h1>{'The same pages, server A and server B'|i18n('design/standard/speed')}</h1>
{if $damaged|eq('')}{else}
<p class="damaged">{$damaged|wash}</p>
{/if}
{if $failure|eq('')}{else}
<p class="failure">{$failure|wash}</p>
{/if}
{if $measured}
<p class="servers">A: {$server_a|wash}; B: {$server_b|wash}</p>
<table class="figures">
<tr><th>{'Page'|i18n('design/standard/speed')}</th><th>{'Cached, A'|i18n('design/standard/speed')}</th><th>{'Cached, B'|i18n('design/standard/speed')}</th><th>A ÷ B</th><th>{'Rendered, A'|i18n('design/standard/speed')}</th><th>{'Rendered, B'|i18n('design/standard/speed')}</th><th>A ÷ B</th></tr>
{foreach $lines as $line}
<tr class="page"><td class="name">{$line.page|wash}</td>
<td class="median">{$line.cached.a.median|wash} <span class="n">{$line.cached.a.n} req.</span></td>
<td class="median">{$line.cached.b.median|wash} <span class="n">{$line.cached.b.n} req.</span></td>
<td class="ratio">{$line.cached.ratio|wash}</td>
<td class="median">{$line.rendered.a.median|wash} <span class="n">{$line.rendered.a.n} req.</span></td>
<td class="median">{$line.rendered.b.median|wash} <span class="n">{$line.rendered.b.n} req.</span></td>
<td class="ratio">{$line.rendered.ratio|wash}</td></tr>
{/foreach}
</table>
<p class="when">{'Measured at %at, in %seconds s.'|i18n('design/standard/speed',, hash('%at', $measured_at|wash, '%seconds', $seconds))}</p>
{elseif $damaged|eq('')}
<p class="none">{'Not measured yet.'|i18n('design/standard/speed')}</p>
{/if}
<p class="limits">{$limits|wash}</p>
</div>
