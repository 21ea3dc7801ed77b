//! yardstick's schedule as k6 runs it: the blocks (one page on one server
//! in one round) in yardstick's order, the executor that hands their
//! requests to virtual users, and what cannot be split.
//!
//! A counted run (`--requests`) is one scenario whose iterations are the
//! blocks' requests one after the other, so that every block gets exactly
//! its count wherever its iterations run (one instance, or several
//! execution segments). Its executor is `per-vu-iterations` when each
//! block's count divides by the virtual users (every user then makes the
//! same share of every block, as the built-in client's connections do),
//! and `shared-iterations` otherwise. The script holds each iteration
//! until the blocks before its own are done on its instance.
//!
//! A timed run (`--duration`, `--rate`) is one scenario per block, each
//! started when the one before has ended and its requests in flight have
//! had [`GRACE_MS`] to finish.

use super::super::job::Job;
use super::super::schedule::Schedule;
use crate::error::Error;

/// How k6 hands a scenario's iterations to its virtual users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Executor {
    /// A count of iterations taken by whichever virtual user is free.
    SharedIterations,
    /// The same count of iterations for every virtual user.
    PerVuIterations,
    /// Virtual users requesting one after the other for a time.
    ConstantVus,
    /// Requests started at a fixed rate for a time, whatever the server's
    /// pace.
    ConstantArrivalRate,
}

impl Executor {
    /// k6's name of the executor.
    pub fn as_str(self) -> &'static str {
        match self {
            Executor::SharedIterations => "shared-iterations",
            Executor::PerVuIterations => "per-vu-iterations",
            Executor::ConstantVus => "constant-vus",
            Executor::ConstantArrivalRate => "constant-arrival-rate",
        }
    }

    /// True for the executors that make a count of requests.
    pub fn is_counted(self) -> bool {
        matches!(self, Executor::SharedIterations | Executor::PerVuIterations)
    }
}

/// One page on one server in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Index into the schedule's visits.
    pub visit: usize,
    /// The round, from 1.
    pub round: u64,
    /// Measured requests (0 in a timed run).
    pub count: u64,
}

/// Milliseconds the requests still in flight when a timed block ends may
/// take before the next block starts (k6's `gracefulStop`); a request
/// still running then is interrupted, and k6 writes none of its points.
pub const GRACE_MS: u64 = 2_000;

/// Everything the script and the instances are made from.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// How the requests are handed out.
    pub executor: Executor,
    /// In yardstick's order.
    pub blocks: Vec<Block>,
    /// Virtual users: requests in flight at a time (over all segments).
    pub vus: u64,
    /// Unmeasured requests each virtual user makes to a page on a server
    /// before its first measured one there, so its connection is warm;
    /// all users together make at most the schedule's warm-up.
    pub warm_per_vu: u64,
    /// k6 instances, each given its execution segment.
    pub segments: u64,
    /// Milliseconds each block of a timed run lasts.
    pub block_ms: u64,
    /// `--rate`: requests started per second.
    pub rate: Option<f64>,
}

impl Plan {
    /// The plan of `schedule` as `job` asks; refuses what k6 cannot do as
    /// asked.
    pub fn new(schedule: &Schedule, job: &Job) -> Result<Plan, Error> {
        let refuse = |m: String| Err(Error::usage(format!("--tool=k6: {m}")));
        let vus = schedule.concurrency;
        let segments = job.segments;
        if segments > vus {
            return refuse(format!(
                "--segments={segments}: each segment needs a virtual user of its own, and \
                 --concurrency={vus} gives {vus}"
            ));
        }
        let timed = job.rate.is_some() || job.duration.is_some();
        if !timed && segments > schedule.requests {
            return refuse(format!(
                "--segments={segments}: more segments than the {} requests of a page",
                schedule.requests
            ));
        }
        let mut blocks = Vec::new();
        for (round, batches) in schedule.rounds().iter().enumerate() {
            for batch in batches {
                blocks.push(Block {
                    visit: batch.visit,
                    round: round as u64 + 1,
                    count: if timed { 0 } else { batch.count },
                });
            }
        }
        let rounds = schedule.rounds.clamp(1, schedule.requests.max(1));
        let block_ms = job.duration_seconds().saturating_mul(1000) / rounds;
        if timed && block_ms < 100 {
            return refuse(format!(
                "--duration={} over {rounds} rounds leaves each page {block_ms} ms a round; \
                 give a longer --duration or fewer --rounds",
                job.duration_seconds()
            ));
        }
        let executor = match (job.rate, timed) {
            (Some(_), _) => Executor::ConstantArrivalRate,
            (None, true) => Executor::ConstantVus,
            (None, false) if blocks.iter().all(|b| b.count % vus == 0) => Executor::PerVuIterations,
            (None, false) => Executor::SharedIterations,
        };
        Ok(Plan {
            executor,
            blocks,
            vus,
            // Rounded down, so all users together never make more than
            // the warm-up asked (and its cap): it is at least one a user.
            warm_per_vu: (schedule.warmup / vus.max(1)).max(1),
            segments,
            block_ms,
            rate: job.rate,
        })
    }

    /// Measured requests in all (a counted run's).
    pub fn total(&self) -> u64 {
        self.blocks.iter().map(|b| b.count).sum()
    }

    /// Where each block ends in the order the script counts iterations:
    /// the scenario's (shared) or each virtual user's (per-VU).
    pub fn ends(&self) -> Vec<u64> {
        let per = match self.executor {
            Executor::PerVuIterations => self.vus.max(1),
            _ => 1,
        };
        let mut end = 0;
        self.blocks
            .iter()
            .map(|b| {
                end += b.count / per;
                end
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(f: impl FnOnce(&mut Job)) -> Result<Plan, Error> {
        let mut job = Job {
            compare: vec!["http://127.0.0.1:1".into(), "http://127.0.0.1:2".into()],
            ..Job::default()
        };
        f(&mut job);
        let schedule = Schedule::new(&job, vec!["/".into(), "/x".into()])?;
        Plan::new(&schedule, &job)
    }

    #[test]
    fn counts_that_divide_go_to_each_virtual_user_and_others_are_shared() {
        // 100 requests in 2 rounds of 50 over 5 users: 10 each, per block.
        let p = plan(|j| j.concurrency = 5).unwrap();
        assert_eq!(p.executor, Executor::PerVuIterations);
        assert_eq!(p.blocks.len(), 8);
        assert_eq!(p.total(), 400);
        assert_eq!(p.ends(), [10, 20, 30, 40, 50, 60, 70, 80]);
        // Rounds alternate the servers, as the built-in client's do.
        let servers: Vec<(usize, u64)> = p.blocks.iter().map(|b| (b.visit, b.round)).collect();
        assert_eq!(
            servers,
            [
                (0, 1),
                (1, 1),
                (2, 1),
                (3, 1),
                (1, 2),
                (0, 2),
                (3, 2),
                (2, 2)
            ]
        );
        let p = plan(|j| {
            j.concurrency = 4;
            j.requests = 7;
        })
        .unwrap();
        assert_eq!(p.executor, Executor::SharedIterations);
        assert_eq!(p.total(), 28);
        assert_eq!(p.ends(), [4, 8, 12, 16, 19, 22, 25, 28]);
    }

    #[test]
    fn warm_up_is_shared_among_the_virtual_users() {
        let p = plan(|j| {
            j.concurrency = 4;
            j.warmup = 10;
        })
        .unwrap();
        assert_eq!(p.warm_per_vu, 2);
    }

    #[test]
    fn timed_runs_have_a_scenario_per_block() {
        let p = plan(|j| j.duration = Some(4)).unwrap();
        assert_eq!(
            (p.executor, p.block_ms, p.total()),
            (Executor::ConstantVus, 2000, 0)
        );
        let p = plan(|j| j.rate = Some(50.0)).unwrap();
        assert_eq!(p.executor, Executor::ConstantArrivalRate);
        assert_eq!(p.block_ms, 5000);
        let e = plan(|j| {
            j.duration = Some(1);
            j.rounds = 20;
        })
        .unwrap_err();
        assert!(e.to_string().contains("50 ms a round"), "{e}");
    }

    #[test]
    fn what_cannot_be_split_is_refused() {
        let e = plan(|j| {
            j.concurrency = 2;
            j.segments = 3;
        })
        .unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("--segments=3"), "{e}");
        let e = plan(|j| {
            j.concurrency = 8;
            j.requests = 2;
            j.segments = 3;
        })
        .unwrap_err();
        assert!(e.to_string().contains("more segments"), "{e}");
        assert!(plan(|j| j.segments = 3).is_ok());
    }
}
