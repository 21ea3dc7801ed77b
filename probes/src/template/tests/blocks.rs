//! `{set-block}`, `{run-once}` and the view-gui tags.

use std::path::Path;

use super::*;

#[test]
fn set_block_renders_into_a_variable() {
    assert_eq!(
        render("a{set-block variable=t}<b>{sum(1, 2)}</b>{/set-block}c[{$t}]"),
        "ac[<b>3</b>]"
    );
    // An existing variable is overwritten; a relative block ends with the
    // template, like a {def}.
    assert_eq!(
        render("{def $t='old'}{set-block variable=t}new{/set-block}{$t}"),
        "new"
    );
    assert_eq!(
        render("{set-block scope=relative variable=t}\nx\n{/set-block}\n[{$t}]"),
        "[x]"
    );
    let p = compile("t.tpl", "{set-block}x{/set-block}y").unwrap();
    assert!(p.warnings[0].message.contains("without `variable=`"));
    assert_eq!(engine().render(&p, &Vars::new()).unwrap(), "y");
    let p = compile(
        "t.tpl",
        "{set-block scope=nowhere variable=t}x{/set-block}{$t}",
    )
    .unwrap();
    assert!(p.warnings[0].message.contains("relative is used"));
    assert_eq!(engine().render(&p, &Vars::new()).unwrap(), "x");
}

fn design(files: &[(&str, &str)]) -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let e = Engine::new(vec![dir.path().to_path_buf()]);
    (dir, e)
}

#[test]
fn set_block_scopes_reach_as_far_as_they_say() {
    let (_dir, e) = design(&[(
        "parts/title.tpl",
        "{set-block scope=global variable=g}G{/set-block}{set-block scope=root variable=r}R{/set-block}{set-block variable=l}L{/set-block}",
    )]);
    let p = compile(
        "t.tpl",
        "{include uri='design:parts/title.tpl'}[{$g}{$r}{$l}]{let name=N}{set-block scope=root variable=x}X{/set-block}{set-block variable=y}Y{/set-block}{/let}[{$x}{$y}{$N:y}]",
    )
    .unwrap();
    // Only the global block outlives the included template; inside a
    // namespace a root block lands in the template's own namespace and a
    // relative one in the namespace (`$N:y`, not `$y`).
    assert_eq!(e.render(&p, &Vars::new()).unwrap(), "[G][XY]");
}

#[test]
fn run_once_renders_its_body_the_first_time_only() {
    let (_dir, e) = design(&[("parts/js.tpl", "{run-once}<script/>{/run-once}js;")]);
    let p = compile(
        "t.tpl",
        "{for 1 to 3 as $i}{include uri='design:parts/js.tpl'}{/for}{run-once}a{/run-once}{run-once}b{/run-once}",
    )
    .unwrap();
    assert_eq!(e.render(&p, &Vars::new()).unwrap(), "<script/>js;js;js;ab");
    // Each render is a request of its own.
    assert_eq!(e.render(&p, &Vars::new()).unwrap(), "<script/>js;js;js;ab");
}

#[test]
fn view_gui_tags_pick_a_template_by_view_mode_and_datatype() {
    let (_dir, e) = design(&[
        ("node/view/line.tpl", "line:{$node.name}{$extra}"),
        ("node/view/full.tpl", "full:{$node.name}"),
        ("content/view/embed.tpl", "embed:{$object.name}"),
        (
            "content/datatype/view/ezstring.tpl",
            "<span class=\"{$image_class}\">{$attribute.content|wash}</span>",
        ),
    ]);
    let node = hash(&[("name", Value::str("Home"))]);
    let attr = hash(&[
        ("data_type_string", Value::str("ezstring")),
        ("content", Value::str("a<b")),
    ]);
    let unknown = hash(&[("data_type_string", Value::str("ezunknown"))]);
    let p = compile(
        "t.tpl",
        "{node_view_gui content_node=$n view=line extra='!'}\n|{node_view_gui content_node=$n}|{content_view_gui content_object=$n view=embed}|{attribute_view_gui attribute=$a image_class=medium}|{attribute_view_gui attribute=$u}|{node_view_gui content_node=$n view=nope}|{node_view_gui content_node=$missing view=line}|[{$node}{$attribute}]",
    )
    .unwrap();
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    let vars = Vars::new().set("n", node).set("a", attr).set("u", unknown);
    assert_eq!(
        e.render(&p, &vars).unwrap(),
        "line:Home!|full:Home|embed:Home|<span class=\"medium\">a&lt;b</span>||||[]"
    );
    let p = compile("t.tpl", "{attribute_view_gui}").unwrap();
    assert!(p.warnings[0].message.contains("without `attribute=`"));
}

#[test]
fn a_view_template_that_fails_is_a_positioned_error() {
    let (_dir, e) = design(&[(
        "node/view/loop.tpl",
        "{node_view_gui content_node=$node view=loop}",
    )]);
    let p = compile("t.tpl", "\n  {node_view_gui content_node=1 view=loop}").unwrap();
    let err = e.render(&p, &Vars::new()).unwrap_err();
    assert!(err.message.contains("nested too deeply"), "{err}");
}

#[test]
fn a_view_template_once_loaded_is_not_looked_up_again() {
    let (dir, e) = design(&[("node/view/line.tpl", "line:{$node.name}")]);
    let p = compile("t.tpl", "{node_view_gui content_node=$n view=line}").unwrap();
    let vars = Vars::new().set("n", hash(&[("name", Value::str("Home"))]));
    assert_eq!(e.render(&p, &vars).unwrap(), "line:Home");
    // The loaded program is used without asking the disk whether the
    // file still exists.
    std::fs::remove_file(dir.path().join("node/view/line.tpl")).unwrap();
    assert_eq!(e.render(&p, &vars).unwrap(), "line:Home");
}

#[test]
fn break_or_continue_inside_set_block_leaves_no_open_capture() {
    let vars = || Vars::new().set("l", ints(&[1, 2, 3]));
    // The block cut short by {break} stores nothing and its text is
    // dropped; the one before it is kept.
    assert_eq!(
        render_with(
            "{foreach $l as $i}{set-block variable=x}a{$i}{if eq($i, 2)}{break}{/if}b{/set-block}{$x}{/foreach}|{$x}",
            vars()
        ),
        "a1b|a1b"
    );
    assert_eq!(
        render_with(
            "{foreach $l as $i}{set-block variable=x}{$i}{continue}{/set-block}{/foreach}[{$x}]",
            vars()
        ),
        "[]"
    );
    // Captures opened outside the loop are untouched.
    assert_eq!(
        render_with(
            "{set-block variable=y}{foreach $l as $i}{$i}{break}{/foreach}!{/set-block}[{$y}]",
            vars()
        ),
        "[1!]"
    );
}

#[test]
fn set_block_name_puts_the_variable_in_a_namespace() {
    // `name=Space` sets `$Space:text`, not `$text`, inside the scope's
    // namespace.
    assert_eq!(
        render("{set-block name=Space variable=text}T{/set-block}[{$Space:text}|{$text}]"),
        "[T|]"
    );
    assert_eq!(
        render(
            "{let name=N}{set-block name=S scope=global variable=g}G{/set-block}{set-block name=S variable=r}R{/set-block}{/let}[{$#S:g}|{$N:S:r}|{$S:r}]"
        ),
        "[G|R|]"
    );
    assert!(
        compile("t.tpl", "{set-block name=S variable=t}x{/set-block}")
            .unwrap()
            .warnings
            .is_empty()
    );
}
