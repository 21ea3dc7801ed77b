//! Every malformed-template error, with its exact position.

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
