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

use crate::Observer;
use crate::calibration::Calibration;
use crate::clock::{self, Clock, Use};
use crate::inject::Injection;
use crate::probe::{Instance, Probe};
use crate::sample::{self, Measurement, Sampling, guarded};
use crate::watchdog::Watchdog;

/// What a whole run of rounds gave.
pub struct Rounds {
    /// One per probe, in the order given; each sample with the calibration
    /// loop timed just before it (`loops`).
    pub(crate) probes: Vec<Measurement>,
    /// Milliseconds per calibration loop, in the order they ran.
    pub calibration: Vec<f64>,
    /// Each loop's checksum.
    pub checksums: Vec<u64>,
}

/// How the rounds are run: everything they read.
pub(crate) struct Interleaved<'a> {
    /// Warm-up rounds, measured rounds, batch.
    pub sampling: &'a Sampling,
    /// Slowdowns to inject, per probe.
    pub injection: &'a Injection,
    /// The loop timed before each sample; `None` times the probes alone.
    pub calibration: Option<&'a Calibration>,
    /// Where every duration comes from.
    pub clock: &'a Clock,
    /// Stops the run when a probe hangs.
    pub watchdog: &'a Watchdog,
}

/// A probe taking part in the rounds: its instance and what it gathered.
struct Entry {
    instance: Box<dyn Instance>,
    /// How much longer than its work a sample lasts (an injected slowdown).
    stretch: f64,
    measurement: Measurement,
}

impl Interleaved<'_> {
    /// Measures `probes` in `repeat` rounds after `warmup` untimed ones,
    /// with one calibration loop before each probe sample when there is a
    /// loop. A probe that fails its set-up or check, or panics, gets a
    /// failed measurement and leaves the rounds; the others go on.
    pub fn measure(&self, probes: &[&'static Probe], observer: &mut dyn Observer) -> Rounds {
        let mut entries: Vec<Result<Entry, Box<Measurement>>> = probes
            .iter()
            .map(|p| {
                observer.start(&format!("set-up: {}", p.name));
                let entry = self.enter(p);
                if let Err(m) = &entry {
                    observer.say(&format!("probe {}: {}", p.name, m.note));
                }
                observer.advance();
                entry
            })
            .collect();
        let mut rounds = Rounds {
            probes: Vec::new(),
            calibration: Vec::new(),
            checksums: Vec::new(),
        };
        let Sampling { warmup, repeat, .. } = *self.sampling;
        for round in 0..warmup + repeat {
            let measured = round >= warmup;
            observer.start(&if measured {
                format!("round {} of {repeat}", round - warmup + 1)
            } else {
                "warm-up".to_string()
            });
            for (p, entry) in probes.iter().zip(entries.iter_mut()) {
                self.take_turn(p, entry, measured, &mut rounds, observer);
            }
            if measured {
                observer.advance();
            }
        }
        for (p, entry) in probes.iter().zip(entries.iter_mut()) {
            if let Ok(live) = entry {
                let _guard = self.watchdog.watch(p.name);
                // A panic here would have shown in the rounds; if it comes
                // now, the probe just has no memory figures.
                live.measurement.memory =
                    guarded(|| sample::allocations(live.instance.as_mut())).unwrap_or(None);
            }
        }
        rounds.probes = entries
            .into_iter()
            .map(|e| e.map_or_else(|failed| *failed, |entry| entry.measurement))
            .collect();
        rounds
    }

    /// Sets up and checks `probe`, and picks its batch.
    fn enter(&self, probe: &Probe) -> Result<Entry, Box<Measurement>> {
        let _guard = self.watchdog.watch(probe.name);
        let verified = sample::verified(probe).map_err(|m| self.failed(m))?;
        let mut instance = verified.instance;
        let batch = match self.sampling.min_batch {
            Some(b) => b,
            None => guarded(|| sample::pick_batch(self.clock, probe.name, instance.as_mut()))
                .map_err(|m| self.failed(m))?,
        };
        let checksum = instance.checksum();
        let mut measurement = Measurement::empty(batch, verified.note, checksum);
        measurement.samples.reserve(self.sampling.repeat);
        Ok(Entry {
            instance,
            stretch: self.injection.stretch(probe.name),
            measurement,
        })
    }

    /// One probe's turn in a round: the calibration loop, then one sample
    /// (untimed in warm-up). A panic takes the probe out of the rounds.
    fn take_turn(
        &self,
        probe: &Probe,
        entry: &mut Result<Entry, Box<Measurement>>,
        measured: bool,
        rounds: &mut Rounds,
        observer: &mut dyn Observer,
    ) {
        let Ok(live) = entry else { return };
        let loop_ms = self.calibration.map(|c| {
            // Warm-up loops do not take a step of the script.
            let used = if measured { Use::Sample } else { Use::Sizing };
            let (elapsed, sum) = self.clock.time(clock::CALIBRATION, 1, used, || {
                std::hint::black_box(c.run())
            });
            let ms = elapsed.as_secs_f64() * 1e3;
            if measured {
                rounds.calibration.push(ms);
                rounds.checksums.push(sum);
            }
            ms
        });
        let _guard = self.watchdog.watch(probe.name);
        let batch = live.measurement.batch;
        let sample = guarded(|| {
            if measured {
                let instance = live.instance.as_mut();
                Some(sample::sample(
                    self.clock,
                    probe.name,
                    instance,
                    batch,
                    live.stretch,
                ))
            } else {
                sample::unmeasured(live.instance.as_mut(), batch);
                None
            }
        });
        match sample {
            Ok(Some(ms)) => {
                let m = &mut live.measurement;
                m.samples.push(ms);
                m.loops.extend(loop_ms);
            }
            Ok(None) => {}
            Err(message) => {
                let failed = self.failed(message);
                observer.say(&format!("probe {}: {}", probe.name, failed.note));
                *entry = Err(failed);
            }
        }
    }

    /// A failed probe's measurement, boxed: it is the rare side of every
    /// entry's `Result`.
    fn failed(&self, message: String) -> Box<Measurement> {
        let repeat = self.sampling.repeat;
        Box::new(Measurement::failed(
            repeat,
            format!("failed: {message}"),
            message,
        ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::{Note, fake, prepare};
    use crate::sample::QuietPanics;
    use std::time::Duration;

    fn run(selected: &[&'static Probe], calibrate: bool) -> Rounds {
        let sampling = Sampling {
            warmup: 1,
            repeat: 4,
            min_batch: Some(3),
        };
        let calibration = Calibration::new();
        let watchdog = Watchdog::start(Duration::from_secs(60), |_| {});
        let interleaved = Interleaved {
            sampling: &sampling,
            injection: &Injection::default(),
            calibration: calibrate.then_some(&calibration),
            clock: &Clock::real(),
            watchdog: &watchdog,
        };
        interleaved.measure(selected, &mut crate::Unobserved)
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
        suite: crate::probe::DEFAULT_SUITE,
        variant: None,
        file: "x.rs",
        line: 1,
        prepare: adds,
    };

    #[test]
    fn every_round_times_every_probe_after_a_calibration_loop() {
        let r = run(&[&ADDS], true);
        let t = &r.probes[0];
        assert_eq!(t.samples.len(), 4);
        assert_eq!(t.loops, r.calibration);
        assert_eq!(r.calibration.len(), 4);
        assert!(
            r.checksums
                .iter()
                .all(|s| *s == crate::calibration::EXPECTED_CHECKSUM)
        );
        // The fingerprint of one iteration's result, 4.
        assert_eq!(t.checksum, Some(4));
        assert_eq!(t.batch, 3);
    }

    #[test]
    fn work_runs_on_a_fresh_thread_and_its_panics_come_back() {
        let name = on_fresh_thread(|| std::thread::current().name().map(str::to_string));
        assert_eq!(name.as_deref(), Some("yardstick-measure"));
        let quiet = QuietPanics::install();
        let caught = std::panic::catch_unwind(|| on_fresh_thread(|| panic!("harness bug")));
        drop(quiet);
        assert!(caught.is_err());
    }

    #[test]
    fn without_calibration_there_are_no_ratios() {
        let r = run(&[&ADDS], false);
        assert_eq!(r.probes[0].samples.len(), 4);
        assert!(r.probes[0].loops.is_empty() && r.calibration.is_empty());
    }

    #[test]
    fn a_probe_that_panics_fails_alone() {
        static PANICS: std::sync::LazyLock<Probe> =
            std::sync::LazyLock::new(|| fake("panics", panics_when_timed));
        let quiet = QuietPanics::install();
        let r = run(&[&*PANICS, &ADDS], true);
        drop(quiet);
        let failed = &r.probes[0];
        assert!(failed.samples.is_empty());
        assert_eq!(failed.errors, 4);
        assert!(failed.note.contains("boom"), "{}", failed.note);
        assert_eq!(r.probes[1].samples.len(), 4);
    }
}
