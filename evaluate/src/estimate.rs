//! How long an evaluation will take, from one trial of each kind timed at
//! the start: printed before the long part, so a plan that cannot finish in
//! time is cut before it starts rather than after an hour.

use crate::Error;
use crate::method::{Context, Procedure};
use crate::plan::{Job, Method, Plan};
use crate::runner::workers;
use std::time::{Duration, Instant};

/// Time allowed for starting and settling one hog.
pub const HOG_START: Duration = Duration::from_secs(1);

/// The time the whole evaluation should fit in.
const BUDGET: Duration = Duration::from_secs(90 * 60);

/// Seconds one trial took when timed at the start.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Timings {
    /// A timed run that confirms nothing (the timed baseline).
    pub stored: f64,
    /// A confirmed run with a slowdown above the threshold, where it
    /// re-measures every probe.
    pub confirmed_flagged: Option<f64>,
    pub paired: Option<f64>,
    pub instructions: Option<f64>,
}

/// Expected seconds of `job`. Runs with a slowdown above `threshold`
/// confirm (a confirmed run re-measures what it flags); the instruction
/// counts of a job without a hog run `workers` at a time.
pub fn job_seconds(job: &Job, t: &Timings, threshold: f64, workers: usize) -> f64 {
    let per = |slowdown: Option<f64>| -> f64 {
        let flagged = slowdown.is_some_and(|s| s > threshold);
        match job.methods.as_slice() {
            [Method::Paired] => t.paired.unwrap_or(t.stored),
            [Method::Instructions] => t.instructions.unwrap_or(t.stored) / workers.max(1) as f64,
            m if m.contains(&Method::Confirmed) && flagged => {
                t.confirmed_flagged.unwrap_or(t.stored)
            }
            _ => t.stored,
        }
    };
    let aa = per(None) * job.aa_runs as f64;
    let power: f64 = job
        .slowdowns
        .iter()
        .map(|s| per(Some(*s)) * job.power_runs as f64)
        .sum();
    aa + power
}

/// Times one trial of each method that is not timed yet, before the long
/// part: the estimate rests on them, and a method that cannot work fails
/// here rather than an hour in. Their verdicts are not kept. `stored` and
/// `counted` are what a baseline run of each kind took.
pub fn pilots(
    ctx: &Context<'_>,
    plan: &Plan,
    stored: Duration,
    counted: Option<Duration>,
) -> Result<Timings, Error> {
    let methods = plan.methods();
    let mut t = Timings {
        stored: stored.as_secs_f64(),
        instructions: counted.map(|d| d.as_secs_f64()),
        ..Timings::default()
    };
    let highest = plan
        .cells
        .iter()
        .filter(|c| c.method == Method::Confirmed && c.power_runs > 0)
        .flat_map(|c| c.slowdowns.iter().copied())
        .fold(None, |a: Option<f64>, s| Some(a.map_or(s, |a| a.max(s))));
    let timed = |p: Procedure, slowdown| -> Result<f64, Error> {
        let clock = Instant::now();
        p.trial(ctx, slowdown, plan.seed)?;
        Ok(clock.elapsed().as_secs_f64())
    };
    if methods.contains(&Method::Confirmed)
        && let Some(s) = highest.filter(|s| {
            // Each probe's own threshold is at least the floor.
            *s > ctx
                .threshold
                .unwrap_or(yardstick_baseline::thresholds::FLOOR)
        })
    {
        eprintln!("evaluate: timing a confirmed run at {s} %");
        t.confirmed_flagged = Some(timed(Procedure::Confirmed { also_stored: false }, Some(s))?);
    }
    if methods.contains(&Method::Paired) {
        eprintln!("evaluate: timing a paired comparison");
        t.paired = Some(timed(Procedure::Paired, None)?);
    }
    Ok(t)
}

/// The plan's jobs and what they are expected to take, from the pilots'
/// timings.
pub struct Schedule {
    pub jobs: Vec<Job>,
    /// Seconds of each job, in the jobs' order.
    pub job_seconds: Vec<f64>,
    /// The whole evaluation, from its start to its end.
    pub total: Duration,
}

impl Schedule {
    /// `elapsed` is the time the evaluation has taken so far; each hog
    /// adds its start.
    pub fn new(
        plan: &Plan,
        timings: &Timings,
        threshold: f64,
        two_cpus: bool,
        elapsed: Duration,
    ) -> Schedule {
        let jobs = plan.jobs();
        let job_seconds: Vec<f64> = jobs
            .iter()
            .map(|j| job_seconds(j, timings, threshold, workers(j, two_cpus)))
            .collect();
        let hogs = plan
            .conditions()
            .iter()
            .filter(|c| c.hog().is_some())
            .count() as u32;
        let total =
            elapsed + HOG_START * hogs + Duration::from_secs_f64(job_seconds.iter().sum::<f64>());
        Schedule {
            jobs,
            job_seconds,
            total,
        }
    }

    /// Prints each job's estimate and the total, and warns when the total
    /// is over the budget, while the plan can still be cut.
    pub fn announce(&self, timings: &Timings) {
        for (job, secs) in self.jobs.iter().zip(&self.job_seconds) {
            eprintln!(
                "evaluate: estimate: {} / {}: {} A/A + {} x {} slowdowns = {} runs, {}",
                job.condition.as_str(),
                job.name(),
                job.aa_runs,
                job.power_runs,
                job.slowdowns.len(),
                job.runs(),
                human(*secs)
            );
        }
        eprintln!(
            "evaluate: expected duration {} in all (a timed run {:.2} s, confirmed above the threshold {}, paired {}, counted {}; runs under a hog take longer)",
            human(self.total.as_secs_f64()),
            timings.stored,
            timings.confirmed_flagged.map_or("-".into(), human),
            timings.paired.map_or("-".into(), human),
            timings.instructions.map_or("-".into(), human),
        );
        if self.total > BUDGET {
            eprintln!(
                "evaluate: warning: that is more than 90 minutes; run fewer --methods or --conditions, or fewer --runs or --power-runs"
            );
        }
    }
}

/// `12.3 min` or `45 s`.
pub fn human(seconds: f64) -> String {
    if seconds >= 90.0 {
        format!("{:.1} min", seconds / 60.0)
    } else {
        format!("{seconds:.0} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Condition;

    fn job(methods: Vec<Method>) -> Job {
        Job {
            condition: Condition::Quiet,
            methods,
            aa_runs: 10,
            power_runs: 2,
            slowdowns: vec![10.0, 40.0],
        }
    }

    const T: Timings = Timings {
        stored: 2.0,
        confirmed_flagged: Some(10.0),
        paired: Some(7.0),
        instructions: Some(50.0),
    };

    #[test]
    fn each_kind_of_trial_costs_its_own_time() {
        let stored = job(vec![Method::StoredBaseline]);
        assert_eq!(job_seconds(&stored, &T, 15.0, 1), 14.0 * 2.0);
        // Only the runs at 40 % confirm.
        let shared = job(vec![Method::StoredBaseline, Method::Confirmed]);
        assert_eq!(job_seconds(&shared, &T, 15.0, 1), 12.0 * 2.0 + 2.0 * 10.0);
        assert_eq!(job_seconds(&job(vec![Method::Paired]), &T, 15.0, 1), 98.0);
        let counts = job(vec![Method::Instructions]);
        assert_eq!(job_seconds(&counts, &T, 15.0, 2), 14.0 * 25.0);
        // Without a timing of its own, a trial is priced as a timed run.
        let rough = Timings {
            stored: 2.0,
            ..Timings::default()
        };
        assert_eq!(job_seconds(&counts, &rough, 15.0, 1), 28.0);
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(human(45.2), "45 s");
        assert_eq!(human(600.0), "10.0 min");
    }
}
