//! The settings of `yardstick matrix`: the configurations, and every option
//! that shapes the measurement.

use super::SamplingSettings;
use crate::run::Metric;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings of a configuration matrix. Only `configurations` is
/// required: it is what tells these settings from the others.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
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
    /// The options that shaped the samples, and what the run chose.
    #[serde(flatten)]
    pub sampling: SamplingSettings,
    /// Keys this build does not know (a newer build's), kept as they were.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// One configuration as it was measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
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
