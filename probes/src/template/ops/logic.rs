//! Comparison and logic operators, and the `hash` constructor. Templates
//! have no infix syntax, so `eq`, `and`, `cond` and friends carry all of a
//! design's conditions.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::{Budget, Op, Operands};
use crate::template::value::{MAX_VISITS, Map, Value, loose_cmp, loose_eq, loose_eq_within};

/// `hash(key, value, ...)`: keys print as text; a missing last value is null.
pub fn hash(ops: &Operands, budget: &Budget) -> Value {
    let mut map = Map::with_capacity(ops.len() / 2);
    let mut i = 0;
    while i < ops.len() {
        let key = ops.get(i).to_text().into_owned();
        // A key is a copy, which the result's charge (its entries) does
        // not count.
        budget.burn_operand(key.len());
        map.insert(key, ops.get(i + 1).into_owned());
        i += 2;
    }
    Value::from(map)
}

/// `eq` holds when every operand equals the first; `ne` when the first two
/// differ; the orderings compare the first two operands.
///
/// Each operand compared burns its bytes: a comparison reads them and
/// makes a boolean.
pub fn compare(op: Op, ops: &Operands, budget: &Budget) -> Value {
    if ops.len() < 2 {
        return Value::Bool(false);
    }
    let read = |i: usize| {
        let v = ops.get(i);
        budget.burn_operand(v.own_bytes());
        v
    };
    let first = read(0);
    let result = match op {
        Op::Eq => {
            let mut visits = MAX_VISITS;
            (1..ops.len()).all(|i| loose_eq_within(&first, &read(i), &mut visits))
        }
        Op::Ne => !loose_eq(&first, &read(1)),
        _ => {
            let ord = loose_cmp(&first, &read(1));
            match op {
                Op::Gt => ord == Ordering::Greater,
                Op::Lt => ord == Ordering::Less,
                Op::Ge => ord != Ordering::Less,
                _ => ord != Ordering::Greater,
            }
        }
    };
    Value::Bool(result)
}

/// True when every operand is; stops at the first false one.
pub fn and(ops: &Operands) -> Value {
    Value::Bool(!ops.is_empty() && (0..ops.len()).all(|i| ops.get(i).truthy()))
}

/// The first true operand itself (so `or($title, 'Untitled')` picks a
/// fallback), or false.
pub fn or(ops: &Operands) -> Value {
    (0..ops.len())
        .map(|i| ops.get(i))
        .find(|v| v.truthy())
        .map_or(Value::Bool(false), Cow::into_owned)
}

/// `cond(c1, v1, c2, v2, ..., fallback)`: the value after the first true
/// condition; an odd last operand is the fallback, otherwise null.
pub fn cond(ops: &Operands) -> Value {
    let n = ops.len();
    let mut i = 0;
    while i + 1 < n {
        if ops.get(i).truthy() {
            return ops.get(i + 1).into_owned();
        }
        i += 2;
    }
    if i < n {
        ops.get(i).into_owned()
    } else {
        Value::Null
    }
}

/// `$i|choose(a, b, c)`: the parameter at index `$i`, null out of range.
pub fn choose(ops: &mut Operands) -> Value {
    let u = super::unary(ops);
    let index = u.subject.to_int();
    match usize::try_from(index) {
        Ok(i) if i < u.param_count() => u.param(i).map_or(Value::Null, Cow::into_owned),
        _ => Value::Null,
    }
}

/// The first operand that is not null.
pub fn first_set(ops: &Operands) -> Value {
    (0..ops.len())
        .map(|i| ops.get(i))
        .find(|v| !v.is_null())
        .map_or(Value::Null, Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use crate::template::ops::testing::{arr, call, pipe, s};
    use crate::template::value::Value;

    fn b(v: bool) -> Value {
        Value::Bool(v)
    }

    #[test]
    fn eq() {
        assert_eq!(call("eq", &[Value::Int(2), s("2")]), b(true));
        assert_eq!(
            call("eq", &[Value::Int(2), Value::Int(2), Value::Int(3)]),
            b(false)
        );
        assert_eq!(pipe("eq", s("a"), &[s("a")]), "1");
        assert_eq!(call("eq", &[Value::Int(1)]), b(false));
    }

    #[test]
    fn ne() {
        assert_eq!(call("ne", &[Value::Int(2), s("3")]), b(true));
        assert_eq!(call("ne", &[s("x"), s("x")]), b(false));
    }

    #[test]
    fn gt() {
        assert_eq!(call("gt", &[Value::Int(10), s("9")]), b(true));
        assert_eq!(pipe("gt", Value::Int(1), &[Value::Int(1)]), "");
    }

    #[test]
    fn lt() {
        assert_eq!(call("lt", &[Value::Float(1.5), Value::Int(2)]), b(true));
        assert_eq!(call("lt", &[s("b"), s("a")]), b(false));
    }

    #[test]
    fn ge() {
        assert_eq!(call("ge", &[Value::Int(2), Value::Int(2)]), b(true));
        assert_eq!(call("ge", &[Value::Int(1), Value::Int(2)]), b(false));
    }

    #[test]
    fn le() {
        assert_eq!(call("le", &[Value::Int(2), Value::Int(2)]), b(true));
        assert_eq!(call("le", &[Value::Int(3), Value::Int(2)]), b(false));
    }

    #[test]
    fn and() {
        assert_eq!(call("and", &[Value::Int(1), s("x")]), b(true));
        assert_eq!(call("and", &[Value::Int(1), s("")]), b(false));
        assert_eq!(call("and", &[]), b(false));
    }

    #[test]
    fn or() {
        assert_eq!(call("or", &[s(""), s("fallback")]), s("fallback"));
        assert_eq!(call("or", &[Value::Null, Value::Int(0)]), b(false));
    }

    #[test]
    fn not() {
        assert_eq!(call("not", &[Value::Int(0)]), b(true));
        assert_eq!(pipe("not", s("x"), &[]), "");
    }

    #[test]
    fn cond() {
        assert_eq!(
            call("cond", &[b(false), s("a"), b(true), s("b"), s("c")]),
            s("b")
        );
        assert_eq!(call("cond", &[b(false), s("a"), s("c")]), s("c"));
        assert_eq!(call("cond", &[b(false), s("a")]), Value::Null);
    }

    #[test]
    fn choose() {
        assert_eq!(pipe("choose", Value::Int(1), &[s("a"), s("b")]), "b");
        assert_eq!(call("choose", &[Value::Int(0), s("a"), s("b")]), s("a"));
        assert_eq!(call("choose", &[Value::Int(5), s("a")]), Value::Null);
        assert_eq!(call("choose", &[Value::Int(-1), s("a")]), Value::Null);
    }

    #[test]
    fn first_set() {
        assert_eq!(
            call("first_set", &[Value::Null, Value::Int(0), s("x")]),
            Value::Int(0)
        );
        assert_eq!(call("first_set", &[Value::Null]), Value::Null);
    }

    #[test]
    fn is_set() {
        assert_eq!(call("is_set", &[Value::Null]), b(false));
        assert_eq!(pipe("is_set", s(""), &[]), "1");
    }

    #[test]
    fn is_null() {
        assert_eq!(call("is_null", &[Value::Null]), b(true));
        assert_eq!(call("is_null", &[Value::Int(0)]), b(false));
    }

    #[test]
    fn true_false_array_hash() {
        assert_eq!(call("true", &[]), b(true));
        assert_eq!(call("false", &[]), b(false));
        assert_eq!(
            call("array", &[Value::Int(1), s("a")]),
            arr(&[Value::Int(1), s("a")])
        );
        let h = call("hash", &[s("k"), Value::Int(1), s("odd")]);
        assert_eq!(h.attr("k").as_deref(), Some(&Value::Int(1)));
        assert_eq!(h.attr("odd").as_deref(), Some(&Value::Null));
    }
}
