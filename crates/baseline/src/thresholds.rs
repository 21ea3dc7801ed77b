//! Each probe's own threshold, from the spread of its machine class's runs.
//!
//! One threshold for every probe is set by the noisiest probe on the worst
//! day, and every quieter probe pays for it: at 30 % the committed check
//! caught a quarter's slowdown in under a tenth of probe runs, while most
//! probes move by a few percent from run to run. Given enough runs of one
//! class, each probe's threshold is made from its own spread:
//!
//! 1. each run's figure (the median per calibration loop, the figure the
//!    verdict reads) is compared with the median of all the other runs':
//!    the change that run would have shown against a baseline pooled
//!    without it (leave one out);
//! 2. the threshold is the median of those changes plus [`SPREADS`] times
//!    their spread (the median absolute deviation scaled to a standard
//!    deviation, 1.4826 × MAD), a rule that a few wild runs do not move;
//! 3. never below [`FLOOR`] nor above the method's default.
//!
//! Why these numbers: docs/evaluation.md, "A threshold per probe". The
//! runs must span the sittings the check will meet: thresholds learned
//! from runs made back to back are too tight for another day (the same
//! section), so [`MIN_RUNS`] is more runs than one sitting makes.
//!
//! Only runs that describe this machine class's ordinary runs feed a
//! threshold: another class, mode or metric, a run with an injected
//! slowdown or a scripted clock, an imported run, or one without its
//! calibration loop is passed over, and said so.

use crate::document::comparison::Figure;
use crate::document::run::{Metric, Mode, RowKind, Run};
use crate::document::thresholds::Thresholds;
use crate::judge::figure::{self, Among};
use crate::stats::median;
use std::collections::BTreeMap;

/// The fewest runs a probe's threshold is learned from.
pub const MIN_RUNS: usize = 20;
/// How many scaled MADs above the median change the threshold lies.
pub const SPREADS: f64 = 5.0;
/// The lowest threshold learned, in percent: below it, run-to-run
/// drift of the machine class (a kernel update, a new host) that no
/// history of one class has seen yet.
pub const FLOOR: f64 = 5.0;
/// The highest, in percent: the default's, so that learning never makes a
/// probe's check blinder than it was.
pub const CEILING: f64 = crate::judge::NORMALIZED_THRESHOLD;

/// What was learned from a set of runs, and what was passed over.
#[derive(Debug, Clone, PartialEq)]
pub struct Learned {
    /// The thresholds, and how many runs they stand on.
    pub thresholds: Thresholds,
    /// One line per thing worth saying: runs passed over and why, probes
    /// with too few figures.
    pub notes: Vec<String>,
}

/// Each of `like`'s probes' threshold from `runs` (named for the notes):
/// only runs of `like`'s mode, metric and machine class feed them.
pub fn learn(like: &Run, runs: &[(String, Run)]) -> Learned {
    let mut notes = Vec::new();
    let mut passed_over: BTreeMap<&'static str, usize> = BTreeMap::new();
    let usable: Vec<&Run> = runs
        .iter()
        .filter_map(|(_, run)| match unusable(like, run) {
            Some(why) => {
                *passed_over.entry(why).or_default() += 1;
                None
            }
            None => Some(run),
        })
        .collect();
    for (why, count) in passed_over {
        let s = if count == 1 { "" } else { "s" };
        notes.push(format!("thresholds: {count} run{s} passed over ({why})"));
    }
    let mut probes = BTreeMap::new();
    if usable.len() < MIN_RUNS {
        notes.push(format!(
            "thresholds: {} run{} of this class, fewer than the {MIN_RUNS} a probe's own \
             threshold needs: the default applies",
            usable.len(),
            if usable.len() == 1 { "" } else { "s" }
        ));
    } else {
        for row in like.rows.iter().filter(|r| r.kind == RowKind::Probe) {
            let figures = figures_of(&row.key, &usable);
            match threshold(&figures) {
                Some(t) => {
                    probes.insert(row.key.clone(), t);
                }
                None => notes.push(format!(
                    "thresholds: {}: {} of {} runs gave a figure, fewer than {MIN_RUNS}: the \
                     default applies",
                    row.key,
                    figures.len(),
                    usable.len()
                )),
            }
        }
    }
    Learned {
        thresholds: Thresholds {
            runs: usable.len(),
            probes,
        },
        notes,
    }
}

/// Why `run` cannot feed `like`'s thresholds, if it cannot.
fn unusable(like: &Run, run: &Run) -> Option<&'static str> {
    if run.mode != like.mode || run.mode != Mode::Micro {
        return Some("another mode");
    }
    if run.metric != Metric::Time || run.metric != like.metric {
        return Some("another metric");
    }
    let class = |r: &Run| r.environment.machine_class.clone();
    if class(run).is_none() || class(run) != class(like) {
        return Some("another machine class");
    }
    if run.environment.imported.is_some() {
        return Some("imported from another tool");
    }
    let Some(settings) = run.settings.micro() else {
        return Some("another mode");
    };
    if settings.inject.is_some() {
        return Some("an injected slowdown");
    }
    if settings.fake_clock.is_some() {
        return Some("a scripted clock");
    }
    if run.calibration_median().is_none() {
        return Some("no calibration loop");
    }
    None
}

/// The probe `key`'s figure in each run that has a finite, positive one.
fn figures_of(key: &str, runs: &[&Run]) -> Vec<f64> {
    runs.iter()
        .filter_map(|run| {
            let row = run.row(key)?;
            // A probe that failed in a run says nothing of its spread.
            if row.errors > 0 {
                return None;
            }
            figure::of(&Figure::MedianPerCalibration, row, Among::run(run))
        })
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect()
}

/// The threshold, in percent, of a probe whose runs gave `figures`; none
/// with fewer than [`MIN_RUNS`].
pub fn threshold(figures: &[f64]) -> Option<f64> {
    if figures.len() < MIN_RUNS {
        return None;
    }
    let changes: Vec<f64> = (0..figures.len())
        .filter_map(|i| {
            let others: Vec<f64> = figures
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, v)| *v)
                .collect();
            let pooled = median(&others)?;
            (pooled > 0.0).then(|| (figures[i] / pooled - 1.0) * 100.0)
        })
        .collect();
    let centre = median(&changes)?;
    let deviations: Vec<f64> = changes.iter().map(|c| (c - centre).abs()).collect();
    let spread = median(&deviations)? * 1.4826;
    let t = centre + SPREADS * spread;
    Some(if t.is_finite() {
        t.clamp(FLOOR, CEILING)
    } else {
        CEILING
    })
}

#[cfg(test)]
mod tests;
