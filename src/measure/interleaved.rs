//! Round-robin measurement with the calibration loop interleaved: the way a
//! micro run times its probes.
//!
//! The speed a shared machine gives a process moves by tens of percent over
//! seconds. Timing each probe's samples in one block and the calibration
//! loop once before and once after puts every probe in a different spell
//! and the calibration in yet others, so "x calib" divides by the wrong
//! speed. Here every round takes one sample of every probe, each right
//! after one calibration loop, and both times are kept; the probe's
//! normalised figure is the median of its per-round ratios (sample / loop,
//! see `Row::normalized_median`), and a spell that slows one round moves one
//! ratio of each probe, not all of one probe's samples.

use crate::measure::calibration::Calibration;
use crate::measure::clock::{self, Clock, Use};
use crate::measure::inject::Injection;
use crate::measure::sample::{self, Measurement, Plan, guarded};
use crate::measure::watchdog::Watchdog;
use crate::output::progress::Progress;
use crate::probe::{Instance, Probe};
use std::collections::BTreeMap;

/// What one probe gave.
pub struct Timed {
    pub measurement: Measurement,
    /// Per sample: milliseconds of the calibration loop just before it
    /// (empty without calibration).
    pub loops: Vec<f64>,
}

/// What a whole run of rounds gave.
pub struct Rounds {
    /// In the order of the probes given.
    pub probes: Vec<Timed>,
    /// Milliseconds per calibration loop, in the order they ran.
    pub calibration: Vec<f64>,
    /// Each loop's checksum.
    pub checksums: Vec<u64>,
}

/// A probe being measured.
struct Live {
    instance: Box<dyn Instance>,
    note: String,
    batch: u64,
    /// How much longer than its work a sample lasts (an injected slowdown).
    stretch: f64,
    samples: Vec<f64>,
    loops: Vec<f64>,
    checksum: u64,
}

/// Measures `selected` in `plan.repeat` rounds after `plan.warmup` untimed
/// ones, with one calibration loop before each probe sample when
/// `calibration` is given. A probe that fails its set-up or check, or
/// panics, gets a failed measurement and leaves the rounds; the others go
/// on. Every duration comes from `clock`.
pub fn measure(
    selected: &[&'static Probe],
    plan: &Plan,
    injection: &Injection,
    calibration: Option<&Calibration>,
    clock: &Clock,
    watchdog: &Watchdog,
    progress: &mut Progress,
) -> Rounds {
    let mut slots: Vec<Result<Live, Measurement>> = Vec::with_capacity(selected.len());
    for p in selected {
        progress.start(&format!("set-up: {}", p.name));
        let _guard = watchdog.watch(p.name);
        let slot = sample::ready(p).and_then(|ready| {
            let mut instance = ready.instance;
            let batch = match plan.min_batch {
                Some(b) => b,
                None => guarded(|| sample::pick_batch(clock, p.name, instance.as_mut()))?,
            };
            Ok(Live {
                instance,
                note: ready.note,
                batch,
                stretch: injection.stretch(p.name),
                samples: Vec::with_capacity(plan.repeat),
                loops: Vec::with_capacity(plan.repeat),
                checksum: 0,
            })
        });
        let slot = slot.map_err(|message| failed(plan, message));
        if let Err(m) = &slot {
            progress.say(&format!("probe {}: {}", p.name, m.note));
        }
        slots.push(slot);
        progress.advance();
    }

    let mut loops = Vec::new();
    let mut checksums = Vec::new();
    for round in 0..plan.warmup + plan.repeat {
        let measured = round >= plan.warmup;
        if measured {
            progress.start(&format!(
                "round {} of {}",
                round - plan.warmup + 1,
                plan.repeat
            ));
        } else {
            progress.start("warm-up");
        }
        for (p, slot) in selected.iter().zip(slots.iter_mut()) {
            let Ok(live) = slot else { continue };
            let loop_ms = calibration.map(|c| {
                // Warm-up loops do not take a step of the script.
                let used = if measured { Use::Sample } else { Use::Sizing };
                let (elapsed, sum) = clock.time(clock::CALIBRATION, 1, used, || {
                    std::hint::black_box(c.run())
                });
                let ms = elapsed.as_secs_f64() * 1e3;
                if measured {
                    loops.push(ms);
                    checksums.push(sum);
                }
                ms
            });
            let _guard = watchdog.watch(p.name);
            let sample = guarded(|| {
                if measured {
                    Some(sample::sample(
                        clock,
                        p.name,
                        live.instance.as_mut(),
                        live.batch,
                        live.stretch,
                    ))
                } else {
                    // Not through the counted section: warm-up is what
                    // instruction counts must leave out.
                    std::hint::black_box(live.instance.run(live.batch));
                    None
                }
            });
            match sample {
                Ok(Some((ms, sum))) => {
                    live.samples.push(ms);
                    live.checksum = live.checksum.wrapping_add(sum);
                    live.loops.extend(loop_ms);
                }
                Ok(None) => {}
                Err(message) => {
                    let m = failed(plan, message);
                    progress.say(&format!("probe {}: {}", p.name, m.note));
                    *slot = Err(m);
                }
            }
        }
        if measured {
            progress.advance();
        }
    }

    let probes = slots
        .into_iter()
        .map(|slot| match slot {
            Ok(live) => Timed {
                measurement: Measurement {
                    samples: live.samples,
                    batch: live.batch,
                    errors: 0,
                    error_messages: BTreeMap::new(),
                    note: live.note,
                    checksum: live.checksum,
                },
                loops: live.loops,
            },
            Err(measurement) => Timed {
                measurement,
                loops: Vec::new(),
            },
        })
        .collect();
    Rounds {
        probes,
        calibration: loops,
        checksums,
    }
}

/// Runs `work` (a probe's set-up and samples) on a fresh thread, and
/// returns what it returns.
///
/// A fresh thread gets a fresh allocator arena (glibc gives each new thread
/// one of its own), so the heap a probe sees does not depend on what the
/// harness allocated before it: on the main thread, one more option on the
/// command line moved template_compile's instruction count by 0.58 %, through
/// whether a `realloc` could grow in place; on a fresh thread, by 0.0002 %.
/// The thread gets 64 MiB of stack, more than a main thread's usual 8, so
/// a probe that recurses deeply does not fail here alone. Where no thread
/// can be started, `work` runs here.
pub fn on_fresh_thread<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    let slot = std::sync::Mutex::new(Some(work));
    let take = || slot.lock().map_or(None, |mut w| w.take());
    let spawned = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("yardstick-measure".into())
            .stack_size(64 << 20)
            .spawn_scoped(scope, || take().map(|w| w()))
            .map(|handle| handle.join())
    });
    match spawned {
        Ok(Ok(Some(result))) => result,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        // The thread could not start: the work is still in its slot.
        _ => match take() {
            Some(w) => w(),
            None => unreachable!("a thread that started took the work"),
        },
    }
}

/// How many progress steps [`measure`] takes.
pub fn steps(selected: usize, plan: &Plan) -> usize {
    selected + plan.repeat
}

fn failed(plan: &Plan, message: String) -> Measurement {
    Measurement::failed(plan.repeat, format!("failed: {message}"), message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::{Note, prepare};
    use std::time::Duration;

    fn fake(name: &'static str, prepare: fn() -> Result<Box<dyn Instance>, String>) -> Probe {
        Probe {
            name,
            ops: 1,
            file: "x.rs",
            line: 1,
            prepare,
        }
    }

    fn run(selected: &[&'static Probe], calibrate: bool) -> Rounds {
        let plan = Plan {
            warmup: 1,
            repeat: 4,
            min_batch: Some(3),
        };
        let calibration = Calibration::new();
        let watchdog = Watchdog::start(Duration::from_secs(60), |_| {});
        let mut progress = Progress::new(steps(selected.len(), &plan), true);
        measure(
            selected,
            &plan,
            &Injection::default(),
            calibrate.then_some(&calibration),
            &Clock::real(),
            &watchdog,
            &mut progress,
        )
    }

    fn adds() -> Result<Box<dyn Instance>, String> {
        prepare(
            || Ok::<_, String>(()),
            |_: &()| std::hint::black_box(2u64) + 2,
            |_, v: &u64| if *v == 4 { Ok(()) } else { Err("bad".into()) },
            Note::Fixed("adds"),
        )
    }

    fn panics_when_timed() -> Result<Box<dyn Instance>, String> {
        // The check passes; the second call (the warm-up) panics.
        prepare(
            || Ok::<_, String>(std::cell::Cell::new(0)),
            |c: &std::cell::Cell<u32>| {
                c.set(c.get() + 1);
                assert!(c.get() < 2, "boom");
                1u8
            },
            |_, _: &u8| Ok(()),
            Note::Fixed(""),
        )
    }

    static ADDS: Probe = Probe {
        name: "adds",
        ops: 1,
        file: "x.rs",
        line: 1,
        prepare: adds,
    };

    #[test]
    fn every_round_times_every_probe_after_a_calibration_loop() {
        let r = run(&[&ADDS], true);
        let t = &r.probes[0];
        assert_eq!(t.measurement.samples.len(), 4);
        assert_eq!(t.loops, r.calibration);
        assert_eq!(r.calibration.len(), 4);
        assert!(
            r.checksums
                .iter()
                .all(|s| *s == crate::measure::calibration::EXPECTED_CHECKSUM)
        );
        // 4 measured samples of 3 iterations, each giving 4.
        assert_eq!(t.measurement.checksum, 4 * 3 * 4);
        assert_eq!(t.measurement.batch, 3);
    }

    #[test]
    fn work_runs_on_a_fresh_thread_and_its_panics_come_back() {
        let name = on_fresh_thread(|| std::thread::current().name().map(str::to_string));
        assert_eq!(name.as_deref(), Some("yardstick-measure"));
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let caught = std::panic::catch_unwind(|| on_fresh_thread(|| panic!("harness bug")));
        std::panic::set_hook(hook);
        assert!(caught.is_err());
    }

    #[test]
    fn without_calibration_there_are_no_ratios() {
        let r = run(&[&ADDS], false);
        assert_eq!(r.probes[0].measurement.samples.len(), 4);
        assert!(r.probes[0].loops.is_empty() && r.calibration.is_empty());
    }

    #[test]
    fn a_probe_that_panics_fails_alone() {
        static PANICS: std::sync::LazyLock<Probe> =
            std::sync::LazyLock::new(|| fake("panics", panics_when_timed));
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let r = run(&[&*PANICS, &ADDS], true);
        std::panic::set_hook(hook);
        let failed = &r.probes[0].measurement;
        assert!(failed.is_failure());
        assert_eq!(failed.errors, 4);
        assert!(failed.note.contains("boom"), "{}", failed.note);
        assert_eq!(r.probes[1].measurement.samples.len(), 4);
    }
}
