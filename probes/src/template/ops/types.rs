//! Type tests (`is_array`, `is_class('name')`, ...), `get_type`,
//! `get_class` and `currentdate`: the operators designs use to guard
//! against values of the wrong kind.

use super::{Op, Operands, unary};
use crate::template::value::{Value, parse_num};

/// Where `currentdate` reads the time. Handing the engine a fixed clock
/// makes a template that prints dates testable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// Always this Unix timestamp.
    Fixed(i64),
}

impl Clock {
    pub fn now(self) -> i64 {
        match self {
            Clock::Fixed(t) => t,
            Clock::System => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)),
        }
    }
}

/// The type names `get_type` gives, as the template library spells them.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Int(_) => "integer",
        Value::Float(_) => "float",
        Value::Str(_) => "string",
        Value::Array(_) | Value::Hash(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A type test on the piped value or on the first argument.
pub fn test(op: Op, mut ops: Operands) -> Value {
    if op == Op::IsClass {
        return is_class(&mut ops);
    }
    let u = unary(&mut ops);
    let v = &*u.subject;
    Value::Bool(match op {
        Op::IsArray => matches!(v, Value::Array(_) | Value::Hash(_)),
        Op::IsBoolean => matches!(v, Value::Bool(_)),
        Op::IsInteger => matches!(v, Value::Int(_)),
        Op::IsFloat => matches!(v, Value::Float(_)),
        Op::IsNumeric => match v {
            Value::Int(_) | Value::Float(_) => true,
            Value::Str(s) => parse_num(s).is_some(),
            _ => false,
        },
        Op::IsString => matches!(v, Value::Str(_)),
        Op::IsObject => matches!(v, Value::Object(_)),
        Op::IsUnset => v.is_null(),
        _ => false,
    })
}

/// `$x|is_class('name')` or `is_class('name', $x)`: PHP compares class
/// names without regard to case.
fn is_class(ops: &mut Operands) -> Value {
    let (name, subject) = if ops.has_input() {
        (ops.get(1), ops.get(0))
    } else {
        (ops.get(0), ops.get(1))
    };
    Value::Bool(match &*subject {
        Value::Object(o) => o.class_name().eq_ignore_ascii_case(&name.to_text()),
        _ => false,
    })
}

pub fn get_type(mut ops: Operands) -> Value {
    Value::str(type_name(&unary(&mut ops).subject))
}

/// An object's class name; false for anything else, as in PHP.
pub fn get_class(mut ops: Operands) -> Value {
    match &*unary(&mut ops).subject {
        Value::Object(o) => Value::from(o.class_name()),
        _ => Value::Bool(false),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::testing::{arr, call, pipe, s};
    use super::*;
    use crate::template::value::{Map, Object};

    #[derive(Debug)]
    struct Node;
    impl Object for Node {
        fn attribute(&self, _: &str) -> Option<Value> {
            None
        }
        fn attribute_names(&self) -> Vec<String> {
            Vec::new()
        }
        fn class_name(&self) -> String {
            "eZContentObjectTreeNode".into()
        }
    }

    fn yes(op: &str, v: Value) -> bool {
        call(op, std::slice::from_ref(&v)).truthy() && pipe(op, v, &[]) == "1"
    }

    #[test]
    fn each_type_test_on_input_and_argument() {
        let node = Value::Object(Arc::new(Node));
        let hash = Value::from(Map::new());
        let cases: [(&str, Value, Value); 9] = [
            ("is_array", arr(&[]), s("a")),
            ("is_array", hash.clone(), Value::Null),
            ("is_boolean", Value::Bool(false), Value::Int(0)),
            ("is_integer", Value::Int(3), Value::Float(3.0)),
            ("is_float", Value::Float(1.5), Value::Int(1)),
            ("is_numeric", s(" 12.5"), s("12a")),
            ("is_string", s(""), Value::Int(1)),
            ("is_object", node.clone(), hash.clone()),
            ("is_unset", Value::Null, s("")),
        ];
        for (op, hit, miss) in cases {
            assert!(yes(op, hit.clone()), "{op} {hit:?}");
            assert!(
                !call(op, std::slice::from_ref(&miss)).truthy(),
                "{op} {miss:?}"
            );
            assert_eq!(pipe(op, miss, &[]), "", "{op}");
        }
        assert!(yes("is_numeric", Value::Int(2)));
        assert!(yes("is_set", s("")));
        assert!(!call("is_set", &[Value::Null]).truthy());
        assert!(yes("is_null", Value::Null));
    }

    #[test]
    fn classes_and_type_names() {
        let node = Value::Object(Arc::new(Node));
        assert_eq!(
            pipe("is_class", node.clone(), &[s("ezcontentobjecttreenode")]),
            "1"
        );
        assert!(call("is_class", &[s("eZContentObjectTreeNode"), node.clone()]).truthy());
        assert!(!call("is_class", &[s("other"), node.clone()]).truthy());
        assert!(!call("is_class", &[s("array"), arr(&[])]).truthy());
        assert_eq!(
            pipe("get_class", node.clone(), &[]),
            "eZContentObjectTreeNode"
        );
        assert_eq!(call("get_class", &[s("x")]), Value::Bool(false));
        let names: Vec<String> = [
            s("a"),
            Value::Int(1),
            Value::Float(1.5),
            Value::Bool(true),
            arr(&[]),
            node,
            Value::Null,
        ]
        .into_iter()
        .map(|v| pipe("get_type", v, &[]))
        .collect();
        assert_eq!(
            names,
            [
                "string", "integer", "float", "boolean", "array", "object", "null"
            ]
        );
    }

    #[test]
    fn the_clock_is_handed_in() {
        assert_eq!(Clock::Fixed(1_700_000_000).now(), 1_700_000_000);
        // The system clock is past 2020-01-01 on any machine that runs this.
        assert!(Clock::System.now() > 1_577_836_800);
    }
}
