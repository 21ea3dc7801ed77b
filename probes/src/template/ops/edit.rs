//! The template library's editing operators: `insert`, `remove`,
//! `replace` (on arrays by element, on text by character), `pad`,
//! `repeat`, `indent`, `break`, `compare`, `unique` and `array_sum`.

use std::borrow::Cow;
use std::collections::HashSet;

use super::{Op, Unary};
use crate::template::budget::Budget;
use crate::template::value::{Map, Num, Value, loose_eq};

pub fn unary(op: Op, u: Unary, budget: &Budget) -> Value {
    match op {
        Op::Break => {
            let text = u.subject.to_text();
            let exact = || super::text::escaped_len(&text);
            if !budget.fits_within(text.len().saturating_mul(7), exact) {
                return Value::Null;
            }
            Value::from(super::text::nl2br(&text))
        }
        Op::Indent => indent(&u, budget),
        Op::Pad => pad(&u, budget),
        Op::Repeat => repeat(&u, budget),
        // `loose_eq` already looks inside arrays and hashes, element by element.
        Op::Compare => Value::Bool(u.param(0).is_some_and(|o| loose_eq(&u.subject, &o))),
        Op::Unique => unique(&u.subject),
        Op::ArraySum => array_sum(&u.subject),
        Op::Insert | Op::Remove | Op::Replace => splice(op, &u, budget),
        _ => Value::Null,
    }
}

/// `indent(count, type, filler)`: every line, empty ones too, gets the
/// prefix, as the template library prefixes the text and each newline.
fn indent(u: &Unary, budget: &Budget) -> Value {
    let count = u.param(0).map_or(0, |v| v.to_int()).clamp(0, 10_000) as usize;
    let kind = u.text_param(1, "space");
    let unit = match kind.as_str() {
        "tab" => "\t".to_string(),
        "custom" => u.text_param(2, ""),
        _ => " ".to_string(),
    };
    let text = u.subject.to_text();
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    if !budget.fits(unit.len().saturating_mul(count).saturating_mul(lines) + text.len()) {
        return Value::Null;
    }
    let prefix = unit.repeat(count);
    let mut out = String::with_capacity(text.len() + prefix.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&prefix);
        out.push_str(line);
    }
    Value::from(out)
}

/// `pad(length, char)`: right padding up to `length` characters, the pad
/// text repeated and cut as PHP's `str_pad` does.
fn pad(u: &Unary, budget: &Budget) -> Value {
    let text = u.subject.to_text();
    let length = u.param(0).map_or(0, |v| v.to_int()).clamp(0, 1 << 20) as usize;
    // Four bytes a character at most.
    if !budget.fits(text.len() + 4 * length) {
        return Value::Null;
    }
    let filler = u.text_param(1, " ");
    let have = text.chars().count();
    if have >= length || filler.is_empty() {
        return Value::from(text.into_owned());
    }
    let mut out = text.into_owned();
    out.extend(filler.chars().cycle().take(length - have));
    Value::from(out)
}

/// `repeat(count)`: text or array elements `count` times, capped so a
/// template cannot ask for gigabytes.
fn repeat(u: &Unary, budget: &Budget) -> Value {
    let count = u.param(0).map_or(0, |v| v.to_int()).clamp(0, 1 << 16) as usize;
    let made = match &*u.subject {
        Value::Array(items) => (items.len() * count).min(1 << 20) * std::mem::size_of::<Value>(),
        other => other.text_bytes().saturating_mul(count).min(1 << 24),
    };
    if !budget.fits(made) {
        return Value::Null;
    }
    match &*u.subject {
        Value::Array(items) => Value::from(
            std::iter::repeat_n(items.iter(), count)
                .flatten()
                .take(1 << 20)
                .cloned()
                .collect::<Vec<_>>(),
        ),
        other => {
            let text = other.to_text();
            let count = count.min((1 << 24) / text.len().max(1));
            Value::from(text.repeat(count))
        }
    }
}

/// Elements without repeats, first ones kept; like PHP's `array_unique`
/// two elements repeat when their text is the same.
fn unique(v: &Value) -> Value {
    match v {
        // A set, not a list: an array may hold a million exploded words.
        Value::Array(items) => {
            let mut seen: HashSet<Cow<str>> = HashSet::new();
            let mut out = Vec::new();
            for item in items.iter() {
                if seen.insert(item.to_text()) {
                    out.push(item.clone());
                }
            }
            Value::from(out)
        }
        Value::Hash(map) => {
            let mut seen: HashSet<Cow<str>> = HashSet::new();
            let mut out = Map::new();
            for (k, item) in map.iter() {
                if seen.insert(item.to_text()) {
                    out.insert(k.clone(), item.clone());
                }
            }
            Value::from(out)
        }
        other => other.clone(),
    }
}

/// The sum of an array's numbers: an integer while every term is one and
/// the sum fits, a float otherwise.
fn array_sum(v: &Value) -> Value {
    let terms: Box<dyn Iterator<Item = &Value>> = match v {
        Value::Array(items) => Box::new(items.iter()),
        Value::Hash(map) => Box::new(map.iter().map(|(_, v)| v)),
        _ => return Value::Int(0),
    };
    let mut acc = Num::Int(0);
    for t in terms {
        acc = match (acc, t.to_num()) {
            (Num::Int(a), Num::Int(b)) => a
                .checked_add(b)
                .map_or(Num::Float(a as f64 + b as f64), Num::Int),
            (a, b) => Num::Float(a.as_f64() + b.as_f64()),
        };
    }
    acc.into_value()
}

/// `insert(position, value, ...)`, `remove(offset, length)` and
/// `replace(offset, length, value, ...)`: one splice, on array elements
/// or on text characters. Offsets past the end clamp to it.
fn splice(op: Op, u: &Unary, budget: &Budget) -> Value {
    let int = |i: usize, default: i64| u.param(i).map_or(default, |v| v.to_int());
    let (offset, length, first_value) = match op {
        Op::Insert => (int(0, 0), 0, 1),
        Op::Remove => (int(0, 0), int(1, 1), usize::MAX),
        _ => (int(0, 0), int(1, 1), 2),
    };
    let values: Vec<Value> = (first_value..u.param_count())
        .filter_map(|i| u.param(i).map(Cow::into_owned))
        .collect();
    // Text is spliced as characters, four bytes each.
    let subject = u.subject.text_bytes().saturating_mul(4) + u.subject.own_bytes();
    let added: usize = values
        .iter()
        .map(|v| v.text_bytes() + std::mem::size_of::<Value>())
        .sum();
    if !budget.fits(subject.saturating_add(added)) {
        return Value::Null;
    }
    let range = |len: usize| {
        let start = (offset.max(0) as usize).min(len);
        let end = start.saturating_add(length.max(0) as usize).min(len);
        (start, end)
    };
    match &*u.subject {
        Value::Array(items) => {
            let (start, end) = range(items.len());
            let mut out = Vec::with_capacity(items.len() + values.len());
            out.extend(items[..start].iter().cloned());
            out.extend(values);
            out.extend(items[end..].iter().cloned());
            Value::from(out)
        }
        other => {
            let chars: Vec<char> = other.to_text().chars().collect();
            let (start, end) = range(chars.len());
            let mut out: String = chars[..start].iter().collect();
            values.iter().for_each(|v| v.write_text(&mut out));
            out.extend(&chars[end..]);
            Value::from(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{arr, pipe, s};
    use crate::template::value::Value;

    fn i(n: i64) -> Value {
        Value::Int(n)
    }

    #[test]
    fn break_indent_pad_repeat() {
        assert_eq!(pipe("break", s("a\nb"), &[]), "a<br />\nb");
        assert_eq!(pipe("break", s("a\r\nb"), &[]), "a<br />\r\nb");
        assert_eq!(pipe("indent", s("a\n\nb"), &[i(2)]), "  a\n  \n  b");
        assert_eq!(pipe("indent", s("a\nb"), &[i(1), s("tab")]), "\ta\n\tb");
        assert_eq!(
            pipe("indent", s("a"), &[i(2), s("custom"), s("->")]),
            "->->a"
        );
        assert_eq!(pipe("pad", s("ab"), &[i(5)]), "ab   ");
        assert_eq!(pipe("pad", s("ab"), &[i(5), s("xy")]), "abxyx");
        assert_eq!(pipe("pad", s("abcdef"), &[i(3), s("x")]), "abcdef");
        assert_eq!(pipe("repeat", s("ab"), &[i(3)]), "ababab");
        assert_eq!(
            pipe("repeat", arr(&[i(1), i(2)]), &[i(2)]).len(),
            0,
            "an array prints as nothing"
        );
        let r = super::super::testing::call("repeat", &[arr(&[i(1), i(2)]), i(2)]);
        assert_eq!(r, arr(&[i(1), i(2), i(1), i(2)]));
    }

    #[test]
    fn compare_unique_array_sum() {
        assert_eq!(pipe("compare", s("1"), &[i(1)]), "1");
        assert_eq!(
            pipe("compare", arr(&[i(1), s("a")]), &[arr(&[s("1"), s("a")])]),
            "1"
        );
        assert_eq!(pipe("compare", arr(&[i(1)]), &[arr(&[i(1), i(2)])]), "");
        let call = super::super::testing::call;
        assert_eq!(
            call("unique", &[arr(&[i(1), s("1"), i(2), i(1)])]),
            arr(&[i(1), i(2)])
        );
        assert_eq!(call("array_sum", &[arr(&[i(1), s("2"), i(3)])]), i(6));
        assert_eq!(
            call("array_sum", &[arr(&[i(1), Value::Float(0.5)])]),
            Value::Float(1.5)
        );
        assert_eq!(
            call("array_sum", &[arr(&[i(i64::MAX), i(1)])]),
            Value::Float(i64::MAX as f64 + 1.0)
        );
    }

    #[test]
    fn insert_remove_replace_on_arrays_and_text() {
        let call = super::super::testing::call;
        let l = || arr(&[i(1), i(2), i(3)]);
        assert_eq!(
            call("insert", &[l(), i(1), s("a"), s("b")]),
            arr(&[i(1), s("a"), s("b"), i(2), i(3)])
        );
        assert_eq!(call("remove", &[l(), i(1)]), arr(&[i(1), i(3)]));
        assert_eq!(call("remove", &[l(), i(0), i(2)]), arr(&[i(3)]));
        assert_eq!(
            call("replace", &[l(), i(1), i(2), s("x")]),
            arr(&[i(1), s("x")])
        );
        assert_eq!(call("remove", &[l(), i(9)]), l());
        assert_eq!(pipe("insert", s("héllo"), &[i(2), s("-")]), "hé-llo");
        assert_eq!(pipe("remove", s("héllo"), &[i(1), i(2)]), "hlo");
        assert_eq!(
            pipe("replace", s("héllo"), &[i(0), i(2), s("J"), s("e")]),
            "Jello"
        );
        assert_eq!(pipe("remove", s("abc"), &[i(-5)]), "bc");
    }
}
