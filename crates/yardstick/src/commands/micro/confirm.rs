//! Measuring the flagged probes once more, for the judge's confirmation
//! rule (`judge::confirm`): micro mode's probes interleaved with the
//! calibration loop, kernel mode's for their absolute median, a process
//! probe's by its children again.

use super::options::MicroOptions;
use crate::document::comparison::Figure;
use crate::document::run::{Mode, Run};
use crate::judge::confirm::{self, Again, Remeasured};
use crate::measure::Meter;
use crate::measure::Observer;
use crate::measure::process::Children;
use crate::measure::sample::Sampling;
use crate::measure::timer::Timer;
use crate::probe::process::EMPTY_PROBE;
use crate::probe::{Probe, ProcessProbe};

/// The fewest rounds a confirmation takes: its median must not hinge on one
/// preempted sample.
const CONFIRMATION_ROUNDS: usize = 15;

/// What a confirmation may measure again.
pub(super) struct Remeasurable<'a, 't> {
    pub(crate) selected: &'a [&'static Probe],
    pub(crate) processes: &'a [&'static ProcessProbe],
    pub(crate) timer: &'a Timer<'t>,
    pub(crate) children: &'a Children<'t>,
}

/// Measures every timed regression of `run` again and applies the judge's
/// rule to what it finds, against `baseline`.
pub(super) fn confirm(
    run: &mut Run,
    baseline: &Run,
    again: &Remeasurable,
    options: &MicroOptions,
    observer: &mut dyn Observer,
) {
    let Some(comparison) = run.comparison.as_ref() else {
        return;
    };
    let kernel = run.mode == Mode::Kernel;
    let mut found = Vec::new();
    for key in confirm::flagged(comparison) {
        if let Some(check) = comparison.checks.iter().find(|c| c.key == key) {
            observer.say(&format!(
                "confirming {key}: {:+.1} % against the baseline",
                check.change_pct
            ));
        }
        let measured = match again.selected.iter().find(|p| p.name == key) {
            Some(probe) => {
                let batch = run.rows.iter().find(|r| r.key == key).and_then(|r| r.batch);
                let Some(batch) = batch else { continue };
                Some(probe_again(probe, batch, again.timer, options, kernel))
            }
            None => match process_of(&key, again.processes) {
                Some(probe) => {
                    let per_floor = comparison
                        .checks
                        .iter()
                        .any(|c| c.key == key && c.metric == Figure::MedianPerFloor);
                    Some(Ok(process_again(probe, per_floor, again.children)))
                }
                None => None,
            },
        };
        if let Some(again) = measured {
            found.push(Remeasured { key, again });
        }
    }
    let Some(comparison) = run.comparison.as_mut() else {
        return;
    };
    let notes = confirm::apply(comparison, baseline, &found);
    run.warnings.extend(notes);
    if let Some(settings) = run.settings.micro_mut() {
        settings.confirm = true;
    }
}

/// The process probe (or the floor) whose row `key` is (`P.boot`, ...).
fn process_of(key: &str, processes: &[&'static ProcessProbe]) -> Option<&'static ProcessProbe> {
    let name = key.split_once('.')?.0;
    if name == EMPTY_PROBE.name {
        return Some(&EMPTY_PROBE);
    }
    processes.iter().copied().find(|p| p.name == name)
}

/// The rows of a new set of `probe`'s children, and of the floor's when
/// the row is judged against it.
fn process_again(probe: &ProcessProbe, per_floor: bool, children: &Children) -> Again {
    let mut rows = children.measure_one(probe, &mut crate::measure::Unobserved);
    if per_floor {
        rows.extend(children.measure_one(&EMPTY_PROBE, &mut crate::measure::Unobserved));
    }
    Again {
        rows,
        calibration: None,
    }
}

/// `probe` timed again at `batch`, beside the loop in micro mode.
fn probe_again(
    probe: &'static Probe,
    batch: u64,
    timer: &Timer<'_>,
    options: &MicroOptions,
    kernel: bool,
) -> Result<Again, String> {
    let timer = Timer {
        sampling: Sampling {
            warmup: 1,
            repeat: options.repeat.max(CONFIRMATION_ROUNDS),
            min_batch: Some(batch),
        },
        calibrate: !kernel,
        ..*timer
    };
    let measured = timer
        .measure(&[probe], &mut crate::measure::Unobserved)
        .map_err(|e| e.to_string())?;
    Ok(Again {
        rows: measured.rows,
        calibration: measured.calibration.map(|c| c.loops.median),
    })
}
