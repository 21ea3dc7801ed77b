//! Prints, for each hostile template shape, the largest size the engine
//! still renders within its limits, and the peak heap of the shape at a
//! size far past them.
//!
//! cargo run --release -p probes --example template_limits

#[path = "../tests/hostile/mod.rs"]
mod hostile;

use hostile::{SHAPES, Shape, Stage};
use probes::template::{Engine, Vars, compile};

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
        "| shape | past its limits | largest size within the limits | hostile size | peak heap, MB |"
    );
    println!("|---|---|---|---|---|");
    let mut worst = 0u64;
    for shape in SHAPES {
        let (cap, hostile) = (shape.hostile, shape.hostile);
        let edge = largest(shape, cap);
        let (ok, peak) = attempt(shape, hostile);
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
            "| {} | {ends} | {edge} | {hostile}{verdict} | {:.1} |",
            shape.name,
            peak as f64 / (1 << 20) as f64
        );
    }
    println!("worst peak heap: {:.1} MB", worst as f64 / (1 << 20) as f64);
}
