//! Making a job's trials: one after another on the benchmark's CPU, or, for
//! instruction counts where no hog runs, one worker per CPU (counts do not
//! depend on the load, so the second CPU halves their wall time).

use crate::Error;
use crate::machine;
use crate::machine::{BENCH_CPU, HOG_CPU};
use crate::method::{Context, Procedure, Trial};
use crate::plan::{Job, Method, Slot};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Counts finished trials across workers and prints progress now and then.
pub struct Progress {
    total: usize,
    done: AtomicUsize,
    clock: Instant,
    last: Mutex<Instant>,
}

impl Progress {
    /// Progress over `total` trials of an evaluation started at `clock`.
    pub fn new(total: usize, clock: Instant) -> Progress {
        Progress {
            total,
            done: AtomicUsize::new(0),
            clock,
            last: Mutex::new(Instant::now()),
        }
    }

    fn advance(&self, label: &str) {
        let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        if done.is_multiple_of(25) || done == self.total || last.elapsed() > Duration::from_secs(60)
        {
            *last = Instant::now();
            eprintln!(
                "evaluate: {done}/{} runs ({label}), {:.1} min elapsed",
                self.total,
                self.clock.elapsed().as_secs_f64() / 60.0
            );
        }
    }
}

/// Trials of `job` at once: two where no hog runs and the machine has a
/// second CPU (`two_cpus`), else one. Only instruction counts take the
/// second worker (see [`cpus`]): a timed run beside another would measure
/// the other.
pub fn workers(job: &Job, two_cpus: bool) -> usize {
    if job.condition.hog().is_none() && two_cpus {
        2
    } else {
        1
    }
}

/// The CPUs a job's trials run on, one worker each.
pub fn cpus(procedure: Procedure, job: &Job, two_cpus: bool) -> &'static [usize] {
    if procedure == Procedure::Instructions && workers(job, two_cpus) == 2 {
        &[BENCH_CPU, HOG_CPU]
    } else {
        &[BENCH_CPU]
    }
}

/// The trials one run gave: one per method of its job.
pub type Made = Vec<(Method, Trial)>;

/// What a job's trials need besides the slots themselves: how to make one,
/// and where to report progress.
#[derive(Clone, Copy)]
pub struct Work<'a> {
    pub ctx: &'a Context<'a>,
    pub procedure: Procedure,
    pub progress: &'a Progress,
    /// The job's name in progress lines and errors.
    pub label: &'a str,
}

impl Work<'_> {
    fn trial(&self, slot: &Slot, seed: u64) -> Result<Made, Error> {
        self.procedure.trial(self.ctx, slot.slowdown, seed)
    }
}

/// Makes the trials of `slots` in order, on `cpus` (one worker each, each
/// pinned to its CPU; the first error stops every worker).
pub fn trials(
    work: Work<'_>,
    slots: &[Slot],
    seeds: &[u64],
    cpus: &[usize],
) -> Result<Vec<Made>, Error> {
    if let [_] = cpus {
        return one_after_another(work, slots, seeds);
    }
    let shared = Shared::new(slots.len());
    std::thread::scope(|scope| {
        for &cpu in cpus {
            let shared = &shared;
            scope.spawn(move || shared.worker(work, cpu, slots, seeds));
        }
    });
    shared.into_trials(work.label, slots.len())
}

/// The trials on this thread's CPU, in the slots' order.
fn one_after_another(work: Work<'_>, slots: &[Slot], seeds: &[u64]) -> Result<Vec<Made>, Error> {
    slots
        .iter()
        .zip(seeds)
        .map(|(slot, seed)| {
            let made = work.trial(slot, *seed)?;
            work.progress.advance(work.label);
            Ok(made)
        })
        .collect()
}

/// What the workers of one job share: the next slot to take, whether one
/// failed (the others then stop), and each slot's result in its place, so
/// the trials come back in the slots' order whatever worker made them.
struct Shared {
    next: AtomicUsize,
    failed: AtomicBool,
    results: Mutex<Vec<Option<Result<Made, Error>>>>,
    /// Errors that stopped a worker before it made any trial.
    errors: Mutex<Vec<Error>>,
}

impl Shared {
    fn new(slots: usize) -> Shared {
        Shared {
            next: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
            results: Mutex::new((0..slots).map(|_| None).collect()),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// One worker: pinned to `cpu` (and so the processes it starts), it
    /// takes slots until none is left or a worker failed.
    fn worker(&self, work: Work<'_>, cpu: usize, slots: &[Slot], seeds: &[u64]) {
        if let Err(e) = machine::pin(cpu) {
            self.failed.store(true, Ordering::SeqCst);
            if let Ok(mut v) = self.errors.lock() {
                v.push(e);
            }
            return;
        }
        while !self.failed.load(Ordering::SeqCst) {
            let i = self.next.fetch_add(1, Ordering::SeqCst);
            let (Some(slot), Some(seed)) = (slots.get(i), seeds.get(i)) else {
                break;
            };
            let made = work.trial(slot, *seed);
            if made.is_err() {
                self.failed.store(true, Ordering::SeqCst);
            } else {
                work.progress.advance(work.label);
            }
            if let Ok(mut r) = self.results.lock()
                && let Some(cell) = r.get_mut(i)
            {
                *cell = Some(made);
            }
        }
    }

    /// The trials in the slots' order, or the first error a worker met.
    fn into_trials(self, label: &str, slots: usize) -> Result<Vec<Made>, Error> {
        if let Some(e) = self.errors.into_inner().ok().and_then(|mut v| v.pop()) {
            return Err(e);
        }
        let results = self
            .results
            .into_inner()
            .map_err(|_| Error("a worker stopped while holding the results".to_string()))?;
        let mut out = Vec::with_capacity(slots);
        for r in results {
            match r {
                Some(Ok(made)) => out.push(made),
                Some(Err(e)) => return Err(e),
                // Left undone only because another worker failed; that
                // worker's error was returned above or below.
                None => {}
            }
        }
        if out.len() != slots {
            return Err(Error(format!(
                "{label}: only {} of {} trials were made",
                out.len(),
                slots
            )));
        }
        Ok(out)
    }
}
