//! End-to-end behaviour of the language: each function tag, the whitespace
//! rule byte for byte, error positions, and property tests that neither
//! parsing nor rendering panics on any input.

use std::sync::Arc;

use proptest::prelude::*;

use super::value::{Map, Object, Value};
use super::{Engine, Limits, Vars, compile};

fn engine() -> Engine {
    Engine::new(Vec::new())
}

fn render_with(src: &str, vars: Vars) -> String {
    let program = compile("t.tpl", src).unwrap_or_else(|e| panic!("{e}"));
    engine()
        .render(&program, &vars)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn render(src: &str) -> String {
    render_with(src, Vars::new())
}

fn ints(v: &[i64]) -> Value {
    Value::from(v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>())
}

fn hash(pairs: &[(&str, Value)]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert(*k, v.clone());
    }
    Value::from(m)
}

mod tags {
    use super::*;

    #[test]
    fn output_and_attribute_chains() {
        let node = hash(&[(
            "object",
            hash(&[(
                "data_map",
                hash(&[("title", hash(&[("content", Value::str("T"))]))]),
            )]),
        )]);
        let vars = Vars::new()
            .set("node", node)
            .set("a", ints(&[10, 20]))
            .set("k", "title");
        assert_eq!(
            render_with(
                "{$node.object.data_map.title.content}{$a[1]}{$a.0}{$node.object.data_map[$k].content}{$missing.x}",
                vars
            ),
            "T2010T"
        );
    }

    #[test]
    fn objects_expose_attributes() {
        #[derive(Debug)]
        struct Node;
        impl Object for Node {
            fn attribute(&self, name: &str) -> Option<Value> {
                match name {
                    "name" => Some(Value::str("Home")),
                    "depth" => Some(Value::Int(1)),
                    _ => None,
                }
            }
            fn attribute_names(&self) -> Vec<String> {
                vec!["name".into(), "depth".into()]
            }
            fn to_text(&self) -> String {
                "node#2".into()
            }
        }
        let vars = Vars::new().set("node", Value::Object(Arc::new(Node)));
        assert_eq!(
            render_with(
                "{$node.name}/{$node.depth}/{$node.none}/{$node}/{$node|count}",
                vars
            ),
            "Home/1//node#2/2"
        );
    }

    #[test]
    fn def_set_undef() {
        assert_eq!(
            render(
                "{def $a=1 $b=array(1,2)}{$a}{count($b)}{set $a=sum($a, 1)}{$a}{undef $a}[{$a}]{$b.1}"
            ),
            "122[]2"
        );
        assert_eq!(render("{def $a=1}{def $b=2}{undef}[{$a}{$b}]"), "[]");
        // legacy spelling without `$`, and set of an undefined variable
        assert_eq!(render("{set x=5}{$x}"), "5");
        // a second def in one template overwrites
        assert_eq!(render("{def $a=1}{def $a=2}{$a}{undef $a}[{$a}]"), "2[]");
    }

    #[test]
    fn if_elseif_else() {
        let t = "{if $n|eq(1)}one{elseif $n|gt(5)}big{else}other{/if}";
        let r = |n: i64| render_with(t, Vars::new().set("n", n));
        assert_eq!(
            (r(1), r(9), r(3)),
            ("one".into(), "big".into(), "other".into())
        );
        // constant conditions are decided at compile time
        assert_eq!(
            render("{if true()}a{else}b{/if}{if 0}c{elseif 1}d{/if}"),
            "ad"
        );
        let err = compile("t.tpl", "{if 1}{else}{elseif 2}{/if}").unwrap_err();
        assert_eq!((err.line, err.column), (1, 13));
    }

    #[test]
    fn switch_and_case() {
        let t = "{switch match=$x}\n{case match=1}one{/case}\n{case in=array(2,3)}few{/case}\n{case}many{/case}\n{/switch}";
        let r = |x: i64| render_with(t, Vars::new().set("x", x));
        assert_eq!(
            (r(1), r(3), r(7)),
            ("one".into(), "few".into(), "many".into())
        );
        assert_eq!(
            render("{switch match=2}{case match=1}a{/case}{/switch}"),
            ""
        );
        assert_eq!(
            render(
                "{switch name=Sw match='b'}{case match='b'}{$Sw:match}!{/case}{/switch}[{$Sw:match}]"
            ),
            "b![]"
        );
    }

    #[test]
    fn foreach_with_parameters_and_delimiter() {
        let vars = || Vars::new().set("l", ints(&[1, 2, 3, 4, 5]));
        assert_eq!(
            render_with(
                "{foreach $l as $i}{$i}{delimiter},{/delimiter}{/foreach}",
                vars()
            ),
            "1,2,3,4,5"
        );
        assert_eq!(
            render_with("{foreach $l as $i offset=1 max=3}{$i}{/foreach}", vars()),
            "234"
        );
        assert_eq!(
            render_with("{foreach $l as $i reverse max=2}{$i}{/foreach}", vars()),
            "54"
        );
        assert_eq!(
            render_with("{foreach $l as $k => $v max=2}{$k}={$v};{/foreach}", vars()),
            "0=1;1=2;"
        );
        let h = hash(&[("a", Value::Int(1)), ("b", Value::Int(2))]);
        assert_eq!(
            render_with(
                "{foreach $h as $k => $v}{$k}:{$v} {/foreach}[{$k}]",
                Vars::new().set("h", h)
            ),
            "a:1 b:2 []"
        );
        // the loop variable shadows an outer one only inside the loop
        assert_eq!(
            render_with(
                "{def $i='x'}{foreach $l as $i max=1}{$i}{/foreach}{$i}",
                vars()
            ),
            "1x"
        );
        assert_eq!(
            render("{foreach 'text' as $c}{$c}{/foreach}|{foreach $none as $c}x{/foreach}"),
            "|"
        );
    }

    #[test]
    fn break_continue_skip() {
        let vars = || Vars::new().set("l", ints(&[1, 2, 3, 4]));
        assert_eq!(
            render_with(
                "{foreach $l as $i}{if $i|eq(2)}{continue}{/if}{if $i|eq(4)}{break}{/if}{$i}{/foreach}",
                vars()
            ),
            "13"
        );
        assert_eq!(
            render_with(
                "{foreach $l as $i}{if $i|eq(1)}{skip}{/if}{$i}{/foreach}",
                vars()
            ),
            "234"
        );
        let p = compile("t.tpl", "{break}").unwrap();
        assert!(p.warnings[0].message.contains("outside a loop"));
    }

    #[test]
    fn while_do_for() {
        assert_eq!(
            render("{def $i=0}{while $i|lt(3)}{$i}{set $i=inc($i)}{/while}"),
            "012"
        );
        assert_eq!(
            render("{def $i=5}{do}{$i}{set $i=inc($i)}{/do while=$i|lt(3)}"),
            "5"
        );
        assert_eq!(
            render("{def $i=0}{do}{$i}{set $i=inc($i)}{/do while=$i|lt(3)}"),
            "012"
        );
        assert_eq!(
            render("{for 1 to 3 as $i}{$i}{delimiter}-{/delimiter}{/for}"),
            "1-2-3"
        );
        assert_eq!(render("{for 3 to 1 as $i}{$i}{/for}"), "321");
        assert_eq!(
            render("{def $i=0}{while true()}{set $i=inc($i)}{if $i|gt(2)}{break}{/if}{/while}{$i}"),
            "3"
        );
    }

    #[test]
    fn runaway_loops_stop_with_an_error() {
        let mut e = engine();
        e.limits = Limits {
            max_steps: 1000,
            ..Limits::default()
        };
        let p = compile("loop.tpl", "a\n{while true()}x{/while}").unwrap();
        let err = e.render(&p, &Vars::new()).unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("loop.tpl", 2));
        assert!(err.message.contains("limit"), "{err}");
    }

    #[test]
    fn legacy_section_loop() {
        let vars = || Vars::new().set("l", ints(&[10, 20, 30]));
        assert_eq!(
            render_with(
                "{section loop=$l name=S}{$S:index}:{$S:number}:{$S:key}:{$S:item}/{$:item} {/section}",
                vars()
            ),
            "0:1:0:10/10 1:2:1:20/20 2:3:2:30/30 "
        );
        assert_eq!(
            render_with(
                "{section loop=$l}{$:item}{$item}{delimiter}|{/delimiter}{/section}",
                vars()
            ),
            "1010|2020|3030"
        );
        assert_eq!(
            render_with(
                "{section loop=$none name=S}x{section-else}empty{/section}",
                vars()
            ),
            "empty"
        );
        assert_eq!(
            render_with(
                "{section loop=$l name=S sequence=array('odd','even')}{$S:sequence} {/section}",
                vars()
            ),
            "odd even odd "
        );
        assert_eq!(render("{section loop=3 name=N}{$N:item}{/section}"), "123");
        // nested sections reach the outer namespace by name
        assert_eq!(
            render_with(
                "{section loop=$l name=O max=2}{section loop=array('a','b') name=I}{$O:item}{$I:item} {/section}{/section}",
                vars()
            ),
            "10a 10b 20a 20b "
        );
    }

    #[test]
    fn section_filters_and_show() {
        let vars = || Vars::new().set("l", ints(&[1, 2, 3, 4, 5, 6]));
        assert_eq!(
            render_with(
                "{section loop=$l name=S}{section-exclude match=$S:item|mod(2)|eq(0)}{section-include match=$S:item|eq(4)}{$S:index}={$S:item}{delimiter},{/delimiter}{/section}",
                vars()
            ),
            "0=1,1=3,2=4,3=5"
        );
        assert_eq!(
            render_with(
                "{section loop=$l name=S}{section-exclude match=true()}x{section-else}none shown{/section}",
                vars()
            ),
            "none shown"
        );
        let t = "{section show=$on}yes{section-else}no{/section}";
        assert_eq!(render_with(t, Vars::new().set("on", true)), "yes");
        assert_eq!(render_with(t, Vars::new().set("on", false)), "no");
        assert_eq!(
            render_with(
                "{section show=$on loop=$l name=S max=2}{$S:item}{section-else}off{/section}",
                vars().set("on", false)
            ),
            "off"
        );
        assert_eq!(
            render_with(
                "{section show=$on loop=$l name=S max=2}{$S:item}{section-else}off{/section}",
                vars().set("on", true)
            ),
            "12"
        );
    }

    #[test]
    fn let_and_default_namespaces() {
        assert_eq!(render("{let a=1 b=sum(1,1)}{$a}{$b}{/let}[{$a}]"), "12[]");
        assert_eq!(
            render("{let name=N a=1}{$N:a}{$:a}{$a}{/let}[{$N:a}]"),
            "111[]"
        );
        assert_eq!(
            render_with(
                "{default a=1 b=2}{$a}{$b}{/default}",
                Vars::new().set("a", 9)
            ),
            "92"
        );
        assert_eq!(render("{default name=D x=3}{$D:x}{/default}"), "3");
    }

    #[test]
    fn cache_block_renders_its_body() {
        assert_eq!(
            render(
                "{cache-block keys=array($a, 'x') expiry=3600 ignore_content_expiry}body{$n}{/cache-block}"
            ),
            "body"
        );
        let p = compile(
            "t.tpl",
            "{cache-block subtree_expiry='/' weird=1}x{/cache-block}",
        )
        .unwrap();
        assert_eq!(p.warnings.len(), 1);
        assert!(p.warnings[0].message.contains("`weird`"));
    }

    #[test]
    fn literal_ldelim_rdelim() {
        assert_eq!(
            render("{literal}function f() { return {$x}; }{/literal}{ldelim}a{rdelim}"),
            "function f() { return {$x}; }{a}"
        );
    }

    #[test]
    fn include_through_the_design_search_path() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        let standard = dir.path().join("standard");
        std::fs::create_dir_all(site.join("parts")).unwrap();
        std::fs::create_dir_all(standard.join("parts")).unwrap();
        std::fs::write(site.join("parts/a.tpl"), "site-a[{$v}]").unwrap();
        std::fs::write(standard.join("parts/a.tpl"), "standard-a").unwrap();
        std::fs::write(
            standard.join("parts/b.tpl"),
            "b:{$:v}{$Inc:v}{$outer}{def $local=1}",
        )
        .unwrap();
        std::fs::write(
            standard.join("parts/self.tpl"),
            "{include uri='design:parts/self.tpl'}",
        )
        .unwrap();
        let e = Engine::new(vec![site, standard]);
        let p = compile(
            "t.tpl",
            "{def $outer='o'}{include uri='design:parts/a.tpl' v=1}|{include uri='design:parts/b.tpl' name=Inc v=2}[{$local}{$v}]",
        )
        .unwrap();
        assert_eq!(e.render(&p, &Vars::new()).unwrap(), "site-a[1]|b:22o[]");
        let missing = compile("t.tpl", "x\n {include uri='design:nope.tpl'}").unwrap();
        let err = e.render(&missing, &Vars::new()).unwrap_err();
        assert_eq!((err.line, err.column), (2, 2));
        assert!(err.message.contains("design:nope.tpl"), "{err}");
        let up = compile("t.tpl", "{include uri='design:../site/parts/a.tpl'}").unwrap();
        assert!(e.render(&up, &Vars::new()).is_err());
        let cycle = compile("t.tpl", "{include uri='design:parts/self.tpl'}").unwrap();
        assert!(
            e.render(&cycle, &Vars::new())
                .unwrap_err()
                .message
                .contains("nested too deeply")
        );
    }

    #[test]
    fn unknown_tags_and_operators_warn_and_render_as_specified() {
        let p = compile(
            "t.tpl",
            "a{ext_block x=1}in{/ext_block}b{ext_fn $y /}c{ext_single}d{$x|ext_op|wash}e{ext_call(1)}f",
        )
        .unwrap();
        let msgs: Vec<String> = p
            .warnings
            .iter()
            .map(|w| format!("{}:{} {}", w.line, w.column, w.message))
            .collect();
        assert_eq!(msgs.len(), 5, "{msgs:?}");
        assert!(
            msgs[0].starts_with("1:2 unknown function tag {ext_block}"),
            "{msgs:?}"
        );
        assert!(
            msgs[1].starts_with("1:32 unknown function tag {ext_fn}"),
            "{msgs:?}"
        );
        assert!(
            msgs[2].starts_with("1:46 unknown function tag {ext_single}"),
            "{msgs:?}"
        );
        assert!(
            msgs[3].starts_with("1:63 unknown operator `ext_op`"),
            "{msgs:?}"
        );
        assert!(
            msgs[4].starts_with("1:77 unknown operator `ext_call`"),
            "{msgs:?}"
        );
        let out = engine().render(&p, &Vars::new().set("x", "v")).unwrap();
        assert_eq!(out, "ainbcdef");
    }

    #[test]
    fn fused_wash_matches_the_operator() {
        let vars = || Vars::new().set("t", "<a href='x'>&\"</a>");
        assert_eq!(
            render_with("{$t|wash}|{$t|wash('xhtml')}|{$t|wash(javascript)}", vars()),
            "&lt;a href=&#039;x&#039;&gt;&amp;&quot;&lt;/a&gt;|&lt;a href=&#039;x&#039;&gt;&amp;&quot;&lt;/a&gt;|<a href=\\'x\\'>&\\\"<\\/a>"
        );
        assert_eq!(
            render_with("{$t|upcase|wash}", vars()),
            "&lt;A HREF=&#039;X&#039;&gt;&amp;&quot;&lt;/A&gt;"
        );
    }
}

mod whitespace {
    use super::*;

    #[test]
    fn block_tags_on_their_own_lines_leave_no_blank_lines() {
        // Both the newline before and the one after each tag go.
        let src = "<ul>\n{foreach $l as $i}\n<li>{$i}</li>\n{/foreach}\n</ul>\n";
        assert_eq!(
            render_with(src, Vars::new().set("l", ints(&[1, 2]))),
            "<ul><li>1</li><li>2</li></ul>\n"
        );
        // A blank line around a tag keeps one of its two newlines.
        let src = "<ul>\n\n{foreach $l as $i}\n<li>{$i}</li>\n\n{/foreach}\n\n</ul>";
        assert_eq!(
            render_with(src, Vars::new().set("l", ints(&[1, 2]))),
            "<ul>\n<li>1</li>\n<li>2</li>\n\n</ul>"
        );
    }

    #[test]
    fn exactly_one_newline_each_side() {
        assert_eq!(render("a\n\n{def $x=1}\n\nb"), "a\n\nb");
        assert_eq!(render("a\n{def $x=1}\n{def $y=2}\nb"), "ab");
        assert_eq!(render("a\n{def $x=1}\n\n{def $y=2}\nb"), "ab");
        assert_eq!(render("a\n{def $x=1}\n\n\n{def $y=2}\nb"), "a\nb");
    }

    #[test]
    fn indentation_before_tags_is_kept() {
        assert_eq!(
            render("<p>\n  {if 1}\n  x\n  {/if}\n</p>"),
            "<p>\n    x\n  </p>"
        );
        assert_eq!(render("\t{def $a=1}\t\n"), "\t\t\n");
    }

    #[test]
    fn crlf_counts_as_one_newline() {
        assert_eq!(render("a\r\n{if 1}\r\nb\r\n{/if}\r\nc"), "abc");
        assert_eq!(render("a\r\n\r\n{if 1}b{/if}"), "a\r\nb");
    }

    #[test]
    fn output_tags_and_braces_keep_their_newlines() {
        assert_eq!(
            render_with("a\n{$x}\nb", Vars::new().set("x", 1)),
            "a\n1\nb"
        );
        assert_eq!(render("a\n{ldelim}\n{rdelim}\nb"), "a\n{\n}\nb");
    }

    #[test]
    fn comments_and_literal_markers_trim_too() {
        assert_eq!(render("a\n{* note *}\nb"), "ab");
        assert_eq!(
            render("<script>\n{literal}\nvar a = {b: 1};\n{/literal}\n</script>"),
            "<script>var a = {b: 1};</script>"
        );
    }

    #[test]
    fn unknown_function_tags_trim_like_known_ones() {
        assert_eq!(render("a\n{ext_tag}\nb"), "ab");
    }
}

mod errors {
    use super::*;

    fn err(src: &str) -> (u32, u32, String, String) {
        let e = compile("design/x.tpl", src).unwrap_err();
        (e.line, e.column, e.message.clone(), e.to_string())
    }

    #[test]
    fn unclosed_block() {
        let (l, c, m, full) = err("<div>\n  {if $a}\n  {foreach $b as $c}{/foreach}\n</div>");
        assert_eq!((l, c), (2, 3));
        assert_eq!(m, "unclosed block {if}: no {/if} follows");
        assert_eq!(
            full,
            "design/x.tpl:2:3: unclosed block {if}: no {/if} follows\n2 |   {if $a}\n  |   ^"
        );
    }

    #[test]
    fn mismatched_close_tag() {
        let (l, c, m, _) = err("{if 1}\n{section loop=$a}\n{/if}");
        assert_eq!((l, c), (3, 1));
        assert_eq!(
            m,
            "mismatched close tag {/if}: {section} opened at 2:1 is still open"
        );
    }

    #[test]
    fn close_without_open() {
        let (l, c, m, _) = err("a\nb{/foreach}");
        assert_eq!((l, c), (2, 2));
        assert_eq!(m, "close tag {/foreach} without an open tag");
    }

    #[test]
    fn unterminated_string() {
        let (l, c, m, _) = err("x\n{def $a=concat('abc, $b)}\n");
        assert_eq!((l, c, m.as_str()), (2, 16, "unterminated string"));
        let (l, c, _, _) = err("{\"open}");
        assert_eq!((l, c), (1, 2));
    }

    #[test]
    fn unterminated_comment() {
        let (l, c, m, _) = err("ab\n  {* never closed }");
        assert_eq!((l, c), (2, 3));
        assert_eq!(m, "unterminated comment: no `*}` follows");
    }

    #[test]
    fn unterminated_tag_and_literal() {
        let (l, c, m, _) = err("a\n\nb {$x|wash");
        assert_eq!((l, c), (3, 3));
        assert_eq!(m, "unterminated tag: no `}` follows");
        let (l, c, m, _) = err("x{literal}{$a}");
        assert_eq!((l, c), (1, 2));
        assert_eq!(m, "unterminated {literal}: no `{/literal}` follows");
    }

    #[test]
    fn bad_expressions() {
        let cases = [
            (
                "{$a|}",
                1,
                5,
                "expected an operator name after `|`, found the end of the tag",
            ),
            ("{$a b}", 1, 5, "unexpected `b` after the expression"),
            ("{concat(1 2)}", 1, 11, "expected `,` or `)`, found `2`"),
            ("{concat(1, 2}", 1, 8, "unclosed `(`: no `)` follows"),
            ("{$a[1}", 1, 6, "expected `]`, found the end of the tag"),
            ("{if}", 1, 4, "expected a condition"),
            (
                "{def $a=}",
                1,
                9,
                "expected an expression, found the end of the tag",
            ),
            ("{foreach $l $i}", 1, 13, "expected `as`, found `$`"),
            ("{for 1 as $i}", 1, 8, "expected `to`, found `a`"),
            (
                "{section loop=$a name=}",
                1,
                23,
                "expected an expression, found the end of the tag",
            ),
            (
                "{}",
                1,
                1,
                "empty tag `{}`: write `{ldelim}` for a literal brace",
            ),
            (
                "{$}",
                1,
                3,
                "expected a variable name, found the end of the tag",
            ),
            ("{1.2.3}", 1, 5, "unexpected `.` after the expression"),
        ];
        for (src, line, col, msg) in cases {
            let (l, c, m, _) = err(src);
            assert_eq!((l, c, m.as_str()), (line, col, msg), "{src}");
        }
    }
}

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
            e.limits = Limits { max_steps: 2_000, max_include_depth: 4 };
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
