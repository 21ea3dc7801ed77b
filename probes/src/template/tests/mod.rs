//! End-to-end behaviour of the language: each function tag, the whitespace
//! rule byte for byte, error positions, and property tests that neither
//! parsing nor rendering panics on any input.

use std::sync::Arc;

use super::value::{Map, Object, Value};
use super::{Engine, Limits, Vars, compile};

fn engine() -> Engine {
    Engine::new(Vec::new())
}

fn render_with(src: &str, vars: Vars) -> String {
    let program = compile("t.tpl", src).unwrap_or_else(|e| panic!("{e}"));
    engine()
        .render(&program, &vars)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn render(src: &str) -> String {
    render_with(src, Vars::new())
}

fn ints(v: &[i64]) -> Value {
    Value::from(v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>())
}

fn hash(pairs: &[(&str, Value)]) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert(*k, v.clone());
    }
    Value::from(m)
}

mod blocks;
mod coverage;
mod errors;
mod props;
mod real;
mod tags;
mod whitespace;
