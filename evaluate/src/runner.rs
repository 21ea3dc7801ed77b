//! Making a job's trials: one after another on the benchmark's CPU, or, for
//! instruction counts where no hog runs, one worker per CPU (counts do not
//! depend on the load, so the second CPU halves their wall time).

use crate::Error;
use crate::machine;
use crate::method::{Context, Procedure, Trial};
use crate::plan::{Method, Slot};
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

/// The trials one run gave: one per method of its job.
pub type Made = Vec<(Method, Trial)>;

/// Makes the trials of `slots` in order, on `cpus` (one worker each, each
/// pinned to its CPU; the first error stops every worker).
pub fn trials(
    ctx: &Context<'_>,
    procedure: Procedure,
    slots: &[Slot],
    seeds: &[u64],
    cpus: &[usize],
    progress: &Progress,
    label: &str,
) -> Result<Vec<Made>, Error> {
    if let [_] = cpus {
        return slots
            .iter()
            .zip(seeds)
            .map(|(slot, seed)| {
                let made = procedure.trial(ctx, slot.slowdown, *seed)?;
                progress.advance(label);
                Ok(made)
            })
            .collect();
    }
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<Made, Error>>>> =
        Mutex::new(slots.iter().map(|_| None).collect());
    let errors: Mutex<Vec<Error>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for &cpu in cpus {
            let (next, failed, results, errors) = (&next, &failed, &results, &errors);
            scope.spawn(move || {
                // Pins this thread, and so the processes it starts.
                if let Err(e) = machine::pin(cpu) {
                    failed.store(true, Ordering::SeqCst);
                    if let Ok(mut v) = errors.lock() {
                        v.push(e);
                    }
                    return;
                }
                while !failed.load(Ordering::SeqCst) {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let (Some(slot), Some(seed)) = (slots.get(i), seeds.get(i)) else {
                        break;
                    };
                    let made = procedure.trial(ctx, slot.slowdown, *seed);
                    if made.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    } else {
                        progress.advance(label);
                    }
                    if let Ok(mut r) = results.lock()
                        && let Some(cell) = r.get_mut(i)
                    {
                        *cell = Some(made);
                    }
                }
            });
        }
    });
    if let Some(e) = errors.into_inner().ok().and_then(|mut v| v.pop()) {
        return Err(e);
    }
    let results = results
        .into_inner()
        .map_err(|_| Error("a worker stopped while holding the results".to_string()))?;
    let mut out = Vec::with_capacity(slots.len());
    for r in results {
        match r {
            Some(Ok(made)) => out.push(made),
            Some(Err(e)) => return Err(e),
            // Left undone only because another worker failed; that
            // worker's error was returned above or below.
            None => {}
        }
    }
    if out.len() != slots.len() {
        return Err(Error(format!(
            "{label}: only {} of {} trials were made",
            out.len(),
            slots.len()
        )));
    }
    Ok(out)
}
