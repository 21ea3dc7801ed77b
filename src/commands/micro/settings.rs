//! What a micro run saves as its settings: the options that shaped its
//! figures, so that a later reader knows what was measured and how.

use super::options::MicroOptions;
use crate::document::run::Metric;
use crate::measure::callgrind::costs;
use crate::measure::callgrind::pin::{self, Platform};
use crate::measure::clock::Clock;
use crate::measure::inject::Injection;
use serde::Serialize;
use std::collections::BTreeMap;

/// The settings of a micro run, saved under these names (format 1).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct MicroSettings {
    /// The injected slowdowns (`YARDSTICK_INJECT`), when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inject: Option<String>,
    /// The clock's script, when the run was timed by one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fake_clock: Option<String>,
    pub repeat: usize,
    pub warmup: usize,
    /// The batch asked for; a counted run records the batch it counted.
    pub min_batch: Option<u64>,
    /// Seconds.
    pub probe_timeout: f64,
    pub probes: Vec<String>,
    pub filters: Vec<String>,
    pub exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// Children per process probe (`--boot-repeat`), when any ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boot_repeat: Option<usize>,
    /// The bench's own parameters given (`--node=57`), by name; runs made
    /// with others did other work (see `judge::setup`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    /// Counted runs: what was counted, with what.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub counting: Option<CountSettings>,
}

/// The set-up of a counted run (see `judge::setup`).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CountSettings {
    /// `instructions` or `estimated-cycles`.
    pub metric: &'static str,
    /// valgrind's version, which a count depends on.
    pub valgrind: String,
    /// The simulated cache, for estimated cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_sim: Option<String>,
    /// What the counted child ran on (its key:
    /// `document::platform::SETTINGS_KEY`, which a test keeps equal).
    pub count_platform: Platform,
}

impl MicroSettings {
    /// The settings of a timed run.
    pub fn timed(o: &MicroOptions, injection: &Injection, clock: &Clock) -> MicroSettings {
        MicroSettings {
            inject: (!injection.is_empty()).then(|| injection.describe()),
            fake_clock: clock.describe(),
            repeat: o.repeat,
            warmup: o.warmup,
            min_batch: o.min_batch,
            probe_timeout: o.probe_timeout.as_secs_f64(),
            probes: o.probes.clone(),
            filters: o.filters.clone(),
            exact: o.exact,
            threshold: o.common.threshold,
            boot_repeat: None,
            params: o.params.iter().cloned().collect(),
            counting: None,
        }
    }

    /// The settings of a run counted in batches of `batch` with `valgrind`.
    pub fn counted(
        o: &MicroOptions,
        injection: &Injection,
        metric: Metric,
        batch: u64,
        valgrind: String,
    ) -> MicroSettings {
        let cache = metric == Metric::EstimatedCycles;
        MicroSettings {
            min_batch: Some(batch),
            counting: Some(CountSettings {
                metric: metric.as_str(),
                valgrind,
                cache_sim: cache.then(costs::cache_geometry),
                count_platform: pin::here().platform.clone(),
            }),
            // Counts are never timed: no script applies.
            ..MicroSettings::timed(o, injection, &Clock::real())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::platform::SETTINGS_KEY;

    #[test]
    fn the_platform_is_saved_under_the_key_the_judge_reads() {
        let settings = MicroSettings::counted(
            &MicroOptions::default(),
            &Injection::default(),
            Metric::Instructions,
            5,
            "valgrind-3.19.0".into(),
        );
        let saved = serde_json::to_value(&settings).unwrap_or_default();
        let platform: Result<Platform, _> = serde_json::from_value(saved[SETTINGS_KEY].clone());
        assert!(platform.is_ok(), "{saved}");
    }
}
