//! A hostile template ends in a positioned error, never in an abort: the
//! syntax tree's depth is bounded (pipes counted), and a render's memory is
//! bounded by its byte budget, not only its time by the step limit.
//!
//! Each case runs in a child process of this test binary, on a 2 MB
//! thread: a stack overflow or an allocation failure aborts the process,
//! and must fail one test, not end the run.

mod hostile;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hostile::{SHAPES, Shape, Stage};
use probes::template::{Engine, Vars, compile};

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

const CASE: &str = "TEMPLATE_LIMITS_CASE";

/// Peak heap a hostile render may reach: the 32 MiB budget, what an
/// operator makes past it before it is checked, and the engine.
const MAX_PEAK: u64 = 100 << 20;

/// Runs `case` in a child process (this test alone, `--exact`), on a
/// thread with a 2 MB stack.
fn in_child(test: &str, case: fn()) {
    if std::env::var(CASE).as_deref() == Ok(test) {
        let worker = std::thread::Builder::new().stack_size(2 << 20).spawn(case);
        let joined = worker.map(|w| w.join());
        assert!(matches!(joined, Ok(Ok(()))), "the case failed");
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut child = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CASE, test)
        .stdout(Stdio::null())
        .spawn()
        .expect("the test binary runs again");
    // A safety net for work that never ends (a comparison of shared
    // values took 10^12 steps); the cases take about a second.
    let guard = Instant::now() + Duration::from_secs(600);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < guard => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                panic!("{test}: the case still ran after ten minutes");
            }
        }
    };
    assert!(status.success(), "{test} in a child process: {status}");
}

/// Compiles and renders `shape` at its hostile size; the error it ends in,
/// and the peak heap on the way.
fn run(shape: &Shape) -> (Result<String, String>, u64) {
    let source = (shape.source)(shape.hostile);
    let (result, counted) = yardstick::alloc::measure(|| {
        let program = compile("hostile.tpl", &source).map_err(|e| ("compile", e))?;
        Engine::new(Vec::new())
            .render(&program, &Vars::new())
            .map_err(|e| ("render", e))
    });
    let peak = counted.map_or(0, |a| a.peak);
    let result = result.map_err(|(stage, e)| {
        assert!(
            e.line >= 1 && e.column >= 1,
            "{}: no position: {e}",
            shape.name
        );
        format!("{stage}: {}", e.message)
    });
    (result, peak)
}

fn each_shape(stage: Stage, expect: &str) {
    for shape in SHAPES.iter().filter(|s| s.stage == stage) {
        let (result, peak) = run(shape);
        match result {
            // Ended at all: what a `Finish` shape must do.
            _ if stage == Stage::Finish => {}
            Err(message) => assert!(
                message.contains(expect),
                "{}: ended in `{message}`, not `{expect}`",
                shape.name
            ),
            Ok(out) => panic!(
                "{}: rendered {} bytes, past every limit",
                shape.name,
                out.len()
            ),
        }
        assert!(
            peak < MAX_PEAK,
            "{}: peak heap {peak} bytes, over {MAX_PEAK}",
            shape.name
        );
    }
}

#[test]
fn nesting_of_every_kind_is_a_compile_error_with_a_position() {
    in_child(
        "nesting_of_every_kind_is_a_compile_error_with_a_position",
        || each_shape(Stage::Compile, "nested too deeply"),
    );
}

#[test]
fn growth_of_every_kind_stops_the_render_within_its_budget() {
    in_child(
        "growth_of_every_kind_stops_the_render_within_its_budget",
        || each_shape(Stage::Render, "render stopped"),
    );
}

#[test]
fn work_of_every_kind_ends() {
    in_child("work_of_every_kind_ends", || each_shape(Stage::Finish, ""));
}

#[test]
fn the_shapes_render_at_a_size_a_design_uses() {
    // The limits are not so tight that ordinary use trips them.
    for shape in SHAPES {
        let source = (shape.source)(3);
        let program = compile("ordinary.tpl", &source).unwrap_or_else(|e| panic!("{e}"));
        let out = Engine::new(Vec::new()).render(&program, &Vars::new());
        assert!(out.is_ok(), "{}: {:?}", shape.name, out.err());
    }
}

#[test]
fn a_chain_of_60_pipes_compiles_and_64_do_not() {
    let chain = |n: usize| format!("{{1{}}}", "|sum(1)".repeat(n));
    let ok = compile("t.tpl", &chain(60)).map(|_| ());
    assert!(ok.is_ok(), "{:?}", ok.err());
    let err = compile("t.tpl", &chain(64))
        .err()
        .map(|e| (e.line, e.message));
    assert!(
        matches!(&err, Some((1, m)) if m.contains("nested too deeply")),
        "{err:?}"
    );
}
