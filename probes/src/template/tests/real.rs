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
    assert_eq!(
        render_with(
            "{$lang|locale().intl_language_name}|{$lang|locale.country_name}|{false()|locale.locale_code}|{locale()['language_code']}",
            Vars::new().set("lang", "nor-NO")
        ),
        "Norwegian (Bokmal)|Norway|eng-GB|eng"
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
fn section_var_binds_one_iterator() {
    let vars = || Vars::new().set("l", ints(&[10, 20, 30]));
    // `$n` alone is the item; its attributes describe the iteration.
    assert_eq!(
        render_with(
            "{section var=n loop=$l}{$n}:{$n.item}:{$n.key}:{$n.index}:{$n.number} {/section}[{$n}]",
            vars()
        ),
        "10:10:0:0:1 20:20:1:1:2 30:30:2:2:3 []"
    );
    // Used whole in an operator, it is the item too.
    assert_eq!(
        render_with(
            "{section var=n loop=$l}{$n|inc}{sum($n, 1)} {/section}",
            vars()
        ),
        "1111 2121 3131 "
    );
    // No `$item`, `$key`, `$index`, `$number` or `$sequence` is set, so
    // outer variables of those names stay visible.
    let outer = vars()
        .set("item", "I")
        .set("key", "K")
        .set("index", "X")
        .set("number", "N")
        .set("sequence", "S");
    assert_eq!(
        render_with(
            "{section var=n loop=$l max=1 sequence=array('a')}{$item}{$key}{$index}{$number}{$sequence}{$n.sequence}{/section}",
            outer
        ),
        "IKXNSa"
    );
    assert_eq!(
        render_with(
            "{section name=S var=it loop=$l max=2}{$S:it}{$:it}{$S:it.number}{/section}",
            vars()
        ),
        "1010120202"
    );
}

#[test]
fn section_var_attributes_pass_through_to_the_item() {
    let people = Value::from(vec![
        hash(&[("name", Value::str("Ann")), ("index", Value::str("own"))]),
        hash(&[("name", Value::str("Bob"))]),
    ]);
    assert_eq!(
        render_with(
            "{section var=p loop=$l}{$p.name}/{$p.item.name}/{$p.index}/{$p.item.index};{/section}",
            Vars::new().set("l", people)
        ),
        // `index` is the iterator's own; the item's is reached by `.item`.
        "Ann/Ann/0/own;Bob/Bob/1/;"
    );
}

#[test]
fn section_var_from_a_variable_names_the_iterator() {
    let vars = || Vars::new().set("l", ints(&[10, 20, 30])).set("v", "it");
    // As in the CMS, `var=$v` names the variable by `$v`'s value.
    assert_eq!(
        render_with(
            "{section var=$v loop=$l offset=2}{$it}{$it.key}{/section}",
            vars()
        ),
        "302"
    );
    assert_eq!(
        render_with(
            "{section var=concat('i', 't') loop=$l max=1}{$it}{/section}",
            vars()
        ),
        "10"
    );
    // An undefined name falls back to `$item` and its relatives.
    assert_eq!(
        render_with(
            "{section var=$none loop=$l max=1}{$item}{$number}{/section}",
            vars()
        ),
        "101"
    );
    assert!(warnings("{section var=v loop=$l}{/section}").is_empty());
    assert!(warnings("{section var=$v loop=$l}{/section}").is_empty());
}

#[test]
fn section_every_parameter_and_child() {
    let vars = || Vars::new().set("l", ints(&[1, 2, 3, 4, 5]));
    let src = "{section var=v loop=$l offset=1 max=3 reverse sequence=array('x','y')}{$v}{$v.sequence}{delimiter}-{/delimiter}{/section}";
    assert_eq!(render_with(src, vars()), "4x-3y-2x");
    let src = "{section show=$on var=v loop=$l max=2}{$v}{section-else}none{/section}";
    assert_eq!(render_with(src, vars().set("on", true)), "12");
    assert_eq!(render_with(src, vars().set("on", false)), "none");
    let src = "{section var=v loop=$l}{section-exclude match=$v|gt(2)}{section-include match=$v|eq(5)}{$v}{delimiter},{/delimiter}{section-else}none{/section}";
    assert_eq!(render_with(src, vars()), "1,2,5");
    assert_eq!(render("{section var=i loop=3}{$i}{/section}"), "123");
    assert!(
        warnings("{section var=v loop=$l offset=1 max=3 reverse sequence=array(1) show=1 name=S}{/section}")
            .is_empty()
    );
}

#[test]
fn section_else_renders_only_for_a_false_show() {
    let vars = || Vars::new().set("l", ints(&[])).set("on", true);
    // No `show=`: an empty or undefined loop shows nothing, else included.
    let src = "{section var=v loop=$empty}x{section-else}none{/section}";
    assert_eq!(render_with(src, vars()), "");
    let src = "{section var=v loop=$l}x{section-else}none{/section}";
    assert_eq!(render_with(src, vars()), "");
    // `show=` true with an empty loop: nothing either.
    let src = "{section show=$on var=v loop=$l}x{section-else}none{/section}";
    assert_eq!(render_with(src, vars()), "");
    let src = "{section show=true() var=v loop=$l}x{section-else}none{/section}";
    assert_eq!(render_with(src, vars()), "");
    // `show=` false: the else part, constant or not.
    let src = "{section show=$on var=v loop=$l}x{section-else}none{/section}";
    assert_eq!(render_with(src, vars().set("on", false)), "none");
    let src = "{section show=false() var=v loop=$l}x{section-else}none{/section}";
    assert_eq!(render_with(src, vars()), "none");
}

#[test]
fn section_max_counts_shown_items() {
    let vars = || Vars::new().set("l", ints(&[1, 2, 3, 4, 5, 6]));
    // The excluded odd items do not count against `max`.
    let src = "{section var=v loop=$l max=2}{section-exclude match=$v|mod(2)|eq(1)}{$v}{delimiter},{/delimiter}{/section}";
    assert_eq!(render_with(src, vars()), "2,4");
    let src = "{section loop=$l max=$m}{$item}{/section}";
    assert_eq!(render_with(src, vars().set("m", 0)), "");
    assert_eq!(render_with(src, vars().set("m", -1)), "");
    assert_eq!(render_with(src, vars().set("m", "3")), "123");
    assert_eq!(render("{section loop=3 max=0}{$item}{/section}"), "");
}

#[test]
fn section_counts_numeric_strings_and_negative_numbers() {
    assert_eq!(
        render_with(
            "{section loop=$n}{$item}{/section}",
            Vars::new().set("n", "3")
        ),
        "123"
    );
    assert_eq!(
        render("{section loop=-3}{$key}{$item} {/section}"),
        "0-1 1-2 2-3 "
    );
    // A foreach walks arrays only, as in the CMS.
    assert_eq!(
        render_with(
            "{foreach $n as $i}{$i}{/foreach}",
            Vars::new().set("n", "3")
        ),
        ""
    );
}

#[test]
fn foreach_max_zero_shows_none_and_a_negative_max_all() {
    let vars = || Vars::new().set("l", ints(&[1, 2, 3]));
    // As the CMS's foreach: 0 items processed at most, a negative max is
    // ignored (with a warning in the CMS).
    assert_eq!(
        render_with("{foreach $l as $i max=0}{$i}{/foreach}", vars()),
        ""
    );
    assert_eq!(
        render_with("{foreach $l as $i max=-1}{$i}{/foreach}", vars()),
        "123"
    );
    assert_eq!(
        render_with("{foreach $l as $i max=2}{$i}{/foreach}", vars()),
        "12"
    );
}

#[test]
fn a_hash_sequence_is_used_in_value_order() {
    let seq = hash(&[("b", Value::str("odd")), ("a", Value::str("even"))]);
    let vars = || Vars::new().set("l", ints(&[1, 2, 3])).set("s", seq.clone());
    assert_eq!(
        render_with(
            "{section loop=$l sequence=$s}{$sequence} {/section}",
            vars()
        ),
        "odd even odd "
    );
    assert_eq!(
        render_with(
            "{foreach $l as $i sequence $s as $c}{$c} {/foreach}",
            vars()
        ),
        "odd even odd "
    );
}

#[test]
fn delimiter_modulo_and_match() {
    let vars = || Vars::new().set("l", ints(&[1, 2, 3, 4, 5]));
    // Before every second shown item, as the CMS counts.
    assert_eq!(
        render_with(
            "{section var=v loop=$l}{delimiter modulo=2}|{/delimiter}{$v}{/section}",
            vars()
        ),
        "12|34|5"
    );
    assert_eq!(
        render_with(
            "{foreach $l as $v}{delimiter modulo=2}|{/delimiter}{$v}{/foreach}",
            vars()
        ),
        "12|34|5"
    );
    assert_eq!(
        render_with(
            "{section var=v loop=$l}{delimiter match=$v|eq(4)}|{/delimiter}{$v}{/section}",
            vars()
        ),
        "123|45"
    );
    // A foreach delimiter takes no `match=` in the CMS: a warning.
    let w = warnings("{foreach $l as $v}{delimiter match=1}|{/delimiter}{/foreach}");
    assert!(w.iter().any(|w| w.contains("match")), "{w:?}");
    let w = warnings("{section loop=$l}{delimiter every=1}|{/delimiter}{/section}");
    assert!(w.iter().any(|w| w.contains("every")), "{w:?}");
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
        "<ul></ul>\n"
    );
    let src = src.replace("{section var=v loop=$l}", "{section var=v loop=$l show=$l}");
    assert_eq!(
        render_with(&src, Vars::new().set("l", ints(&[]))),
        "<ul><li>none</li></ul>\n"
    );
}
