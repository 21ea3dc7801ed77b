//! A configuration matrix (`yardstick matrix`): each probe on each
//! configuration as a multiplier of the base configuration's figure, with
//! its 95 % interval, and a row of geometric means. Made by
//! `judge::matrix`, saved with the run.

use crate::run::Metric;
use serde::{Deserialize, Serialize};
use yardstick_stats::bootstrap::Interval;

/// Every probe on every configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Matrix {
    /// What the cells compare: wall time, or a count.
    pub metric: Metric,
    /// The configuration every multiplier divides by.
    pub base: String,
    /// The configurations' names, in the order of every line's cells; the
    /// base among them.
    pub configurations: Vec<String>,
    /// One per probe, by name.
    pub lines: Vec<Line>,
    /// Per configuration, the geometric mean of its multipliers over the
    /// probes where neither it nor the base failed.
    pub geomean: Vec<Cell>,
    /// The equivalence margin as a fraction (`judge::equivalence`): a
    /// multiplier is called faster or slower only when its interval lies
    /// wholly beyond it. Absent in runs made before it, which called no
    /// side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<f64>,
}

/// One probe across the configurations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Line {
    /// The probe.
    pub probe: String,
    /// One per configuration, in the matrix's order.
    pub cells: Vec<Cell>,
}

/// One probe on one configuration (or, in the geometric means, all of
/// them).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Cell {
    /// The configuration's median per iteration: milliseconds, or the
    /// count; none when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median: Option<f64>,
    /// The configuration's figure over the base's with its 95 % interval:
    /// the median of the worker sets' ratios and two of their order
    /// statistics, or an exact count's ratio (a point). None for the base
    /// itself, for a failed cell, and for fewer than six sets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<Interval>,
    /// The worker sets the multiplier stands on (0 for counts).
    #[serde(default)]
    pub sets: usize,
    /// Why the cell is failed: it is never shown as fast. The probe failed,
    /// its worker was lost, or its result differs from the base's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

impl Matrix {
    /// Every failed cell, as (probe, configuration, why).
    pub fn failures(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.lines.iter().flat_map(move |line| {
            line.cells
                .iter()
                .zip(&self.configurations)
                .filter_map(move |(cell, name)| {
                    Some((line.probe.as_str(), name.as_str(), cell.failed.as_deref()?))
                })
        })
    }
}
