//! The history as a bench's keeper: the runs `cargo bench` keeps
//! ([`kept`]) and `--baseline=history` ([`recorded`]), offered to the
//! baselines as a [`Keeper`], and `--record`, offered to the output as a
//! [`Recorder`]. A bench that names this crate
//! (`yardstick::main!(my_crate, yardstick_history)`) links it; the
//! `yardstick` command always does.

pub mod kept;
pub mod recorded;

use crate::document::run::{Metric, Mode, Run};
use crate::error::Error;
use crate::{Added, Entry, Location};
use std::path::PathBuf;
use yardstick_baseline::history::{Bench, Last};
use yardstick_baseline::keeper::{FromHistory, Keeper, Keeping};
use yardstick_output::record::{Record, Recorder, Recording};

/// Keeps a bench's runs in the history, and records runs there.
struct History;

yardstick_probe::inventory::submit!(Keeping(&History));
yardstick_probe::inventory::submit!(Recording(&History));

/// The history `record` names (`--history`, else `YARDSTICK_HISTORY`,
/// else the one beside this program's kept runs).
fn chosen(record: &Record) -> Result<Location, Error> {
    Location::chosen(record.history.as_deref(), || Bench::this_program().home)
}

impl Keeper for History {
    fn place(&self, bench: &Bench, _run: &Run) -> String {
        format!("in the history {}", kept::location(bench).shown())
    }

    fn location(&self, bench: &Bench, _class: &str) -> String {
        kept::location(bench).shown()
    }

    fn last(&self, bench: &Bench, class: Option<&str>) -> Result<Option<Last>, Error> {
        kept::last(bench, class)
    }

    fn keep(&self, bench: &Bench, run: &Run) -> Result<(), Error> {
        kept::keep(bench, run)
    }

    fn history_baseline(
        &self,
        n: usize,
        option: Option<&str>,
        kind: (Mode, Metric),
        bench: Option<&str>,
    ) -> Result<FromHistory, Error> {
        let location = Location::chosen(option, || Bench::this_program().home)?;
        recorded::from_history(&location, n, kind, bench)
    }
}

impl Recorder for History {
    fn check_location(&self, value: &str) -> Result<(), Error> {
        Location::from_option(value).map(drop)
    }

    /// A history that is known not to take the run (see [`crate::check`])
    /// is refused before anything is measured.
    fn check(&self, record: &Record) -> Result<(), Error> {
        if record.asked || Location::from_env().is_some() {
            crate::check(&chosen(record)?)?;
        }
        Ok(())
    }

    fn history_file(&self, record: &Record) -> Option<PathBuf> {
        match chosen(record) {
            Ok(Location::Sqlite(path)) => Some(path),
            _ => None,
        }
    }

    /// A line on stderr says where, and under which id. A bench's run is
    /// recorded under the bench's name, as its loop keeps it: the same
    /// run, in the same history, is then one.
    fn record(&self, run: &Run, record: &Record) -> Result<(), Error> {
        if !record.asked && Location::from_env().is_none() {
            return Ok(());
        }
        let location = chosen(record)?;
        let text = crate::document::store::saved_text(run);
        let repository = crate::document::environment::repository_dir();
        let branch = crate::document::environment::branch_of(&repository).unwrap_or_default();
        let mut entry = Entry::new(text, run, &branch);
        let program = std::env::current_exe().unwrap_or_default();
        if let Some(bench) = Bench::cargo_built(&program) {
            entry.columns.bench = bench.name;
        }
        let how = match crate::open(&location)?.add(&entry)? {
            Added::New => "recorded in",
            Added::Already => "already in",
        };
        eprintln!(
            "{how} the history {} as {}",
            location.shown(),
            entry.short_id()
        );
        Ok(())
    }
}
