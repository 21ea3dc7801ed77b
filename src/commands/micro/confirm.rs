//! Measuring the flagged probes once more, for the judge's confirmation
//! rule (`judge::confirm`).

use super::options::MicroOptions;
use crate::document::run::Run;
use crate::judge::confirm::{self, Remeasured};
use crate::measure::Observer;
use crate::measure::sample::Sampling;
use crate::measure::timer::Timer;
use crate::probe::Probe;
use crate::stats;

/// The fewest rounds a confirmation takes: its median must not hinge on one
/// preempted sample.
const CONFIRMATION_ROUNDS: usize = 15;

/// Measures every timed regression of `run` again, interleaved with the
/// calibration loop, and applies the judge's rule to what it finds.
pub fn confirm(
    run: &mut Run,
    selected: &[&'static Probe],
    timer: &Timer<'_>,
    options: &MicroOptions,
    observer: &mut dyn Observer,
) {
    let Some(comparison) = run.comparison.as_mut() else {
        return;
    };
    let mut again = Vec::new();
    for key in confirm::flagged(comparison) {
        let Some(probe) = selected.iter().find(|p| p.name == key) else {
            continue;
        };
        let Some(batch) = run.rows.iter().find(|r| r.key == key).and_then(|r| r.batch) else {
            continue;
        };
        if let Some(check) = comparison.checks.iter().find(|c| c.key == key) {
            observer.say(&format!(
                "confirming {key}: {:+.1} % against the baseline",
                check.change_pct
            ));
        }
        let timer = Timer {
            sampling: Sampling {
                warmup: 1,
                repeat: options.repeat.max(CONFIRMATION_ROUNDS),
                min_batch: Some(batch),
            },
            calibrate: true,
            ..*timer
        };
        let rounds = timer.rounds(&[*probe], &mut crate::measure::Unobserved);
        let Some(m) = rounds.probes.first() else {
            continue;
        };
        // A confirmation that cannot be made leaves the regression standing.
        let ratio = match m.error_messages.keys().next() {
            Some(message) => Err(message.clone()),
            None => match stats::median_of_ratios(&m.samples, &m.loops) {
                Some(ratio) => Ok(ratio),
                None => continue,
            },
        };
        again.push(Remeasured { key, ratio });
    }
    let notes = confirm::apply(comparison, &again);
    run.warnings.extend(notes);
    run.settings
        .insert("confirm".into(), serde_json::Value::Bool(true));
}
