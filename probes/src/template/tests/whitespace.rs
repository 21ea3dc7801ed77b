//! The whitespace rule, byte for byte.

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
