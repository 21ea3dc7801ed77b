//! Prints, for each hostile template shape, the largest size the engine
//! still renders within its limits, and the peak heap and the time of the
//! shape at a size far past them; then the time of an include bomb
//! (thirty levels of templates, each including the next twice).
//!
//! cargo run --release -p probes --example template_limits

#[path = "../tests/hostile/mod.rs"]
mod hostile;

use hostile::{SHAPES, Shape, Stage};
use probes::template::{Engine, Vars, compile};
use std::time::Instant;

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

/// Whether `shape` at size `n` renders, and the peak heap on the way.
fn attempt(shape: &Shape, n: usize) -> (bool, u64) {
    let source = (shape.source)(n);
    let (ok, counted) = yardstick::alloc::measure(|| {
        compile("hostile.tpl", &source)
            .map(|p| Engine::new(Vec::new()).render(&p, &Vars::new()).is_ok())
            .unwrap_or(false)
    });
    (ok, counted.map_or(0, |a| a.peak))
}

/// The largest size in `1..=cap` that renders (the shapes fail from some
/// size on, so a bisection finds the edge).
fn largest(shape: &Shape, cap: usize) -> usize {
    let (mut good, mut bad) = (0, cap + 1);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if attempt(shape, mid).0 {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

fn main() {
    println!(
        "| shape | past its limits | largest size within the limits | hostile size | peak heap, MB | time, ms |"
    );
    println!("|---|---|---|---|---|---|");
    let mut worst = 0u64;
    for shape in SHAPES {
        let (cap, hostile) = (shape.hostile, shape.hostile);
        let edge = largest(shape, cap);
        let started = Instant::now();
        let (ok, peak) = attempt(shape, hostile);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        worst = worst.max(peak);
        let verdict = if ok && shape.stage != Stage::Finish {
            " (rendered!)"
        } else {
            ""
        };
        let ends = match shape.stage {
            Stage::Compile => "a compile error",
            Stage::Render => "a render error",
            Stage::Finish => "bounded work",
        };
        println!(
            "| {} | {ends} | {edge} | {hostile}{verdict} | {:.1} | {ms:.0} |",
            shape.name,
            peak as f64 / (1 << 20) as f64
        );
    }
    println!("worst peak heap: {:.1} MB", worst as f64 / (1 << 20) as f64);
    include_bomb();
}

/// Thirty levels of templates, each including the next twice: 2^30
/// includes, stopped by the render's fuel.
fn include_bomb() {
    let Ok(dir) = tempfile::tempdir() else {
        println!("include bomb: no temporary folder");
        return;
    };
    for k in 0..30 {
        let body = format!(
            "{{include uri='design:l{}.tpl'}}{{include uri='design:l{}.tpl'}}",
            k + 1,
            k + 1
        );
        if std::fs::write(dir.path().join(format!("l{k}.tpl")), body).is_err() {
            println!("include bomb: cannot write its templates");
            return;
        }
    }
    let _ = std::fs::write(dir.path().join("l30.tpl"), "x");
    let engine = Engine::new(vec![dir.path().to_path_buf()]);
    let started = Instant::now();
    let ended = engine.render_uri("design:l0.tpl", &Vars::new());
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let how = match ended {
        Ok(_) => "rendered!".to_string(),
        Err(e) => e.message,
    };
    println!("include bomb (2^30 includes): {how}, after {ms:.0} ms");
}
