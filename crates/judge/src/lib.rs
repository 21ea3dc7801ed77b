//! Comparing a run with a baseline. Each mode has its own rules, in a file of
//! its own; this module checks that the two runs can be compared at all and
//! collects what every mode reports alike (missing and new rows, set-up
//! differences).

#![warn(missing_docs)]

pub mod attribution;
pub mod confirm;
mod counts;
pub mod equivalence;
pub mod figure;
mod http;
#[cfg(test)]
mod imported;
mod kernel;
mod machine;
pub mod matrix;
pub mod memory;
mod normalized;
pub mod paired;
pub mod ranking;
mod threshold;
mod tools;

// The crates below, by the names the rest of yardstick gives them.
use yardstick_document as document;
use yardstick_document::error;
use yardstick_probe as probe;
use yardstick_stats as stats;

use crate::document::comparison::{
    Check, Comparison, EnvironmentDifference, Figure, Method, Verdict,
};
use crate::document::run::{Metric, Mode, Row, RowKind, Run};
use crate::error::Error;
use std::collections::{BTreeSet, HashMap};

/// What a comparison is asked to use.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// Percent; `None` takes the mode's default.
    pub threshold: Option<f64>,
    /// Milliseconds (kernel and HTTP); `None` takes the default.
    pub min_delta: Option<f64>,
    /// Percent (micro, timed); `None` takes
    /// [`DEFAULT_MAX_MACHINE_SLOWDOWN`].
    pub max_machine_slowdown: Option<f64>,
    /// Judge wall time against a baseline of another machine class (see
    /// `machine.rs`).
    pub cross_machine: bool,
    /// Judge a run against a baseline made by another tool (see
    /// `tools.rs`).
    pub cross_tool: bool,
}

pub use counts::comparable;
pub use normalized::{
    DEFAULT_MAX_MACHINE_SLOWDOWN, DEFAULT_THRESHOLD as NORMALIZED_THRESHOLD, calibration,
};

/// The default threshold of `method`, in percent: the one place each
/// method's default is stated, which the judge applies and every
/// command's help says. The threshold a baseline was made with is never
/// reused: the comparison's own options decide.
pub const fn default_threshold(method: &Method) -> f64 {
    match method {
        Method::Normalized => normalized::DEFAULT_THRESHOLD,
        Method::Instructions => counts::INSTRUCTIONS_THRESHOLD,
        Method::EstimatedCycles => counts::ESTIMATED_CYCLES_THRESHOLD,
        Method::Paired => paired::DEFAULT_THRESHOLD,
        Method::Http => http::DEFAULT_THRESHOLD,
        Method::Absolute => kernel::DEFAULT_THRESHOLD,
    }
}

/// The default `--min-delta` of `method`, in milliseconds: the growth of
/// a median below which a row never regresses. Only absolute medians
/// (kernel mode) and HTTP times have one; the other methods judge
/// ratios, and take none.
pub const fn default_min_delta(method: &Method) -> Option<f64> {
    match method {
        Method::Absolute => Some(kernel::DEFAULT_MIN_DELTA),
        Method::Http => Some(http::DEFAULT_MIN_DELTA),
        _ => None,
    }
}

/// The rule every method shares: a figure regresses when its change is
/// strictly above the threshold, so a change exactly at it passes.
pub fn over_threshold(change_pct: f64, threshold: f64) -> bool {
    change_pct > threshold
}

/// How a run of `run`'s mode and metric is judged: the one place the two
/// choose the rules, which everything else asks by method.
pub fn method(run: &Run) -> Method {
    match (run.mode, run.metric) {
        // Another tool's micro run with no loop beside it (criterion's):
        // its times are absolute, as kernel mode's.
        (Mode::Micro, Metric::Time)
            if run.calibration.is_none() && run.environment.imported.is_some() =>
        {
            Method::Absolute
        }
        (Mode::Micro, Metric::Time) => Method::Normalized,
        (Mode::Micro, Metric::Instructions) => Method::Instructions,
        (Mode::Micro, Metric::EstimatedCycles) => Method::EstimatedCycles,
        (Mode::Http, _) => Method::Http,
        (Mode::Kernel, _) => Method::Absolute,
    }
}

/// How `run` is judged against `baseline`: by its own method, except that
/// against a baseline judged by absolute times (another tool's, with no
/// loop beside it) a normalised figure has nothing to divide by, and the
/// two meet on absolute medians.
fn method_of(baseline: &Run, run: &Run) -> Method {
    match (method(baseline), method(run)) {
        (Method::Absolute, Method::Normalized) => Method::Absolute,
        (_, method) => method,
    }
}

/// Compares `run` with `baseline` (named `baseline_name` in messages).
pub fn compare(
    baseline: &Run,
    baseline_name: &str,
    run: &Run,
    rules: &Rules,
) -> Result<Comparison, Error> {
    if baseline.mode != run.mode {
        return Err(Error::input(format!(
            "{baseline_name}: runs of different modes cannot be compared (baseline {}, run {})",
            baseline.mode.as_str(),
            run.mode.as_str()
        )));
    }
    let method = method_of(baseline, run);
    let threshold = rules
        .threshold
        .unwrap_or_else(|| default_threshold(&method));
    let mut comparison = Comparison {
        missing: keys_only_in(&baseline.rows, &run.rows),
        new: keys_only_in(&run.rows, &baseline.rows),
        environment_differences: baseline
            .environment
            .differences(&run.environment)
            .into_iter()
            .map(EnvironmentDifference::from)
            .collect(),
        ..Comparison::new(baseline_name, method.clone(), threshold)
    };
    match method {
        Method::Normalized | Method::Instructions | Method::EstimatedCycles => {
            if !counts::comparable(baseline.metric, run.metric) {
                return Err(Error::input(format!(
                    "{baseline_name}: a run of {} is no baseline for a run of {}",
                    baseline.metric.said(),
                    run.metric.said()
                )));
            }
            failures(baseline, run, &mut comparison);
            if method == Method::Normalized {
                let slowdown = rules.max_machine_slowdown;
                let slowdown = slowdown.unwrap_or(DEFAULT_MAX_MACHINE_SLOWDOWN);
                let thresholds = threshold::Choice {
                    given: rules.threshold,
                    baseline: baseline.thresholds.as_ref(),
                    default: threshold,
                };
                normalized::compare(
                    baseline,
                    baseline_name,
                    run,
                    (slowdown, thresholds),
                    &mut comparison,
                )?;
            } else {
                counts::compare(baseline, run, &mut comparison);
            }
            memory::compare(baseline, run, &mut comparison);
        }
        Method::Http => http::compare(baseline, run, rules.min_delta, &mut comparison),
        Method::Absolute => {
            failures(baseline, run, &mut comparison);
            kernel::compare(baseline, run, rules.min_delta, &mut comparison);
            memory::compare(baseline, run, &mut comparison);
        }
        // `method` gives it to no saved run: two builds are judged as they
        // are measured (`paired.rs`).
        Method::Paired => {}
    }
    machine::hold_back_across_classes(baseline, run, rules.cross_machine, &mut comparison);
    tools::hold_back_across_tools(baseline, run, rules.cross_tool, &mut comparison);
    other_params(baseline, run, &mut comparison);
    Ok(comparison)
}

/// Probes given other parameters (`--node`), and HTTP runs of other pages
/// found from the site, did other work: their changes are shown, never
/// judged.
fn other_params(baseline: &Run, run: &Run, out: &mut Comparison) {
    out.param_differences = crate::document::setup::param_differences(baseline, run)
        .into_iter()
        .chain(http::page_list_difference(baseline, run))
        .map(EnvironmentDifference::from)
        .collect();
    out.informational |= !out.param_differences.is_empty();
}

/// A probe that failed more often than in the baseline regresses, whatever
/// its figures.
fn failures(baseline: &Run, run: &Run, out: &mut Comparison) {
    for (base, now) in common_rows(baseline, run) {
        out.checks
            .extend(more_failures(&now.key, base.errors, now.errors));
    }
}

/// Rows measured in both runs, in the order of `run`; matched through a
/// hash of the baseline's keys, so runs of many rows compare in linear time.
///
/// In micro mode rows of process probes are left out: they are absolute
/// times of whole processes, which micro's methods do not judge
/// (normalised medians divide by the loop, counts and allocations are not
/// theirs); they are listed as new or missing like any row. Kernel mode
/// judges them, as absolute times.
fn common_rows<'a>(baseline: &'a Run, run: &'a Run) -> impl Iterator<Item = (&'a Row, &'a Row)> {
    let by_key: HashMap<&str, &Row> = baseline.rows.iter().map(|r| (r.key.as_str(), r)).collect();
    run.rows
        .iter()
        .filter(|now| run.mode != Mode::Micro || now.kind != RowKind::Process)
        .filter_map(move |now| by_key.get(now.key.as_str()).map(|b| (*b, now)))
}

fn keys_only_in(a: &[Row], b: &[Row]) -> Vec<String> {
    let other: BTreeSet<&str> = b.iter().map(|r| r.key.as_str()).collect();
    a.iter()
        .filter(|r| !other.contains(r.key.as_str()))
        .map(|r| r.key.clone())
        .collect()
}

/// The rule every mode shares: a row that failed more often than in the
/// baseline regresses, whatever its figures.
fn more_failures(key: &str, baseline: u64, current: u64) -> Option<Check> {
    (current > baseline).then(|| {
        let (b, n) = (baseline as f64, current as f64);
        Check::new(
            key,
            Figure::Errors,
            b,
            n,
            change_pct(b, n),
            Verdict::Regressed,
        )
    })
}

/// Change from `baseline` to `current` in percent. From a baseline of zero
/// (a probe that never failed), the change is taken against one unit, so the
/// figure stays finite and JSON can hold it.
fn change_pct(baseline: f64, current: f64) -> f64 {
    if baseline == 0.0 {
        current * 100.0
    } else {
        (current / baseline - 1.0) * 100.0
    }
}

/// The fixtures this crate's tests read, which the repository's other
/// crates share (`tests/fixtures/` at its root).
#[cfg(test)]
fn fixtures() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures"))
}
