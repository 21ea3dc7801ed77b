//! The baselines every trial is judged against, made at the start under
//! quiet conditions: the timed baseline, pooled from several runs because
//! one run can sit several percent off for its whole life, and, for the
//! instructions method, the counts.

use crate::Error;
use crate::bench::{Bench, CountSampling};
use crate::method::Saved;
use crate::options::CountProbes;
use std::path::{Path, PathBuf};
use std::time::Duration;
use yardstick::document::run::Run;

/// A baseline made at the start and saved beside the report.
pub struct Baseline {
    pub run: Run,
    pub path: PathBuf,
    /// What one run took: the estimate prices a trial of its kind at it.
    pub took: Duration,
}

impl Baseline {
    pub fn saved(&self) -> Saved<'_> {
        Saved {
            run: &self.run,
            path: &self.path,
        }
    }

    /// Its probes, in its order: the rows every timed method judges.
    pub fn probes(&self) -> Vec<String> {
        self.run.rows.iter().map(|r| r.key.clone()).collect()
    }
}

/// The stored baseline, `baseline.json`: `runs` quiet runs, each saved as
/// `baseline-runs/run-K.json`, pooled as `yardstick baseline` pools them
/// (one run is the baseline as it is).
pub fn timed(bench: &Bench, runs: usize, out: &Path) -> Result<Baseline, Error> {
    eprintln!("evaluate: {runs} quiet baseline run(s)");
    let mut made = Vec::with_capacity(runs);
    let mut took = Duration::ZERO;
    for k in 1..=runs {
        let one = bench.run(&bench.stored(None))?;
        let path = out.join("baseline-runs").join(format!("run-{k}.json"));
        save(&path, &one.run)?;
        made.push((path.display().to_string(), one.run));
        took = one.took;
    }
    let run = if made.len() == 1 {
        made.remove(0).1
    } else {
        let mut pooled = yardstick_baseline::pool::pool(&made)
            .map_err(|e| Error(format!("pooling the baseline runs: {e}")))?;
        // As `yardstick baseline` does: each probe's own threshold from
        // the spread of the runs pooled, when there are enough.
        let learned = yardstick_baseline::thresholds::learn(&pooled, &made);
        for note in &learned.notes {
            eprintln!("evaluate: {note}");
        }
        pooled.thresholds = Some(learned.thresholds);
        pooled
    };
    let path = out.join("baseline.json");
    save(&path, &run)?;
    Ok(Baseline { run, path, took })
}

/// A stored baseline made before, copied to `baseline.json`; one quiet run
/// times what a run takes, for the estimate, and is kept as
/// `baseline-runs/run-1.json`.
pub fn given(bench: &Bench, given: &Path, out: &Path) -> Result<Baseline, Error> {
    let run =
        yardstick::document::store::load(given).map_err(|e| Error(format!("--baseline: {e}")))?;
    eprintln!(
        "evaluate: the stored baseline {}, and one quiet run to time",
        given.display()
    );
    let one = bench.run(&bench.stored(None))?;
    save(&out.join("baseline-runs").join("run-1.json"), &one.run)?;
    let path = out.join("baseline.json");
    save(&path, &run)?;
    Ok(Baseline {
        run,
        path,
        took: one.took,
    })
}

/// The instruction counts of `counts`, `baseline-instructions.json`:
/// counts are the same in every run, so one run is the baseline.
pub fn counted(bench: &Bench, counts: &CountSampling, out: &Path) -> Result<Baseline, Error> {
    eprintln!("evaluate: counting the instructions baseline under callgrind");
    let counted = bench.run(&bench.instructions(counts, None, None))?;
    let path = out.join("baseline-instructions.json");
    save(&path, &counted.run)?;
    Ok(Baseline {
        run: counted.run,
        path,
        took: counted.took,
    })
}

fn save(path: &Path, run: &Run) -> Result<(), Error> {
    yardstick::document::store::save(path, run).map_err(|e| Error(e.to_string()))
}

/// The probes to count, as `--probe` names (empty: all of them).
pub fn count_probes(choice: &CountProbes, baseline: &Run) -> Vec<String> {
    match choice {
        CountProbes::All => Vec::new(),
        CountProbes::Named(names) => names.clone(),
        CountProbes::Fastest(n) => {
            let mut rows: Vec<(&str, f64)> = baseline
                .rows
                .iter()
                .map(|r| (r.key.as_str(), r.figures.median.unwrap_or(f64::INFINITY)))
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
