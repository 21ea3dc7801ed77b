//! `evaluate combine --out DIR PART...`: one report from several
//! evaluations made the same way.
//!
//! A headline figure needs 300 A/A runs, and a paired trial takes about half
//! a minute: more than one sitting on a shared machine. Several evaluations
//! with the same sampling, threshold and probes, each under its own seed,
//! are one larger sample; combining them re-summarises the union of their
//! trials with the same rules as a single evaluation, and the report lists
//! the parts (their commands, dates and commits) so each can be traced.

use crate::Error;
use crate::folder::write;
use crate::method::Trial;
use crate::plan::{Cell, Method, Plan};
use crate::results::{Block, Part, Record, Results, summarise};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub const SUBCOMMAND: &str = "combine";

pub const USAGE: &str = "usage: evaluate combine --out DIR PART PART...
Writes one report (results.json, plots, report.md) into DIR from the
trials of several evaluations' results folders. The parts must have been
made on the same machine with the same sampling, threshold and probes, and
each with its own --seed.";

/// Entry point of the subcommand; `args` follow `combine`.
pub fn main(args: &[String], command: String) -> Result<PathBuf, Error> {
    let (out, parts) = parse(args)?;
    let loaded = parts
        .iter()
        .map(|dir| load(dir).map(|r| (dir.clone(), r)))
        .collect::<Result<Vec<_>, Error>>()?;
    let combined = combine(loaded, command)?;
    std::fs::create_dir_all(&out)
        .map_err(|e| Error(format!("{}: cannot create: {e}", out.display())))?;
    write(&out, &combined)?;
    Ok(out)
}

fn parse(args: &[String]) -> Result<(PathBuf, Vec<PathBuf>), Error> {
    let mut out = None;
    let mut parts = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(v) = a.strip_prefix("--out=") {
            out = Some(PathBuf::from(v));
        } else if a == "--out" {
            let v = it
                .next()
                .ok_or_else(|| Error("combine: --out needs a folder".to_string()))?;
            out = Some(PathBuf::from(v));
        } else if a.starts_with('-') {
            return Err(Error(format!("combine: unknown option {a}\n{USAGE}")));
        } else {
            parts.push(PathBuf::from(a));
        }
    }
    let out = out.ok_or_else(|| Error(format!("combine: --out is required\n{USAGE}")))?;
    if parts.len() < 2 {
        return Err(Error(format!(
            "combine: give at least two results folders\n{USAGE}"
        )));
    }
    // Compared as the file system sees them: `./a` and `a` are one folder.
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    if parts.iter().any(|p| same(p, &out)) {
        return Err(Error(format!(
            "combine: --out {} is also a part: it would be overwritten",
            out.display()
        )));
    }
    Ok((out, parts))
}

fn load(dir: &Path) -> Result<Results, Error> {
    let path = dir.join("results.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error(format!("{}: cannot read: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        Error(format!(
            "{}: not an evaluation's results: {e}",
            path.display()
        ))
    })
}

/// The union of the parts' trials, summarised as one evaluation. Refused
/// when the parts were not made the same way, or share a seed (their
/// trials would repeat the same round orders and run orders).
pub fn combine(parts: Vec<(PathBuf, Results)>, command: String) -> Result<Results, Error> {
    check_alike(&parts)?;
    let Some((_, first)) = parts.first() else {
        return Err(Error("combine: no parts".to_string()));
    };
    let trials: Vec<Record> = parts
        .iter()
        .flat_map(|(_, r)| r.trials.iter().cloned())
        .collect();
    let plan = Plan::new(cells_made(&parts, &trials), first.plan.seed);
    let blocks = blocks(&plan, &trials, &first.probes)?;
    let commit = first
        .commit
        .clone()
        .filter(|c| parts.iter().all(|(_, r)| r.commit.as_ref() == Some(c)));
    let started = parts
        .iter()
        .map(|(_, r)| r.started.clone())
        .min()
        .unwrap_or_default();
    Ok(Results {
        command,
        started,
        seconds: parts.iter().map(|(_, r)| r.seconds).sum(),
        estimate_seconds: parts.iter().map(|(_, r)| r.estimate_seconds).sum(),
        machine: first.machine.clone(),
        setup: first.setup.clone(),
        commit,
        parts: parts.iter().map(|(dir, r)| part_row(dir, r)).collect(),
        plan,
        probes: first.probes.clone(),
        jobs: parts.iter().flat_map(|(_, r)| r.jobs.clone()).collect(),
        blocks,
        trials,
    })
}

/// Refuses parts that are not one larger sample: made on another machine
/// or otherwise than the first, already combined, or with a seed another
/// part has.
fn check_alike(parts: &[(PathBuf, Results)]) -> Result<(), Error> {
    let Some((first_dir, first)) = parts.first() else {
        return Err(Error("combine: no parts".to_string()));
    };
    let mut seeds = BTreeSet::new();
    for (dir, r) in parts {
        if !r.parts.is_empty() {
            return Err(Error(format!(
                "combine: {} is itself combined: give its parts instead",
                dir.display()
            )));
        }
        if let Some(what) = difference(r, first) {
            return Err(Error(format!(
                "combine: {} differs from {} in its {what}",
                dir.display(),
                first_dir.display()
            )));
        }
        if !seeds.insert(r.plan.seed) {
            return Err(Error(format!(
                "combine: {} has seed {}, as another part does: make each part with its own --seed",
                dir.display(),
                r.plan.seed
            )));
        }
    }
    Ok(())
}

/// What `r` was made with otherwise than `first`, as a refusal names it.
fn difference(r: &Results, first: &Results) -> Option<&'static str> {
    let (u, f) = (&r.setup, &first.setup);
    if r.machine.host != first.machine.host || r.machine.cpu_model != first.machine.cpu_model {
        Some("machine")
    } else if (u.bench_cpu, u.hog_cpu, u.memory_mib) != (f.bench_cpu, f.hog_cpu, f.memory_mib)
        || (u.burst_min, u.burst_max) != (f.burst_min, f.burst_max)
    {
        Some("conditions (CPUs, memory hog or bursts)")
    } else if u.baseline_runs != f.baseline_runs {
        Some("baseline runs")
    } else if u.sampling != f.sampling || u.paired != f.paired || u.counts != f.counts {
        Some("sampling")
    } else if u.threshold != f.threshold {
        Some("threshold")
    } else if r.probes != first.probes {
        Some("probes")
    } else {
        None
    }
}

/// The cells as made, counted from the trials: parts may inject different
/// slowdowns, and a cell's runs per slowdown is the most any slowdown got
/// (the power table counts each one's own).
fn cells_made(parts: &[(PathBuf, Results)], trials: &[Record]) -> Vec<Cell> {
    let mut cells: Vec<Cell> = Vec::new();
    for c in parts.iter().flat_map(|(_, r)| &r.plan.cells) {
        match cells
            .iter_mut()
            .find(|k| k.condition == c.condition && k.method == c.method)
        {
            Some(k) => k.slowdowns.extend(&c.slowdowns),
            None => cells.push(c.clone()),
        }
    }
    for cell in &mut cells {
        cell.slowdowns.sort_by(f64::total_cmp);
        cell.slowdowns.dedup();
        let runs = |slowdown: Option<f64>| {
            trials
                .iter()
                .filter(|t| {
                    t.condition == cell.condition
                        && t.method == cell.method
                        && t.trial.slowdown == slowdown
                })
                .count()
        };
        cell.aa_runs = runs(None);
        cell.power_runs = cell
            .slowdowns
            .iter()
            .map(|pct| runs(Some(*pct)))
            .max()
            .unwrap_or(0);
    }
    cells
}

/// Each cell's trials summarised as one block, refused when the parts
/// judged them by different rules.
fn blocks(plan: &Plan, trials: &[Record], probes: &[String]) -> Result<Vec<Block>, Error> {
    let mut blocks = Vec::new();
    for cell in &plan.cells {
        let mine: Vec<_> = trials
            .iter()
            .filter(|t| t.condition == cell.condition && t.method == cell.method)
            .map(|t| t.trial.clone())
            .collect();
        // The paired and counted thresholds are yardstick's defaults at
        // each part's commit: trials judged otherwise are not one sample.
        let rule = |t: &Trial| (t.threshold, t.machine_slowdown_limit);
        if mine.iter().any(|t| rule(t) != rule(&mine[0])) {
            return Err(Error(format!(
                "combine: the parts judged {} / {} at different thresholds or machine-slowdown limits",
                cell.condition.as_str(),
                cell.method.as_str()
            )));
        }
        // The instruction counts judge their own baseline's rows.
        let keys = match mine.first() {
            Some(t) if cell.method == Method::Instructions => {
                t.outcomes.iter().map(|o| o.probe.clone()).collect()
            }
            _ => probes.to_vec(),
        };
        blocks.push(summarise(
            cell.condition,
            cell.method,
            &mine,
            &keys,
            &cell.slowdowns,
        ));
    }
    Ok(blocks)
}

/// The row of the table of parts that traces one part.
fn part_row(dir: &Path, r: &Results) -> Part {
    Part {
        folder: dir.display().to_string(),
        command: r.command.clone(),
        started: r.started.clone(),
        commit: r.commit.clone(),
        seed: r.plan.seed,
        trials: r.trials.len(),
        seconds: r.seconds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Condition, Method};
    use crate::report::{render, tests::sample_results};

    /// Three cells (stored baseline quiet and CPU, paired quiet), each with
    /// two A/A trials (one flagged) and one power trial.
    fn part(seed: u64) -> (PathBuf, Results) {
        let mut r = sample_results();
        r.plan.seed = seed;
        (PathBuf::from(format!("part-{seed}")), r)
    }

    #[test]
    fn the_parts_trials_are_summarised_as_one_evaluation() {
        let c = combine(vec![part(1), part(2)], "evaluate combine".into()).unwrap();
        assert_eq!(c.trials.len(), 18);
        assert_eq!(c.parts.len(), 2);
        assert_eq!((c.parts[1].seed, c.parts[1].trials), (2, 9));
        assert_eq!(c.seconds, 180.0);
        assert_eq!(c.plan.cells.len(), 3);
        assert!(
            c.plan
                .cells
                .iter()
                .all(|k| k.aa_runs == 4 && k.power_runs == 2)
        );
        let b = c
            .blocks
            .iter()
            .find(|b| b.condition == Condition::Quiet && b.method == Method::Paired)
            .unwrap();
        assert_eq!((b.aa.runs, b.aa.suite.events, b.aa.suite.trials), (4, 2, 4));
        assert_eq!((b.power[0].runs, b.power[0].pooled.trials), (2, 4));
        let text = render(&c, &[]);
        assert!(text.contains("Combined from 2 evaluations"), "{text}");
        assert!(
            text.contains("| `part-2` | 2030-01-02T03:04:05Z | 0123abc | 2 | 9 | 1.5 min |"),
            "{text}"
        );
        assert!(
            text.contains("| quiet | paired | 3 % | 1.67 | 4 † |"),
            "{text}"
        );
    }

    #[test]
    fn parts_may_inject_different_slowdowns() {
        let mut other = part(2);
        for t in other
            .1
            .trials
            .iter_mut()
            .filter(|t| t.trial.slowdown.is_some())
        {
            t.trial.slowdown = Some(40.0);
        }
        for c in &mut other.1.plan.cells {
            c.slowdowns = vec![40.0];
        }
        let c = combine(vec![part(1), other], String::new()).unwrap();
        let cell = &c.plan.cells[0];
        assert_eq!(
            (cell.slowdowns.clone(), cell.power_runs),
            (vec![25.0, 40.0], 1)
        );
        let runs: Vec<usize> = c.blocks[0].power.iter().map(|p| p.runs).collect();
        assert_eq!(runs, [1, 1]);
    }

    #[test]
    fn parts_made_otherwise_or_with_one_seed_are_refused() {
        let err = combine(vec![part(1), part(1)], String::new()).unwrap_err();
        assert!(err.0.contains("seed 1"), "{err}");
        let mut other = part(2);
        other.1.setup.threshold = 3.0;
        let err = combine(vec![part(1), other], String::new()).unwrap_err();
        assert!(
            err.0.contains("part-2") && err.0.contains("threshold"),
            "{err}"
        );
        let refusal =
            |other: (PathBuf, Results)| combine(vec![part(1), other], String::new()).unwrap_err().0;
        let mut other = part(3);
        other.1.probes.push("extra".into());
        assert!(refusal(other).ends_with("in its probes"));
        let mut other = part(4);
        other.1.setup.paired.pairs += 1;
        assert!(refusal(other).ends_with("in its sampling"));
        let mut other = part(5);
        other.1.machine.host = "elsewhere".into();
        assert!(refusal(other).ends_with("in its machine"));
        let mut other = part(6);
        other.1.setup.baseline_runs += 1;
        assert!(refusal(other).ends_with("in its baseline runs"));
        let mut other = part(7);
        for t in &mut other.1.trials {
            t.trial.threshold = Some(2.0);
        }
        assert!(refusal(other).contains("different thresholds"));
        let mut other = part(8);
        for t in &mut other.1.trials {
            t.trial.machine_slowdown_limit = None;
        }
        assert!(refusal(other).contains("machine-slowdown limits"));
    }

    #[test]
    fn only_a_commit_every_part_shares_is_the_result_s() {
        let c = combine(vec![part(1), part(2)], String::new()).unwrap();
        assert_eq!(c.commit.as_deref(), Some("0123abc"));
        let mut other = part(3);
        other.1.commit = Some("4567def".into());
        other.1.started = "2029-12-31T00:00:00Z".into();
        let c = combine(vec![part(1), other], String::new()).unwrap();
        assert_eq!(c.commit, None);
        assert_eq!(c.started, "2029-12-31T00:00:00Z");
    }

    #[test]
    fn a_combined_result_is_not_a_part() {
        let c = combine(vec![part(1), part(2)], String::new()).unwrap();
        let err = combine(vec![(PathBuf::from("both"), c), part(2)], String::new()).unwrap_err();
        assert!(err.0.contains("both is itself combined"), "{err}");
    }

    #[test]
    fn a_part_that_is_not_results_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("results.json"), "{").unwrap();
        let err = load(dir.path()).unwrap_err();
        assert!(
            err.0.contains("results.json: not an evaluation's results"),
            "{err}"
        );
        let err = load(&dir.path().join("missing")).unwrap_err();
        assert!(err.0.contains("cannot read"), "{err}");
    }

    #[test]
    fn the_command_line_needs_an_output_and_two_parts() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(parse(&args(&["a", "b"])).is_err());
        assert!(parse(&args(&["--out", "c", "a"])).is_err());
        assert!(parse(&args(&["--out", "a", "a", "b"])).is_err());
        assert!(parse(&args(&["--out", "c", "--runs=3", "a", "b"])).is_err());
        let (out, parts) = parse(&args(&["--out=c", "a", "b"])).unwrap();
        assert_eq!((out, parts.len()), (PathBuf::from("c"), 2));
    }
}
