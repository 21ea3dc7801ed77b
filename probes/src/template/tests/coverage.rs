//! Every operator and function tag the language description lists is
//! known to the engine: a missing one fails here instead of only warning
//! when a real template is compiled.

use super::super::ops::{Clock, Op};
use super::*;

const OPERATORS: &[&str] = &[
    // Logic and arithmetic.
    "eq",
    "ne",
    "gt",
    "lt",
    "ge",
    "le",
    "and",
    "or",
    "not",
    "sum",
    "sub",
    "mul",
    "div",
    "mod",
    "inc",
    "dec",
    "min",
    "max",
    "cond",
    "choose",
    "first_set",
    "is_set",
    "is_null",
    // Literals.
    "true",
    "false",
    "array",
    "hash",
    // The operators the engine must implement.
    "wash",
    "i18n",
    "l10n",
    "count",
    "concat",
    "implode",
    "explode",
    "upcase",
    "downcase",
    "upfirst",
    "shorten",
    "nl2br",
    "trim",
    "contains",
    "begins_with",
    "ends_with",
    "append",
    "prepend",
    "merge",
    "extract",
    "reverse",
    "int",
    "float",
    "ceil",
    "floor",
    "round",
    "ezurl",
    "ezdesign",
    "ezimage",
    "ezroot",
    "ezini",
    "attribute",
    "datetime",
    // More of the real language.
    "is_array",
    "is_boolean",
    "is_integer",
    "is_float",
    "is_numeric",
    "is_string",
    "is_object",
    "is_class",
    "is_unset",
    "get_type",
    "get_class",
    "currentdate",
    "break",
    "indent",
    "pad",
    "repeat",
    "compare",
    "unique",
    "array_sum",
    "insert",
    "remove",
    "replace",
    "autolink",
    "simpletags",
    "wordtoimage",
    // Named in the access-after-a-call examples.
    "locale",
];

/// Each listed tag in a small template that uses it as designs do.
const TAGS: &[(&str, &str)] = &[
    ("def", "{def $a=1}"),
    ("set", "{def $a=1}{set $a=2}"),
    ("undef", "{def $a=1}{undef $a}{undef}"),
    ("if", "{if 1}a{elseif 2}b{else}c{/if}"),
    (
        "switch",
        "{switch match=1}{case match=1}a{/case}{case}b{/case}{/switch}",
    ),
    (
        "foreach",
        "{foreach $l as $i max=1 offset=0 reverse}{delimiter modulo=2},{/delimiter}{/foreach}",
    ),
    ("while", "{while false()}{/while}"),
    ("do", "{do}{/do while=false()}"),
    ("for", "{for 0 to 1 as $i}{break}{continue}{skip}{/for}"),
    (
        "section",
        "{section loop=$l name=S var=v sequence=array(1) max=1 offset=0 reverse show=1}{section-exclude match=0}{section-include match=1}{delimiter modulo=2 match=1}{/delimiter}{section-else}{/section}",
    ),
    ("let", "{let a=1 $b=2}{/let}"),
    ("default", "{default a=1 $b=2}{/default}"),
    ("include", "{include uri='design:x.tpl' name=N var=1}"),
    (
        "cache-block",
        "{cache-block keys=array(1) expiry=3600 ignore_content_expiry}{/cache-block}",
    ),
    ("literal", "{literal}{x}{/literal}{ldelim}{rdelim}"),
    (
        "set-block",
        "{set-block scope=global variable=x}{/set-block}",
    ),
    ("run-once", "{run-once}{/run-once}"),
    ("node_view_gui", "{node_view_gui content_node=$l view=line}"),
    (
        "content_view_gui",
        "{content_view_gui content_object=$l view=embed}",
    ),
    (
        "attribute_view_gui",
        "{attribute_view_gui attribute=$l image_class=medium}",
    ),
];

#[test]
fn every_listed_operator_is_known() {
    let missing: Vec<&str> = OPERATORS
        .iter()
        .copied()
        .filter(|name| Op::from_name(name).is_none())
        .collect();
    assert!(missing.is_empty(), "unknown operators: {missing:?}");
    for name in OPERATORS {
        let p = compile("t.tpl", &format!("{{$x|{name}}}{{{name}($x)}}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(p.warnings.is_empty(), "{name}: {:?}", p.warnings);
    }
    // The content operators, which read the store.
    for src in [
        "{fetch('content', 'node', hash('node_id', 2))}",
        "{treemenu($path, 2)}",
    ] {
        let p = compile("t.tpl", src).unwrap();
        assert!(p.warnings.is_empty(), "{src}: {:?}", p.warnings);
    }
}

#[test]
fn every_listed_tag_compiles_without_a_warning() {
    for (name, src) in TAGS {
        let p = compile("t.tpl", src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let unknown: Vec<String> = p.warnings.iter().map(ToString::to_string).collect();
        assert!(unknown.is_empty(), "{name}: {unknown:?}");
    }
}

#[test]
fn currentdate_reads_the_clock_the_engine_is_handed() {
    let mut e = engine();
    e.clock = Clock::Fixed(1_767_225_600);
    let p = compile("t.tpl", "{currentdate()}|{currentdate()|sub(60)}").unwrap();
    assert_eq!(e.render(&p, &Vars::new()).unwrap(), "1767225600|1767225540");
    e.clock = Clock::Fixed(0);
    assert_eq!(e.render(&p, &Vars::new()).unwrap(), "0|-60");
}

#[test]
fn new_operators_render_through_templates() {
    let vars = Vars::new().set("l", ints(&[3, 1, 3, 2])).set("t", "a\nb");
    assert_eq!(
        render_with(
            "{$l|unique|implode(',')}|{$l|array_sum}|{$l|is_array}|{$t|break}|{'x'|pad(3, '.')}|{$l|insert(1, 9)|remove(0)|replace(0, 1, 7)|implode('')}|{$l|get_type}|{$l.0|is_integer}{$t|is_numeric}|{'ab'|repeat(2)}|{$l|compare(array(3, 1, 3, 2))}",
            vars
        ),
        "3,1,2|9|1|a<br />\nb|x..|7132|array|1|abab|1"
    );
}
