//! Text operators, and the escaping behind `wash`. Lengths and positions
//! count characters, not bytes, so that shortening a title never cuts a
//! multi-byte letter in half.

use super::{Op, Operands, Unary};
use crate::template::budget::Budget;
use crate::template::value::Value;

/// Appends `s` HTML-escaped: `& < > " '`, the set PHP escapes with
/// quotes enabled, so output is safe in text and in quoted attributes.
pub fn escape_html_into(s: &str, out: &mut String) {
    if crate::faults::on(crate::faults::Fault::EscapeAlloc) {
        std::hint::black_box(String::with_capacity(s.len() + 16));
    }
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#039;",
            _ => continue,
        };
        out.push_str(&s[run..i]);
        out.push_str(rep);
        run = i + 1;
    }
    out.push_str(&s[run..]);
}

/// Appends `s` escaped for a JavaScript string literal in either quote
/// style, with `</` broken up so the text cannot close a script element.
pub fn escape_js_into(s: &str, out: &mut String) {
    let mut prev = '\0';
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '/' if prev == '<' => out.push_str("\\/"),
            c => out.push(c),
        }
        prev = c;
    }
}

/// An upper bound of any escape's or `<br />`'s length of `text`: each
/// byte that may be replaced grows by at most six.
pub fn escaped_len(text: &str) -> usize {
    let special = text
        .bytes()
        .filter(|b| b"<>&\"'@/\\\n\r".contains(b))
        .count();
    text.len().saturating_add(special.saturating_mul(6))
}

/// `wash(type)`: `xhtml` (the default), `javascript`, or `email`, which
/// also hides the `@` from address harvesters.
pub fn wash(subject: &Value, kind: &str) -> String {
    let text = subject.to_text();
    let mut out = String::with_capacity(text.len() + 8);
    match kind {
        "javascript" => escape_js_into(&text, &mut out),
        "email" => {
            escape_html_into(&text, &mut out);
            out = out.replace('@', " [at] ");
        }
        _ => escape_html_into(&text, &mut out),
    }
    out
}

/// Checked part by part: each part is at most what the budget allowed
/// when it was made, so the text never grows past twice what remains.
pub fn concat(ops: &Operands, budget: &Budget) -> Value {
    let remaining = budget.remaining();
    let mut out = String::new();
    for v in ops.all() {
        v.write_text(&mut out);
        if out.len() > remaining {
            budget.fits(out.len());
            return Value::Null;
        }
    }
    Value::from(out)
}

/// What one exploded piece takes besides its text: a value and a string's
/// header.
const PIECE: usize = std::mem::size_of::<Value>() + 2 * std::mem::size_of::<usize>();

/// The most bytes `op` can make from `subject`: escaping and `<br />`
/// grow text by a bounded factor, case changes by at most three, and each
/// exploded piece is a value of its own.
fn most_made(op: Op, subject: &Value) -> usize {
    let text = subject.text_bytes();
    match op {
        Op::Wash | Op::Nl2br => text.saturating_mul(7),
        Op::Upcase | Op::Downcase | Op::Upfirst => text.saturating_mul(3),
        Op::Explode => text.saturating_add(text.saturating_add(1).saturating_mul(PIECE)),
        _ => text,
    }
}

pub fn unary(op: Op, u: Unary, budget: &Budget) -> Value {
    let subject = &*u.subject;
    // The other operators make at most their subject, which the result's
    // charge covers.
    let grows = matches!(
        op,
        Op::Wash | Op::Nl2br | Op::Upcase | Op::Downcase | Op::Upfirst | Op::Explode
    );
    // Escapes and `<br />` are counted exactly only when the cheap bound
    // is too much.
    let exact = || match op {
        Op::Wash | Op::Nl2br => escaped_len(&subject.to_text()),
        Op::Explode => {
            let text = subject.to_text();
            let sep = u.text_param(0, "");
            let pieces = if sep.is_empty() {
                text.chars().count()
            } else {
                text.matches(sep.as_str()).count() + 1
            };
            text.len().saturating_add(pieces.saturating_mul(PIECE))
        }
        _ => most_made(op, subject),
    };
    if grows && !budget.fits_within(most_made(op, subject), exact) {
        return Value::Null;
    }
    match op {
        Op::Wash => Value::from(wash(subject, &u.text_param(0, "xhtml"))),
        Op::Implode => {
            // Checked item by item, as `concat` is: one array may hold the
            // same long text many times.
            let sep = u.text_param(0, "");
            let remaining = budget.remaining();
            let mut out = String::new();
            let mut push = |i: usize, v: &Value| {
                if out.len() > remaining {
                    return;
                }
                if i > 0 {
                    out.push_str(&sep);
                }
                v.write_text(&mut out);
            };
            match subject {
                Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| push(i, v)),
                Value::Hash(map) => map.iter().enumerate().for_each(|(i, (_, v))| push(i, v)),
                other => push(0, other),
            }
            if !budget.fits(out.len()) {
                return Value::Null;
            }
            Value::from(out)
        }
        Op::Explode => {
            let text = subject.to_text();
            let sep = u.text_param(0, "");
            let parts: Vec<Value> = if sep.is_empty() {
                text.chars().map(|c| Value::from(c.to_string())).collect()
            } else {
                text.split(sep.as_str()).map(Value::from).collect()
            };
            Value::from(parts)
        }
        Op::Upcase => Value::from(subject.to_text().to_uppercase()),
        Op::Downcase => Value::from(subject.to_text().to_lowercase()),
        Op::Upfirst => {
            let text = subject.to_text();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => Value::from(first.to_uppercase().chain(chars).collect::<String>()),
                None => Value::str(""),
            }
        }
        Op::Shorten => {
            let len = u.param(0).map_or(80, |v| v.to_int()).max(0) as usize;
            let seq = u.text_param(1, "...");
            let side = u.text_param(2, "right");
            Value::from(shorten(&subject.to_text(), len, &seq, &side))
        }
        Op::Nl2br => Value::from(nl2br(&subject.to_text())),
        Op::Trim => {
            let text = subject.to_text();
            let trimmed = match u.param(0) {
                Some(chars) if !chars.is_null() => {
                    let set: Vec<char> = chars.to_text().chars().collect();
                    text.trim_matches(|c| set.contains(&c)).to_string()
                }
                _ => text.trim().to_string(),
            };
            Value::from(trimmed)
        }
        Op::BeginsWith => {
            let needle = u.text_param(0, "");
            Value::Bool(subject.to_text().starts_with(needle.as_str()))
        }
        _ => {
            let needle = u.text_param(0, "");
            Value::Bool(subject.to_text().ends_with(needle.as_str()))
        }
    }
}

/// Cuts `text` to at most `len` characters, `seq` included, keeping the
/// start (`right`), the end (`left`) or both ends (`middle`).
fn shorten(text: &str, len: usize, seq: &str, side: &str) -> String {
    let count = text.chars().count();
    if count <= len {
        return text.to_string();
    }
    let keep = len.saturating_sub(seq.chars().count());
    match side {
        "left" => {
            let tail: String = text.chars().skip(count - keep).collect();
            format!("{seq}{tail}")
        }
        "middle" => {
            let head = keep.div_ceil(2);
            let tail = keep - head;
            let first: String = text.chars().take(head).collect();
            let last: String = text.chars().skip(count - tail).collect();
            format!("{first}{seq}{last}")
        }
        _ => {
            let mut out: String = text.chars().take(keep).collect();
            out.push_str(seq);
            out
        }
    }
}

/// `<br />` before every line break, as PHP's `nl2br` does: `\r\n`,
/// `\n\r`, `\n` and `\r` each count as one break and are kept. `nl2br`,
/// `break` and the simple-tags `nl2br` filter all use it.
pub fn nl2br(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 16);
    let (mut start, mut i) = (0, 0);
    while let Some(&b) = bytes.get(i) {
        if b != b'\n' && b != b'\r' {
            i += 1;
            continue;
        }
        let pair = bytes
            .get(i + 1)
            .is_some_and(|&n| (n == b'\n' || n == b'\r') && n != b);
        let end = if pair { i + 2 } else { i + 1 };
        // Line breaks are ASCII, so these are character boundaries.
        out.push_str(&text[start..i]);
        out.push_str("<br />");
        out.push_str(&text[i..end]);
        start = end;
        i = end;
    }
    out.push_str(&text[start..]);
    out
}

#[cfg(test)]
mod tests {
    use crate::template::ops::testing::{arr, call, pipe, s};
    use crate::template::value::Value;

    #[test]
    fn wash() {
        assert_eq!(
            pipe("wash", s(r#"<a href="x">Tom & Jerry's</a>"#), &[]),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#039;s&lt;/a&gt;"
        );
        assert_eq!(pipe("wash", s("<b>"), &[s("xhtml")]), "&lt;b&gt;");
        assert_eq!(
            pipe("wash", s("it's \"q\"\n</script>\\"), &[s("javascript")]),
            "it\\'s \\\"q\\\"\\n<\\/script>\\\\"
        );
        assert_eq!(pipe("wash", s("a@b.c"), &[s("email")]), "a [at] b.c");
        assert_eq!(pipe("wash", Value::Int(5), &[]), "5");
    }

    #[test]
    fn concat() {
        assert_eq!(
            call("concat", &[s("/a/"), Value::Int(2), Value::Null, s("/b")]),
            s("/a/2/b")
        );
        assert_eq!(pipe("concat", s("x"), &[s("y")]), "xy");
    }

    #[test]
    fn implode() {
        assert_eq!(
            pipe("implode", arr(&[s("a"), Value::Int(1)]), &[s(", ")]),
            "a, 1"
        );
        assert_eq!(pipe("implode", s("solo"), &[s(",")]), "solo");
    }

    #[test]
    fn explode() {
        let v = call("explode", &[s("a,b,,c"), s(",")]);
        assert_eq!(v, arr(&[s("a"), s("b"), s(""), s("c")]));
        assert_eq!(call("explode", &[s("ab"), s("")]), arr(&[s("a"), s("b")]));
    }

    #[test]
    fn upcase() {
        assert_eq!(pipe("upcase", s("ça va"), &[]), "ÇA VA");
    }

    #[test]
    fn downcase() {
        assert_eq!(pipe("downcase", s("ÀB"), &[]), "àb");
    }

    #[test]
    fn upfirst() {
        assert_eq!(pipe("upfirst", s("élan vital"), &[]), "Élan vital");
        assert_eq!(pipe("upfirst", s(""), &[]), "");
    }

    #[test]
    fn shorten() {
        let long = s("Benchmark item number 12 with a longer name");
        assert_eq!(
            pipe("shorten", long.clone(), &[Value::Int(30)]),
            "Benchmark item number 12 wi..."
        );
        assert_eq!(pipe("shorten", s("short"), &[Value::Int(30)]), "short");
        assert_eq!(
            pipe(
                "shorten",
                s("abcdefghij"),
                &[Value::Int(6), s("~"), s("left")]
            ),
            "~fghij"
        );
        assert_eq!(
            pipe(
                "shorten",
                s("abcdefghij"),
                &[Value::Int(6), s("~"), s("middle")]
            ),
            "abc~ij"
        );
        assert_eq!(
            pipe("shorten", s("ééééé"), &[Value::Int(4), s("…")]),
            "ééé…"
        );
        assert_eq!(pipe("shorten", s("abc"), &[Value::Int(-5)]), "...");
    }

    #[test]
    fn nl2br() {
        assert_eq!(pipe("nl2br", s("a\nb\r\nc"), &[]), "a<br />\nb<br />\r\nc");
        // As PHP: `\n\r` is one break, a lone `\r` is one too.
        assert_eq!(
            pipe("nl2br", s("a\n\rb\rc\n\nd"), &[]),
            "a<br />\n\rb<br />\rc<br />\n<br />\nd"
        );
        assert_eq!(pipe("nl2br", s("ø\r\n"), &[]), "ø<br />\r\n");
    }

    #[test]
    fn trim() {
        assert_eq!(pipe("trim", s("  a b \n"), &[]), "a b");
        assert_eq!(pipe("trim", s("--a--"), &[s("-")]), "a");
    }

    #[test]
    fn begins_with() {
        assert_eq!(
            pipe("begins_with", s("/content/view"), &[s("/content")]),
            "1"
        );
        assert_eq!(pipe("begins_with", s("/user"), &[s("/content")]), "");
    }

    #[test]
    fn ends_with() {
        assert_eq!(pipe("ends_with", s("file.tpl"), &[s(".tpl")]), "1");
        assert_eq!(pipe("ends_with", s("file.tpl"), &[s(".ini")]), "");
    }
}
