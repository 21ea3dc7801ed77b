//! The template probes: compiling the five design templates, and rendering
//! the pagination navigator and the render fixture.
//!
//! The fixture variables live here too, so the probes, the golden tests and
//! the speed example render exactly the same thing.

use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::codec::encode;
use super::compile::compile;
use super::engine::{Engine, Vars};
use super::program::Program;
use super::value::{Map, Value};
use crate::fixtures;

/// The five design templates the compile probe compiles, by design path.
pub const COMPILED: [&str; 5] = [
    "navigator/google.tpl",
    "pagelayout.tpl",
    "admin/pagelayout.tpl",
    "content/edit.tpl",
    "node/view/full.tpl",
];

/// The design folder of the fixtures.
pub fn design_dir() -> PathBuf {
    fixtures::path("design")
}

/// An engine over the fixture design, with the kernel's default site and
/// locale and no translator or settings reader (so `i18n` shows source
/// texts and `ezini` finds nothing).
pub fn fixture_engine() -> Engine {
    Engine::new(vec![design_dir()])
}

/// The navigator's variables: page 5 of 25, sorted by name.
pub fn navigator_vars() -> Vars {
    let mut params = Map::new();
    params.insert("offset", Value::Int(40));
    params.insert("sort", Value::str("name"));
    Vars::new()
        .set("page_uri", "/content/view/full/2")
        .set("item_count", 250)
        .set("item_limit", 10)
        .set("view_parameters", Value::from(params))
}

/// The render fixture's title: markup characters and both quotes.
pub const RENDER_TITLE: &str = "Products <new> & \"improved\" for 'everyone'";

/// The render fixture's 40 items.
pub fn render_items() -> Vec<Value> {
    (0..40i64)
        .map(|i| {
            let mut item = Map::with_capacity(5);
            item.insert("id", Value::Int(100 + i));
            item.insert(
                "name",
                Value::from(format!("Benchmark item number {i} with a longer name")),
            );
            item.insert("price", Value::Float(i as f64 * 3.25));
            item.insert("featured", Value::Bool(i % 7 == 0));
            item.insert(
                "tags",
                Value::from(vec![
                    Value::from(format!("tag{}", i % 5)),
                    Value::str("all"),
                ]),
            );
            Value::from(item)
        })
        .collect()
}

pub fn render_vars() -> Vars {
    Vars::new()
        .set("title", RENDER_TITLE)
        .set("items", Value::from(render_items()))
}

/// A digest of compiled programs, stable across runs and machines (the
/// encoding is little-endian and names no absolute path).
pub fn digest(programs: &[Program]) -> String {
    let mut h = Sha256::new();
    for p in programs {
        let bytes = encode(p);
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A committed golden file, trimmed of the final newline editors add.
pub fn golden(name: &str) -> Result<String, String> {
    let path = fixtures::path(&format!("golden/{name}"));
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Compares output with its golden file, naming the first difference.
pub fn compare_golden(name: &str, actual: &str) -> Result<(), String> {
    let expected = golden(name)?;
    if expected == actual {
        return Ok(());
    }
    let at = expected
        .bytes()
        .zip(actual.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or(expected.len().min(actual.len()));
    let line = actual[..at.min(actual.len())].matches('\n').count() + 1;
    Err(format!(
        "output differs from golden/{name} at byte {at} (line {line}): expected {:?}, got {:?}",
        expected
            .get(at..(at + 40).min(expected.len()))
            .unwrap_or(""),
        actual.get(at..(at + 40).min(actual.len())).unwrap_or("")
    ))
}

pub struct CompileState {
    sources: Vec<(&'static str, String)>,
    lines: usize,
    expected: String,
}

fn compile_setup() -> Result<CompileState, String> {
    let mut sources = Vec::new();
    for name in COMPILED {
        let path = design_dir().join(name);
        let src = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        sources.push((name, src));
    }
    let lines = sources.iter().map(|(_, s)| s.lines().count()).sum();
    let expected = golden("compiled.sha256")?.trim().to_string();
    Ok(CompileState {
        sources,
        lines,
        expected,
    })
}

/// Compiles every template anew; the first error aborts.
pub fn compile_all(sources: &[(&str, String)]) -> Result<Vec<Program>, String> {
    sources
        .iter()
        .map(|(name, src)| compile(name, src).map_err(|e| e.to_string()))
        .collect()
}

yardstick_probe::probe! {
    name: template_compile,
    ops: 5,
    note: |s: &CompileState| format!("5 templates, {} lines, parsed and compiled", s.lines),
    setup: compile_setup,
    run: |s: &CompileState| compile_all(&s.sources),
    check: |s: &CompileState, out: &Result<Vec<Program>, String>| {
        let programs = out.as_ref().map_err(Clone::clone)?;
        let first = digest(programs);
        let again = digest(&compile_all(&s.sources)?);
        if first != again {
            return Err(format!("digest not stable: {first} then {again}"));
        }
        if first != s.expected {
            return Err(format!(
                "digest {first} differs from golden/compiled.sha256 {}",
                s.expected
            ));
        }
        Ok(())
    },
}

pub struct RenderState {
    engine: Engine,
    navigator: std::sync::Arc<Program>,
    render: std::sync::Arc<Program>,
    navigator_vars: Vars,
    render_vars: Vars,
    expected: (String, String),
}

fn render_setup() -> Result<RenderState, String> {
    let engine = fixture_engine();
    let navigator = engine
        .load("design:navigator/google.tpl")
        .map_err(|e| e.to_string())?;
    let render = engine
        .load("design:render.tpl")
        .map_err(|e| e.to_string())?;
    Ok(RenderState {
        engine,
        navigator,
        render,
        navigator_vars: navigator_vars(),
        render_vars: render_vars(),
        expected: (golden("navigator.html")?, golden("render.html")?),
    })
}

/// Renders both compiled templates.
fn render_both(s: &RenderState) -> Result<(String, String), String> {
    let nav = s
        .engine
        .render(&s.navigator, &s.navigator_vars)
        .map_err(|e| e.to_string())?;
    let page = s
        .engine
        .render(&s.render, &s.render_vars)
        .map_err(|e| e.to_string())?;
    Ok((nav, page))
}

yardstick_probe::probe! {
    name: template_render,
    ops: 2,
    note: "2 templates rendered, compiled",
    setup: render_setup,
    run: render_both,
    check: |s: &RenderState, out: &Result<(String, String), String>| {
        let (nav, page) = out.as_ref().map_err(Clone::clone)?;
        if *nav != s.expected.0 {
            compare_golden("navigator.html", nav)?;
        }
        if *page != s.expected.1 {
            compare_golden("render.html", page)?;
        }
        Ok(())
    },
}
