//! Constructs real designs use that the first engine refused or ignored:
//! foreach sequences, `$` on let/default names, access after a pipe,
//! leftover parameters on `{if}`, and the whole of `{section}`.

use super::*;

fn warnings(src: &str) -> Vec<String> {
    compile("t.tpl", src)
        .unwrap_or_else(|e| panic!("{e}"))
        .warnings
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn error_at(src: &str) -> (u32, u32, String) {
    let e = compile("t.tpl", src).unwrap_err();
    (e.line, e.column, e.message)
}

#[test]
fn foreach_sequence_cycles_one_value_per_item() {
    let src = "<ul>\n{foreach $items as $item sequence array('bgdark','bglight') as $style}\n<li class=\"{$style}\">{$item}</li>\n{/foreach}\n</ul>";
    let vars = Vars::new().set("items", ints(&[1, 2, 3]));
    assert_eq!(
        render_with(src, vars),
        // The newline on each side of a function tag is dropped.
        "<ul><li class=\"bgdark\">1</li><li class=\"bglight\">2</li><li class=\"bgdark\">3</li></ul>"
    );
    // With a key, other parameters on either side, and the value unbound
    // after the loop.
    let vars = Vars::new().set("l", ints(&[5, 6, 7, 8]));
    assert_eq!(
        render_with(
            "{foreach $l as $k => $v offset=1 sequence array('a', 'b', 'c') as $s max=2}{$k}{$v}{$s} {/foreach}[{$s}]",
            vars
        ),
        "16a 27b []"
    );
    assert!(warnings("{foreach $l as $v sequence array(1) as $s}{/foreach}").is_empty());
}

#[test]
fn foreach_sequence_errors_are_positioned() {
    let (l, c, m) = error_at("{foreach $l as $v sequence array(1) $s}{/foreach}");
    assert_eq!((l, c), (1, 37));
    assert!(m.contains("expected `as`"), "{m}");
    let (l, c, m) = error_at("{foreach $l as $v sequence array(1) as s}{/foreach}");
    assert_eq!((l, c), (1, 40));
    assert!(m.contains("loop variable"), "{m}");
    let (_, c, m) =
        error_at("{foreach $l as $v sequence array(1) as $s sequence array(2) as $t}{/foreach}");
    assert_eq!(c, 43);
    assert!(m.contains("second `sequence`"), "{m}");
}

#[test]
fn set_let_and_default_take_a_leading_dollar() {
    assert_eq!(render("{def $a=1}{set $a=2}{$a}{set a=3}{$a}"), "23");
    assert_eq!(render("{let $x=1 y=2}{$x}{$y}{/let}[{$x}]"), "12[]");
    assert_eq!(
        render_with(
            "{default $object_parameters=array() $given='d'}{count($object_parameters)}{$given}{/default}",
            Vars::new().set("given", "outer")
        ),
        "0outer"
    );
    assert_eq!(render("{let name=N $v=4}{$N:v}{/let}"), "4");
    let (l, c, m) = error_at("{let $=1}{/let}");
    assert_eq!((l, c), (1, 6));
    assert!(m.contains("parameter name"), "{m}");
}

#[test]
fn access_after_a_pipe_or_call() {
    let vars = || Vars::new().set("x", "eng_GB_x");
    assert_eq!(
        render_with(
            "{$x|explode('_').1}|{$x|explode('_')[0]}|{$x|explode('_')|count}",
            vars()
        ),
        "GB|eng|3"
    );
    assert_eq!(
        render_with(
            "{$x|explode('_').1|downcase}{$x|explode('_')[2]|upcase}",
            vars()
        ),
        "gbX"
    );
    // Constant inputs fold at compile time, with the access applied.
    assert_eq!(
        render("{'a/b'|explode('/').1}{array(7, 8)|reverse.0}"),
        "b8"
    );
    let h = hash(&[("locale_code", Value::str("nor-NO"))]);
    assert_eq!(
        render_with(
            "{$h|merge(hash('k', 1)).locale_code}",
            Vars::new().set("h", h)
        ),
        "nor-NO"
    );
    let (l, c, m) = error_at("{$x|explode('_').}");
    assert_eq!((l, c), (1, 18));
    assert!(m.contains("attribute name"), "{m}");
}

#[test]
fn if_ignores_named_parameters_after_its_condition() {
    let vars = || Vars::new().set("list", ints(&[1]));
    assert_eq!(
        render_with(
            "{if $list name=List loop=$list}\nyes\n{elseif $x name=E}\nno\n{/if}",
            vars()
        ),
        "yes"
    );
    assert!(warnings("{if $list name=List loop=$list}x{/if}").is_empty());
    let (l, c, m) = error_at("{if $list name=}x{/if}");
    assert_eq!((l, c), (1, 16));
    assert!(m.contains("expected an expression"), "{m}");
    let (_, c, m) = error_at("{if $a $b}x{/if}");
    assert_eq!(c, 8);
    assert!(m.contains("parameter name"), "{m}");
}

#[test]
fn section_var_names_the_item() {
    let vars = || Vars::new().set("l", ints(&[10, 20, 30]));
    assert_eq!(
        render_with(
            "{section var=n loop=$l}{$n}:{$index}:{$number} {/section}[{$n}]",
            vars()
        ),
        "10:0:1 20:1:2 30:2:3 []"
    );
    assert_eq!(
        render_with(
            "{section name=S var=it loop=$l max=2}{$S:it}{$:it}{/section}",
            vars()
        ),
        "10102020"
    );
    assert_eq!(
        render_with("{section var=$v loop=$l offset=2}{$v}{/section}", vars()),
        "30"
    );
    assert!(warnings("{section var=v loop=$l}{/section}").is_empty());
    let w = warnings("{section var=concat($a) loop=$l}{/section}");
    assert!(w[0].contains("`var=` must name a variable"), "{w:?}");
}

#[test]
fn section_every_parameter_and_child() {
    let vars = || Vars::new().set("l", ints(&[1, 2, 3, 4, 5]));
    let src = "{section var=v loop=$l offset=1 max=3 reverse sequence=array('x','y')}{$v}{$sequence}{delimiter}-{/delimiter}{/section}";
    assert_eq!(render_with(src, vars()), "4x-3y-2x");
    let src = "{section show=$on var=v loop=$l max=2}{$v}{section-else}none{/section}";
    assert_eq!(render_with(src, vars().set("on", true)), "12");
    assert_eq!(render_with(src, vars().set("on", false)), "none");
    let src = "{section var=v loop=$l}{section-exclude match=$v|gt(2)}{section-include match=$v|eq(5)}{$v}{delimiter},{/delimiter}{section-else}none{/section}";
    assert_eq!(render_with(src, vars()), "1,2,5");
    assert_eq!(
        render_with(
            "{section var=v loop=$empty}x{section-else}none{/section}",
            vars()
        ),
        "none"
    );
    assert_eq!(render("{section var=i loop=3}{$i}{/section}"), "123");
    assert!(
        warnings("{section var=v loop=$l offset=1 max=3 reverse sequence=array(1) show=1 name=S}{/section}")
            .is_empty()
    );
}

#[test]
fn section_whitespace_on_own_lines() {
    let src = "<ul>\n{section var=v loop=$l}\n<li>{$v}</li>\n{delimiter}\n<hr/>\n{/delimiter}\n{section-else}\n<li>none</li>\n{/section}\n</ul>\n";
    assert_eq!(
        render_with(src, Vars::new().set("l", ints(&[1, 2]))),
        "<ul><li>1</li><hr/><li>2</li></ul>\n"
    );
    assert_eq!(
        render_with(src, Vars::new().set("l", ints(&[]))),
        "<ul><li>none</li></ul>\n"
    );
}
