//! Each function tag, rendered.

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

/// An 8 MB string, made by 23 doublings within the byte budget.
fn eight_megabytes() -> String {
    let mut src = String::from("{def $s='x'}");
    for _ in 0..23 {
        src.push_str("{set $s=concat($s,$s)}");
    }
    src
}

#[test]
fn work_that_makes_nothing_runs_out_of_fuel() {
    let e = engine();
    for test in ["contains('y')", "eq('y')", "count()", "begins_with('y')"] {
        let src = format!(
            "{}\n{{while true()}}{{if $s|{test}}}y{{/if}}{{/while}}",
            eight_megabytes()
        );
        let p = compile("spin.tpl", &src).unwrap();
        let err = e.render(&p, &Vars::new()).unwrap_err();
        assert!(
            err.message.contains("would touch more than") && err.line == 2,
            "{test}: {err}"
        );
    }
}

#[test]
fn includes_that_multiply_run_out_of_fuel() {
    let dir = tempfile::tempdir().unwrap();
    // Level k includes level k + 1 twice: 2^30 includes in all.
    for k in 0..30 {
        let body = format!(
            "{{include uri='design:l{}.tpl'}}{{include uri='design:l{}.tpl'}}",
            k + 1,
            k + 1
        );
        std::fs::write(dir.path().join(format!("l{k}.tpl")), body).unwrap();
    }
    std::fs::write(dir.path().join("l30.tpl"), "x").unwrap();
    let mut e = Engine::new(vec![dir.path().to_path_buf()]);
    // A smaller tank than the default, so that the test is quick in a
    // debug build; the default stops it the same way.
    e.limits.max_fuel = 1 << 22;
    let err = e.render_uri("design:l0.tpl", &Vars::new()).unwrap_err();
    assert!(
        err.message.contains("would touch more than 4194304"),
        "{err}"
    );
    // A page within the tank renders whole.
    e.limits.max_fuel = 1 << 30;
    let out = e.render_uri("design:l20.tpl", &Vars::new()).unwrap();
    assert_eq!(out, "x".repeat(1 << 10));
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
    // An undefined loop shows nothing: `{section-else}` is for `show=`.
    assert_eq!(
        render_with(
            "{section loop=$none name=S}x{section-else}empty{/section}",
            vars()
        ),
        ""
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
    // Every item filtered out: nothing, as `show=` is not given.
    assert_eq!(
        render_with(
            "{section loop=$l name=S}{section-exclude match=true()}x{section-else}none shown{/section}",
            vars()
        ),
        ""
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
    // values are computed in order, so later ones see earlier ones
    assert_eq!(
        render("{let count=7 half=div($:count, 2)}{$half}{/let}"),
        "3.5"
    );
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
fn an_include_reads_only_inside_the_design_folders() {
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("design");
    std::fs::create_dir_all(&design).unwrap();
    std::fs::write(design.join("ok.tpl"), "ok").unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "SECRET").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&secret, design.join("link.tpl")).unwrap();
    let e = Engine::new(vec![design.clone()]);
    let inside = format!("{{include uri='file:{}'}}", design.join("ok.tpl").display());
    assert_eq!(
        e.render(&compile("t.tpl", &inside).unwrap(), &Vars::new())
            .unwrap(),
        "ok"
    );
    let secret_uri = secret.display().to_string();
    for uri in [
        "/etc/passwd",
        "file:/etc/passwd",
        "/proc/self/environ",
        "file:/proc/self/environ",
        secret_uri.as_str(),
        "design:link.tpl",
    ] {
        let p = compile("t.tpl", &format!("{{include uri='{uri}'}}")).unwrap();
        let err = e.render(&p, &Vars::new()).unwrap_err();
        assert!(
            err.message.contains("not found in the design search path")
                && !err.to_string().contains("SECRET")
                && !err.to_string().contains("root:"),
            "{uri}: {err}"
        );
    }
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
