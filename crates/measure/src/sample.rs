//! The pieces of timing one probe: getting it ready (set-up and check),
//! picking its batch, timing one sample, catching panics. `rounds` puts them
//! together for a run, `worker` for `compare-builds`.
//!
//! A sample is one call of [`Instance::run`] with `batch` iterations, timed
//! with a monotonic clock; every figure the harness reports is per iteration
//! (the sample's time / `batch`). Batching makes a probe whose iteration
//! takes microseconds measurable: the clock's resolution and the call's own
//! cost shrink to nothing against a sample of about a millisecond. A probe
//! with per-iteration inputs (`setup_each`) has them made before the timed
//! section, untimed; when a batch's inputs would hold too much memory at
//! once, the batch runs in chunks, each chunk's inputs made and then its
//! iterations timed, and the chunks' times add up to the sample's.

use crate::alloc::{self, Allocations};
use crate::clock::{Clock, Use};
use crate::probe::{Instance, Probe};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// How long a sample should last at least when the harness picks the batch.
pub(crate) const TARGET_SAMPLE: Duration = Duration::from_millis(1);
/// The largest batch the harness picks by itself.
const MAX_BATCH: u64 = 1 << 24;

/// How many samples a run takes of each probe, and of how many
/// iterations (see `interleaved`).
#[derive(Debug, Clone)]
pub struct Sampling {
    /// Untimed rounds first.
    pub warmup: usize,
    /// Timed rounds.
    pub repeat: usize,
    /// A fixed batch size; `None` lets the harness pick one per probe.
    pub min_batch: Option<u64>,
}

/// What measuring one probe gave.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Measurement {
    /// Milliseconds per iteration, one per measured sample, in order.
    pub samples: Vec<f64>,
    /// Per sample: milliseconds of the calibration loop timed just before
    /// it (empty without a loop).
    pub loops: Vec<f64>,
    /// Iterations per sample.
    pub batch: u64,
    /// Samples that failed (all of them when the probe failed).
    pub errors: u64,
    /// Each failure's message and how often it came.
    pub error_messages: BTreeMap<String, u64>,
    /// The probe's note, or why it failed.
    pub note: String,
    /// The fingerprint of one iteration's result (see
    /// [`Instance::checksum`]).
    pub checksum: Option<u64>,
    /// What one iteration allocated (see [`allocations`]).
    pub memory: Option<Allocations>,
}

impl Measurement {
    /// A probe about to be measured: no samples yet.
    pub fn empty(batch: u64, note: String, checksum: Option<u64>) -> Measurement {
        Measurement {
            samples: Vec::new(),
            loops: Vec::new(),
            batch,
            errors: 0,
            error_messages: BTreeMap::new(),
            note,
            checksum,
            memory: None,
        }
    }

    /// A probe that could not be measured: no samples, every one an error.
    pub fn failed(repeat: usize, note: String, message: String) -> Measurement {
        let errors = repeat as u64;
        Measurement {
            samples: Vec::new(),
            loops: Vec::new(),
            batch: 0,
            errors,
            error_messages: BTreeMap::from([(message, errors)]),
            note,
            checksum: None,
            memory: None,
        }
    }
}

/// What one iteration of a warm `instance` allocates on this thread, or
/// `None` without the counting allocator. Taken after the timed rounds, so
/// that first-use growth (a cache filled, a buffer sized) is behind it, and
/// of the second of two iterations for the same reason; its input, if it
/// has one, is made before the count starts.
pub fn allocations(instance: &mut dyn Instance) -> Option<Allocations> {
    let mut last = None;
    for _ in 0..2 {
        instance.make_inputs(1);
        last = alloc::measure(|| instance.run(1)).1;
    }
    last
}

/// A probe set up and its result checked once: ready to be timed.
pub struct Verified {
    /// The probe's work, set up.
    pub instance: Box<dyn Instance>,
    /// What the probe says it measured.
    pub note: String,
}

/// Sets up a probe and runs its check once; the error is why it cannot be
/// timed. A wrong result is never timed: timing a wrong answer measures
/// nothing.
pub fn verified(probe: &Probe) -> Result<Verified, String> {
    let mut instance = match guarded(|| (probe.prepare)()) {
        Ok(Ok(instance)) => instance,
        Ok(Err(message)) | Err(message) => return Err(message),
    };
    let note = guarded(|| instance.note()).unwrap_or_default();
    match guarded(|| instance.verify()) {
        Ok(Ok(())) => Ok(Verified { instance, note }),
        Ok(Err(message)) => Err(format!("check failed: {message}")),
        // The work itself panicked, before any check could look at it.
        Err(panic) => Err(panic),
    }
}

/// While alive, panics print nothing: a probe that panics is reported in
/// its row, and the default hook would also print it over the progress
/// output.
///
/// The hook is installed once and stays; guards only count. Swapping hooks
/// per guard would race: two guards alive on two threads (tests, or a
/// worker beside a run) restore each other's hooks out of order.
#[must_use]
pub struct QuietPanics {
    _counted: (),
}

/// Guards alive: while above 0, panics print nothing.
static QUIET: AtomicUsize = AtomicUsize::new(0);

impl QuietPanics {
    /// Silences panics until the guard drops.
    pub fn install() -> QuietPanics {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            // Keeps where each panic happened for [`guarded`] to report:
            // "panicked: boom" alone sends the reader searching.
            std::panic::set_hook(Box::new(move |info| {
                let at = info.location().map(|l| l.to_string());
                PANICKED_AT.with(|cell| cell.replace(at));
                if QUIET.load(Ordering::SeqCst) == 0 {
                    previous(info);
                }
            }));
        });
        QUIET.fetch_add(1, Ordering::SeqCst);
        QuietPanics { _counted: () }
    }
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        QUIET.fetch_sub(1, Ordering::SeqCst);
    }
}

thread_local! {
    /// Where this thread's last panic happened, once [`QuietPanics`] has
    /// been installed.
    static PANICKED_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`, turning a panic into its message: `panicked at FILE:LINE:COL:
/// TEXT`, the place known once [`QuietPanics`] has been installed.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    PANICKED_AT.with(|cell| cell.replace(None));
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown payload".to_string());
        match PANICKED_AT.with(|cell| cell.take()) {
            Some(at) => format!("panicked at {at}: {text}"),
            None => format!("panicked: {text}"),
        }
    })
}

/// Times one sample of probe `name`, `batch` iterations, stretched to
/// `stretch` times its work by an injected slowdown (1: none), and returns
/// milliseconds per iteration.
pub fn sample(
    clock: &Clock,
    name: &str,
    instance: &mut dyn Instance,
    batch: u64,
    stretch: f64,
) -> f64 {
    let elapsed = timed(
        clock,
        name,
        instance,
        batch,
        Use::Sample,
        stretch,
        |i, n| measured_section(i, n),
    );
    elapsed.as_secs_f64() * 1e3 / batch as f64
}

/// Every measured sample runs through this one function, under
/// a fixed symbol name, so that `--metric=instructions` can tell callgrind to
/// count inside it alone (`--toggle-collect=yardstick_measured_section`).
/// A probe's per-iteration inputs are made before it is called.
#[inline(never)]
// SAFETY: `no_mangle` is unsafe because two symbols of one name would
// clash at link time. The name is yardstick's own, this is its one
// definition, and a program links one yardstick.
#[unsafe(no_mangle)]
pub fn yardstick_measured_section(instance: &mut dyn Instance, iterations: u64) {
    instance.run(iterations);
}

use yardstick_measured_section as measured_section;

/// Times `batch` iterations of `instance`, each chunk of them through
/// `section`: the chunk's per-iteration inputs are made first, untimed and
/// outside `section`, then its iterations are timed; the chunks' times add
/// up. A probe without inputs is one chunk (see [`Instance::make_inputs`]).
fn timed(
    clock: &Clock,
    name: &str,
    instance: &mut dyn Instance,
    batch: u64,
    used: Use,
    stretch: f64,
    section: impl Fn(&mut dyn Instance, u64),
) -> Duration {
    let (elapsed, ()) = clock.time_parts(name, batch, used, stretch, |parts| {
        let mut left = batch;
        while left > 0 {
            let chunk = instance.make_inputs(left).clamp(1, left);
            parts.time(|| section(&mut *instance, chunk));
            left -= chunk;
        }
    });
    elapsed
}

/// Runs `batch` iterations untimed (a warm-up sample), inputs made the way
/// a timed sample makes them. Not through the counted section: warm-up is
/// what instruction counts must leave out.
pub fn unmeasured(instance: &mut dyn Instance, batch: u64) {
    let mut left = batch;
    while left > 0 {
        let chunk = instance.make_inputs(left).clamp(1, left);
        instance.run(chunk);
        left -= chunk;
    }
}

/// The smallest batch whose sample lasts at least `TARGET_SAMPLE`, found by
/// timing growing batches (the first runs double as extra warm-up).
pub fn pick_batch(clock: &Clock, name: &str, instance: &mut dyn Instance) -> u64 {
    let mut batch = 1u64;
    loop {
        let elapsed = timed(clock, name, instance, batch, Use::Sizing, 1.0, |i, n| {
            i.run(n)
        });
        if elapsed >= TARGET_SAMPLE || batch >= MAX_BATCH {
            return batch;
        }
        let per_iteration = elapsed.as_secs_f64() / batch as f64;
        let wanted = if per_iteration > 0.0 {
            (TARGET_SAMPLE.as_secs_f64() * 1.2 / per_iteration).ceil() as u64
        } else {
            batch * 16
        };
        batch = wanted.clamp(batch * 2, batch * 16).min(MAX_BATCH);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::timing;
    use crate::probe::{Note, fake, prepare};
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn short_iterations_are_batched_to_a_millisecond() {
        // A tenth of a microsecond an iteration, whatever the machine's load.
        static RUNS: AtomicU64 = AtomicU64::new(0);
        let clock = Clock::scripted("fake=0.0001").unwrap();
        let p = fake("fake", || {
            prepare(
                || Ok::<_, String>(()),
                |_: &()| {
                    RUNS.fetch_add(1, Ordering::Relaxed);
                    std::hint::black_box(3u64) + 1
                },
                |_, v: &u64| if *v == 4 { Ok(()) } else { Err("bad".into()) },
                Note::Fixed("tiny"),
            )
        });
        let Ok(mut ready) = verified(&p) else {
            panic!("the probe is fine")
        };
        assert_eq!(ready.note, "tiny");
        assert_eq!(ready.instance.checksum(), Some(4));
        // 1, 16, 256, 4096 iterations take less than a millisecond; then
        // the batch that should take 1.2 ms.
        let batch = pick_batch(&clock, "fake", ready.instance.as_mut());
        assert_eq!(batch, 12_000);
        let ms = sample(&clock, "fake", ready.instance.as_mut(), batch, 1.0);
        assert!((ms - 0.0001).abs() < 1e-12, "{ms}");
        // On the real clock, a sample's time is positive.
        let ms = sample(&Clock::real(), "fake", ready.instance.as_mut(), 10, 1.0);
        assert!(ms > 0.0);
        // An injected 40 % makes the scripted sample 40 % longer, at any
        // batch, with the same work.
        for batch in [1, 2, 20] {
            let ms = sample(&clock, "fake", ready.instance.as_mut(), batch, 1.4);
            assert!((ms - 0.00014).abs() < 1e-12, "{ms}");
        }
        // The work ran: the check's iteration, the sizing runs', and every
        // sample's.
        let sizing = 1 + 16 + 256 + 4096 + 12_000;
        assert_eq!(
            RUNS.load(Ordering::Relaxed),
            1 + sizing + 12_000 + 10 + 1 + 2 + 20
        );
    }

    #[test]
    fn failing_checks_and_panics_are_not_ready() {
        let bad_check = fake("fake", || {
            prepare(
                || Ok::<_, String>(()),
                |_: &()| 1u8,
                |_, _: &u8| Err("wrong total".into()),
                Note::Fixed(""),
            )
        });
        assert_eq!(
            verified(&bad_check).err().as_deref(),
            Some("check failed: wrong total")
        );

        let panics = fake("fake", || {
            prepare(
                || Ok::<_, String>(()),
                |_: &()| -> u8 { panic!("boom") },
                |_, _: &u8| Ok(()),
                Note::Fixed(""),
            )
        });
        let quiet = QuietPanics::install();
        let message = verified(&panics).err().unwrap_or_default();
        drop(quiet);
        // Where, and not "check failed": the work panicked, no check ran.
        assert!(
            message.starts_with("panicked at crates/measure/src/sample.rs:")
                && message.ends_with(": boom"),
            "{message}"
        );
    }

    /// What the probe with per-iteration inputs saw. Its `prepare` is a
    /// plain `fn`, so it counts in statics, which this test alone reads.
    static MADE: AtomicU64 = AtomicU64::new(0);
    static MADE_TIMED: AtomicU64 = AtomicU64::new(0);
    static USED: AtomicU64 = AtomicU64::new(0);
    static USED_UNTIMED: AtomicU64 = AtomicU64::new(0);
    static ALIVE: AtomicU64 = AtomicU64::new(0);
    static MOST_ALIVE: AtomicU64 = AtomicU64::new(0);

    /// 64 KiB: a chunk holds at most 256 of them (16 MiB by their size).
    type Input = [u8; 64 << 10];

    fn fed() -> Result<Box<dyn Instance>, String> {
        let count = |c: &AtomicU64| c.fetch_add(1, Ordering::Relaxed);
        crate::probe::build::stateless()
            .setup_each(move || {
                count(&MADE);
                if timing::open() {
                    count(&MADE_TIMED);
                }
                let alive = count(&ALIVE) + 1;
                MOST_ALIVE.fetch_max(alive, Ordering::Relaxed);
                [7u8; 64 << 10]
            })
            .run(move |input: Input| {
                count(&USED);
                if !timing::open() {
                    count(&USED_UNTIMED);
                }
                ALIVE.fetch_sub(1, Ordering::Relaxed);
                u64::from(input[0]) + u64::from(input[input.len() - 1])
            })
            .fingerprint(|sum| Some(*sum))
            .check(|sum| {
                if *sum == 14 {
                    Ok(())
                } else {
                    Err(format!("{sum}"))
                }
            })
            .build()
    }

    fn counted() -> [u64; 4] {
        [&MADE, &MADE_TIMED, &USED, &USED_UNTIMED].map(|c| c.swap(0, Ordering::Relaxed))
    }

    #[test]
    fn inputs_are_made_untimed_before_the_iterations_that_consume_them() {
        let p = fake("fed", fed);
        let Ok(mut ready) = verified(&p) else {
            panic!("the probe is fine")
        };
        let instance = ready.instance.as_mut();
        assert_eq!(instance.checksum(), Some(14));
        // The check's iteration, untimed.
        assert_eq!(counted(), [1, 0, 1, 1]);
        let scripted = Clock::scripted("fed=0.01").unwrap();
        for clock in [&scripted, &Clock::real()] {
            // 600 inputs of 64 KiB would be 37.5 MiB: made 256 at most at a
            // time, each chunk's iterations timed after it is made. None is
            // made inside a timed part; every iteration runs inside one.
            let ms = sample(clock, "fed", instance, 600, 1.0);
            assert_eq!(counted(), [600, 0, 600, 0]);
            assert!(MOST_ALIVE.load(Ordering::Relaxed) <= 256);
            assert_eq!(ALIVE.load(Ordering::Relaxed), 0);
            if clock.describe().is_some() {
                // The chunks make one sample, which takes one step.
                assert!((ms - 0.01).abs() < 1e-12, "{ms}");
            }
        }
        // Sizing times the same way: 1, 16, then the 120 iterations that
        // should take 1.2 ms.
        assert_eq!(pick_batch(&scripted, "fed", instance), 120);
        assert_eq!(counted(), [137, 0, 137, 0]);
        // Warm-up makes its inputs the same way, and times nothing.
        unmeasured(instance, 300);
        assert_eq!(counted(), [300, 0, 300, 300]);
        // The counted section only consumes what was made before it.
        assert_eq!(instance.make_inputs(5), 5);
        assert_eq!(counted(), [5, 0, 0, 0]);
        yardstick_measured_section(instance, 5);
        assert_eq!(counted(), [0, 0, 5, 5]);
        // A run nobody made inputs for (test mode's single run) makes its
        // own.
        instance.run(2);
        assert_eq!(counted(), [2, 0, 2, 2]);
    }
}
