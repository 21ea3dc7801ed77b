//! Every job's trials, condition by condition: each condition's hog is
//! started once and ended after the last of its jobs, and each method's
//! trials are summarised as soon as its job is done.

use crate::Error;
use crate::estimate::Schedule;
use crate::hog::{Hog, HogSpec};
use crate::machine::HOG_CPU;
use crate::method::{Context, Procedure, Trial};
use crate::options::Options;
use crate::plan::{Condition, Job, Method, Plan};
use crate::results::{Block, JobTime, Record, summarise};
use crate::runner::{self, Progress, Work};
use std::path::Path;
use std::time::Instant;

/// What the jobs gave, in the shape of the results document.
#[derive(Default)]
pub struct Measured {
    pub trials: Vec<Record>,
    /// Sorted by condition, then method.
    pub blocks: Vec<Block>,
    pub jobs: Vec<JobTime>,
}

/// Everything the jobs of an evaluation share.
pub struct Jobs<'a> {
    pub ctx: &'a Context<'a>,
    pub plan: &'a Plan,
    pub schedule: &'a Schedule,
    pub options: &'a Options,
    pub two_cpus: bool,
}

impl Jobs<'_> {
    /// Makes every job's trials; `clock` started with the evaluation.
    pub fn run(&self, clock: Instant) -> Result<Measured, Error> {
        // Each hog is this binary's `hog` subcommand.
        let exe = std::env::current_exe()
            .map_err(|e| Error(format!("cannot find the evaluate binary itself: {e}")))?;
        let progress = Progress::new(self.plan.runs(), clock);
        let mut measured = Measured::default();
        for condition in self.plan.conditions() {
            let hog = self.start_hog(&exe, condition)?;
            for (index, job) in self.schedule.jobs.iter().enumerate() {
                if job.condition == condition {
                    self.job(index, job, &progress, &mut measured)?;
                }
            }
            if let Some(h) = hog {
                h.stop()?;
            }
        }
        measured.blocks.sort_by_key(|b| (b.condition, b.method));
        Ok(measured)
    }

    /// The hog that makes `condition`, pinned to the other CPU; none for
    /// quiet.
    fn start_hog(&self, exe: &Path, condition: Condition) -> Result<Option<Hog>, Error> {
        let Some(kind) = condition.hog() else {
            return Ok(None);
        };
        let o = self.options;
        let spec = HogSpec {
            kind,
            cpu: HOG_CPU,
            memory_mib: o.memory_mib,
            burst_min: o.burst.0,
            burst_max: o.burst.1,
            seed: o.seed,
        };
        Hog::start(exe, &spec).map(Some)
    }

    /// The trials of the `index`-th job, in its seeded order, each with a
    /// seed of its own (a paired trial's round order).
    fn job(
        &self,
        index: usize,
        job: &Job,
        progress: &Progress,
        measured: &mut Measured,
    ) -> Result<(), Error> {
        let clock = Instant::now();
        let procedure = Procedure::of(&job.methods)?;
        let slots = job.slots(self.plan.seed, index);
        let mut seeds = fastrand::Rng::with_seed(self.plan.seed ^ ((index as u64) << 40));
        let seeds: Vec<u64> = slots.iter().map(|_| seeds.u64(..)).collect();
        let label = format!("{} / {}", job.condition.as_str(), job.name());
        let work = Work {
            ctx: self.ctx,
            procedure,
            progress,
            label: &label,
        };
        let cpus = runner::cpus(procedure, job, self.two_cpus);
        let made = runner::trials(work, &slots, &seeds, cpus)?;
        for method in &job.methods {
            let mine: Vec<Trial> = made
                .iter()
                .flatten()
                .filter(|(m, _)| m == method)
                .map(|(_, t)| t.clone())
                .collect();
            let keys = self.judged_probes(*method);
            measured.blocks.push(summarise(
                job.condition,
                *method,
                &mine,
                &keys,
                &job.slowdowns,
            ));
            measured.trials.extend(mine.into_iter().map(|trial| Record {
                condition: job.condition,
                method: *method,
                trial,
            }));
        }
        measured.jobs.push(JobTime {
            condition: job.condition,
            methods: job.name(),
            runs: job.runs(),
            estimate_seconds: self.schedule.job_seconds[index],
            seconds: clock.elapsed().as_secs_f64(),
        });
        Ok(())
    }

    /// The probes `method` judges: the timed baseline's, or the instruction
    /// counts' own (`--count-probes` may leave some out).
    fn judged_probes(&self, method: Method) -> Vec<String> {
        let baseline = match (method, &self.ctx.count_baseline) {
            (Method::Instructions, Some(saved)) => saved.run,
            _ => self.ctx.baseline.run,
        };
        baseline.rows.iter().map(|r| r.key.clone()).collect()
    }
}
