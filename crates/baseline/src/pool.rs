//! A baseline pooled from several runs of the same build.
//!
//! One run is one process, and on a shared machine one process can sit a
//! few percent off the typical speed of a probe for its whole life
//! (docs/evaluation.md, "Pooling the baseline"): its pages landed elsewhere, a neighbour was
//! busy. A baseline that is such a run shifts every later comparison by the
//! same amount, towards false alarms or towards missed slowdowns. Pooling
//! every sample of several runs, each beside the calibration loop timed
//! just before it, gives a reference figure (the median of all their
//! per-sample ratios) that no single process decides.

use crate::document::run::{CalibrationSummary, Metric, Mode, Row, RowKind, Run};
use crate::document::settings::MicroSettings;
use crate::error::Error;
use std::collections::{HashMap, HashSet};

/// Pools `runs` (each with the name it was loaded from, for errors) into one
/// baseline: the first run's description, every run's samples and loops.
/// Refuses, naming the run, what cannot be pooled: runs of another mode or
/// metric, without calibration, with an injected slowdown, with a failed
/// probe, of other probes, or timed against another calibration loop.
pub fn pool(runs: &[(String, Run)]) -> Result<Run, Error> {
    let owned = without_processes(runs);
    let runs = owned.as_slice();
    let Some((first_name, first)) = runs.first() else {
        return Err(Error::usage("a baseline pools at least one run"));
    };
    for (k, (name, _)) in runs.iter().enumerate() {
        if runs[..k].iter().any(|(other, _)| other == name) {
            return Err(Error::usage(format!(
                "{name}: given twice; each run is pooled once"
            )));
        }
    }
    for (name, run) in runs {
        poolable(name, run)?;
        same_loop(first_name, first, name, run)?;
        same_class(first_name, first, name, run)?;
        same_params(first_name, first, name, run)?;
        same_probes(first_name, first, name, run)?;
    }
    // Rows matched through a hash of each run's keys: linear in the rows.
    let indexes: Vec<HashMap<&str, &Row>> = runs
        .iter()
        .map(|(_, run)| run.rows.iter().map(|r| (r.key.as_str(), r)).collect())
        .collect();
    let rows = first
        .rows
        .iter()
        .map(|row| {
            let same: Vec<&Row> = indexes
                .iter()
                .filter_map(|index| index.get(row.key.as_str()).copied())
                .collect();
            pooled(&same)
        })
        .collect();
    Ok(merged(runs, rows))
}

/// The runs without their process probes' rows in micro mode: absolute
/// times of whole processes, which a pool of ratios to the loop cannot
/// hold. Kernel mode judges absolute times, and keeps them.
fn without_processes(runs: &[(String, Run)]) -> Vec<(String, Run)> {
    runs.iter()
        .map(|(name, run)| {
            let mut run = run.clone();
            if run.mode == Mode::Micro {
                run.rows.retain(|r| r.kind != RowKind::Process);
            }
            (name.clone(), run)
        })
        .collect()
}

/// A run that can go into a baseline, or why not.
fn poolable(name: &str, run: &Run) -> Result<(), Error> {
    if !run.mode.is_probes() || run.metric != Metric::Time {
        return Err(Error::input(format!(
            "{name}: a baseline pools timed micro or kernel runs (this is {})",
            run.mode.a_run_of(run.metric)
        )));
    }
    if run.rows.is_empty() {
        return Err(Error::input(format!(
            "{name}: the run has no probe to pool"
        )));
    }
    if let Some(imported) = &run.environment.imported {
        return Err(Error::input(format!(
            "{name}: a run imported from {} is not pooled (criterion's have no calibration \
             loop, exp:benchmark's no samples); judge by it as it is (--baseline=FILE, or \
             yardstick compare)",
            imported.tool
        )));
    }
    // Kernel mode judges absolute times; micro mode's ratios need the loop.
    if run.mode == Mode::Micro && run.calibration.is_none() {
        return Err(Error::input(format!(
            "{name}: the run has no calibration; a baseline needs it"
        )));
    }
    measured(name, run)?;
    if let Some(row) = run
        .rows
        .iter()
        .find(|r| r.errors > 0 || r.samples.is_empty())
    {
        return Err(Error::input(format!(
            "{name}: probe `{}` failed in this run; pool runs in which every probe passed",
            row.key
        )));
    }
    // Each sample is divided by the loop timed just before it; without
    // those pairs the pooled figure would mix speeds of different moments.
    // Process rows (kernel mode's) are absolute times of whole processes.
    if let Some(row) = run
        .rows
        .iter()
        .filter(|r| r.kind != RowKind::Process)
        .find(|r| r.calibration_samples.len() != r.samples.len())
    {
        return Err(Error::input(format!(
            "{name}: probe `{}` has no calibration loop beside each sample (a run of an \
             older yardstick); pool runs that have",
            row.key
        )));
    }
    Ok(())
}

/// A run of probes measured as they are: no scripted clock, no injected
/// slowdown.
fn measured(name: &str, run: &Run) -> Result<(), Error> {
    let Some(settings) = run.settings.micro() else {
        return Err(Error::input(format!(
            "{name}: the run is {}; a baseline pools runs of probes",
            run.settings.kind()
        )));
    };
    if settings.fake_clock.is_some() {
        return Err(Error::input(format!(
            "{name}: the run was timed by a scripted clock (a test's); a baseline must be measured"
        )));
    }
    if settings.inject.is_some() {
        return Err(Error::input(format!(
            "{name}: the run was made with an injected slowdown; a baseline must not be"
        )));
    }
    Ok(())
}

/// Loops of different code time different work: their ratios do not mix.
fn same_loop(first_name: &str, first: &Run, name: &str, run: &Run) -> Result<(), Error> {
    let checksum = |r: &Run| r.calibration.as_ref().map(|c| c.checksum);
    if checksum(run) != checksum(first) {
        return Err(Error::input(format!(
            "{name}: its calibration loop is not the one of {first_name} (another checksum); \
             pool runs of one yardstick version"
        )));
    }
    // Other versions of the crates the loop runs time other code: their
    // ratios do not mix either.
    let crates = first
        .environment
        .calibration_crate_differences(&run.environment);
    if let Some((field, theirs, its)) = crates.first() {
        return Err(Error::input(format!(
            "{name}: its {field} is {its}, {first_name}'s {theirs}; pool runs built from one Cargo.lock"
        )));
    }
    Ok(())
}

/// Wall time belongs to a machine class: a pool of two classes' runs would
/// be a figure of no machine.
fn same_class(first_name: &str, first: &Run, name: &str, run: &Run) -> Result<(), Error> {
    let (a, b) = (&first.environment, &run.environment);
    if a.machine_class != b.machine_class {
        return Err(Error::input(format!(
            "{name}: made on machine class {} ({}), but {first_name} on {} ({}); pool runs of \
             one machine class",
            b.class_name(),
            b.cpu_name(),
            a.class_name(),
            a.cpu_name()
        )));
    }
    Ok(())
}

/// Runs given other bench parameters (`--node`) did other work: their
/// pool would be a figure of no work.
fn same_params(first_name: &str, first: &Run, name: &str, run: &Run) -> Result<(), Error> {
    let differences = crate::document::setup::param_differences(first, run);
    let Some((option, theirs, ours)) = differences.first() else {
        return Ok(());
    };
    Err(Error::input(format!(
        "{name}: made with {option} {ours}, but {first_name} with {theirs}; pool runs of one \
         set of parameters"
    )))
}

fn same_probes(first_name: &str, first: &Run, name: &str, run: &Run) -> Result<(), Error> {
    let missing = |a: &Run, b: &Run| {
        let keys: HashSet<&str> = b.rows.iter().map(|r| r.key.as_str()).collect();
        a.rows
            .iter()
            .find(|r| !keys.contains(r.key.as_str()))
            .map(|r| r.key.clone())
    };
    if let Some(key) = missing(run, first) {
        return Err(Error::input(format!(
            "{name}: probe `{key}` is not in {first_name}; pool runs of the same probes"
        )));
    }
    if let Some(key) = missing(first, run) {
        return Err(Error::input(format!(
            "{name}: has no probe `{key}`, which {first_name} has; pool runs of the same probes"
        )));
    }
    Ok(())
}

/// One row holding every run's samples of one probe, each still beside its
/// loop.
fn pooled(same: &[&Row]) -> Row {
    let first = same[0];
    let samples: Vec<f64> = same
        .iter()
        .flat_map(|r| r.samples.iter().copied())
        .collect();
    let mut row = Row::with_samples(first.key.clone(), first.kind, first.name.clone(), samples);
    row.batch = first.batch;
    row.ops = first.ops;
    row.requests = same.iter().map(|r| r.requests).sum();
    row.rps = row.ops_per_second();
    row.note = first.note.clone();
    row.checksum = first.checksum;
    row.variant = first.variant.clone();
    let mut rss: Vec<u64> = same.iter().filter_map(|r| r.peak_rss).collect();
    rss.sort_unstable();
    row.peak_rss = rss.get(rss.len() / 2).copied();
    // Counts repeat exactly; should they differ, the most a run allocated
    // is the baseline, so that the pool never makes a regression of a run
    // it holds.
    row.memory = same
        .iter()
        .filter_map(|r| r.memory)
        .max_by_key(|m| m.allocs);
    row.calibration_samples = same
        .iter()
        .flat_map(|r| r.calibration_samples.iter().copied())
        .collect();
    row
}

/// The first run's description, with the pooled rows and a calibration
/// summary over every run's loops. Drift between runs means nothing for a
/// pool: each row's loops before and after the middle of its own rounds go
/// to the pool's before and after, so the drift is that within the runs.
fn merged(runs: &[(String, Run)], rows: Vec<Row>) -> Run {
    let mut run = runs[0].1.clone();
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for (_, r) in runs {
        for row in &r.rows {
            let (b, a) = row
                .calibration_samples
                .split_at(row.calibration_samples.len() / 2);
            before.extend_from_slice(b);
            after.extend_from_slice(a);
        }
    }
    let checksum = runs[0].1.calibration.as_ref().map_or(0, |c| c.checksum);
    run.calibration = CalibrationSummary::of(&before, &after, checksum).or(run.calibration);
    let c = run.calibration_median();
    run.rows = rows;
    // A pool was delivered with no verdict of its own.
    run.outcome = None;
    for row in &mut run.rows {
        row.normalized = c.and_then(|c| row.normalized_median(c));
    }
    // Every run took its rounds in one order, so the pooled samples still
    // pair round by round.
    run.ranking = crate::judge::ranking::rank(&run.rows, run.metric);
    let mut warnings: Vec<String> = Vec::new();
    for (_, r) in runs {
        for w in &r.warnings {
            if !warnings.contains(w) {
                warnings.push(w.clone());
            }
        }
    }
    run.warnings = warnings;
    // A pooled run pooled again counts every run it holds.
    let pooled: u64 = runs
        .iter()
        .map(|(_, r)| r.settings.micro().map_or(1, MicroSettings::runs))
        .sum();
    if let Some(settings) = run.settings.micro_mut() {
        settings.pooled_runs = Some(pooled);
    }
    run.comparison = None;
    run.server_pairs = None;
    // The thresholds a baseline carries are learned for it, never
    // inherited from a run pooled into it.
    run.thresholds = None;
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::{RowKind, test_micro_run};

    /// A run whose probe `p` took `times` ms, each right after a loop of
    /// `loops` ms.
    fn run(times: &[f64], loops: &[f64]) -> Run {
        let mut row = Row::with_samples("p".into(), RowKind::Probe, "p".into(), times.to_vec());
        row.calibration_samples = loops.to_vec();
        row.requests = times.len() as u64;
        row.ops = Some(3);
        test_micro_run(vec![row], CalibrationSummary::of(loops, loops, 7))
    }

    fn named(runs: Vec<Run>) -> Vec<(String, Run)> {
        runs.into_iter()
            .enumerate()
            .map(|(i, r)| (format!("run{i}.json"), r))
            .collect()
    }

    #[test]
    fn one_odd_run_does_not_decide_the_figure() {
        // Four runs put the probe at 0.5 loops; one process sat 12 % slow.
        let runs = named(vec![
            run(&[2.0, 2.0], &[4.0, 4.0]),
            run(&[2.24, 2.24], &[4.0, 4.0]),
            run(&[1.0, 1.0], &[2.0, 2.0]),
            run(&[3.0, 3.0], &[6.0, 6.0]),
            run(&[2.0, 2.0], &[4.0, 4.0]),
        ]);
        let single = runs[1].1.rows[0].normalized_median(4.0).unwrap();
        assert!((single - 0.56).abs() < 1e-9);
        let base = pool(&runs).unwrap();
        let row = &base.rows[0];
        assert_eq!(row.samples.len(), 10);
        assert_eq!(row.calibration_samples.len(), 10);
        assert_eq!(row.requests, 10);
        assert_eq!(row.normalized, Some(0.5));
        assert_eq!(base.settings.micro().unwrap().pooled_runs, Some(5));
        let c = base.calibration.as_ref().unwrap();
        assert_eq!((c.loops.n, c.loops.median, c.checksum), (10, 4.0, 7));
    }

    #[test]
    fn a_pool_ranks_its_variants_from_the_pooled_rows() {
        use crate::document::ranking::{Member, Outcome};
        let variants = |fast: f64| {
            let mut r = run(&[1.0, 1.1, 1.0], &[4.0; 3]);
            let mut other =
                Row::with_samples("q".into(), RowKind::Probe, "q".into(), vec![fast; 3]);
            other.calibration_samples = vec![4.0; 3];
            for (row, variant, role) in [
                (&mut r.rows[0], "p", crate::probe::Role::Reference),
                (&mut other, "q", crate::probe::Role::Contender),
            ] {
                row.checksum = Some(7);
                row.variant = Some(Member {
                    group: "g".into(),
                    variant: variant.into(),
                    role,
                });
            }
            r.rows.push(other);
            r.ranking = crate::judge::ranking::rank(&r.rows, r.metric);
            r
        };
        // The first run alone calls no winner (3 rounds give no interval);
        // the pool's 6 rounds do.
        let runs = named(vec![variants(0.5), variants(0.5)]);
        let base = pool(&runs).unwrap();
        assert!(base.rows.iter().all(|r| r.variant.is_some()));
        let ranking = base.ranking.expect("a ranking");
        assert_eq!(ranking.groups[0].outcome, Outcome::Winner("q".into()));
    }

    #[test]
    fn kernel_runs_pool_their_process_rows_without_a_loop() {
        let kernel = |boot: f64, rss: u64| {
            let mut row = Row::with_samples(
                "k.process".into(),
                RowKind::Process,
                "k.process".into(),
                vec![boot, boot],
            );
            row.requests = 2;
            row.peak_rss = Some(rss);
            Run {
                mode: Mode::Kernel,
                ..test_micro_run(vec![row], None)
            }
        };
        let runs = named(vec![kernel(3.0, 10), kernel(5.0, 30), kernel(4.0, 20)]);
        let base = pool(&runs).unwrap();
        let row = &base.rows[0];
        assert_eq!(
            (row.figures.n, row.figures.median, row.peak_rss),
            (6, Some(4.0), Some(20))
        );
        // Micro mode leaves process rows out of its pool of ratios.
        let micro: Vec<_> = runs
            .into_iter()
            .map(|(n, mut r)| {
                r.mode = Mode::Micro;
                r.rows.push(run(&[1.0], &[1.0]).rows.remove(0));
                r.calibration = CalibrationSummary::of(&[1.0], &[1.0], 7);
                (n, r)
            })
            .collect();
        let keys: Vec<String> = pool(&micro)
            .unwrap()
            .rows
            .into_iter()
            .map(|r| r.key)
            .collect();
        assert_eq!(keys, ["p"]);
    }

    #[test]
    fn warnings_are_kept_once_and_comparisons_dropped() {
        let mut a = run(&[1.0], &[1.0]);
        a.warnings.push("load was high".into());
        a.comparison = Some(crate::document::comparison::Comparison {
            baseline: "old.json".into(),
            method: crate::document::comparison::Method::Normalized,
            threshold: 30.0,
            min_delta: None,
            missing: Vec::new(),
            new: Vec::new(),
            checks: Vec::new(),
            environment_differences: Vec::new(),
            calibration: None,
            ..Default::default()
        });
        let mut b = a.clone();
        b.warnings.push("drift".into());
        let base = pool(&named(vec![a, b])).unwrap();
        assert_eq!(base.warnings, ["load was high", "drift"]);
        assert!(base.comparison.is_none());
    }

    #[test]
    fn a_pool_pooled_again_counts_every_run() {
        let two = pool(&named(vec![run(&[1.0], &[1.0]), run(&[1.0], &[1.0])])).unwrap();
        let three = pool(&named(vec![two, run(&[1.0], &[1.0])])).unwrap();
        assert_eq!(three.settings.micro().unwrap().pooled_runs, Some(3));
        assert_eq!(three.rows[0].samples.len(), 3);
    }

    #[test]
    fn drift_is_within_the_runs_not_between_them() {
        // Each run's loops slow down by half during the run; the second
        // run was made on a machine twice as fast.
        let slow = run(&[1.0, 1.0, 1.0, 1.0], &[4.0, 4.0, 6.0, 6.0]);
        let fast = run(&[0.5, 0.5, 0.5, 0.5], &[2.0, 2.0, 3.0, 3.0]);
        let c = pool(&named(vec![slow, fast])).unwrap().calibration.unwrap();
        assert_eq!((c.before_median, c.after_median), (3.0, 4.5));
        assert!((c.drift_pct - 50.0).abs() < 1e-9, "{}", c.drift_pct);
    }

    #[test]
    fn refusals_name_the_run_and_the_reason() {
        let ok = || run(&[1.0], &[1.0]);
        let refused = |runs: Vec<Run>| pool(&named(runs)).unwrap_err().to_string();

        assert!(pool(&[]).is_err());
        let e = pool(&[("a.json".into(), ok()), ("a.json".into(), ok())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("a.json") && e.contains("twice"), "{e}");

        let mut empty = ok();
        empty.rows.clear();
        let e = refused(vec![empty, ok()]);
        assert!(e.contains("run0.json") && e.contains("no probe"), "{e}");

        let mut scripted = ok();
        scripted.settings.micro_mut().unwrap().fake_clock = Some("a=1".into());
        let e = refused(vec![ok(), scripted]);
        assert!(
            e.contains("run1.json") && e.contains("scripted clock"),
            "{e}"
        );

        let mut injected = ok();
        injected.settings.micro_mut().unwrap().inject = Some("*:15".into());
        let e = refused(vec![ok(), ok(), injected]);
        assert!(e.contains("run2.json") && e.contains("injected"), "{e}");

        let mut failed = ok();
        failed.rows[0].errors = 1;
        let e = refused(vec![ok(), failed]);
        assert!(e.contains("run1.json") && e.contains("failed"), "{e}");

        let mut other = ok();
        other.rows[0].key = "q".into();
        let e = refused(vec![ok(), other]);
        assert!(e.contains("run1.json") && e.contains("`q`"), "{e}");

        let mut more = ok();
        let mut q = more.rows[0].clone();
        q.key = "q".into();
        more.rows.push(q);
        let e = refused(vec![more, ok()]);
        assert!(e.contains("run1.json") && e.contains("no probe `q`"), "{e}");

        let mut elsewhere = ok();
        elsewhere.environment.machine_class = Some("other-cpu-2cpu-0123abcd".into());
        let e = refused(vec![ok(), elsewhere]);
        assert!(
            e.contains("run1.json")
                && e.contains("other-cpu-2cpu-0123abcd")
                && e.contains("test-cpu-2cpu-00000000"),
            "{e}"
        );

        let mut other_lock = ok();
        other_lock.environment.calibration_crates =
            Some([("regex".to_string(), "1.13.2".to_string())].into());
        let mut first_lock = ok();
        first_lock.environment.calibration_crates =
            Some([("regex".to_string(), "1.10.0".to_string())].into());
        let e = refused(vec![first_lock, other_lock]);
        assert!(
            e.contains("run1.json") && e.contains("regex is 1.13.2") && e.contains("1.10.0"),
            "{e}"
        );

        let mut other_node = ok();
        other_node.settings.micro_mut().unwrap().params =
            [("node".to_string(), "57".to_string())].into();
        let e = refused(vec![ok(), other_node]);
        assert!(
            e.contains("run1.json") && e.contains("--node 57") && e.contains("with default"),
            "{e}"
        );

        let mut http = ok();
        http.mode = Mode::Http;
        let e = refused(vec![http, ok()]);
        assert!(e.contains("run0.json") && e.contains("an HTTP run"), "{e}");

        let mut uncalibrated = ok();
        uncalibrated.calibration = None;
        let e = refused(vec![ok(), uncalibrated]);
        assert!(
            e.contains("run1.json") && e.contains("no calibration"),
            "{e}"
        );

        let mut old = ok();
        old.rows[0].calibration_samples.clear();
        let e = refused(vec![ok(), old]);
        assert!(
            e.contains("run1.json") && e.contains("beside each sample"),
            "{e}"
        );

        let mut other_loop = ok();
        if let Some(c) = other_loop.calibration.as_mut() {
            c.checksum = 8;
        }
        let e = refused(vec![ok(), other_loop]);
        assert!(e.contains("run1.json") && e.contains("checksum"), "{e}");
    }
}
