//! The matrix rule: each configuration's figure for each probe as a
//! multiplier of the base configuration's, and the silent-failure check.
//!
//! Timed, the evidence is the worker sets, as in `judge::paired`: each
//! set's figure is the median of its rounds' ratios configuration/base,
//! and the multiplier is the median of the sets' figures with a
//! distribution-free interval (`stats::order`: ten sets give the 2nd and
//! 9th, a 97.9 % interval). Counted, each configuration's count is exact
//! and so is the ratio.
//!
//! A configuration that does less work looks fastest, so a cell is
//! `failed`, and never given a multiplier, when the probe failed on it or
//! on the base, its worker was lost, or its result's fingerprint differs
//! from the base's.
//!
//! A multiplier is called faster or slower by the rule the groups'
//! rankings use (`judge::equivalence`): only when its whole interval lies
//! beyond the margin. The margin is saved with the matrix, and the output
//! marks each cell by it.

use crate::document::matrix::{Cell, Line, Matrix};
use crate::document::run::Metric;
use crate::equivalence;
use crate::paired::{Series, paired_rounds, set_figures};
use crate::stats::bootstrap::Interval;
use crate::stats::{median, order};
use std::collections::BTreeMap;

/// What one configuration gave for one probe.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    /// Its figures.
    pub evidence: Evidence,
    /// The fingerprint of its result, when the probe has one.
    pub checksum: Option<u64>,
    /// Why it failed, if it did.
    pub failure: Option<String>,
}

/// A probe's figures on one configuration.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// Timed in interleaved rounds.
    Rounds(Series),
    /// Counted once, exactly (none when the count is missing).
    Count(Option<f64>),
}

/// One configuration as the rule takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Given {
    /// Its name.
    pub name: String,
    /// What it gave, by probe.
    pub probes: BTreeMap<String, Observed>,
    /// Why its worker was given up, if it was.
    pub lost: Option<String>,
}

/// The matrix of `given`, the first configuration the base; every probe
/// the base offered is a line. A base that offered none gives no line, so
/// the caller refuses it first ([`base_gave_nothing`]).
pub fn judge(given: &[Given], metric: Metric) -> Matrix {
    let Some(base) = given.first() else {
        return Matrix {
            metric,
            base: String::new(),
            configurations: Vec::new(),
            lines: Vec::new(),
            geomean: Vec::new(),
            margin: Some(equivalence::MARGIN),
        };
    };
    let mut lines = Vec::new();
    let mut by_set: Vec<BTreeMap<String, BTreeMap<usize, f64>>> =
        vec![BTreeMap::new(); given.len()];
    for (probe, on_base) in &base.probes {
        let mut cells = vec![base_cell(on_base)];
        for (c, side) in given.iter().enumerate().skip(1) {
            let (cell, sets) = cell(probe, on_base, side, &base.name);
            if cell.multiplier.is_some() {
                by_set[c].insert(probe.clone(), sets);
            }
            cells.push(cell);
        }
        lines.push(Line {
            probe: probe.clone(),
            cells,
        });
    }
    let geomean = (0..given.len())
        .map(|c| geomean(&lines, c, &by_set[c], c == 0))
        .collect();
    Matrix {
        metric,
        base: base.name.clone(),
        configurations: given.iter().map(|g| g.name.clone()).collect(),
        lines,
        geomean,
        margin: Some(equivalence::MARGIN),
    }
}

/// Why the base configuration gave no probe at all, when it did not: a
/// matrix with nothing to divide by has no cell to fail, so it must not
/// pass as an empty one.
pub fn base_gave_nothing(given: &[Given]) -> Option<String> {
    let base = given.first()?;
    base.probes.is_empty().then(|| {
        let why = base.lost.as_deref().unwrap_or("no probe was offered");
        format!(
            "matrix: the base configuration {} gave nothing: {why}",
            base.name
        )
    })
}

/// The base's own cell: its median, or why it failed.
fn base_cell(on_base: &Observed) -> Cell {
    Cell {
        median: on_base
            .failure
            .is_none()
            .then(|| figure(&on_base.evidence))
            .flatten(),
        failed: on_base.failure.clone(),
        ..Cell::default()
    }
}

/// One probe's cell on configuration `side`, and its figure per worker set
/// (none counted).
fn cell(probe: &str, on_base: &Observed, side: &Given, base: &str) -> (Cell, BTreeMap<usize, f64>) {
    let failed = |why: String| {
        let cell = Cell {
            failed: Some(why),
            ..Cell::default()
        };
        (cell, BTreeMap::new())
    };
    let Some(mine) = side.probes.get(probe) else {
        let why = side.lost.clone();
        return failed(why.unwrap_or_else(|| format!("{probe} is not offered")));
    };
    if let Some(why) = &mine.failure {
        return failed(why.clone());
    }
    if on_base.failure.is_some() {
        return failed(format!("{probe} failed on {base}, nothing to compare"));
    }
    match (on_base.checksum, mine.checksum) {
        (Some(b), Some(m)) if b != m => {
            return failed(format!(
                "result differs from {base} (checksum {b:016x} → {m:016x})"
            ));
        }
        // One side fingerprints its result and the other does not: they
        // cannot be shown to do the same work. Neither: nothing to check.
        (Some(_), None) | (None, Some(_)) => {
            return failed(format!(
                "no fingerprint of its result or {base}'s: agreement cannot be checked"
            ));
        }
        _ => {}
    }
    let median = figure(&mine.evidence);
    let (multiplier, sets) = match (&on_base.evidence, &mine.evidence) {
        (Evidence::Rounds(b), Evidence::Rounds(m)) => {
            let sets = set_figures(&paired_rounds(&b.rounds, &m.rounds));
            let figures: Vec<f64> = sets.values().copied().collect();
            (order::median_interval(&figures), sets)
        }
        (Evidence::Count(Some(b)), Evidence::Count(Some(m))) if *b > 0.0 => {
            (Some(point(m / b)), BTreeMap::new())
        }
        _ => (None, BTreeMap::new()),
    };
    if median.is_none() || (multiplier.is_none() && sets.is_empty()) {
        return failed(format!("{probe} gave no figure"));
    }
    let cell = Cell {
        median,
        multiplier,
        sets: sets.len(),
        failed: None,
    };
    (cell, sets)
}

/// A configuration's figure per iteration: the median of its rounds'
/// figures, or its count.
fn figure(evidence: &Evidence) -> Option<f64> {
    match evidence {
        Evidence::Rounds(series) => median(&series.rounds.values().copied().collect::<Vec<_>>()),
        Evidence::Count(count) => *count,
    }
}

/// An exact ratio as an interval of no width.
fn point(ratio: f64) -> Interval {
    Interval {
        low: ratio,
        estimate: ratio,
        high: ratio,
    }
}

/// Configuration `c`'s geometric mean over the probes it has a multiplier
/// for. Counted, the geometric mean of those exact multipliers. Timed, each
/// worker set that measured them all gives its geometric mean over them,
/// and the row is the median of those with their order-statistic interval:
/// the estimate and its interval are one statistic (fewer than six such
/// sets allow none, as for a cell). None for the base.
fn geomean(
    lines: &[Line],
    c: usize,
    by_set: &BTreeMap<String, BTreeMap<usize, f64>>,
    is_base: bool,
) -> Cell {
    if is_base || by_set.is_empty() {
        return Cell::default();
    }
    // Counted cells have no sets: their ratios are exact.
    if by_set.values().all(BTreeMap::is_empty) {
        let estimates: Vec<f64> = lines
            .iter()
            .filter_map(|l| Some(l.cells[c].multiplier?.estimate))
            .collect();
        return Cell {
            multiplier: Some(point(geometric_mean(&estimates))),
            ..Cell::default()
        };
    }
    let common: Vec<usize> = by_set
        .values()
        .flat_map(|s| s.keys().copied())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .filter(|set| by_set.values().all(|s| s.contains_key(set)))
        .collect();
    let per_set: Vec<f64> = common
        .iter()
        .map(|set| {
            geometric_mean(
                &by_set
                    .values()
                    .filter_map(|s| s.get(set).copied())
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    Cell {
        median: None,
        multiplier: order::median_interval(&per_set),
        sets: common.len(),
        failed: None,
    }
}

/// The geometric mean of positive ratios.
fn geometric_mean(ratios: &[f64]) -> f64 {
    let logs: f64 = ratios.iter().map(|r| r.ln()).sum();
    (logs / ratios.len() as f64).exp()
}

#[cfg(test)]
mod tests;
