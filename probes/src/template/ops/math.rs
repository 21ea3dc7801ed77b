//! Arithmetic operators. Whole numbers stay whole while they can (an
//! overflow moves to floating point instead of wrapping or panicking), and
//! a division by zero gives null rather than an error page.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::{Op, Operands, Unary};
use crate::template::value::{Num, Value, loose_cmp};

fn add(a: Num, b: Num) -> Num {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x
            .checked_add(y)
            .map_or(Num::Float(x as f64 + y as f64), Num::Int),
        _ => Num::Float(a.as_f64() + b.as_f64()),
    }
}

fn sub(a: Num, b: Num) -> Num {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x
            .checked_sub(y)
            .map_or(Num::Float(x as f64 - y as f64), Num::Int),
        _ => Num::Float(a.as_f64() - b.as_f64()),
    }
}

fn mul(a: Num, b: Num) -> Num {
    match (a, b) {
        (Num::Int(x), Num::Int(y)) => x
            .checked_mul(y)
            .map_or(Num::Float(x as f64 * y as f64), Num::Int),
        _ => Num::Float(a.as_f64() * b.as_f64()),
    }
}

/// Exact integer quotients stay integers, as in PHP.
fn div(a: Num, b: Num) -> Option<Num> {
    if b.as_f64() == 0.0 {
        return None;
    }
    Some(match (a, b) {
        (Num::Int(x), Num::Int(y)) if x.checked_rem(y) == Some(0) => x
            .checked_div(y)
            .map_or(Num::Float(x as f64 / y as f64), Num::Int),
        _ => Num::Float(a.as_f64() / b.as_f64()),
    })
}

/// The variadic operators: `sum`, `sub`, `mul`, `div`, `mod`, `min`, `max`.
pub fn fold(op: Op, ops: &Operands) -> Value {
    let n = ops.len();
    match op {
        Op::Min | Op::Max => return extreme(op, ops),
        Op::Mod => {
            if n < 2 {
                return Value::Null;
            }
            let (a, b) = (ops.get(0).to_int(), ops.get(1).to_int());
            return a.checked_rem(b).map_or(Value::Null, Value::Int);
        }
        _ => {}
    }
    if n == 0 {
        return if op == Op::Sum {
            Value::Int(0)
        } else {
            Value::Null
        };
    }
    let mut acc = ops.get(0).to_num();
    for i in 1..n {
        let x = ops.get(i).to_num();
        acc = match op {
            Op::Sum => add(acc, x),
            Op::Sub => sub(acc, x),
            Op::Mul => mul(acc, x),
            _ => match div(acc, x) {
                Some(q) => q,
                None => return Value::Null,
            },
        };
    }
    acc.into_value()
}

/// `min`/`max` over the operands, or over the elements of a single array.
fn extreme(op: Op, ops: &Operands) -> Value {
    let want = if op == Op::Min {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    let pick = |best: Option<Value>, v: Value| match best {
        Some(b) if loose_cmp(&v, &b) != want => Some(b),
        _ => Some(v),
    };
    let first = ops.get(0);
    let best = match (&*first, ops.len()) {
        (Value::Array(items), 1) => items.iter().cloned().fold(None, pick),
        _ => (0..ops.len())
            .map(|i| ops.get(i).into_owned())
            .fold(None, pick),
    };
    best.unwrap_or(Value::Null)
}

/// `inc`, `dec`, `int`, `float`, `ceil`, `floor`, `round(precision)`.
pub fn unary(op: Op, u: Unary) -> Value {
    let n = u.subject.to_num();
    match op {
        Op::Inc => add(n, Num::Int(1)).into_value(),
        Op::Dec => sub(n, Num::Int(1)).into_value(),
        Op::Int => Value::Int(u.subject.to_int()),
        Op::Float => Value::Float(n.as_f64()),
        Op::Ceil => Value::Float(n.as_f64().ceil()),
        Op::Floor => Value::Float(n.as_f64().floor()),
        _ => {
            let places = u
                .param(0)
                .map_or(0, |p: Cow<Value>| p.to_int())
                .clamp(-15, 15);
            let scale = 10f64.powi(places as i32);
            Value::Float((n.as_f64() * scale).round() / scale)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::template::ops::testing::{arr, call, pipe, s};
    use crate::template::value::Value;

    #[test]
    fn sum() {
        assert_eq!(
            call("sum", &[Value::Int(1), s("2"), Value::Int(3)]),
            Value::Int(6)
        );
        assert_eq!(
            call("sum", &[Value::Int(1), Value::Float(0.5)]),
            Value::Float(1.5)
        );
        assert_eq!(
            call("sum", &[Value::Int(i64::MAX), Value::Int(1)]).to_text(),
            "9.2233720368548E+18"
        );
        assert_eq!(pipe("sum", Value::Int(2), &[Value::Int(2)]), "4");
    }

    #[test]
    fn sub() {
        assert_eq!(
            call("sub", &[Value::Int(10), Value::Int(3), Value::Int(2)]),
            Value::Int(5)
        );
        assert_eq!(pipe("sub", Value::Float(1.5), &[Value::Int(1)]), "0.5");
    }

    #[test]
    fn mul() {
        assert_eq!(
            call("mul", &[Value::Int(4), Value::Float(3.25)]),
            Value::Float(13.0)
        );
        assert_eq!(call("mul", &[Value::Int(4), Value::Int(3)]), Value::Int(12));
    }

    #[test]
    fn div() {
        assert_eq!(call("div", &[Value::Int(10), Value::Int(5)]), Value::Int(2));
        assert_eq!(
            call("div", &[Value::Int(10), Value::Int(4)]),
            Value::Float(2.5)
        );
        assert_eq!(call("div", &[Value::Int(1), Value::Int(0)]), Value::Null);
        assert_eq!(
            call("div", &[Value::Int(i64::MIN), Value::Int(-1)]).to_text(),
            "9.2233720368548E+18"
        );
    }

    #[test]
    fn r#mod() {
        assert_eq!(call("mod", &[Value::Int(14), Value::Int(7)]), Value::Int(0));
        assert_eq!(pipe("mod", Value::Int(-7), &[Value::Int(3)]), "-1");
        assert_eq!(call("mod", &[Value::Int(1), Value::Int(0)]), Value::Null);
        assert_eq!(call("mod", &[Value::Int(1)]), Value::Null);
    }

    #[test]
    fn inc() {
        assert_eq!(pipe("inc", Value::Int(4), &[]), "5");
        assert_eq!(call("inc", &[s("1.5")]), Value::Float(2.5));
    }

    #[test]
    fn dec() {
        assert_eq!(pipe("dec", Value::Int(4), &[]), "3");
    }

    #[test]
    fn min() {
        assert_eq!(
            call("min", &[Value::Int(4), Value::Int(2), Value::Int(9)]),
            Value::Int(2)
        );
        assert_eq!(
            call("min", &[arr(&[Value::Int(3), Value::Int(1)])]),
            Value::Int(1)
        );
        assert_eq!(call("min", &[]), Value::Null);
    }

    #[test]
    fn max() {
        assert_eq!(
            call("max", &[Value::Int(4), s("12"), Value::Int(9)]),
            s("12")
        );
    }

    #[test]
    fn int() {
        assert_eq!(pipe("int", s("7.9"), &[]), "7");
        assert_eq!(call("int", &[s("x")]), Value::Int(0));
    }

    #[test]
    fn float() {
        assert_eq!(call("float", &[s("2")]), Value::Float(2.0));
    }

    #[test]
    fn ceil() {
        assert_eq!(pipe("ceil", Value::Float(2.1), &[]), "3");
        assert_eq!(
            call("ceil", &[Value::Int(25), Value::Int(10)]),
            Value::Float(25.0)
        );
    }

    #[test]
    fn floor() {
        assert_eq!(pipe("floor", Value::Float(-2.1), &[]), "-3");
    }

    #[test]
    fn round() {
        assert_eq!(pipe("round", Value::Float(2.5), &[]), "3");
        assert_eq!(
            pipe("round", Value::Float(1.23456), &[Value::Int(2)]),
            "1.23"
        );
    }
}
