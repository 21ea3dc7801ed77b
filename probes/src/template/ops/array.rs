//! Operators that work on arrays and, where designs use them that way, on
//! text too (`$title|append('…')`, `$name|reverse`).

use std::borrow::Cow;
use std::sync::Arc;

use super::{Op, Unary};
use crate::template::budget::Budget;
use crate::template::value::{MAX_VISITS, Map, Value, loose_eq_within};

/// The parameters after the subject, evaluated.
fn params(u: &Unary) -> Vec<Value> {
    (0..u.param_count())
        .filter_map(|i| u.param(i).map(Cow::into_owned))
        .collect()
}

/// The most bytes appending, prepending or merging can make: every
/// operand's text, or every operand's elements.
fn most_made(subject: &Value, extra: &[Value]) -> usize {
    let size = |v: &Value| match v {
        Value::Array(items) => items.len() * std::mem::size_of::<Value>(),
        Value::Hash(map) => map.len() * std::mem::size_of::<(Arc<str>, Value)>(),
        other => other.text_bytes() + std::mem::size_of::<Value>(),
    };
    std::iter::once(subject).chain(extra).map(size).sum()
}

pub fn unary(op: Op, u: Unary, budget: &Budget) -> Value {
    match op {
        Op::Contains => contains(&u),
        Op::Append | Op::Prepend => {
            let extra = params(&u);
            if !budget.fits(most_made(&u.subject, &extra)) {
                return Value::Null;
            }
            match &*u.subject {
                Value::Array(items) => {
                    let mut out = Vec::with_capacity(items.len() + extra.len());
                    if op == Op::Append {
                        out.extend(items.iter().cloned());
                        out.extend(extra);
                    } else {
                        out.extend(extra);
                        out.extend(items.iter().cloned());
                    }
                    Value::from(out)
                }
                Value::Null => Value::from(extra),
                other => {
                    let mut text = String::new();
                    if op == Op::Prepend {
                        extra.iter().for_each(|v| v.write_text(&mut text));
                    }
                    other.write_text(&mut text);
                    if op == Op::Append {
                        extra.iter().for_each(|v| v.write_text(&mut text));
                    }
                    Value::from(text)
                }
            }
        }
        Op::Merge => {
            let rest = params(&u);
            if !budget.fits(most_made(&u.subject, &rest)) {
                return Value::Null;
            }
            merge(&u.subject, rest)
        }
        Op::Extract => extract(&u),
        _ => match &*u.subject {
            Value::Array(items) => Value::from(items.iter().rev().cloned().collect::<Vec<_>>()),
            Value::Hash(map) => {
                let mut out = Map::with_capacity(map.len());
                for (k, v) in map.iter().rev() {
                    out.insert(Arc::clone(k), v.clone());
                }
                Value::from(out)
            }
            other => Value::from(other.to_text().chars().rev().collect::<String>()),
        },
    }
}

/// Text contains a substring; an array or hash contains an equal value.
fn contains(u: &Unary) -> Value {
    let needle = u.param(0).unwrap_or(Cow::Owned(Value::Null));
    // One allowance for the whole search (see `MAX_VISITS`).
    let mut visits = MAX_VISITS;
    let found = match &*u.subject {
        Value::Array(items) => items
            .iter()
            .any(|v| loose_eq_within(v, &needle, &mut visits)),
        Value::Hash(map) => map
            .iter()
            .any(|(_, v)| loose_eq_within(v, &needle, &mut visits)),
        Value::Null => false,
        other => other.to_text().contains(&*needle.to_text()),
    };
    Value::Bool(found)
}

/// Arrays are concatenated; hashes merged, later keys winning.
fn merge(subject: &Value, rest: Vec<Value>) -> Value {
    match subject {
        Value::Hash(first) => {
            let mut out = (**first).clone();
            for v in &rest {
                if let Value::Hash(m) = v {
                    for (k, x) in m.iter() {
                        out.insert(Arc::clone(k), x.clone());
                    }
                }
            }
            Value::from(out)
        }
        subject => {
            let mut out = Vec::new();
            for v in std::iter::once(subject).chain(rest.iter()) {
                match v {
                    Value::Array(items) => out.extend(items.iter().cloned()),
                    Value::Null => {}
                    other => out.push(other.clone()),
                }
            }
            Value::from(out)
        }
    }
}

/// `extract(offset, length)`: a slice of an array or of text; a negative
/// offset counts from the end, a missing length means to the end.
fn extract(u: &Unary) -> Value {
    let offset = u.param(0).map_or(0, |v| v.to_int());
    let length = u.param(1).filter(|v| !v.is_null()).map(|v| v.to_int());
    let range = |len: usize| {
        let len_i = len as i64;
        let start = if offset < 0 {
            (len_i + offset).max(0)
        } else {
            offset.min(len_i)
        };
        let end = match length {
            Some(l) if l < 0 => (len_i + l).max(start),
            Some(l) => start.saturating_add(l).min(len_i),
            None => len_i,
        };
        start as usize..end as usize
    };
    match &*u.subject {
        Value::Array(items) => Value::from(items[range(items.len())].to_vec()),
        other => {
            let chars: Vec<char> = other.to_text().chars().collect();
            Value::from(chars[range(chars.len())].iter().collect::<String>())
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::template::ops::testing::{arr, call, pipe, s};
    use crate::template::value::{Map, Value};

    fn ints(v: &[i64]) -> Value {
        arr(&v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>())
    }

    #[test]
    fn count() {
        assert_eq!(pipe("count", ints(&[1, 2, 3]), &[]), "3");
        assert_eq!(call("count", &[s("héllo")]), Value::Int(5));
        assert_eq!(call("count", &[Value::Null]), Value::Int(0));
    }

    #[test]
    fn contains() {
        assert_eq!(pipe("contains", ints(&[1, 2]), &[s("2")]), "1");
        assert_eq!(pipe("contains", s("a needle here"), &[s("needle")]), "1");
        assert_eq!(pipe("contains", s("abc"), &[s("x")]), "");
    }

    #[test]
    fn append() {
        assert_eq!(
            call("append", &[ints(&[1]), Value::Int(2), Value::Int(3)]),
            ints(&[1, 2, 3])
        );
        assert_eq!(pipe("append", s("a"), &[s("b")]), "ab");
        assert_eq!(call("append", &[Value::Null, Value::Int(1)]), ints(&[1]));
    }

    #[test]
    fn prepend() {
        assert_eq!(
            call("prepend", &[ints(&[3]), Value::Int(1), Value::Int(2)]),
            ints(&[1, 2, 3])
        );
        assert_eq!(pipe("prepend", s("b"), &[s("a")]), "ab");
    }

    #[test]
    fn merge() {
        assert_eq!(
            call("merge", &[ints(&[1]), ints(&[2, 3])]),
            ints(&[1, 2, 3])
        );
        let mut a = Map::new();
        a.insert("x", Value::Int(1));
        a.insert("y", Value::Int(2));
        let mut b = Map::new();
        b.insert("y", Value::Int(9));
        let m = call("merge", &[Value::from(a), Value::from(b)]);
        assert_eq!(m.attr("x").as_deref(), Some(&Value::Int(1)));
        assert_eq!(m.attr("y").as_deref(), Some(&Value::Int(9)));
    }

    #[test]
    fn extract() {
        assert_eq!(
            call(
                "extract",
                &[ints(&[1, 2, 3, 4]), Value::Int(1), Value::Int(2)]
            ),
            ints(&[2, 3])
        );
        assert_eq!(
            call("extract", &[ints(&[1, 2, 3]), Value::Int(-2)]),
            ints(&[2, 3])
        );
        assert_eq!(
            call("extract", &[ints(&[1, 2]), Value::Int(5), Value::Int(2)]),
            ints(&[])
        );
        assert_eq!(
            pipe("extract", s("héllo"), &[Value::Int(1), Value::Int(3)]),
            "éll"
        );
        assert_eq!(
            pipe("extract", s("abc"), &[Value::Int(0), Value::Int(-1)]),
            "ab"
        );
    }

    #[test]
    fn reverse() {
        assert_eq!(pipe("reverse", s("abç"), &[]), "çba");
        assert_eq!(call("reverse", &[ints(&[1, 2])]), ints(&[2, 1]));
    }
}
