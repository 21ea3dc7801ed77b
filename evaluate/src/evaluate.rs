//! The evaluation from start to end: build, baselines, a timed pilot of
//! each method (the estimate), every condition with its hog, every job's
//! trials, then the results folder.

use crate::Error;
use crate::baselines::{self, Baseline, count_probes};
use crate::bench::{self, Bench, CountSampling};
use crate::estimate::{Schedule, pilots};
use crate::folder::{self, default_out, default_workspace};
use crate::jobs::Jobs;
use crate::machine::{self, BENCH_CPU, HOG_CPU, Machine};
use crate::method::{Context, Procedure};
use crate::options::Options;
use crate::plan::{Job, Method, Plan};
use crate::results::{MethodCommand, Results, Setup};
use crate::runner::workers;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::folder::write;
// The tests below choose the probes to count as the options do.
#[cfg(test)]
use crate::options::CountProbes;

/// Runs the evaluation `options` ask for; returns the results folder.
pub fn run(options: &Options, command: String) -> Result<PathBuf, Error> {
    let clock = Instant::now();
    let started = yardstick::document::environment::now();
    let plan = checked_plan(options)?;
    let workspace = options.workspace.clone().unwrap_or_else(default_workspace);
    // Read before anything runs, not when the tree may have moved on; the
    // commit checked out, so uncommitted changes are not recorded.
    let commit = yardstick::document::environment::commit_of(&workspace);
    check_cpus(&plan)?;
    let out = out_folder(options, &workspace, &started)?;
    announce(&plan, &out);
    let tools = tools(options, workspace, &plan)?;
    let bench = tools.bench;
    // Built on every CPU; measured on one. Children inherit the pin, and
    // each hog moves itself to the other CPU.
    let machine = Machine::current();
    machine::pin(BENCH_CPU)?;
    let made = Baselines::make(&bench, options, &plan, &out)?;
    let ctx = made.context(&bench, options, tools.yardstick.as_deref());
    let timings = pilots(&ctx, &plan, made.timed.took, made.took_counting())?;
    // The CPUs allowed before this thread was pinned.
    let two_cpus = machine.cpus.contains(&HOG_CPU);
    let schedule = Schedule::new(
        &plan,
        &timings,
        options.threshold,
        two_cpus,
        clock.elapsed(),
    );
    schedule.announce(&timings);
    if options.estimate_only {
        return Ok(out);
    }
    let measured = Jobs {
        ctx: &ctx,
        plan: &plan,
        schedule: &schedule,
        options,
        two_cpus,
    }
    .run(clock)?;
    let results = Results {
        command,
        started,
        seconds: clock.elapsed().as_secs_f64(),
        estimate_seconds: schedule.total.as_secs_f64(),
        machine,
        setup: made.setup(options, &ctx, &plan, two_cpus),
        probes: made.timed.probes(),
        plan,
        jobs: measured.jobs,
        blocks: measured.blocks,
        trials: measured.trials,
        commit,
        parts: Vec::new(),
    };
    write(&out, &results)?;
    Ok(out)
}

/// `--out`, or a new dated folder in the workspace; created.
fn out_folder(options: &Options, workspace: &Path, started: &str) -> Result<PathBuf, Error> {
    let out = match &options.out {
        Some(dir) => dir.clone(),
        None => default_out(workspace, started)?,
    };
    folder::create(&out)?;
    Ok(out)
}

/// What is about to run and where it goes, before the long part.
fn announce(plan: &Plan, out: &Path) {
    eprintln!(
        "evaluate: {} runs after the baselines, methods {}, conditions {}; results in {}",
        plan.runs(),
        names(&plan.methods(), Method::as_str),
        names(&plan.conditions(), |c| c.as_str()),
        out.display()
    );
}

/// The plan of `options`, refused before anything is built or measured
/// when a method cannot run: a count batch that cannot carry a slowdown,
/// the instructions method without valgrind.
fn checked_plan(options: &Options) -> Result<Plan, Error> {
    let plan = Plan::new(options.cells(), options.seed);
    plan.check_batches(options.count_batch).map_err(Error)?;
    if plan.methods().contains(&Method::Instructions) {
        yardstick::measure::callgrind::valgrind_version(
            yardstick::document::run::Metric::Instructions,
        )
        .map_err(|e| {
            Error(format!(
                "the instructions method: {e}; install valgrind, or leave the method out \
                 (--methods=stored-baseline,confirmed,paired)"
            ))
        })?;
    }
    Ok(plan)
}

/// The programs an evaluation starts.
struct Tools {
    bench: Bench,
    /// The `yardstick` command, which the paired method needs.
    yardstick: Option<PathBuf>,
}

/// The bench to run (built, or given) and the `yardstick` command. Runs
/// start in the workspace: a path given relative to where the evaluation
/// started must not change meaning there.
fn tools(options: &Options, workspace: PathBuf, plan: &Plan) -> Result<Tools, Error> {
    let absolute = |p: &PathBuf| std::path::absolute(p).unwrap_or_else(|_| p.clone());
    let built = match &options.bench_bin {
        Some(b) => bench::Built {
            bench: absolute(b),
            yardstick: None,
        },
        None => {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
            bench::build(&cargo, &workspace, &options.bench)?
        }
    };
    let yardstick_bin = options
        .yardstick_bin
        .as_ref()
        .map(absolute)
        .or(built.yardstick);
    if plan.methods().contains(&Method::Paired) && yardstick_bin.is_none() {
        return Err(Error(
            "the paired method needs the `yardstick` command: give --yardstick-bin with --bench-bin"
                .to_string(),
        ));
    }
    let bench = Bench {
        binary: built.bench,
        dir: workspace,
        sampling: options.sampling,
    };
    Ok(Tools {
        bench,
        yardstick: yardstick_bin,
    })
}

/// The baselines of one evaluation, and how the counted runs sample.
struct Baselines {
    timed: Baseline,
    counts: CountSampling,
    /// Only when the plan counts instructions.
    counted: Option<Baseline>,
}

impl Baselines {
    fn make(bench: &Bench, options: &Options, plan: &Plan, out: &Path) -> Result<Baselines, Error> {
        // The first run pays for cold caches and page faults; it is not kept.
        bench.run(&bench.stored(None))?;
        let timed = match &options.baseline {
            Some(given) => baselines::given(bench, given, out)?,
            None => baselines::timed(bench, options.baseline_runs, out)?,
        };
        let counts = CountSampling {
            batch: options.count_batch,
            probes: count_probes(&options.count_probes, &timed.run),
        };
        let counted = if plan.methods().contains(&Method::Instructions) {
            Some(baselines::counted(bench, &counts, out)?)
        } else {
            None
        };
        Ok(Baselines {
            timed,
            counts,
            counted,
        })
    }

    fn took_counting(&self) -> Option<std::time::Duration> {
        self.counted.as_ref().map(|c| c.took)
    }

    fn context<'a>(
        &'a self,
        bench: &'a Bench,
        options: &Options,
        yardstick: Option<&'a Path>,
    ) -> Context<'a> {
        Context {
            bench,
            baseline: self.timed.saved(),
            threshold: (!options.own_thresholds).then_some(options.threshold),
            yardstick,
            paired: options.paired,
            counts: &self.counts,
            count_baseline: self.counted.as_ref().map(Baseline::saved),
        }
    }

    /// How the runs were made, as the report describes them.
    fn setup(&self, options: &Options, ctx: &Context<'_>, plan: &Plan, two_cpus: bool) -> Setup {
        Setup {
            sampling: options.sampling,
            threshold: options.threshold,
            own_thresholds: options.own_thresholds,
            paired: options.paired,
            counts: self.counts.clone(),
            commands: commands(ctx, plan),
            baseline: "baseline.json".to_string(),
            baseline_seconds: self.timed.took.as_secs_f64(),
            baseline_runs: options.baseline_runs,
            count_baseline: self
                .counted
                .as_ref()
                .map(|_| "baseline-instructions.json".to_string()),
            count_baseline_seconds: self.took_counting().map(|t| t.as_secs_f64()),
            count_workers: count_workers(&plan.jobs(), two_cpus),
            bench_cpu: BENCH_CPU,
            hog_cpu: HOG_CPU,
            memory_mib: options.memory_mib,
            burst_min: options.burst.0,
            burst_max: options.burst.1,
        }
    }
}

/// One A/A trial of each method as a reader would type it.
fn commands(ctx: &Context<'_>, plan: &Plan) -> Vec<MethodCommand> {
    plan.methods()
        .iter()
        .filter_map(|m| {
            let p = Procedure::of(&[*m]).ok()?;
            let inv = p.invocation(ctx, None, plan.seed).ok()?;
            Some(MethodCommand {
                method: *m,
                command: inv.command_line(),
            })
        })
        .collect()
}

/// Instruction-count trials run at once where no hog runs.
fn count_workers(jobs: &[Job], two_cpus: bool) -> usize {
    jobs.iter()
        .filter(|j| j.methods == [Method::Instructions])
        .map(|j| workers(j, two_cpus))
        .max()
        .unwrap_or(1)
}

fn names<T: Copy>(items: &[T], name: fn(T) -> &'static str) -> String {
    items.iter().map(|x| name(*x)).collect::<Vec<_>>().join(",")
}

/// A hog needs a CPU of its own; the benchmark always needs its CPU.
fn check_cpus(plan: &Plan) -> Result<(), Error> {
    let cpus = machine::allowed_cpus()?;
    let mut needed = vec![BENCH_CPU];
    if plan.conditions().iter().any(|c| c.hog().is_some()) {
        needed.push(HOG_CPU);
    }
    match needed.iter().find(|c| !cpus.contains(c)) {
        Some(c) => Err(Error(format!(
            "CPU {c} is not available to this process (allowed: {cpus:?}); the conditions with a hog need CPUs {BENCH_CPU} and {HOG_CPU}"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample_results;

    #[test]
    fn the_results_folder_gets_every_file() {
        let t = tempfile::tempdir().unwrap();
        write(t.path(), &sample_results()).unwrap();
        let report = std::fs::read_to_string(t.path().join("report.md")).unwrap();
        assert!(report.contains("![aa-change.svg](aa-change.svg)"));
        let json = std::fs::read_to_string(t.path().join("results.json")).unwrap();
        let back: Results = serde_json::from_str(&json).unwrap();
        let sample = sample_results();
        assert_eq!(back.trials.len(), sample.trials.len());
        assert_eq!(back.blocks[1].aa.suite, sample.blocks[1].aa.suite);
        assert_eq!(back.command, sample.command);
        for svg in [
            "aa-change.svg",
            "power.svg",
            "power-cpu-stored-baseline.svg",
        ] {
            assert!(t.path().join(svg).exists(), "{svg}");
        }
    }

    #[test]
    fn the_fastest_probes_are_counted_in_the_baseline_s_order() {
        let baseline = crate::verdict::tests::micro_run(
            1.0,
            &[("slow", 9.0), ("a", 0.2), ("mid", 1.0), ("b", 0.1)],
        );
        assert_eq!(
            count_probes(&CountProbes::Fastest(2), &baseline),
            ["a", "b"]
        );
        assert_eq!(count_probes(&CountProbes::Fastest(9), &baseline).len(), 4);
        assert!(count_probes(&CountProbes::All, &baseline).is_empty());
        assert_eq!(
            count_probes(&CountProbes::Named(vec!["x".into()]), &baseline),
            ["x"]
        );
    }

    #[test]
    fn default_folders_are_dated_ignored_and_never_reused() {
        let t = tempfile::tempdir().unwrap();
        let a = default_out(t.path(), "2030-01-02T03:04:05Z").unwrap();
        assert_eq!(a, t.path().join("evaluate/results/2030-01-02"));
        std::fs::create_dir_all(&a).unwrap();
        let b = default_out(t.path(), "2030-01-02T09:00:00Z").unwrap();
        assert_eq!(b, t.path().join("evaluate/results/2030-01-02-2"));
        let ignore = std::fs::read_to_string(t.path().join("evaluate/results/.gitignore")).unwrap();
        assert_eq!(ignore, "*\n");
    }
}
