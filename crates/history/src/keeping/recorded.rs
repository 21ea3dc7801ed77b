//! `--baseline=history[:N]`: a baseline made from the runs kept in the
//! history, by the rules a committed one follows.
//!
//! Wall time pools the last N runs (default 5) of this mode, this machine
//! class and this branch, as `yardstick baseline` pools them, and needs
//! at least [`MIN_POOLED`]: fewer are a lottery (docs/baselines.md). A run
//! that does not pool with the newer ones (other bench parameters, another
//! calibration loop) is passed over. Counts and HTTP runs take the newest
//! such run: counts are exact, and HTTP runs are not pooled. A counted
//! run must be of this set-up as far as it is known before counting: the
//! compiler, profile and target, valgrind, the C library, its pin and the
//! CPU the counted child sees, the simulated cache; one of another is
//! passed over. Only the batch, which each probe settles as it is counted,
//! the judge compares afterwards, naming it if it differs. A run imported
//! from another tool is never taken.

use crate::document::environment;
use crate::document::run::{Metric, Mode, Run};
use crate::document::setup::Setup;
use crate::document::store;
use crate::error::Error;
use crate::{Filter, Location};
use yardstick_baseline::keeper::FromHistory;
use yardstick_baseline::{Baseline, pool, thresholds};
use yardstick_measure::callgrind::{self, costs, pin};

/// The fewest runs a wall-time baseline is pooled from.
pub const MIN_POOLED: usize = 3;
/// Runs looked at beyond N, for the ones that do not pool.
const LOOK_AHEAD: u64 = 4;
/// The newest runs a probe's threshold is learned from: enough for the
/// spread of many sittings, few enough that the machine class has not
/// changed under them.
const LEARNED_FROM: u64 = 200;

/// The baseline of the last `n` kept runs like a run of `mode` and
/// `metric` about to be made here, by `bench` when a bench makes it (so
/// that two benches of one mode keep apart).
pub(crate) fn from_history(
    location: &Location,
    n: usize,
    (mode, metric): (Mode, Metric),
    bench: Option<&str>,
) -> Result<FromHistory, Error> {
    let timed = metric == Metric::Time && mode.is_probes();
    // Wall time, HTTP's too, belongs to a machine.
    let class = (metric == Metric::Time).then(environment::current_class);
    if class == Some(None) {
        return Ok(FromHistory::TooFew(
            "this machine's class is unknown, and wall time is judged only within one".to_string(),
        ));
    }
    let class = class.flatten();
    let rule = Rule::of(timed, metric);
    // No branch (a detached HEAD) selects the runs recorded without one.
    let branch = environment::branch_of(&environment::repository_dir()).unwrap_or_default();
    let filter = Filter {
        mode: Some(mode.as_str().to_string()),
        metric: Some(metric.as_str().to_string()),
        machine_class: class,
        branch: Some(branch),
        bench: bench.map(str::to_string),
        limit: rule.looks_at(n),
        ..Filter::default()
    };
    if !crate::exists(location) {
        return Ok(FromHistory::TooFew(format!(
            "no history at {}",
            location.shown()
        )));
    }
    let mut store = crate::open(location)?;
    let wanted = if timed { n } else { 1 };
    let (mut taken, passed_over) = take(store.as_mut(), &filter, wanted, &rule, location)?;
    let scope = describe(&filter, location);
    let needed = if timed { MIN_POOLED.min(n) } else { 1 };
    if taken.len() < needed {
        return Ok(FromHistory::TooFew(format!(
            "{} of the {needed} {scope} that a baseline needs{}",
            taken.len(),
            skipped(passed_over)
        )));
    }
    let (run, basis) = if timed {
        let basis = format!("pooled from the last {} {scope}", taken.len());
        let mut pooled = pool::pool(&taken)?;
        // Each probe's own threshold, from the spread of the runs kept
        // like it: the kept history judges by them only here, where the
        // run is judged against kept runs.
        let learning = Filter {
            limit: Some(LEARNED_FROM),
            ..filter.clone()
        };
        let runs = kept_runs(store.as_mut(), &learning, location)?;
        pooled.thresholds = Some(thresholds::learn(&pooled, &runs).thresholds);
        (pooled, basis)
    } else {
        let (name, run) = taken.remove(0);
        (run, format!("the newest of the {scope} ({name})"))
    };
    Ok(FromHistory::Baseline(Box::new(Baseline {
        name: format!("history:{n}"),
        run,
        basis: Some(basis),
        informational: false,
    })))
}

/// Every part of a selection, for the basis or the reason: `micro runs
/// of time, class C, branch B in the history H`.
fn describe(filter: &Filter, location: &Location) -> String {
    let class = filter
        .machine_class
        .as_ref()
        .map(|c| format!(", class {c}"))
        .unwrap_or_default();
    let branch = match filter.branch.as_deref() {
        Some("") | None => ", no branch".to_string(),
        Some(b) => format!(", branch {b}"),
    };
    let bench = filter
        .bench
        .as_ref()
        .map(|b| format!(", bench {b}"))
        .unwrap_or_default();
    format!(
        "{} runs of {}{class}{branch}{bench} in the history {}",
        filter.mode.as_deref().unwrap_or_default(),
        filter.metric.as_deref().unwrap_or_default(),
        location.shown()
    )
}

/// How many runs were passed over, and the first reason.
fn skipped(passed_over: Option<(usize, String)>) -> String {
    passed_over
        .map(|(count, why)| {
            let why = why.trim_start_matches("error: ");
            format!(" ({count} passed over, the first because {why})")
        })
        .unwrap_or_default()
}

/// The runs of `bench` in the history at `location` that may teach the
/// probes of `like` their thresholds: of its mode, metric and machine
/// class, the newest [`LEARNED_FROM`]. `thresholds::learn` passes over
/// what else cannot.
pub fn learning_runs(
    location: &Location,
    like: &Run,
    bench: &str,
) -> Result<Vec<(String, Run)>, Error> {
    let Some(class) = like.environment.machine_class.clone() else {
        return Err(Error::input(
            "the runs pooled have no machine class, and thresholds are learned only within one"
                .to_string(),
        ));
    };
    let filter = Filter {
        mode: Some(like.mode.as_str().to_string()),
        metric: Some(like.metric.as_str().to_string()),
        machine_class: Some(class),
        bench: Some(bench.to_string()),
        limit: Some(LEARNED_FROM),
        ..Filter::default()
    };
    let mut store = crate::open_existing(location)?;
    kept_runs(store.as_mut(), &filter, location)
}

/// Every run of yardstick's that `filter` selects, read back; a run that
/// cannot be read is passed over (`history add` checked it once; an edit
/// since must not stop a verdict).
fn kept_runs(
    store: &mut dyn crate::Store,
    filter: &Filter,
    location: &Location,
) -> Result<Vec<(String, Run)>, Error> {
    let mut runs = Vec::new();
    for listed in store.list(filter)? {
        if listed.tool != crate::document::run::TOOL {
            continue;
        }
        let stored = store.find(&listed.id)?;
        if let Ok(run) = store::parse(&stored.text) {
            runs.push((
                format!("{} run {}", location.shown(), listed.short_id()),
                run,
            ));
        }
    }
    Ok(runs)
}

/// The newest `wanted` runs `filter` selects that are yardstick's and pool
/// together (wall time), and how many were passed over, with the first
/// reason.
type Taken = (Vec<(String, Run)>, Option<(usize, String)>);

fn take(
    store: &mut dyn crate::Store,
    filter: &Filter,
    wanted: usize,
    rule: &Rule,
    location: &Location,
) -> Result<Taken, Error> {
    let mut taken: Vec<(String, Run)> = Vec::new();
    let mut passed_over: Option<(usize, String)> = None;
    for listed in store.list(filter)? {
        if taken.len() == wanted {
            break;
        }
        if listed.tool != crate::document::run::TOOL {
            continue;
        }
        let stored = store.find(&listed.id)?;
        let name = format!("history run {}", listed.short_id());
        let run = store::parse(&stored.text)
            .map_err(|m| Error::input(format!("{}: {name}: {m}", location.shown())))?;
        let candidate = (name, run);
        match rule.admits(&taken, &candidate) {
            Ok(()) => taken.push(candidate),
            Err(e) => {
                let (count, _) = passed_over.get_or_insert((0, e.to_string()));
                *count += 1;
            }
        }
    }
    Ok((taken, passed_over))
}

/// The set-up a count made here now would have, all of it but the batch
/// (which each probe settles as it is counted): this build, this
/// valgrind, this machine's C library, pin and CPU as the counted child
/// sees them (read back once per process, and read for the run's own
/// counts all the same), and the simulated cache. Without valgrind the
/// run is refused as it starts; until then, the build alone is known.
fn counting_here(metric: Metric) -> Known {
    let build = environment::Environment::current(&environment::repository_dir(), String::new());
    let Ok(valgrind) = callgrind::valgrind_version(metric) else {
        return Known::Build(Setup::of_build(&build));
    };
    Known::Whole(Setup {
        valgrind,
        cache: (metric == Metric::EstimatedCycles).then(costs::cache_geometry),
        platform: pin::here().platform.clone(),
        ..Setup::of_build(&build)
    })
}

/// How much of the set-up of a count made here is known before it is made.
enum Known {
    /// The compiler, profile and target.
    Build(Setup),
    /// All of it but the batch.
    Whole(Setup),
}

impl Known {
    /// What differs between `theirs` and this set-up, as far as it is known.
    fn differences(&self, theirs: &Setup) -> Vec<(String, String, String)> {
        match self {
            Known::Build(here) => theirs.build_differences(here),
            Known::Whole(here) => theirs
                .differences(here)
                .into_iter()
                .filter(|(field, ..)| field != "batch")
                .collect(),
        }
    }
}

/// Which runs may join a baseline.
enum Rule {
    /// Timed runs: those that pool with the ones taken (`pool::pool`).
    Pools,
    /// Counted runs: those of this set-up, as far as it is known.
    Built(Box<Known>),
    /// HTTP runs: any.
    Any,
}

impl Rule {
    /// The rule for runs of `metric`, `timed` when they pool.
    fn of(timed: bool, metric: Metric) -> Rule {
        if timed {
            Rule::Pools
        } else if metric.is_count() {
            Rule::Built(Box::new(counting_here(metric)))
        } else {
            Rule::Any
        }
    }

    /// How many of the newest runs to look at for a baseline of `n`: a
    /// few beyond, for runs passed over (runs that do not pool, another
    /// tool's); counted runs all, since in a history shared by several
    /// toolchains the newest of this build may lie behind many of others.
    fn looks_at(&self, n: usize) -> Option<u64> {
        match self {
            Rule::Built(_) => None,
            Rule::Pools | Rule::Any => Some(n as u64 * LOOK_AHEAD),
        }
    }

    /// Whether `candidate` may join the runs `taken`, and why not.
    fn admits(&self, taken: &[(String, Run)], candidate: &(String, Run)) -> Result<(), Error> {
        match self {
            Rule::Pools => {
                let mut all = taken.to_vec();
                all.push(candidate.clone());
                pool::pool(&all).map(drop)
            }
            Rule::Built(here) => {
                let (_, run) = candidate;
                match here.differences(&Setup::of(run, run.metric)).first() {
                    None => Ok(()),
                    Some((field, was, is)) => Err(Error::input(format!(
                        "it was counted by another build ({field}: {was}; this build: {is})"
                    ))),
                }
            }
            Rule::Any => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Entry;
    use crate::document::run::{Row, RowKind, test_micro_run};

    fn counted(rustc: &str, second: u32) -> Run {
        let row = Row::with_samples("parse".into(), RowKind::Probe, "parse".into(), vec![1.0]);
        let mut run = test_micro_run(vec![row], None);
        run.metric = Metric::Instructions;
        run.environment.rustc = rustc.to_string();
        run.started = format!("2026-12-01T10:00:{second:02}Z");
        run
    }

    #[test]
    fn a_count_baseline_is_the_newest_run_of_this_build_s_compiler() {
        let dir = tempfile::tempdir().unwrap();
        let location = Location::Sqlite(dir.path().join("h.sqlite"));
        let mut history = crate::open(&location).unwrap();
        let ours = counted("rustc 1.95.0", 1);
        let newer_other = counted("rustc 1.96.0", 2);
        for run in [&ours, &newer_other] {
            let entry = Entry::new(store::saved_text(run), run, "main");
            history.add(&entry).unwrap();
        }
        let here = Setup::of_build(&ours.environment);
        let (taken, passed_over) = take(
            history.as_mut(),
            &Filter::default(),
            1,
            &Rule::Built(Box::new(Known::Build(here))),
            &location,
        )
        .unwrap();
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].1.environment.rustc, "rustc 1.95.0");
        let (count, why) = passed_over.unwrap();
        assert_eq!(count, 1);
        assert!(
            why.contains("(rustc: rustc 1.96.0; this build: rustc 1.95.0)"),
            "{why}"
        );
        // Without the rule, the newest is taken.
        let (taken, _) = take(
            history.as_mut(),
            &Filter::default(),
            1,
            &Rule::Any,
            &location,
        )
        .unwrap();
        assert_eq!(taken[0].1.environment.rustc, "rustc 1.96.0");
    }

    #[test]
    fn with_valgrind_at_hand_a_count_of_another_valgrind_is_passed_over_but_not_of_another_batch() {
        let mut ours = counted("rustc 1.95.0", 1);
        let counting = |run: &mut Run, valgrind: &str| {
            if let Some(m) = run.settings.micro_mut() {
                m.counting.valgrind = Some(valgrind.to_string());
            }
        };
        counting(&mut ours, "valgrind-3.19.0");
        let here = Known::Whole(Setup::of(&ours, Metric::Instructions));
        let rule = Rule::Built(Box::new(here));
        let mut other_batch = ours.clone();
        other_batch.rows[0].batch = Some(64);
        assert!(rule.admits(&[], &("a".into(), other_batch)).is_ok());
        let mut other_valgrind = ours.clone();
        counting(&mut other_valgrind, "valgrind-3.22.0");
        let why = rule
            .admits(&[], &("b".into(), other_valgrind))
            .unwrap_err()
            .to_string();
        assert!(why.contains("valgrind: valgrind-3.22.0"), "{why}");
    }
}
