//! Property tests: neither parsing nor rendering panics, whatever the
//! input, and errors always point inside the source.

use proptest::prelude::*;

use super::*;

/// Template-ish input: tags, operators, strings and stray characters.
fn template_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("{".to_string()),
        Just("}".to_string()),
        Just("\n".to_string()),
        Just("{if $a}".to_string()),
        Just("{else}".to_string()),
        Just("{/if}".to_string()),
        Just("{foreach $l as $k => $v max=2}".to_string()),
        Just("{/foreach}".to_string()),
        Just("{delimiter},{/delimiter}".to_string()),
        Just("{section loop=$l name=S}".to_string()),
        Just("{section-exclude match=$S:index|eq(1)}".to_string()),
        Just("{section-else}".to_string()),
        Just("{/section}".to_string()),
        Just("{switch match=$a}{case match=1}x{/case}{case}y{/case}{/switch}".to_string()),
        Just("{let name=N a=1}".to_string()),
        Just("{/let}".to_string()),
        Just("{def $a=sum($a,1)}".to_string()),
        Just("{set $a=mul($a,2)}".to_string()),
        Just("{undef}".to_string()),
        Just("{while $a|lt(50)}{set $a=inc($a)}".to_string()),
        Just("{/while}".to_string()),
        Just("{for 0 to $a as $i}".to_string()),
        Just("{/for}".to_string()),
        Just("{do}".to_string()),
        Just("{/do while=$a|lt(3)}".to_string()),
        Just("{break}".to_string()),
        Just("{include uri='design:x.tpl'}".to_string()),
        Just("{literal}{x}{/literal}".to_string()),
        Just("{* c *}".to_string()),
        Just("{$l|implode(',')|wash}".to_string()),
        Just("{$a|div(0)|l10n(currency)}".to_string()),
        Just("{cond($a, 'x', 'y')}".to_string()),
        Just("{'%1'|i18n('c',,array($a))}".to_string()),
        Just("{ext_tag}".to_string()),
        Just("{/ext_tag}".to_string()),
        Just("{$a|ext_op}".to_string()),
        Just("{foreach $l as $v sequence array('x','y') as $s}".to_string()),
        Just("{let $b=1}".to_string()),
        Just("{default $b=2}".to_string()),
        Just("{/default}".to_string()),
        Just("{$l|implode('_')|explode('_').1}".to_string()),
        Just("{$h|merge($h)[k]}".to_string()),
        Just("{if $a name=N loop=$l}".to_string()),
        Just("{section var=v loop=$l sequence=array(1,2) reverse max=2 offset=1}".to_string()),
        Just("{set-block scope=global variable=blk}".to_string()),
        Just("{/set-block}".to_string()),
        Just("{run-once}".to_string()),
        Just("{/run-once}".to_string()),
        Just("{node_view_gui content_node=$h view=line}".to_string()),
        Just("{attribute_view_gui attribute=$h}".to_string()),
        "[a-z $|(),'\"=:#.\\[\\]0-9-]{0,12}".prop_map(|s| s),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn parser_never_panics_on_arbitrary_text(src in "\\PC{0,200}") {
        let _ = compile("p.tpl", &src);
    }

    #[test]
    fn parser_never_panics_on_template_soup(src in template_soup()) {
        let _ = compile("p.tpl", &src);
    }

    #[test]
    fn rendering_any_parsed_template_never_panics(src in template_soup()) {
        if let Ok(program) = compile("p.tpl", &src) {
            let mut e = engine();
            e.limits = Limits { max_steps: 2_000, max_include_depth: 4, max_bytes: 1 << 20, max_fuel: 1 << 24 };
            let vars = Vars::new()
                .set("a", 1)
                .set("l", ints(&[1, 2, 3]))
                .set("h", hash(&[("k", Value::str("v"))]));
            let _ = e.render(&program, &vars);
        }
    }

    /// Errors always point inside the source.
    #[test]
    fn error_positions_are_within_the_source(src in template_soup()) {
        if let Err(e) = compile("p.tpl", &src) {
            let lines = src.split('\n').count() as u32;
            prop_assert!(e.line >= 1 && e.line <= lines, "{e}");
            prop_assert!(e.column >= 1, "{e}");
            prop_assert!(e.excerpt.contains('^'));
        }
    }
}
