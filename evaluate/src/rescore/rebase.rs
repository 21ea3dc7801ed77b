//! What a trial's changes would have been against another baseline, and
//! the machine slowdown an older trial did not keep.

use super::stored::StoredTrial;
use crate::Error;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use yardstick::document::run::Run;

/// Judges `trials` against the `k`-th run pooled into their baseline
/// (`baseline-runs/run-K.json` beside `results`) instead of the pooled
/// baseline: a judged change is a ratio of the run's figure to the
/// baseline's, so it converts exactly by the ratio of the two baselines'
/// figures. Shows what a baseline of that one run would have given.
/// Returns the run's path.
pub fn against_one_run(
    trials: &mut [StoredTrial],
    results: &Path,
    k: usize,
) -> Result<PathBuf, Error> {
    let folder = results.parent().unwrap_or(Path::new(""));
    let run_path = folder.join("baseline-runs").join(format!("run-{k}.json"));
    let pooled = figures(&folder.join("baseline.json"))?;
    let alone = figures(&run_path)?;
    for o in trials.iter_mut().flat_map(|t| &mut t.trial.outcomes) {
        if let (Some(change), Some(p), Some(a)) =
            (o.judged_pct, pooled.get(&o.probe), alone.get(&o.probe))
        {
            o.judged_pct = Some(((1.0 + change / 100.0) * p / a - 1.0) * 100.0);
        }
    }
    Ok(run_path)
}

/// Each probe's judged figure in a saved run, as yardstick's comparison
/// computes it: the median of its per-sample ratios to the calibration
/// loop timed just before each sample.
fn figures(path: &Path) -> Result<BTreeMap<String, f64>, Error> {
    let run: Run = yardstick::document::store::load(path).map_err(|e| {
        Error(format!(
            "--baseline-run: {}",
            e.to_string().trim_start_matches("error: ")
        ))
    })?;
    let calibration = run
        .calibration
        .as_ref()
        .map_or(f64::NAN, |c| c.loops.median);
    Ok(run
        .rows
        .iter()
        .filter_map(|r| Some((r.key.clone(), r.normalized_median(calibration)?)))
        .collect())
}

/// Estimates each trial's machine slowdown where the trial has changes
/// both raw and judged: the median over its probes of (1 + raw change) /
/// (1 + judged change), since the raw change is the normalised one times
/// the loop's. For trials made before the slowdown was kept.
pub fn estimate_slowdowns(trials: &mut [StoredTrial]) {
    for t in trials.iter_mut() {
        let ratios: Vec<f64> = t
            .trial
            .outcomes
            .iter()
            .filter_map(|o| Some((1.0 + o.raw_pct? / 100.0) / (1.0 + o.judged_pct? / 100.0)))
            .collect();
        if let Some(m) = yardstick::stats::median(&ratios) {
            t.trial.machine_slowdown_pct = Some((m - 1.0) * 100.0);
        }
    }
}
