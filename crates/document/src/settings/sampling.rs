//! What `compare-builds` and `matrix` share of their settings: both measure
//! in interleaved rounds on fresh worker sets, so the options that shape
//! the samples, and what each run chose itself (the seed, the CPU, the
//! samples a round), are the same fields, defined once here.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How the rounds of a paired or matrix run were sampled.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct SamplingSettings {
    /// `--repeat`: the fewest samples per probe, build or configuration,
    /// and round.
    #[serde(default)]
    pub repeat: usize,
    /// The time a round aims at, in milliseconds: `--round-ms` of
    /// compare-builds, `--round-time` of matrix (per probe and
    /// configuration).
    #[serde(default)]
    pub round_ms: u64,
    /// The clock's script; only when the clock is scripted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fake_clock: Option<String>,
    /// Per probe timed: its samples a round on each build or
    /// configuration, as the first worker set sized them.
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
}
