//! A baseline learned from several runs of the same code.
//!
//! One run says what a probe measured once; it cannot say how much the
//! probe moves when nothing changed. Given several runs of one build (A/A
//! runs, made one after another on the machine that keeps the baseline),
//! each probe's figure under every divisor is judged, run by run, against
//! the median of the other runs: those are the changes a stored baseline
//! would have shown with no change in the code. Per probe the divisor whose
//! changes stay smallest is kept (the mixed loop unless a narrow kernel
//! beats it), and the probe's own threshold is the far-out fence of those
//! changes (Q3 + 3 × IQR), never below [`FLOOR_PCT`] and never above the
//! threshold the baseline is learned for. The saved baseline pools every
//! run's samples, so its reference figures rest on all of them.

use crate::error::Error;
use crate::normalizer::Normalizer;
use crate::run::{CalibrationSummary, Metric, Mode, Row, Run};
use crate::stats::noise::{leave_one_out_changes, upper_fence};
use serde_json::json;

/// The fewest runs a baseline is learned from: with two, each run is judged
/// against the other alone.
pub const MIN_RUNS: usize = 3;
/// The lowest threshold a probe is given, percent: below it a probe's
/// threshold would rest on timer resolution and luck.
pub const FLOOR_PCT: f64 = 2.0;

/// What was learned about one probe.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub key: String,
    pub normalizer: Normalizer,
    /// Per divisor the run gave: the fence of its A/A changes, percent.
    pub fences: Vec<(Normalizer, f64)>,
    /// The probe's threshold, percent.
    pub threshold: f64,
}

/// A learned baseline and the choices that went into it.
#[derive(Debug, Clone)]
pub struct Learned {
    pub run: Run,
    pub choices: Vec<Choice>,
}

/// Learns a baseline from `runs` (each with the name it was loaded from,
/// for errors) for comparisons at `cap` percent.
pub fn learn(runs: &[(String, Run)], cap: f64) -> Result<Learned, Error> {
    if runs.len() < MIN_RUNS {
        return Err(Error::usage(format!(
            "a baseline is learned from at least {MIN_RUNS} runs of the same build ({} given)",
            runs.len()
        )));
    }
    for (name, run) in runs {
        usable(name, run)?;
    }
    let (first_name, first) = &runs[0];
    for (name, run) in &runs[1..] {
        if let Some(extra) = run
            .rows
            .iter()
            .find(|r| !first.rows.iter().any(|f| f.key == r.key))
        {
            return Err(Error::input(format!(
                "{name}: probe `{}` is not in {first_name}; learn from runs of the same probes",
                extra.key
            )));
        }
    }
    let mut rows = Vec::with_capacity(first.rows.len());
    let mut choices = Vec::with_capacity(first.rows.len());
    for row in &first.rows {
        let mut same: Vec<(&Run, &Row)> = Vec::with_capacity(runs.len());
        for (name, run) in runs {
            let r = run.rows.iter().find(|r| r.key == row.key).ok_or_else(|| {
                Error::input(format!(
                    "{name}: has no probe `{}`, which {first_name} has; learn from runs of the same probes",
                    row.key
                ))
            })?;
            if r.errors > 0 || r.median.is_none() {
                return Err(Error::input(format!(
                    "{name}: probe `{}` failed in this run; learn from runs in which every probe passed",
                    row.key
                )));
            }
            same.push((run, r));
        }
        let choice = choose(&row.key, &same, cap)?;
        rows.push(pooled(&same, &choice));
        choices.push(choice);
    }
    Ok(Learned {
        run: merged(runs, rows),
        choices,
    })
}

/// A run a baseline can be learned from, or why not.
fn usable(name: &str, run: &Run) -> Result<(), Error> {
    if run.mode != Mode::Micro || run.metric != Metric::Time {
        return Err(Error::input(format!(
            "{name}: a baseline is learned from timed micro runs (this is a {} run{})",
            run.mode.as_str(),
            if run.metric == Metric::Time {
                String::new()
            } else {
                format!(" of {}", run.metric.as_str())
            }
        )));
    }
    if run.calibration.is_none() {
        return Err(Error::input(format!(
            "{name}: the run has no calibration; a baseline needs it"
        )));
    }
    if run.settings.contains_key("inject") {
        return Err(Error::input(format!(
            "{name}: the run was made with an injected slowdown; a baseline must not be"
        )));
    }
    Ok(())
}

fn calibration_median(run: &Run) -> f64 {
    run.calibration.as_ref().map_or(f64::NAN, |c| c.median)
}

/// The divisor with the smallest fence (the loop wins ties), and the
/// probe's threshold from that fence.
fn choose(key: &str, same: &[(&Run, &Row)], cap: f64) -> Result<Choice, Error> {
    let mut fences = Vec::new();
    for n in Normalizer::ALL {
        let figures: Option<Vec<f64>> = same
            .iter()
            .map(|(run, row)| n.figure(row, calibration_median(run)))
            .collect();
        let fence = figures
            .map(|f| leave_one_out_changes(&f))
            .and_then(|changes| upper_fence(&changes));
        if let Some(fence) = fence {
            fences.push((n, fence));
        }
    }
    let best = fences
        .iter()
        .copied()
        .reduce(|best, c| if c.1 < best.1 { c } else { best })
        .ok_or_else(|| {
            Error::input(format!(
                "probe `{key}`: no run gives a figure to learn from (no samples, or no calibration)"
            ))
        })?;
    Ok(Choice {
        key: key.to_string(),
        normalizer: best.0,
        fences,
        threshold: best.1.max(FLOOR_PCT).min(cap),
    })
}

/// One row holding every run's samples, with the choice recorded.
fn pooled(same: &[(&Run, &Row)], choice: &Choice) -> Row {
    let first = same[0].1;
    let samples: Vec<f64> = same
        .iter()
        .flat_map(|(_, r)| r.samples.iter().copied())
        .collect();
    let mut row = Row::with_samples(first.key.clone(), first.kind, first.name.clone(), samples);
    row.batch = first.batch;
    row.ops = first.ops;
    row.requests = same.iter().map(|(_, r)| r.requests).sum();
    row.rps = match (row.ops, row.median) {
        (Some(ops), Some(m)) if m > 0.0 => Some(ops as f64 * 1000.0 / m),
        _ => None,
    };
    row.note = first.note.clone();
    // Divisor times pool only where every run has them beside each sample;
    // otherwise the pairs would no longer line up.
    let aligned = |times: &dyn Fn(&Row) -> Option<&Vec<f64>>| -> Option<Vec<f64>> {
        let mut out = Vec::new();
        for (_, r) in same {
            let t = times(r).filter(|t| t.len() == r.samples.len())?;
            out.extend_from_slice(t);
        }
        Some(out)
    };
    row.calibration_samples = aligned(&|r| Some(&r.calibration_samples)).unwrap_or_default();
    for name in first.kernel_samples.keys() {
        if let Some(t) = aligned(&|r| r.kernel_samples.get(name)) {
            row.kernel_samples.insert(name.clone(), t);
        }
    }
    row.normalizer = Some(choice.normalizer.name().to_string());
    row.threshold = Some(choice.threshold);
    row
}

/// The first run's description with the pooled rows and loops.
fn merged(runs: &[(String, Run)], rows: Vec<Row>) -> Run {
    let mut run = runs[0].1.clone();
    let loops: Vec<f64> = runs
        .iter()
        .flat_map(|(_, r)| r.rows.iter().flat_map(|row| row.calibration_samples.iter()))
        .copied()
        .collect();
    let checksum = run.calibration.as_ref().map_or(0, |c| c.checksum);
    let (before, after) = loops.split_at(loops.len() / 2);
    run.calibration = CalibrationSummary::of(before, after, checksum).or(run.calibration);
    let c = run.calibration.as_ref().map(|c| c.median);
    run.rows = rows;
    for row in &mut run.rows {
        row.normalized = c.and_then(|c| row.normalized_median(c));
    }
    let mut warnings: Vec<String> = Vec::new();
    for (_, r) in runs {
        for w in &r.warnings {
            if !warnings.contains(w) {
                warnings.push(w.clone());
            }
        }
    }
    run.warnings = warnings;
    run.settings
        .insert("learned_from_runs".into(), json!(runs.len()));
    run.comparison = None;
    run.pairs = None;
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calibration::Kernel;
    use crate::environment::Environment;
    use crate::run::{FORMAT, RowKind, TOOL};
    use std::collections::BTreeMap;

    /// A run whose probe `p` took `times` ms with the loop at `loops` and
    /// the alu kernel at `alu` before each sample.
    fn run(times: &[f64], loops: &[f64], alu: &[f64]) -> Run {
        let mut row = Row::with_samples("p".into(), RowKind::Probe, "p".into(), times.to_vec());
        row.calibration_samples = loops.to_vec();
        row.kernel_samples.insert("alu".into(), alu.to_vec());
        row.requests = times.len() as u64;
        Run {
            tool: TOOL.into(),
            format: FORMAT,
            mode: Mode::Micro,
            started: String::new(),
            machine: String::new(),
            settings: BTreeMap::new(),
            environment: Environment::default(),
            warnings: Vec::new(),
            calibration: CalibrationSummary::of(loops, loops, 7),
            rows: vec![row],
            comparison: None,
            pairs: None,
            metric: Metric::Time,
        }
    }

    fn named(runs: Vec<Run>) -> Vec<(String, Run)> {
        runs.into_iter()
            .enumerate()
            .map(|(i, r)| (format!("run{i}.json"), r))
            .collect()
    }

    #[test]
    fn the_kernel_that_moves_with_the_probe_is_chosen() {
        // The machine's speed for this probe differs run to run; the alu
        // kernel follows it exactly, the loop does not move at all.
        let runs = named(
            [1.0, 1.3, 0.8, 1.1]
                .iter()
                .map(|s| run(&[2.0 * s, 2.0 * s], &[4.0, 4.0], &[*s, *s]))
                .collect(),
        );
        let learned = learn(&runs, 15.0).unwrap();
        let c = &learned.choices[0];
        assert_eq!(c.normalizer, Normalizer::Kernel(Kernel::Alu));
        // No A/A change at all under alu: the floor applies.
        assert_eq!(c.threshold, FLOOR_PCT);
        let row = &learned.run.rows[0];
        assert_eq!(row.normalizer.as_deref(), Some("alu"));
        assert_eq!(row.threshold, Some(FLOOR_PCT));
        // Every run's samples and divisor times are pooled, in line.
        assert_eq!(row.samples.len(), 8);
        assert_eq!(row.kernel_samples["alu"].len(), 8);
        assert_eq!(row.calibration_samples.len(), 8);
        assert_eq!(row.requests, 8);
        assert_eq!(
            Normalizer::Kernel(Kernel::Alu).figure(row, f64::NAN),
            Some(2.0)
        );
        assert_eq!(learned.run.settings["learned_from_runs"], json!(4));
    }

    #[test]
    fn the_loop_wins_ties_and_the_threshold_is_the_fence_within_bounds() {
        // The probe's figure under either divisor, run by run.
        let figures = [1.0, 1.02, 1.0, 1.05, 1.03];
        let make = |f: &f64| run(&[*f], &[1.0], &[1.0]);
        let runs = named(figures.iter().map(make).collect());
        let c = &learn(&runs, 50.0).unwrap().choices[0];
        assert_eq!(c.normalizer, Normalizer::Calib);
        let changes = leave_one_out_changes(&figures);
        let fence = upper_fence(&changes).unwrap();
        assert!(fence > 5.0 && fence < 50.0, "{fence}");
        assert!((c.threshold - fence).abs() < 1e-9);
        // Never above the threshold the baseline is learned for.
        assert_eq!(learn(&runs, 5.0).unwrap().choices[0].threshold, 5.0);
    }

    #[test]
    fn refusals_name_the_run_and_the_reason() {
        let ok = || run(&[1.0], &[1.0], &[1.0]);
        let e = learn(&named(vec![ok(), ok()]), 15.0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("at least 3 runs"), "{e}");

        let mut injected = ok();
        injected.settings.insert("inject".into(), json!("*:15"));
        let e = learn(&named(vec![ok(), ok(), injected]), 15.0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("run2.json") && e.contains("injected"), "{e}");

        let mut failed = ok();
        failed.rows[0].errors = 1;
        let e = learn(&named(vec![ok(), failed, ok()]), 15.0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("run1.json") && e.contains("failed"), "{e}");

        let mut other = ok();
        other.rows[0].key = "q".into();
        let e = learn(&named(vec![ok(), ok(), other]), 15.0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("run2.json") && e.contains("`q`"), "{e}");

        let mut http = ok();
        http.mode = Mode::Http;
        let e = learn(&named(vec![http, ok(), ok()]), 15.0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("run0.json") && e.contains("http"), "{e}");
    }
}
