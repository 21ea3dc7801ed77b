//! The settings of `compare-builds`: every option that shapes the
//! comparison, and what it chose itself (the seed, the CPU, the samples a
//! round).

use super::SamplingSettings;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings of a comparison of two builds. Only `old` and `new` are
/// required: they are what tells these settings from a micro run's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
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
    /// The options that shaped the samples, and what the run chose.
    #[serde(flatten)]
    pub sampling: SamplingSettings,
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
