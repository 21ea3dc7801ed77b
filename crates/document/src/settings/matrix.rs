//! The settings of `yardstick matrix`: the configurations, and every option
//! that shapes the measurement.

use crate::run::Metric;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings of a configuration matrix. Only `configurations` is
/// required: it is what tells these settings from the others.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatrixSettings {
    /// Every configuration, the base first.
    pub configurations: Vec<ConfigurationSettings>,
    /// What the cells compare.
    #[serde(default)]
    pub metric: Metric,
    /// `--rounds`: rounds of every configuration (timed).
    #[serde(default)]
    pub rounds: usize,
    /// Worker sets that ran the rounds (timed).
    #[serde(default)]
    pub sets: usize,
    /// `--repeat`: the fewest samples per probe, configuration and round.
    #[serde(default)]
    pub repeat: usize,
    /// `--round-time`: milliseconds per probe, configuration and round.
    #[serde(default)]
    pub round_ms: u64,
    /// The clock's script; only when the clock is scripted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fake_clock: Option<String>,
    /// Per probe timed: its samples a round on each configuration.
    #[serde(default)]
    pub samples_per_round: BTreeMap<String, usize>,
    /// `--warmup`: untimed samples before each set's first round.
    #[serde(default)]
    pub warmup: usize,
    /// `--min-batch`, when given.
    #[serde(default)]
    pub min_batch: Option<u64>,
    /// The `--probe` selection; empty for all.
    #[serde(default)]
    pub probes: Vec<String>,
    /// The seed of every random order, given or drawn.
    #[serde(default)]
    pub seed: u64,
    /// The CPU every worker ran on; null where pinning is not allowed.
    #[serde(default)]
    pub cpu: Option<usize>,
    /// Keys this build does not know (a newer build's), kept as they were.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// One configuration as it was measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ConfigurationSettings {
    /// Its name.
    pub name: String,
    /// Its bench binary, as given.
    pub bench: String,
    /// Its extra environment, as NAME=VALUE.
    #[serde(default)]
    pub env: Vec<String>,
    /// Its workers' arguments.
    #[serde(default)]
    pub args: Vec<String>,
}
