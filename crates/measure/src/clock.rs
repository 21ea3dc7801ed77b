//! Where the harness's durations come from: the monotonic clock, or, in
//! tests, a script.
//!
//! A test of the harness that needs "this probe got slower", "the machine
//! got slower", "the loop drifted" or "the confirmation does not see it
//! again" cannot get it from real work: on a loaded machine a real slowdown
//! can vanish into the noise, and a sleep does not slow down with the
//! machine, so its ratio to the calibration loop falls under load. A
//! scripted clock gives every sample a duration the test chose, while the
//! probe still does its work (its result is still checked and folded into
//! the checksum); every figure of the run then follows from the script
//! alone.
//!
//! The script comes from `YARDSTICK_FAKE_CLOCK`, which only builds of
//! cargo's debug profile honour (the builds `cargo test` makes); any other
//! build (`cargo bench`, a release build, a bench profile with debug
//! assertions) refuses to run with it, so a benchmark can never be scripted
//! by accident:
//!
//! ```text
//! YARDSTICK_FAKE_CLOCK='@calibration=1; fine_sum=0.01; slow_at_first=1*3,0.01'
//! ```
//!
//! Each entry is `SUBJECT=STEPS`. The subject is a probe's name, `*` for
//! every probe not named, or `@calibration` for the calibration loop. The
//! steps are milliseconds per iteration (per loop for the calibration),
//! each optionally repeated with `*N`; the n-th measured sample of a subject
//! in a process takes the n-th step, and the last step holds from then on.
//! Timing a growing batch to pick its size does not advance the script.
//! Subjects that no entry names take 0.001 ms per iteration (probes) and
//! 1 ms (the calibration loop).

use crate::error::Error;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The environment variable that carries the script.
pub const VARIABLE: &str = "YARDSTICK_FAKE_CLOCK";

/// The subject name of the calibration loop in a script.
pub(crate) const CALIBRATION: &str = "@calibration";

/// Milliseconds per iteration of a probe no entry names.
const DEFAULT_PROBE_MS: f64 = 0.001;
/// Milliseconds of a calibration loop no entry names.
const DEFAULT_CALIBRATION_MS: f64 = 1.0;

/// What a timing is for: a measured sample advances the script, a sizing
/// run (picking a batch) only reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// A measured sample: a scripted clock takes its next step.
    Sample,
    /// Sizing a batch or warming up: a scripted clock repeats its first step.
    Sizing,
}

/// The source of every duration the harness measures.
#[derive(Debug, Default)]
pub struct Clock {
    script: Option<Script>,
}

impl Clock {
    /// The monotonic clock.
    pub fn real() -> Clock {
        Clock::default()
    }

    /// A clock that follows `text` (see the module's documentation).
    pub fn scripted(text: &str) -> Result<Clock, Error> {
        Ok(Clock {
            script: Some(Script::parse(text)?),
        })
    }

    /// The clock `YARDSTICK_FAKE_CLOCK` asks for: a script in a build of the
    /// debug profile, refused in any other, the real clock when unset.
    pub fn from_env() -> Result<Clock, Error> {
        match std::env::var(VARIABLE) {
            Err(std::env::VarError::NotPresent) => Ok(Clock::real()),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(Error::usage(format!("{VARIABLE}: not valid UTF-8")))
            }
            Ok(_) if crate::document::environment::BUILD_PROFILE != "debug" => {
                Err(Error::usage(format!(
                    "{VARIABLE} is honoured only by debug builds (it scripts the clock for tests); \
                 unset it to measure"
                )))
            }
            Ok(text) => Clock::scripted(&text),
        }
    }

    /// Runs `work`, which does `iterations` iterations of `subject` (a
    /// probe's name, or `CALIBRATION` for one loop), and returns how long
    /// it took with its result.
    pub fn time<T>(
        &self,
        subject: &str,
        iterations: u64,
        used: Use,
        work: impl FnOnce() -> T,
    ) -> (Duration, T) {
        self.time_parts(subject, iterations, used, 1.0, |parts| parts.time(work))
    }

    /// Like [`Clock::time`], but only the parts of `work` it runs through
    /// [`Parts::time`] count: what it does between them (making a probe's
    /// inputs) is not timed. The timing lasts `stretch` times as long as
    /// those parts did: after the work, the clock busy-waits for the rest
    /// (the slowdown knob, see `inject`). A busy wait, not a sleep, so the
    /// extra time is spent as the work's is, and moves with the machine's
    /// load as the work does. A scripted clock gives the whole timing its
    /// one step, times `stretch`, whatever the parts.
    pub(crate) fn time_parts<T>(
        &self,
        subject: &str,
        iterations: u64,
        used: Use,
        stretch: f64,
        work: impl FnOnce(&mut Parts) -> T,
    ) -> (Duration, T) {
        let mut parts = Parts {
            real: self.script.is_none(),
            elapsed: Duration::ZERO,
        };
        let result = work(&mut parts);
        match &self.script {
            None => {
                if stretch > 1.0 {
                    let extra = parts.elapsed.mul_f64(stretch - 1.0);
                    let start = Instant::now();
                    while start.elapsed() < extra {
                        std::hint::spin_loop();
                    }
                    parts.elapsed += start.elapsed();
                }
                (parts.elapsed, result)
            }
            Some(script) => {
                let ms = script.step(subject, used) * iterations as f64 * stretch.max(1.0);
                let elapsed = Duration::try_from_secs_f64(ms / 1e3).unwrap_or(Duration::MAX);
                (elapsed, result)
            }
        }
    }

    /// A time measured without [`Clock::time`] (a child process's boot,
    /// which ends on another thread's word): the time itself, or, under a
    /// script, the script's next step for `subject` as one iteration, so
    /// that a test can give whole processes the times it chose.
    pub(crate) fn stand_in(&self, subject: &str, measured: Duration) -> Duration {
        match &self.script {
            None => measured,
            Some(script) => {
                let ms = script.step(subject, Use::Sample);
                Duration::try_from_secs_f64(ms / 1e3).unwrap_or(Duration::MAX)
            }
        }
    }

    /// The script as written back, for a run's settings and warnings; `None`
    /// for the real clock.
    pub fn describe(&self) -> Option<String> {
        self.script.as_ref().map(|s| s.text.clone())
    }

    /// The warning a run timed by a script carries, so nobody mistakes its
    /// figures for measurements.
    pub fn warning(&self) -> Option<String> {
        self.describe().map(|text| {
            format!("fake clock ({VARIABLE}={text}): these times are scripted, not measured")
        })
    }
}

/// The timed parts of one timing (see [`Clock::time_parts`]): their
/// durations add up.
pub(crate) struct Parts {
    /// Whether the real clock times the parts (a script ignores them).
    real: bool,
    elapsed: Duration,
}

impl Parts {
    /// Runs `work` as a timed part and returns its result.
    pub(crate) fn time<T>(&mut self, work: impl FnOnce() -> T) -> T {
        #[cfg(test)]
        let _open = timing::Open::new();
        if !self.real {
            return work();
        }
        let start = Instant::now();
        let result = work();
        self.elapsed += start.elapsed();
        result
    }
}

/// In the harness's own tests: whether a timed part is running on this
/// thread, so a test can prove what is timed and what is not without
/// reading a time.
#[cfg(test)]
pub(crate) mod timing {
    use std::cell::Cell;

    thread_local! {
        static OPEN: Cell<bool> = const { Cell::new(false) };
    }

    /// Whether a timed part is running on this thread.
    pub(crate) fn open() -> bool {
        OPEN.with(Cell::get)
    }

    /// Marks a timed part open until dropped.
    pub(super) struct Open(bool);

    impl Open {
        pub(super) fn new() -> Open {
            Open(OPEN.with(|o| o.replace(true)))
        }
    }

    impl Drop for Open {
        fn drop(&mut self) {
            OPEN.with(|o| o.set(self.0));
        }
    }
}

/// A parsed script and how far each subject has got through it.
#[derive(Debug)]
struct Script {
    text: String,
    steps: BTreeMap<String, Vec<(f64, u64)>>,
    taken: Mutex<BTreeMap<String, u64>>,
}

impl Script {
    fn parse(text: &str) -> Result<Script, Error> {
        let mut steps = BTreeMap::new();
        for entry in text.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            let bad = |why: &str| {
                Error::usage(format!(
                    "{VARIABLE}: `{entry}`: {why} (for example fine_sum=0.01 or @calibration=1*3,2)"
                ))
            };
            let (subject, list) = entry
                .split_once('=')
                .ok_or_else(|| bad("not SUBJECT=STEPS"))?;
            let subject = subject.trim();
            if subject.is_empty() {
                return Err(bad("no subject"));
            }
            let parsed = list
                .split(',')
                .map(|step| parse_step(step.trim()).ok_or_else(|| bad("a step is not MS or MS*N")))
                .collect::<Result<Vec<_>, _>>()?;
            if steps.insert(subject.to_string(), parsed).is_some() {
                return Err(bad("named twice"));
            }
        }
        Ok(Script {
            text: text.trim().to_string(),
            steps,
            taken: Mutex::new(BTreeMap::new()),
        })
    }

    /// Milliseconds per iteration of `subject`'s next sample.
    fn step(&self, subject: &str, used: Use) -> f64 {
        let (key, fallback) = if subject == CALIBRATION {
            (CALIBRATION, DEFAULT_CALIBRATION_MS)
        } else if self.steps.contains_key(subject) {
            (subject, DEFAULT_PROBE_MS)
        } else {
            ("*", DEFAULT_PROBE_MS)
        };
        let Some(steps) = self.steps.get(key) else {
            return fallback;
        };
        let mut taken = self.taken.lock().unwrap_or_else(|e| e.into_inner());
        let count = taken.entry(subject.to_string()).or_insert(0);
        let index = *count;
        if used == Use::Sample {
            *count += 1;
        }
        let mut seen = 0u64;
        for (ms, times) in steps {
            seen = seen.saturating_add(*times);
            if index < seen {
                return *ms;
            }
        }
        steps.last().map_or(fallback, |(ms, _)| *ms)
    }
}

/// The longest step a script may give, in milliseconds (a day).
const MAX_STEP_MS: f64 = 86_400_000.0;

/// `MS` or `MS*N`: milliseconds from 0 to a day, and N ≥ 1 samples.
fn parse_step(step: &str) -> Option<(f64, u64)> {
    let (ms, times) = match step.split_once('*') {
        Some((ms, times)) => (ms, times.trim().parse().ok().filter(|n| *n >= 1)?),
        None => (step, 1),
    };
    let ms: f64 = ms.trim().parse().ok()?;
    (0.0..=MAX_STEP_MS).contains(&ms).then_some((ms, times))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(clock: &Clock, subject: &str, iterations: u64, used: Use) -> f64 {
        let (d, ()) = clock.time(subject, iterations, used, || ());
        (d.as_secs_f64() * 1e3 * 1e6).round() / 1e6
    }

    #[test]
    fn steps_are_taken_in_order_and_the_last_holds() {
        let c = Clock::scripted("a=1*2,0.5; @calibration=3").unwrap();
        assert_eq!(ms(&c, "a", 10, Use::Sizing), 10.0);
        assert_eq!(ms(&c, "a", 10, Use::Sample), 10.0);
        assert_eq!(ms(&c, "a", 10, Use::Sample), 10.0);
        assert_eq!(ms(&c, "a", 10, Use::Sample), 5.0);
        assert_eq!(ms(&c, "a", 10, Use::Sample), 5.0);
        assert_eq!(ms(&c, CALIBRATION, 1, Use::Sample), 3.0);
    }

    #[test]
    fn unnamed_subjects_take_the_wildcard_or_the_defaults() {
        let c = Clock::scripted("*=2").unwrap();
        assert_eq!(ms(&c, "anything", 3, Use::Sample), 6.0);
        assert_eq!(ms(&c, CALIBRATION, 1, Use::Sample), DEFAULT_CALIBRATION_MS);
        let c = Clock::scripted("").unwrap();
        assert_eq!(ms(&c, "anything", 1000, Use::Sample), 1.0);
    }

    #[test]
    fn each_subject_keeps_its_own_place() {
        let c = Clock::scripted("*=1,2").unwrap();
        assert_eq!(ms(&c, "a", 1, Use::Sample), 1.0);
        assert_eq!(ms(&c, "b", 1, Use::Sample), 1.0);
        assert_eq!(ms(&c, "a", 1, Use::Sample), 2.0);
    }

    #[test]
    fn the_work_is_done_and_its_result_returned() {
        let c = Clock::scripted("a=1").unwrap();
        let mut ran = 0;
        let (_, out) = c.time("a", 1, Use::Sample, || {
            ran += 1;
            41 + 1
        });
        assert_eq!((ran, out), (1, 42));
        let (_, out) = Clock::real().time("a", 1, Use::Sample, || 7);
        assert_eq!(out, 7);
    }

    #[test]
    fn bad_scripts_name_the_variable_and_the_entry() {
        for bad in [
            "a", "=1", "a=x", "a=-1", "a=1*0", "a=1;a=2", "a=inf", "a=1*",
        ] {
            let e = Clock::scripted(bad).unwrap_err().to_string();
            assert!(e.contains(VARIABLE), "{bad}: {e}");
        }
    }

    #[test]
    fn a_huge_sample_saturates_instead_of_panicking() {
        let c = Clock::scripted("a=86400000").unwrap();
        let (d, ()) = c.time("a", u64::MAX, Use::Sample, || ());
        assert_eq!(d, Duration::MAX);
    }

    #[test]
    fn a_script_stands_in_for_times_measured_elsewhere() {
        let c = Clock::scripted("k.boot=2,3").unwrap();
        let real = Duration::from_millis(7);
        assert_eq!(c.stand_in("k.boot", real), Duration::from_millis(2));
        assert_eq!(c.stand_in("k.boot", real), Duration::from_millis(3));
        assert_eq!(Clock::real().stand_in("k.boot", real), real);
    }

    #[test]
    fn a_scripted_run_says_so() {
        let c = Clock::scripted(" a=1 ").unwrap();
        assert_eq!(c.describe().as_deref(), Some("a=1"));
        assert!(c.warning().is_some_and(|w| w.contains("scripted")));
        assert!(Clock::real().warning().is_none());
    }
}
