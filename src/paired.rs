//! Paired comparison of two builds in one job (`yardstick compare-builds`):
//! running them. The rules that judge the rounds are in `compare::paired`.
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
use crate::compare::{self, paired::Side};
use crate::environment::{Environment, now, repository_dir};
use crate::error::Error;
use crate::outcome;
use crate::progress::Progress;
use crate::run::{FORMAT, Mode, Row, RowKind, Run, TOOL};
use crate::store;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Which build a measurement belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Build {
    Old,
    New,
}

/// Per probe and build: what the paired rules judge (per-round medians and
/// failures), and every sample for the saved run.
#[derive(Default)]
struct Series {
    side: Side,
    samples: Vec<f64>,
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
            [Build::Old, Build::New]
        } else {
            [Build::New, Build::Old]
        };
        for side in order {
            let (path, env, into) = match side {
                Build::Old => (&o.old, &o.env_old, &mut old),
                Build::New => (&o.new, &o.env_new, &mut new),
            };
            progress.start(&format!("round {round}: {}", path.display()));
            let run = measure(path, env, o)?;
            for row in run.rows {
                let s = into.entry(row.key.clone()).or_default();
                if let Some(m) = row.median {
                    s.side.rounds.insert(round, m);
                }
                s.samples.extend(row.samples);
                s.side.errors += row.errors;
                s.batch = row.batch.or(s.batch);
                s.ops = row.ops.or(s.ops);
                s.note = row.note;
            }
            progress.advance();
        }
    }
    progress.finish();

    let threshold = o
        .common
        .threshold
        .unwrap_or(compare::paired::DEFAULT_THRESHOLD);
    let sides = |series: &BTreeMap<String, Series>| -> BTreeMap<String, Side> {
        series
            .iter()
            .map(|(k, s)| (k.clone(), s.side.clone()))
            .collect()
    };
    let comparison = compare::paired::compare(
        &sides(&old),
        &sides(&new),
        threshold,
        &o.old.display().to_string(),
    );
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
            row.requests = row.n as u64 + s.side.errors;
            row.errors = s.side.errors;
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
