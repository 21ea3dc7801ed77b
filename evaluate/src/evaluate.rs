//! The evaluation from start to end: build, baseline, every condition with
//! its hog, every method's trials, then the results folder.

use crate::Error;
use crate::bench::{self, Bench};
use crate::hog::{Hog, HogSpec};
use crate::machine::{self, BENCH_CPU, HOG_CPU, Machine};
use crate::method::Context;
use crate::options::Options;
use crate::plan::Plan;
use crate::results::{Record, Results, Setup, summarise};
use crate::{plots, report};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Time allowed for starting and settling one hog in the estimate.
const HOG_START: Duration = Duration::from_secs(1);

/// Runs the evaluation `options` ask for; returns the results folder.
pub fn run(options: &Options, command: String) -> Result<PathBuf, Error> {
    let clock = Instant::now();
    let started = yardstick::micro::now();
    let plan = Plan {
        conditions: options.conditions.clone(),
        methods: options.methods.clone(),
        aa_runs: options.aa_runs,
        power_runs: options.power_runs,
        slowdowns: options.slowdowns.clone(),
        seed: options.seed,
    };
    let workspace = options.workspace.clone().unwrap_or_else(default_workspace);
    check_cpus(&plan)?;
    let out = match &options.out {
        Some(dir) => dir.clone(),
        None => default_out(&workspace, &started)?,
    };
    std::fs::create_dir_all(&out)
        .map_err(|e| Error(format!("{}: cannot create: {e}", out.display())))?;
    eprintln!(
        "evaluate: {} bench runs after a baseline ({} conditions x {} methods x ({} A/A + {} x {} slowdowns)); results in {}",
        plan.runs(),
        plan.conditions.len(),
        plan.methods.len(),
        plan.aa_runs,
        plan.power_runs,
        plan.slowdowns.len(),
        out.display()
    );
    let binary = match &options.bench_bin {
        Some(b) => b.clone(),
        None => {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
            bench::build(&cargo, &workspace, &options.bench)?
        }
    };
    let bench = Bench {
        binary,
        dir: workspace,
        sampling: options.sampling,
    };
    // Built on every CPU; measured on one. Children inherit the pin, and
    // each hog moves itself to the other CPU.
    let machine = Machine::current();
    machine::pin(BENCH_CPU)?;

    // The first run pays for cold caches and page faults; it is not kept.
    bench.run(None)?;
    let (baseline, baseline_time) = bench.run(None)?;
    let baseline_path = out.join("baseline.json");
    yardstick::store::save(&baseline_path, &baseline).map_err(|e| Error(e.to_string()))?;
    let probes: Vec<String> = baseline.rows.iter().map(|r| r.key.clone()).collect();
    let estimate = plan.estimate(baseline_time, HOG_START) + clock.elapsed();
    eprintln!(
        "evaluate: one run takes {:.2} s; expected duration {:.1} min",
        baseline_time.as_secs_f64(),
        estimate.as_secs_f64() / 60.0
    );
    if estimate > Duration::from_secs(90 * 60) {
        eprintln!(
            "evaluate: warning: that is more than 90 minutes; fewer --runs or --power-runs would fit"
        );
    }

    let exe = std::env::current_exe()
        .map_err(|e| Error(format!("cannot find the evaluate binary itself: {e}")))?;
    let baseline_name = baseline_path.display().to_string();
    let ctx = Context {
        bench: &bench,
        baseline: &baseline,
        baseline_name: &baseline_name,
        threshold: options.threshold,
    };
    let total = plan.runs();
    let mut done = 0usize;
    let mut records = Vec::with_capacity(total);
    let mut blocks = Vec::new();
    for (c_index, condition) in plan.conditions.iter().enumerate() {
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
        for (m_index, method) in plan.methods.iter().enumerate() {
            let mut trials = Vec::new();
            for slot in plan.slots(c_index * plan.methods.len() + m_index) {
                trials.push(method.trial(&ctx, slot.slowdown)?);
                done += 1;
                if done.is_multiple_of(25) || done == total {
                    let elapsed = clock.elapsed().as_secs_f64();
                    eprintln!(
                        "evaluate: {done}/{total} runs ({} / {}), {:.1} min elapsed",
                        condition.as_str(),
                        method.as_str(),
                        elapsed / 60.0
                    );
                }
            }
            blocks.push(summarise(
                *condition,
                *method,
                &trials,
                &probes,
                &plan.slowdowns,
            ));
            records.extend(trials.into_iter().map(|trial| Record {
                condition: *condition,
                method: *method,
                trial,
            }));
        }
        if let Some(h) = hog {
            h.stop()?;
        }
    }

    let results = Results {
        command,
        started,
        seconds: clock.elapsed().as_secs_f64(),
        estimate_seconds: estimate.as_secs_f64(),
        machine,
        setup: Setup {
            sampling: options.sampling,
            threshold: options.threshold,
            bench_command: bench.command_line(None),
            baseline: "baseline.json".to_string(),
            baseline_seconds: baseline_time.as_secs_f64(),
            bench_cpu: BENCH_CPU,
            hog_cpu: HOG_CPU,
            memory_mib: options.memory_mib,
            burst_min: options.burst.0,
            burst_max: options.burst.1,
        },
        plan,
        probes,
        blocks,
        trials: records,
    };
    write(&out, &results)?;
    Ok(out)
}

/// Writes `results.json`, the plots and `report.md` into `out`.
pub fn write(out: &Path, results: &Results) -> Result<(), Error> {
    let save = |name: &str, text: &str| {
        yardstick::store::write_atomic(&out.join(name), text).map_err(|e| Error(e.to_string()))
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
    if plan.conditions.iter().any(|c| c.hog().is_some()) {
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
