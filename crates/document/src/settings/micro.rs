//! The settings of a run of probes: micro mode and kernel mode, timed or
//! counted.

use crate::platform::Platform;
use crate::run::Metric;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings of a micro or kernel run. Every field has a default, so
/// that a run saved before a field existed still reads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default)]
pub struct MicroSettings {
    /// The injected slowdowns (`YARDSTICK_INJECT`), when any. A run made
    /// with one is never kept or pooled as a baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inject: Option<String>,
    /// The clock's script, when the run was timed by one (a test's): such a
    /// run measured nothing, so it is never a baseline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fake_clock: Option<String>,
    /// `--repeat`: samples per probe.
    pub repeat: usize,
    /// `--warmup`: untimed runs before the samples.
    pub warmup: usize,
    /// The batch asked for; a counted run records the batch it counted.
    pub min_batch: Option<u64>,
    /// Seconds.
    pub probe_timeout: f64,
    /// The `--probe` selection; empty for all.
    pub probes: Vec<String>,
    /// The name filters given, as `cargo bench NAME` takes them.
    pub filters: Vec<String>,
    /// `--exact`: whether filters matched whole names.
    pub exact: bool,
    /// `--threshold`, percent, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// Children per process probe (`--boot-repeat`), when any ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boot_repeat: Option<usize>,
    /// The bench's own parameters given (`--node=57`), by name; runs made
    /// with others did other work, so their changes are information.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    /// Whether a regression was measured again before it was reported
    /// (`--confirm`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub confirm: bool,
    /// How many runs a pooled baseline holds; a run that is not pooled is
    /// one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pooled_runs: Option<u64>,
    /// Counted runs: what was counted, with what.
    #[serde(flatten)]
    pub counting: CountSettings,
    /// Keys this build does not know (a newer build's), kept as they were.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// The set-up of a counted run, which a count depends on beside the build;
/// all absent in a timed run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default)]
pub struct CountSettings {
    /// What was counted; the run's own `metric` says the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<Metric>,
    /// valgrind's version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valgrind: Option<String>,
    /// The simulated cache, for estimated cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_sim: Option<String>,
    /// What the counted child ran on; absent in runs saved before it was
    /// recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count_platform: Option<Platform>,
}

impl MicroSettings {
    /// How many runs these settings stand for: more than one when pooled.
    pub fn runs(&self) -> u64 {
        self.pooled_runs.unwrap_or(1)
    }
}
