//! Prints how fast the kernel's class map is read and made ready for
//! lookups (the `autoload_map` probe's work) against building a plain
//! `std::collections::HashMap<String, String>` from the same 3,721 pairs,
//! already in memory: the reader's target is at most twice the build.
//! Both are timed in interleaved rounds; medians and their ratio are
//! printed.
//!
//! Run with `cargo run --release -p probes --example autoload_speed`.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

use probes::autoload::ClassMap;
use probes::autoload::fixture::KERNEL_MAP;

const ROUNDS: usize = 31;
const REPS: usize = 20;

/// The type-7 median of yardstick's statistics (0 for no value).
fn median(v: Vec<f64>) -> f64 {
    yardstick::stats::median(&v).unwrap_or(0.0)
}

/// Microseconds per run of `f`, over `REPS` runs.
fn time(mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..REPS {
        f();
    }
    start.elapsed().as_secs_f64() * 1e6 / REPS as f64
}

fn main() -> Result<(), String> {
    let path = probes::fixtures::path(KERNEL_MAP);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let map = ClassMap::parse(KERNEL_MAP, &bytes).map_err(|e| e.to_string())?;
    let pairs: Vec<(String, String)> = map.iter().map(|(k, v)| (k.into(), v.into())).collect();
    let built: HashMap<String, String> = pairs.iter().cloned().collect();
    if built.len() != map.len() {
        return Err(format!("{} pairs built, {} read", built.len(), map.len()));
    }
    let (mut read, mut build) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        read.push(time(|| {
            black_box(ClassMap::parse(KERNEL_MAP, black_box(&bytes)).ok());
        }));
        build.push(time(|| {
            let map: HashMap<String, String> = black_box(&pairs)
                .iter()
                .map(|(k, v)| (k.as_str().to_owned(), v.as_str().to_owned()))
                .collect();
            black_box(map);
        }));
    }
    let (r, b) = (median(read), median(build));
    println!(
        "{} entries, {} KB; median of {ROUNDS} interleaved rounds of {REPS} runs:",
        map.len(),
        bytes.len() / 1024
    );
    println!("  ClassMap::parse (read and ready)   {r:>8.1} us");
    println!("  HashMap<String, String> from pairs {b:>8.1} us");
    println!(
        "  ratio read / build                 {:>8.2}x (target <= 2x)",
        r / b
    );
    Ok(())
}
