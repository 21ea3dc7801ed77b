//! What a micro run saves as its settings: the options that shaped its
//! figures, so that a later reader knows what was measured and how.

use super::options::MicroOptions;
use crate::document::run::Metric;
use crate::document::settings::{CountSettings, MicroSettings};
use crate::measure::callgrind::costs;
use crate::measure::callgrind::pin;
use crate::measure::clock::Clock;
use crate::measure::inject::Injection;

/// The settings of a timed run.
pub(crate) fn timed(o: &MicroOptions, injection: &Injection, clock: &Clock) -> MicroSettings {
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
        params: o.params.iter().cloned().collect(),
        ..MicroSettings::default()
    }
}

/// The settings of a run counted in batches of `batch` with `valgrind`.
pub(crate) fn counted(
    o: &MicroOptions,
    injection: &Injection,
    metric: Metric,
    batch: u64,
    valgrind: String,
) -> MicroSettings {
    let cache = metric == Metric::EstimatedCycles;
    MicroSettings {
        min_batch: Some(batch),
        counting: CountSettings {
            metric: Some(metric),
            valgrind: Some(valgrind),
            cache_sim: cache.then(costs::cache_geometry),
            count_platform: Some(pin::here().platform.clone()),
        },
        // Counts are never timed: no script applies.
        ..timed(o, injection, &Clock::real())
    }
}
