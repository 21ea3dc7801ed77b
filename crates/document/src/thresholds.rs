//! Each probe's own threshold: learned by `baseline::thresholds` from the
//! spread of its machine class's runs, carried by the baseline that was
//! made with them, and read by the judge for every check of that probe.
//!
//! A baseline carries them because the judge that uses it may have no
//! history at all: CI keeps none, and a user's bench builds no database.
//! What the baseline says is what every machine of its class is judged by.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The thresholds a baseline was made with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Thresholds {
    /// The runs whose spread was measured (whether or not there were
    /// enough for a probe to be given a threshold of its own).
    pub runs: usize,
    /// Percent, by row key. A probe absent is judged by the default.
    pub probes: BTreeMap<String, f64>,
}

impl Thresholds {
    /// The threshold of the probe `key`, if it was given one.
    pub fn of(&self, key: &str) -> Option<f64> {
        self.probes.get(key).copied()
    }
}
