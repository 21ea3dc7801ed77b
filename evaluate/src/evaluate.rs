//! The evaluation from start to end: build, baselines, a timed pilot of
//! each method (the estimate), every condition with its hog, every job's
//! trials, then the results folder.

use crate::Error;
use crate::bench::{self, Bench, CountSampling, Invocation};
use crate::estimate::{self, HOG_START, Timings};
use crate::hog::{Hog, HogSpec};
use crate::machine::{self, BENCH_CPU, HOG_CPU, Machine};
use crate::method::{Context, Procedure, Saved, Trial};
use crate::options::{CountProbes, Options};
use crate::plan::{Job, Method, Plan};
use crate::results::{JobTime, MethodCommand, Record, Results, Setup, summarise};
use crate::runner::{Progress, trials};
use crate::{plots, report};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The time the whole evaluation should fit in.
const BUDGET: Duration = Duration::from_secs(90 * 60);

/// Runs the evaluation `options` ask for; returns the results folder.
pub fn run(options: &Options, command: String) -> Result<PathBuf, Error> {
    let clock = Instant::now();
    let started = yardstick::document::environment::now();
    let plan = Plan::new(options.cells(), options.seed);
    plan.check_batches(options.count_batch).map_err(Error)?;
    let methods = plan.methods();
    if methods.contains(&Method::Instructions) {
        // Refused before anything is built or measured.
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
    let workspace = options.workspace.clone().unwrap_or_else(default_workspace);
    // Read before anything runs, not when the tree may have moved on; the
    // commit checked out, so uncommitted changes are not recorded.
    let commit = yardstick::document::environment::commit_of(&workspace);
    check_cpus(&plan)?;
    let out = match &options.out {
        Some(dir) => dir.clone(),
        None => default_out(&workspace, &started)?,
    };
    std::fs::create_dir_all(&out)
        .map_err(|e| Error(format!("{}: cannot create: {e}", out.display())))?;
    eprintln!(
        "evaluate: {} runs after the baselines, methods {}, conditions {}; results in {}",
        plan.runs(),
        names(&methods, Method::as_str),
        names(&plan.conditions(), |c| c.as_str()),
        out.display()
    );
    // Runs start in the workspace: a path given relative to where the
    // evaluation started must not change meaning there.
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
    if methods.contains(&Method::Paired) && yardstick_bin.is_none() {
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
    // Built on every CPU; measured on one. Children inherit the pin, and
    // each hog moves itself to the other CPU.
    let machine = Machine::current();
    machine::pin(BENCH_CPU)?;

    // The first run pays for cold caches and page faults; it is not kept.
    bench.run(&bench.stored(None))?;
    let (baseline, baseline_time) = pooled_baseline(&bench, options.baseline_runs, &out)?;
    let baseline_path = out.join("baseline.json");
    yardstick::document::store::save(&baseline_path, &baseline)
        .map_err(|e| Error(e.to_string()))?;
    let probes: Vec<String> = baseline.rows.iter().map(|r| r.key.clone()).collect();
    let counts = CountSampling {
        batch: options.count_batch,
        probes: count_probes(&options.count_probes, &baseline),
    };
    let count_path = out.join("baseline-instructions.json");
    let count_baseline = if methods.contains(&Method::Instructions) {
        eprintln!("evaluate: counting the instructions baseline under callgrind");
        let (run, took) = bench.run(&bench.instructions(&counts, None, None))?;
        yardstick::document::store::save(&count_path, &run).map_err(|e| Error(e.to_string()))?;
        Some((run, took))
    } else {
        None
    };
    let ctx = Context {
        bench: &bench,
        baseline: Saved {
            run: &baseline,
            path: &baseline_path,
        },
        threshold: options.threshold,
        yardstick: yardstick_bin.as_deref(),
        paired: options.paired,
        counts: &counts,
        count_baseline: count_baseline.as_ref().map(|(run, _)| Saved {
            run,
            path: &count_path,
        }),
    };

    let timings = pilots(&ctx, &plan, baseline_time, count_baseline.as_ref())?;
    let jobs = plan.jobs();
    // The CPUs allowed before this thread was pinned.
    let two_cpus = machine.cpus.contains(&HOG_CPU);
    let workers = |job: &Job| {
        if job.condition.hog().is_none() && two_cpus {
            2
        } else {
            1
        }
    };
    let estimates: Vec<f64> = jobs
        .iter()
        .map(|j| estimate::job_seconds(j, &timings, options.threshold, workers(j)))
        .collect();
    let hogs = plan
        .conditions()
        .iter()
        .filter(|c| c.hog().is_some())
        .count() as u32;
    let estimate =
        clock.elapsed() + HOG_START * hogs + Duration::from_secs_f64(estimates.iter().sum::<f64>());
    for (job, secs) in jobs.iter().zip(&estimates) {
        eprintln!(
            "evaluate: estimate: {} / {}: {} A/A + {} x {} slowdowns = {} runs, {}",
            job.condition.as_str(),
            job.name(),
            job.aa_runs,
            job.power_runs,
            job.slowdowns.len(),
            job.runs(),
            estimate::human(*secs)
        );
    }
    eprintln!(
        "evaluate: expected duration {} in all (a timed run {:.2} s, confirmed above the threshold {}, paired {}, counted {}; runs under a hog take longer)",
        estimate::human(estimate.as_secs_f64()),
        timings.stored,
        timings
            .confirmed_flagged
            .map_or("-".into(), estimate::human),
        timings.paired.map_or("-".into(), estimate::human),
        timings.instructions.map_or("-".into(), estimate::human),
    );
    if estimate > BUDGET {
        eprintln!(
            "evaluate: warning: that is more than 90 minutes; run fewer --methods or --conditions, or fewer --runs or --power-runs"
        );
    }

    if options.estimate_only {
        return Ok(out);
    }
    let exe = std::env::current_exe()
        .map_err(|e| Error(format!("cannot find the evaluate binary itself: {e}")))?;
    let total = plan.runs();
    let progress = Progress::new(total, clock);
    let mut records = Vec::with_capacity(total);
    let mut blocks = Vec::new();
    let mut job_times = Vec::new();
    for condition in plan.conditions() {
        let hog = match condition.hog() {
            Some(kind) => Some(Hog::start(
                &exe,
                &HogSpec {
                    kind,
                    cpu: HOG_CPU,
                    memory_mib: options.memory_mib,
                    burst_min: options.burst.0,
                    burst_max: options.burst.1,
                    seed: options.seed,
                },
            )?),
            None => None,
        };
        for (index, job) in jobs.iter().enumerate() {
            if job.condition != condition {
                continue;
            }
            let job_clock = Instant::now();
            let procedure = Procedure::of(&job.methods)?;
            let slots = job.slots(plan.seed, index);
            let mut seeds = fastrand::Rng::with_seed(plan.seed ^ ((index as u64) << 40));
            let seeds: Vec<u64> = slots.iter().map(|_| seeds.u64(..)).collect();
            let label = format!("{} / {}", condition.as_str(), job.name());
            let on_cpus: &[usize] = if procedure == Procedure::Instructions && workers(job) == 2 {
                &[BENCH_CPU, HOG_CPU]
            } else {
                &[BENCH_CPU]
            };
            let made = trials(&ctx, procedure, &slots, &seeds, on_cpus, &progress, &label)?;
            for method in &job.methods {
                let mine: Vec<Trial> = made
                    .iter()
                    .flatten()
                    .filter(|(m, _)| m == method)
                    .map(|(_, t)| t.clone())
                    .collect();
                let keys = match (method, &ctx.count_baseline) {
                    (Method::Instructions, Some(saved)) => {
                        saved.run.rows.iter().map(|r| r.key.clone()).collect()
                    }
                    _ => probes.clone(),
                };
                blocks.push(summarise(condition, *method, &mine, &keys, &job.slowdowns));
                records.extend(mine.into_iter().map(|trial| Record {
                    condition,
                    method: *method,
                    trial,
                }));
            }
            job_times.push(JobTime {
                condition,
                methods: job.name(),
                runs: job.runs(),
                estimate_seconds: estimates[index],
                seconds: job_clock.elapsed().as_secs_f64(),
            });
        }
        if let Some(h) = hog {
            h.stop()?;
        }
    }
    blocks.sort_by_key(|b| (b.condition, b.method));

    let commands = methods
        .iter()
        .filter_map(|m| {
            let p = Procedure::of(&[*m]).ok()?;
            let inv: Invocation = p.invocation(&ctx, None, plan.seed).ok()?;
            Some(MethodCommand {
                method: *m,
                command: inv.command_line(),
            })
        })
        .collect();
    let results = Results {
        command,
        started,
        seconds: clock.elapsed().as_secs_f64(),
        estimate_seconds: estimate.as_secs_f64(),
        machine,
        setup: Setup {
            sampling: options.sampling,
            threshold: options.threshold,
            paired: options.paired,
            counts: counts.clone(),
            commands,
            baseline: "baseline.json".to_string(),
            baseline_seconds: baseline_time.as_secs_f64(),
            baseline_runs: options.baseline_runs,
            count_baseline: count_baseline
                .as_ref()
                .map(|_| "baseline-instructions.json".to_string()),
            count_baseline_seconds: count_baseline.as_ref().map(|(_, t)| t.as_secs_f64()),
            count_workers: jobs
                .iter()
                .filter(|j| j.methods == [Method::Instructions])
                .map(workers)
                .max()
                .unwrap_or(1),
            bench_cpu: BENCH_CPU,
            hog_cpu: HOG_CPU,
            memory_mib: options.memory_mib,
            burst_min: options.burst.0,
            burst_max: options.burst.1,
        },
        plan,
        probes,
        jobs: job_times,
        blocks,
        trials: records,
        commit,
        parts: Vec::new(),
    };
    write(&out, &results)?;
    Ok(out)
}

fn names<T: Copy>(items: &[T], name: fn(T) -> &'static str) -> String {
    items.iter().map(|x| name(*x)).collect::<Vec<_>>().join(",")
}

/// The stored baseline: `runs` quiet runs, each saved as
/// `baseline-runs/run-K.json`, pooled as `yardstick baseline` pools them
/// (one run is the baseline as it is). Also the time one run took, for the
/// estimate.
fn pooled_baseline(
    bench: &Bench,
    runs: usize,
    out: &Path,
) -> Result<(yardstick::document::run::Run, Duration), Error> {
    eprintln!("evaluate: {runs} quiet baseline run(s)");
    let mut made = Vec::with_capacity(runs);
    let mut took = Duration::ZERO;
    for k in 1..=runs {
        let (run, time) = bench.run(&bench.stored(None))?;
        let path = out.join("baseline-runs").join(format!("run-{k}.json"));
        yardstick::document::store::save(&path, &run).map_err(|e| Error(e.to_string()))?;
        made.push((path.display().to_string(), run));
        took = time;
    }
    if made.len() == 1 {
        return Ok((made.remove(0).1, took));
    }
    let pooled = yardstick::baseline::pool::pool(&made)
        .map_err(|e| Error(format!("pooling the baseline runs: {e}")))?;
    Ok((pooled, took))
}

/// The probes to count, as `--probe` names (empty: all of them).
pub fn count_probes(choice: &CountProbes, baseline: &yardstick::document::run::Run) -> Vec<String> {
    match choice {
        CountProbes::All => Vec::new(),
        CountProbes::Named(names) => names.clone(),
        CountProbes::Fastest(n) => {
            let mut rows: Vec<(&str, f64)> = baseline
                .rows
                .iter()
                .map(|r| (r.key.as_str(), r.median.unwrap_or(f64::INFINITY)))
                .collect();
            rows.sort_by(|a, b| a.1.total_cmp(&b.1));
            let fastest: Vec<&str> = rows.iter().take(*n).map(|r| r.0).collect();
            // In the baseline's order, as a run lists them.
            baseline
                .rows
                .iter()
                .filter(|r| fastest.contains(&r.key.as_str()))
                .map(|r| r.key.clone())
                .collect()
        }
    }
}

/// Times one trial of each method that is not timed yet, before the long
/// part: the estimate rests on them, and a method that cannot work fails
/// here rather than an hour in. Their verdicts are not kept.
fn pilots(
    ctx: &Context<'_>,
    plan: &Plan,
    stored: Duration,
    counted: Option<&(yardstick::document::run::Run, Duration)>,
) -> Result<Timings, Error> {
    let methods = plan.methods();
    let mut t = Timings {
        stored: stored.as_secs_f64(),
        instructions: counted.map(|(_, d)| d.as_secs_f64()),
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
        && let Some(s) = highest.filter(|s| *s > ctx.threshold)
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

/// Writes `results.json`, the plots and `report.md` into `out`.
pub fn write(out: &Path, results: &Results) -> Result<(), Error> {
    let save = |name: &str, text: &str| {
        yardstick::document::store::write_atomic(&out.join(name), text)
            .map_err(|e| Error(e.to_string()))
    };
    let json = serde_json::to_string_pretty(results)
        .map_err(|e| Error(format!("results.json: cannot serialise: {e}")))?;
    save("results.json", &(json + "\n"))?;
    let mut names = Vec::new();
    for (name, svg) in plots::all(results) {
        save(&name, &svg)?;
        names.push(name);
    }
    save("report.md", &report::render(results, &names))
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

/// The workspace this crate belongs to.
fn default_workspace() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir.parent().unwrap_or(crate_dir).to_path_buf()
}

/// `results/<date>/` in the workspace (`<date>-2`, ... when taken). The
/// `results` folder ignores itself in git, so only a report added on
/// purpose (`git add -f`) is ever committed.
fn default_out(workspace: &Path, started: &str) -> Result<PathBuf, Error> {
    let root = workspace.join("results");
    std::fs::create_dir_all(&root)
        .map_err(|e| Error(format!("{}: cannot create: {e}", root.display())))?;
    let ignore = root.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "*\n")
            .map_err(|e| Error(format!("{}: cannot write: {e}", ignore.display())))?;
    }
    Ok(free_name(&root, started.get(..10).unwrap_or(started)))
}

/// `root/name`, or `root/name-2`, `root/name-3`, ... whichever is free.
fn free_name(root: &Path, name: &str) -> PathBuf {
    let mut candidate = root.join(name);
    let mut n = 2;
    while candidate.exists() {
        candidate = root.join(format!("{name}-{n}"));
        n += 1;
    }
    candidate
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
        assert_eq!(a, t.path().join("results/2030-01-02"));
        std::fs::create_dir_all(&a).unwrap();
        let b = default_out(t.path(), "2030-01-02T09:00:00Z").unwrap();
        assert_eq!(b, t.path().join("results/2030-01-02-2"));
        let ignore = std::fs::read_to_string(t.path().join("results/.gitignore")).unwrap();
        assert_eq!(ignore, "*\n");
    }
}
