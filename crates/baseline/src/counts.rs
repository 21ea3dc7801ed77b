//! The committed count baselines, `baselines/<bench>/counts/*.json`: the
//! verdict `cargo bench` can give on a machine of any class.
//!
//! Wall time is judged only against a baseline of the same machine class;
//! a new laptop or CI runner has none. Counts do not depend on the machine
//! but on the count set-up (compiler, build, valgrind, batch, C library,
//! library pin and the CPU valgrind shows; see `document::setup`), so one
//! committed file per set-up judges every machine of that set-up: where no
//! wall-time baseline of this class is committed and valgrind is installed,
//! `cargo bench` counts instead of timing and the file whose set-up matches
//! this build's judges (see `history` for the order). Files are told apart
//! by their contents, not their names. They are refreshed with the command
//! in docs/baselines.md ("Count baselines").

use crate::Baseline;
use crate::document::environment::{Environment, now, repository_dir};
use crate::document::run::Metric;
use crate::document::setup::Setup;
use crate::error::Error;
use crate::history::Bench;
use crate::measure::callgrind::{costs, pin};
use std::path::{Path, PathBuf};

/// `baselines/<bench>/counts/`.
pub fn dir(bench: &Bench) -> PathBuf {
    bench
        .repository
        .join("baselines")
        .join(&bench.name)
        .join("counts")
}

/// What the committed count baselines offer this build.
pub enum Found {
    /// The file whose set-up is this build's, shown as its basis.
    Baseline(Box<Baseline>),
    /// None is committed.
    NoneCommitted,
    /// Some are, and none can judge here: why, in a line.
    NoMatch(String),
}

/// The committed count baseline of `bench` whose set-up is this build's.
/// `batch` is `--min-batch`, when given. A committed file that cannot be
/// read, or holds no counts, is an error naming it: a broken file must not
/// silently stop the check.
pub fn usable(bench: &Bench, batch: Option<u64>) -> Result<Found, Error> {
    let files = committed(&dir(bench))?;
    if files.is_empty() {
        return Ok(Found::NoneCommitted);
    }
    let shown = dir(bench).display().to_string();
    let Ok(valgrind) = crate::measure::callgrind::valgrind_version(Metric::Instructions) else {
        return Ok(Found::NoMatch(format!(
            "{shown} cannot judge here: valgrind is not installed"
        )));
    };
    let build = Setup::of_build(&Environment::current(&repository_dir(), now()));
    let platform = &pin::here().platform;
    let mut closest: Option<(usize, String)> = None;
    for path in &files {
        let baseline = Baseline::load(path)?;
        let metric = baseline.run.metric;
        if !metric.is_count() {
            return Err(Error::input(format!(
                "{}: a committed count baseline that holds no counts ({})",
                path.display(),
                metric.as_str()
            )));
        }
        let committed = Setup::of(&baseline.run, metric);
        let here = Setup {
            valgrind: valgrind.clone(),
            batch: batch.map_or_else(|| committed.batch.clone(), |b| b.to_string()),
            cache: (metric == Metric::EstimatedCycles).then(costs::cache_geometry),
            platform: platform.clone(),
            ..build.clone()
        };
        let differences = committed.differences(&here);
        if differences.is_empty() {
            return Ok(Found::Baseline(Box::new(chosen(baseline))));
        }
        let why = format!(
            "{}: {}",
            path.display(),
            crate::document::comparison::describe_differences(&differences)
        );
        if closest.as_ref().is_none_or(|(n, _)| differences.len() < *n) {
            closest = Some((differences.len(), why));
        }
    }
    let why = closest.map(|(_, why)| why).unwrap_or_default();
    Ok(Found::NoMatch(format!(
        "no committed count baseline in {shown} matches this set-up (closest {why})"
    )))
}

/// The committed files, in name order; none when the folder is missing.
fn committed(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::input(format!("{}: {e}", dir.display()))),
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// `baseline` (whose name is its file's) as the basis of a count verdict.
fn chosen(baseline: Baseline) -> Baseline {
    let metric = baseline.run.metric;
    Baseline {
        basis: Some(format!(
            "the committed count baseline of this set-up, {}: the compiler, valgrind, batch, C \
             library and library pin are held; the CPU that valgrind shows can still move a \
             count (docs/design.md, \"Why counts, and what they depend on\")",
            metric.as_str(),
        )),
        ..baseline
    }
}

/// The batch the count baseline was made with, for a run that must match it.
pub fn batch(baseline: &Baseline) -> Option<u64> {
    baseline.run.rows.iter().find_map(|r| r.batch)
}
