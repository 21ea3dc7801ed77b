//! The committed count baseline, `baselines/<bench>/counts.json`: the
//! verdict `cargo bench` can give on a machine of any class.
//!
//! Wall time is judged only against a baseline of the same machine class;
//! a new laptop or CI runner has none. Counts are the same on every machine
//! (for one compiler, valgrind and batch), so one committed file judges
//! them all: where no wall-time baseline of this class is committed,
//! valgrind is installed and the set-up matches, `cargo bench` counts
//! instead of timing, and the counts judge (see `history` for the order).
//! It is refreshed with the command in CONTRIBUTING.md ("The count
//! baseline").

use crate::baseline::Baseline;
use crate::baseline::history::Bench;
use crate::document::environment::{Environment, now, repository_dir};
use crate::document::run::Metric;
use crate::judge::setup::Setup;
use std::path::PathBuf;

/// `baselines/<bench>/counts.json`.
pub fn path(bench: &Bench) -> PathBuf {
    bench
        .repository
        .join("baselines")
        .join(&bench.name)
        .join("counts.json")
}

/// The committed count baseline of `bench` when it can judge this build,
/// shown as its basis; `Ok(None)` when none is committed; `Err` with the
/// reason, in a line, when one is committed but cannot judge here.
/// `batch` is `--min-batch`, when given.
pub fn usable(bench: &Bench, batch: Option<u64>) -> Result<Option<Baseline>, String> {
    let path = path(bench);
    if !path.is_file() {
        return Ok(None);
    }
    let shown = path.display();
    let baseline = Baseline::load(&path).map_err(|e| format!("{e}"))?;
    let metric = baseline.run.metric;
    if !metric.is_count() {
        return Err(format!("{shown} holds no counts ({})", metric.as_str()));
    }
    let valgrind = crate::measure::callgrind::valgrind_version(metric)
        .map_err(|_| format!("{shown} cannot judge here: valgrind is not installed"))?;
    let committed = Setup::of(&baseline.run, metric);
    let here = Setup {
        valgrind,
        batch: batch.map_or_else(|| committed.batch.clone(), |b| b.to_string()),
        cache: (metric == Metric::EstimatedCycles)
            .then(crate::measure::callgrind::costs::cache_geometry),
        ..Setup::of_build(&Environment::current(&repository_dir(), now()))
    };
    let differences = committed.differences(&here);
    if !differences.is_empty() {
        return Err(format!(
            "{shown} cannot judge this build: {}",
            crate::document::comparison::describe_differences(&differences)
        ));
    }
    Ok(Some(Baseline {
        basis: Some(format!(
            "the committed count baseline, {}: no wall-time baseline is committed for this \
             machine class, and counts are the same on every machine",
            metric.as_str()
        )),
        ..baseline
    }))
}

/// The batch the count baseline was made with, for a run that must match it.
pub fn batch(baseline: &Baseline) -> Option<u64> {
    baseline.run.rows.iter().find_map(|r| r.batch)
}
