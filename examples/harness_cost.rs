//! What the harness itself costs: time per measured iteration of an empty
//! probe, time per sample, and the process's peak memory.
//!
//! `cargo run --release --example harness_cost`

use std::time::Instant;
use yardstick::measure::clock::Clock;
use yardstick::measure::sample;
use yardstick::probe::{self, Probe};
use yardstick::stats::median;

yardstick::probe! {
    name: empty,
    ops: 1,
    note: "does nothing: what remains is the harness",
    setup: || Ok::<_, String>(()),
    run: |_: &()| (),
    check: |_, _: &()| Ok(()),
}

fn empty_probe() -> Result<&'static Probe, String> {
    probe::registered()?
        .into_iter()
        .find(|p| p.name == "empty")
        .ok_or_else(|| "the empty probe is not registered".to_string())
}

/// `repeat` samples of `batch` iterations after `warmup` untimed ones, in
/// milliseconds per iteration: the harness's own sampling path.
fn samples(
    empty: &Probe,
    batch: Option<u64>,
    warmup: usize,
    repeat: usize,
) -> Result<(Vec<f64>, u64), String> {
    let mut ready = sample::verified(empty)?;
    let instance = ready.instance.as_mut();
    let clock = Clock::real();
    let name = empty.name;
    let batch = batch.unwrap_or_else(|| sample::pick_batch(&clock, name, instance));
    for _ in 0..warmup {
        sample::sample(&clock, name, instance, batch, 1.0);
    }
    let samples = (0..repeat)
        .map(|_| sample::sample(&clock, name, instance, batch, 1.0))
        .collect();
    Ok((samples, batch))
}

fn main() -> Result<(), String> {
    let empty = empty_probe()?;

    // Per measured iteration, with the batch the harness picks (as in a run).
    let mut rounds = Vec::new();
    let mut batch = 0;
    for _ in 0..9 {
        let (s, b) = samples(empty, None, 3, 30)?;
        rounds.extend(median(&s));
        batch = b;
    }
    let per_iteration_ns = median(&rounds).unwrap_or(f64::NAN) * 1e6;

    // Per sample with a batch of one: the clock reads and the dynamic call.
    let per_sample_ns = median(&samples(empty, Some(1), 3, 1000)?.0).unwrap_or(f64::NAN) * 1e6;

    // The calibration loop, for scale.
    let calibration = yardstick::measure::calibration::Calibration::new();
    let loops: Vec<f64> = (0..33)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(calibration.run());
            start.elapsed().as_secs_f64() * 1e3
        })
        .skip(3)
        .collect();
    let loop_ms = median(&loops).unwrap_or(f64::NAN);

    let start = Instant::now();
    let (whole, _) = samples(empty, None, 3, 30)?;
    let wall = start.elapsed();

    println!(
        "harness overhead per measured iteration (empty probe, batch {batch}): {per_iteration_ns:.2} ns (target < 1000 ns)"
    );
    println!(
        "harness overhead per sample (batch 1, clock reads and call):      {per_sample_ns:.1} ns"
    );
    println!(
        "one empty probe measured (3 + 30 samples, batch picking):          {:.1} ms",
        wall.as_secs_f64() * 1e3
    );
    println!("calibration loop median:                                          {loop_ms:.3} ms");
    println!("empty probe samples: {}", whole.len());
    match peak_rss_kib() {
        Some(kib) => println!(
            "peak resident memory of this process (VmHWM):                    {:.1} MB",
            kib as f64 / 1024.0
        ),
        None => println!("peak resident memory: not available on this platform"),
    }
    Ok(())
}

/// VmHWM from /proc/self/status (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
