//! `yardstick matrix`: what a configuration costs. Configurations of a
//! bench (other binaries, environments, arguments) are measured against a
//! base configuration, and each probe's figure on each is a multiplier of
//! the base's (`judge::matrix`).
//!
//! Timed, the configurations are measured as `compare-builds` measures two
//! builds (`interleave`): interleaved rounds on fresh worker sets, one
//! worker per configuration, on one CPU. Counted (`--metric`), each
//! configuration runs once as a counted bench run (`counted`): the counts
//! are exact, so one run each is the whole evidence.
//!
//! `main` reads top to bottom: the configurations (`options`, `file`),
//! `Setup`, the measuring, the rule, the saved run (`report`).

mod counted;
mod file;
mod listed;
pub(crate) mod options;
mod report;

use crate::commands::interleave::entry::{Entries, Entry};
use crate::commands::interleave::launch::Launcher;
use crate::commands::interleave::rounds::{Measured, Measuring};
use crate::commands::interleave::schedule::Schedule;
use crate::commands::interleave::setup::Setup;
use crate::commands::interleave::{Configuration, OnLostWorker};
use crate::document::run::{Metric, Row};
use crate::error::Error;
use crate::judge::matrix::{self, Evidence, Given, Observed};
use crate::output::deliver;
use crate::output::progress::Progress;
use options::MatrixOptions;

/// `yardstick matrix` with the arguments after its name.
pub(crate) fn run(args: Vec<std::ffi::OsString>) -> Result<i32, Error> {
    main(&MatrixOptions::parse(args)?)
}

/// Measures the configurations `o` names; returns the exit code (1 when a
/// cell failed).
pub(crate) fn main(o: &MatrixOptions) -> Result<i32, Error> {
    let configurations = o.configurations()?;
    // Neither --html nor --save may write over the file or a binary.
    let inputs = configurations.iter().map(|c| c.path.clone());
    let page = o.common.page(o.file.clone().into_iter().chain(inputs))?;
    // Counts do not hang on the CPU, and callgrind runs one thread: a
    // counted matrix is not pinned.
    let pin = o.metric == Metric::Time;
    let setup = Setup::new(&o.common, o.seed, o.cpu, pin)?;
    let measurement = match o.metric {
        Metric::Time => timed(o, &configurations, &setup)?,
        metric => counted::measure(o, &configurations, metric)?,
    };
    if let Some(why) = matrix::base_gave_nothing(&measurement.given) {
        return Err(Error::input(why));
    }
    let judged = matrix::judge(&measurement.given, o.metric);
    let run = report::run(o, &configurations, setup, measurement, judged);
    page.draw_then("yardstick matrix", run, None, |run| {
        deliver::deliver(run, &o.common.delivery())
    })
}

/// What a matrix measured: each configuration as the rule takes it, the
/// base's rows for the saved run, and each timed probe's samples a round.
struct Measurement {
    given: Vec<Given>,
    rows: Vec<Row>,
    samples_per_round: Vec<(String, usize)>,
}

/// The configurations in interleaved rounds on fresh worker sets.
fn timed(
    o: &MatrixOptions,
    configurations: &[Configuration],
    setup: &Setup,
) -> Result<Measurement, Error> {
    let launcher = Launcher {
        configurations,
        sampling: &o.sampling,
    };
    let first = launcher.first_set(OnLostWorker::FailConfiguration)?;
    let schedule = Schedule::new(o.sampling.rounds, o.sets);
    let measuring = Measuring {
        sampling: &o.sampling,
        schedule: &schedule,
        launcher: &launcher,
        on_lost: OnLostWorker::FailConfiguration,
        rng: fastrand::Rng::with_seed(setup.seed),
        measured: Measured::new(&first, o.sampling.repeat),
    };
    let steps = schedule.steps(measuring.measured.timed.len());
    let mut progress = Progress::new(steps, o.common.quiet);
    let Measured {
        timed,
        entries,
        lost,
    } = measuring.run(first.workers, &mut progress)?;
    progress.finish();
    let given = given(configurations, &entries, lost);
    let rows = entries
        .into_iter()
        .next()
        .unwrap_or_default()
        .into_iter()
        .map(|(name, entry)| {
            let batch = timed.iter().find(|t| t.name == name).map(|t| t.batch);
            entry.into_row(name, batch)
        })
        .collect();
    Ok(Measurement {
        given,
        rows,
        samples_per_round: timed.into_iter().map(|t| (t.name, t.per_round)).collect(),
    })
}

/// Each configuration's entries as the rule takes them.
fn given(
    configurations: &[Configuration],
    entries: &[Entries],
    lost: Vec<Option<String>>,
) -> Vec<Given> {
    let observed = |entry: &Entry| Observed {
        evidence: Evidence::Rounds(entry.series.clone()),
        checksum: entry.checksum,
        failure: entry.failure().map(str::to_string),
    };
    configurations
        .iter()
        .zip(entries)
        .zip(lost)
        .map(|((c, entries), lost)| Given {
            name: c.name.clone(),
            probes: entries
                .iter()
                .map(|(name, entry)| (name.clone(), observed(entry)))
                .collect(),
            lost,
        })
        .collect()
}
