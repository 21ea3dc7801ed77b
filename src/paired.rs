//! Paired comparison of two builds in one job (`yardstick compare-builds`).
//!
//! Stored baselines compare runs made at different times, often on different
//! machines, so their threshold must cover everything that moves between
//! runs. Running the old and the new build alternately on the same machine,
//! in the same minute, cancels most of that: each round measures both builds
//! back to back in a random order, the round's ratio new/old is one piece of
//! evidence, and the rounds are tested for a shift (exact Wilcoxon
//! signed-rank on the log ratios). A probe regresses when the median ratio
//! exceeds the threshold *and* the shift is significant; above the threshold
//! but not significant, it is inconclusive: a warning, never a failure.

use crate::cli::paired::PairedOptions;
use crate::comparison::{Check, Comparison};
use crate::environment::Environment;
use crate::error::Error;
use crate::micro::{now, repository_dir};
use crate::outcome;
use crate::progress::Progress;
use crate::run::{FORMAT, Mode, Row, RowKind, Run, TOOL};
use crate::stats::{median, signed_rank};
use crate::store;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Percent the median ratio may exceed 1 before a probe can regress.
pub const DEFAULT_THRESHOLD: f64 = 3.0;
/// The one-sided significance level of the signed-rank test.
pub const ALPHA: f64 = 0.01;

/// Which build a measurement belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Old,
    New,
}

/// Per probe and side: the median of each round it was measured in (keyed
/// by round, so a round one side failed pairs with nothing), and every
/// sample.
#[derive(Default)]
struct Series {
    rounds: BTreeMap<usize, f64>,
    samples: Vec<f64>,
    errors: u64,
    batch: Option<u64>,
    note: String,
    ops: Option<u64>,
}

pub fn main(o: &PairedOptions) -> Result<i32, Error> {
    for path in [&o.old, &o.new] {
        if !path.is_file() {
            return Err(Error::input(format!(
                "{}: no such bench binary",
                path.display()
            )));
        }
    }
    let seed = o.seed.unwrap_or_else(|| fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);
    let started = now();
    let mut old: BTreeMap<String, Series> = BTreeMap::new();
    let mut new: BTreeMap<String, Series> = BTreeMap::new();
    let mut progress = Progress::new(o.rounds * 2, o.common.quiet);
    for round in 1..=o.rounds {
        let order = if rng.bool() {
            [Side::Old, Side::New]
        } else {
            [Side::New, Side::Old]
        };
        for side in order {
            let (path, env, into) = match side {
                Side::Old => (&o.old, &o.env_old, &mut old),
                Side::New => (&o.new, &o.env_new, &mut new),
            };
            progress.start(&format!("round {round}: {}", path.display()));
            let run = measure(path, env, o)?;
            for row in run.rows {
                let s = into.entry(row.key.clone()).or_default();
                if let Some(m) = row.median {
                    s.rounds.insert(round, m);
                }
                s.samples.extend(row.samples);
                s.errors += row.errors;
                s.batch = row.batch.or(s.batch);
                s.ops = row.ops.or(s.ops);
                s.note = row.note;
            }
            progress.advance();
        }
    }
    progress.finish();

    let threshold = o.common.threshold.unwrap_or(DEFAULT_THRESHOLD);
    let comparison = compare(&old, &new, threshold, &o.old.display().to_string());
    let environment = Environment::current(&repository_dir(), started.clone());
    let mut warnings: Vec<String> = comparison
        .checks
        .iter()
        .filter(|c| c.inconclusive)
        .map(|c| {
            format!(
                "inconclusive: {} looks {:+.1} % slower, but the rounds disagree (p = {:.3})",
                c.key,
                c.change_pct,
                c.p_value.unwrap_or(1.0)
            )
        })
        .collect();
    if environment.is_debug_build() {
        warnings.insert(0, "debug build: times are not representative".to_string());
    }
    let rows = new
        .into_iter()
        .map(|(key, s)| {
            let mut row = Row::with_samples(key.clone(), RowKind::Probe, key, s.samples);
            row.batch = s.batch;
            row.requests = row.n as u64 + s.errors;
            row.errors = s.errors;
            row.ops = s.ops;
            row.rps = row
                .median
                .zip(s.ops)
                .filter(|(m, _)| *m > 0.0)
                .map(|(m, ops)| ops as f64 * 1000.0 / m);
            row.note = s.note;
            row
        })
        .collect();
    let mut settings = BTreeMap::new();
    settings.insert("old".into(), json!(o.old.display().to_string()));
    settings.insert("new".into(), json!(o.new.display().to_string()));
    settings.insert("rounds".into(), json!(o.rounds));
    settings.insert("repeat".into(), json!(o.repeat));
    settings.insert("warmup".into(), json!(o.warmup));
    settings.insert("min_batch".into(), json!(o.min_batch));
    settings.insert("probes".into(), json!(o.probes));
    settings.insert("seed".into(), json!(seed));
    settings.insert("threshold".into(), json!(threshold));
    let env_names = |env: &[(String, String)]| {
        env.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
    };
    settings.insert("env_old".into(), json!(env_names(&o.env_old)));
    settings.insert("env_new".into(), json!(env_names(&o.env_new)));
    let run = Run {
        tool: TOOL.to_string(),
        format: FORMAT,
        mode: Mode::Micro,
        started,
        machine: environment.machine.clone(),
        settings,
        environment,
        warnings,
        rows,
        calibration: None,
        comparison: Some(comparison),
        pairs: None,
        metric: Default::default(),
    };
    outcome::deliver(run, &o.common)
}

/// Runs one build once: every selected probe, no calibration (both builds
/// share the minute), JSON on stdout.
fn measure(path: &Path, env: &[(String, String)], o: &PairedOptions) -> Result<Run, Error> {
    let mut cmd = Command::new(path);
    cmd.args([
        "--bench",
        "--no-baseline",
        "--no-calibration",
        "-q",
        "--format=json",
    ])
    .arg(format!("--repeat={}", o.repeat))
    .arg(format!("--warmup={}", o.warmup))
    .env_remove("GITHUB_ACTIONS")
    .env_remove("GITHUB_STEP_SUMMARY");
    if let Some(k) = o.min_batch {
        cmd.arg(format!("--min-batch={k}"));
    }
    for p in &o.probes {
        cmd.arg(format!("--probe={p}"));
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let output = cmd
        .output()
        .map_err(|e| Error::input(format!("{}: cannot run: {e}", path.display())))?;
    store::parse(&String::from_utf8_lossy(&output.stdout)).map_err(|e| {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .to_string();
        Error::input(format!(
            "{}: gave no run ({e}); it said: {last}",
            path.display()
        ))
    })
}

/// The checks of every probe both builds measured.
fn compare(
    old: &BTreeMap<String, Series>,
    new: &BTreeMap<String, Series>,
    threshold: f64,
    baseline: &str,
) -> Comparison {
    let mut checks = Vec::new();
    for (key, n) in new {
        let Some(o) = old.get(key) else { continue };
        if n.errors > o.errors {
            checks.push(Check {
                key: key.clone(),
                metric: "errors".into(),
                baseline: o.errors as f64,
                current: n.errors as f64,
                change_pct: (n.errors - o.errors) as f64 * 100.0 / o.errors.max(1) as f64,
                regressed: true,
                p_value: None,
                inconclusive: false,
                confirmation_pct: None,
            });
        }
        if let Some(check) = paired_check(key, &o.rounds, &n.rounds, threshold) {
            checks.push(check);
        }
    }
    Comparison {
        baseline: baseline.to_string(),
        method: "paired".to_string(),
        threshold,
        min_delta: None,
        regressions: checks.iter().filter(|c| c.regressed).count(),
        missing: old
            .keys()
            .filter(|k| !new.contains_key(*k))
            .cloned()
            .collect(),
        new: new
            .keys()
            .filter(|k| !old.contains_key(*k))
            .cloned()
            .collect(),
        checks,
        environment_differences: Vec::new(),
        calibration: None,
    }
}

/// The verdict on one probe from its per-round medians: only rounds in
/// which both builds measured it pair up.
fn paired_check(
    key: &str,
    old: &BTreeMap<usize, f64>,
    new: &BTreeMap<usize, f64>,
    threshold: f64,
) -> Option<Check> {
    let ratios: Vec<f64> = old
        .iter()
        .filter_map(|(round, o)| new.get(round).map(|n| (o, n)))
        .filter(|(o, n)| **o > 0.0 && n.is_finite())
        .map(|(o, n)| n / o)
        .collect();
    let old: Vec<f64> = old.values().copied().collect();
    let new: Vec<f64> = new.values().copied().collect();
    let ratio = median(&ratios)?;
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let p = signed_rank::p_greater(&logs).unwrap_or(1.0);
    let change = (ratio - 1.0) * 100.0;
    let above = change > threshold;
    Some(Check {
        key: key.to_string(),
        metric: "paired median ratio".into(),
        baseline: median(&old)?,
        current: median(&new)?,
        change_pct: change,
        regressed: above && p < ALPHA,
        p_value: Some(p),
        inconclusive: above && p >= ALPHA,
        confirmation_pct: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounds(values: &[f64]) -> BTreeMap<usize, f64> {
        values.iter().copied().enumerate().collect()
    }

    #[test]
    fn a_consistent_slowdown_above_the_threshold_regresses() {
        let old = [1.0, 1.02, 0.99, 1.01, 1.0, 0.98, 1.01, 1.0, 1.02, 0.99];
        let new: Vec<f64> = old.iter().map(|x| x * 1.05).collect();
        let c = paired_check("p", &rounds(&old), &rounds(&new), 3.0).unwrap();
        assert!(c.regressed && !c.inconclusive, "{c:?}");
        assert!((c.change_pct - 5.0).abs() < 1e-9);
        assert_eq!(c.p_value, Some(1.0 / 1024.0));
    }

    #[test]
    fn a_slowdown_below_the_threshold_passes_and_noise_is_inconclusive() {
        let old = [1.0; 10];
        let small: Vec<f64> = old.iter().map(|x| x * 1.02).collect();
        let c = paired_check("p", &rounds(&old), &rounds(&small), 3.0).unwrap();
        assert!(!c.regressed && !c.inconclusive);
        // Half the rounds 30 % slower, half 20 % faster: a large median
        // change the rounds do not agree on.
        let noisy = [1.3, 0.8, 1.3, 0.8, 1.3, 0.8, 1.3, 0.8, 1.3, 1.3];
        let c = paired_check("p", &rounds(&old), &rounds(&noisy), 3.0).unwrap();
        assert!(!c.regressed && c.inconclusive, "{c:?}");
    }

    #[test]
    fn faster_is_never_a_regression() {
        let old = [1.0; 8];
        let new = [0.5; 8];
        let c = paired_check("p", &rounds(&old), &rounds(&new), 3.0).unwrap();
        assert!(!c.regressed && !c.inconclusive);
        assert!(paired_check("p", &BTreeMap::new(), &BTreeMap::new(), 3.0).is_none());
    }

    #[test]
    fn only_rounds_both_builds_measured_pair_up() {
        // The old build failed round 2: rounds 3.. must not shift onto 2.
        let old: BTreeMap<usize, f64> = [(0, 1.0), (1, 1.0), (3, 2.0), (4, 2.0)].into();
        let new: BTreeMap<usize, f64> = [(0, 1.0), (1, 1.0), (2, 9.0), (3, 2.0), (4, 2.0)].into();
        let c = paired_check("p", &old, &new, 3.0).unwrap();
        assert_eq!(c.change_pct, 0.0);
    }
}
