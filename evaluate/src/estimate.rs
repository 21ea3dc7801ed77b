//! How long an evaluation will take, from one trial of each kind timed at
//! the start: printed before the long part, so a plan that cannot finish in
//! time is cut before it starts rather than after an hour.

use crate::plan::{Job, Method};
use std::time::Duration;

/// Time allowed for starting and settling one hog.
pub const HOG_START: Duration = Duration::from_secs(1);

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
