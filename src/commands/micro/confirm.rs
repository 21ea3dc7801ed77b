//! Measuring the flagged probes once more, for the judge's confirmation
//! rule (`judge::confirm`): micro mode's probes interleaved with the
//! calibration loop, kernel mode's for their absolute median, a process
//! probe's by its children again.

use super::options::MicroOptions;
use crate::document::comparison::Figure;
use crate::document::run::{Mode, Run};
use crate::judge::confirm::{self, Remeasured};
use crate::measure::Observer;
use crate::measure::process::Children;
use crate::measure::sample::Sampling;
use crate::measure::timer::Timer;
use crate::probe::process::EMPTY_PROBE;
use crate::probe::{Probe, ProcessProbe};
use crate::stats;

/// The fewest rounds a confirmation takes: its median must not hinge on one
/// preempted sample.
const CONFIRMATION_ROUNDS: usize = 15;

/// What a confirmation may measure again.
pub(super) struct Again<'a, 't> {
    pub selected: &'a [&'static Probe],
    pub processes: &'a [&'static ProcessProbe],
    pub timer: &'a Timer<'t>,
    pub children: &'a Children<'t>,
}

/// Measures every timed regression of `run` again and applies the judge's
/// rule to what it finds.
pub(super) fn confirm(
    run: &mut Run,
    again: &Again,
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
        let figure = match again.selected.iter().find(|p| p.name == key) {
            Some(probe) => {
                let batch = run.rows.iter().find(|r| r.key == key).and_then(|r| r.batch);
                let Some(batch) = batch else { continue };
                probe_again(probe, batch, again.timer, options, kernel)
            }
            None => match process_of(&key, again.processes) {
                Some(probe) => {
                    let per_floor = comparison
                        .checks
                        .iter()
                        .any(|c| c.key == key && c.metric == Figure::MedianPerFloor);
                    Some(process_again(probe, &key, per_floor, again.children))
                }
                None => None,
            },
        };
        if let Some(figure) = figure {
            found.push(Remeasured { key, figure });
        }
    }
    let Some(comparison) = run.comparison.as_mut() else {
        return;
    };
    let notes = confirm::apply(comparison, &found);
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

/// Row `key`'s median over a new set of the probe's children, divided by
/// the floor's over a new set of its own when the row is judged so.
fn process_again(
    probe: &ProcessProbe,
    key: &str,
    per_floor: bool,
    children: &Children,
) -> Result<f64, String> {
    let median = |probe: &ProcessProbe, key: &str| {
        let rows = children.measure_one(probe, &mut crate::measure::Unobserved);
        match rows.iter().find(|r| r.key == key) {
            Some(r) if r.errors > 0 => Err(r.note.clone()),
            Some(r) => r.median.ok_or_else(|| "no child gave it".to_string()),
            None => Err("not reported again".to_string()),
        }
    };
    let own = median(probe, key)?;
    if !per_floor {
        return Ok(own);
    }
    let phase = key.rsplit('.').next().unwrap_or("");
    let floor = median(&EMPTY_PROBE, &format!("{}.{phase}", EMPTY_PROBE.name))?;
    if floor > 0.0 {
        Ok(own / floor)
    } else {
        Err("the floor took no time".to_string())
    }
}

/// `probe` timed again at `batch`: its median ratio to the loop, or (kernel
/// mode) its median; `None` when nothing could be timed.
fn probe_again(
    probe: &'static Probe,
    batch: u64,
    timer: &Timer<'_>,
    options: &MicroOptions,
    kernel: bool,
) -> Option<Result<f64, String>> {
    let timer = Timer {
        sampling: Sampling {
            warmup: 1,
            repeat: options.repeat.max(CONFIRMATION_ROUNDS),
            min_batch: Some(batch),
        },
        calibrate: !kernel,
        ..*timer
    };
    let rounds = timer.rounds(&[probe], &mut crate::measure::Unobserved);
    let m = rounds.probes.first()?;
    // A confirmation that cannot be made leaves the regression standing.
    if let Some(message) = m.error_messages.keys().next() {
        return Some(Err(message.clone()));
    }
    if kernel {
        stats::Summary::of(&m.samples).map(|s| Ok(s.median))
    } else {
        stats::median_of_ratios(&m.samples, &m.loops).map(Ok)
    }
}
