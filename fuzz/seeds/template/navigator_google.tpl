{* Pagination in the style of a search engine: previous and next links,
   the pages around the current one, and the first and last page.
   Expects: page_uri, item_count, item_limit, view_parameters. *}
{default page_uri_suffix=false()
         left_max=7
         right_max=6}
{default name=ViewParameter
         page_uri_suffix=false()
         left_max=$left_max
         right_max=$right_max}
{let page_count=int(ceil(div($item_count, $item_limit)))
     current_page=min($:page_count,
                      int(ceil(div(first_set($view_parameters.offset, 0), $item_limit))))
     item_previous=sub(mul($:current_page, $item_limit), $item_limit)
     item_next=sum(mul($:current_page, $item_limit), $item_limit)
     left_length=min($:current_page, $:left_max)
     right_length=max(min(sub($:page_count, $:current_page, 1), $:right_max), 0)
     view_parameter_text=''
     offset_text=eq(ezini('ControlSettings', 'AllowUserVariables', 'template.ini'), 'true')|choose('/offset/', '/(offset)/')}
{* Carry every view parameter except the offset into the page links. *}
{section loop=$view_parameters}
{section-exclude match=$:key|eq('offset')}
{section-exclude match=$:item|not}
{set view_parameter_text=concat($view_parameter_text, '/(', $:key, ')/', $:item)}
{/section}

{section show=$:page_count|gt(1)}
<div class="pagenavigator">
<p>
{switch match=$:item_previous|lt(0)}
{case match=0}
<span class="previous"><a href={concat($page_uri,
                                        $:item_previous|gt(0)|choose('', concat($:offset_text, $:item_previous)),
                                        $:view_parameter_text,
                                        $:page_uri_suffix)|ezurl}><span class="text">&laquo;&nbsp;{'Previous'|i18n('design/standard/navigator')}</span></a></span>
{/case}
{case}
<span class="previous disabled"><span class="text">&laquo;&nbsp;{'Previous'|i18n('design/standard/navigator')}</span></span>
{/case}
{/switch}

<span class="pages">
{section show=$:current_page|gt($:left_max)}
<span class="other"><a href={concat($page_uri, $:view_parameter_text, $:page_uri_suffix)|ezurl}>1</a></span>
{section show=sub($:current_page, $:left_length)|gt(1)}
<span class="more">...</span>
{/section}
{/section}

{section loop=$:left_length name=Quick}
{let page_offset=mul(sum(sub($ViewParameter:current_page, $ViewParameter:left_length), $:index), $item_limit)}
<span class="other"><a href={concat($page_uri,
                                     $:page_offset|gt(0)|choose('', concat($ViewParameter:offset_text, $:page_offset)),
                                     $ViewParameter:view_parameter_text,
                                     $ViewParameter:page_uri_suffix)|ezurl}>{sum(sub($ViewParameter:current_page, $ViewParameter:left_length), $:index, 1)}</a></span>
{/let}
{/section}

<span class="current">{$:current_page|inc}</span>

{section loop=$:right_length name=Quick}
{let page_offset=mul(sum($ViewParameter:current_page, $:index, 1), $item_limit)}
<span class="other"><a href={concat($page_uri,
                                     $ViewParameter:offset_text, $:page_offset,
                                     $ViewParameter:view_parameter_text,
                                     $ViewParameter:page_uri_suffix)|ezurl}>{sum($ViewParameter:current_page, $:index, 2)}</a></span>
{/let}
{/section}

{section show=$:page_count|gt(sum($:current_page, $:right_max, 1))}
{section show=sub($:page_count, $:current_page, $:right_length)|gt(2)}
<span class="more">...</span>
{/section}
<span class="other"><a href={concat($page_uri, $:offset_text, mul(dec($:page_count), $item_limit), $:view_parameter_text, $:page_uri_suffix)|ezurl}>{$:page_count}</a></span>
{/section}
</span>

{switch match=$:item_next|lt($item_count)}
{case match=1}
<span class="next"><a href={concat($page_uri, $:offset_text, $:item_next, $:view_parameter_text, $:page_uri_suffix)|ezurl}><span class="text">{'Next'|i18n('design/standard/navigator')}&nbsp;&raquo;</span></a></span>
{/case}
{case}
<span class="next disabled"><span class="text">{'Next'|i18n('design/standard/navigator')}&nbsp;&raquo;</span></span>
{/case}
{/switch}
</p>
<p class="summary">{'Page %current of %total, items %first to %last of %count'|i18n('design/standard/navigator',,
    hash('%current', $:current_page|inc,
         '%total', $:page_count,
         '%first', sum($:item_previous, $item_limit, 1),
         '%last', min($:item_next, $item_count),
         '%count', $item_count))}</p>
</div>
{/section}
{/let}
{/default}
{/default}
