//! The settings of `compare-builds`: every option that shapes the
//! comparison, and what it chose itself (the seed, the CPU, the samples a
//! round).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings of a comparison of two builds. Only `old` and `new` are
/// required: they are what tells these settings from a micro run's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PairedSettings {
    /// The old bench binary, as given.
    pub old: String,
    /// The new bench binary, as given.
    pub new: String,
    /// `--rounds`: rounds of both builds.
    #[serde(default)]
    pub rounds: usize,
    /// Worker pairs that ran the rounds.
    #[serde(default)]
    pub pairs: usize,
    /// `--repeat`: samples per probe and build.
    #[serde(default)]
    pub repeat: usize,
    /// `--round-ms`: the time a round aims at.
    #[serde(default)]
    pub round_ms: u64,
    /// The clock's script; only when the clock is scripted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fake_clock: Option<String>,
    /// Per probe both builds timed: its samples a round on each build, as
    /// the first pair sized them.
    #[serde(default)]
    pub samples_per_round: BTreeMap<String, usize>,
    /// `--warmup`: untimed runs before the samples.
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
    /// The CPU both builds ran on; null where pinning is not allowed.
    #[serde(default)]
    pub cpu: Option<usize>,
    /// Percent.
    #[serde(default)]
    pub threshold: f64,
    /// The old build's extra environment, as NAME=VALUE.
    #[serde(default)]
    pub env_old: Vec<String>,
    /// The new build's extra environment, as NAME=VALUE.
    #[serde(default)]
    pub env_new: Vec<String>,
    /// Keys this build does not know (a newer build's), kept as they were.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}
