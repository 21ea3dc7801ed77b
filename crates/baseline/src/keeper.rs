//! Where a bench keeps its runs, and the history a run is recorded in.
//!
//! A bench keeps every timed run for the next run of its class to compare
//! with. By itself it keeps them as files, the newest `KEPT` of each class
//! ([`Files`]); the crate yardstick-history offers a [`Keeper`] that keeps
//! them all in a history, and with it `--record`, `--history` and
//! `--baseline=history`. A bench links it by naming it
//! (`yardstick::main!(my_crate, yardstick_history)`), as it links the
//! report, and the `yardstick` command always does. The history is a crate
//! apart because SQLite's C library declares `links = "sqlite3"`, which
//! would clash with a user's own, so a bench never builds it unless asked.

use super::Baseline;
use super::history::{Bench, Last};
use crate::document::run::{Metric, Mode, Run};
use crate::error::Error;
use std::path::PathBuf;

/// What keeps a bench's runs and records runs in a history. Submitted as a
/// [`Keeping`] with `inventory::submit!` by the crate that keeps; with two
/// linked, which keeps is not defined, so link one.
pub trait Keeper: Sync {
    /// Where `run` will be kept, as the run's delivery says it before it
    /// is kept (`as FILE`, `in the history H`).
    fn place(&self, bench: &Bench, run: &Run) -> String;

    /// Where `bench` keeps runs of `class`, as messages name it.
    fn location(&self, bench: &Bench, class: &str) -> String;

    /// The newest run `bench` kept on `class` (`None`: unknown) that a
    /// timed run can be compared with.
    fn last(&self, bench: &Bench, class: Option<&str>) -> Result<Option<Last>, Error>;

    /// Keeps `run`, which is a run a bench keeps (see `history::keepable`).
    fn keep(&self, bench: &Bench, run: &Run) -> Result<(), Error>;

    /// `--baseline=history[:N]`: the baseline of the last `n` runs like a
    /// run of `kind` about to be made here, by `bench` when a bench makes
    /// it, in the history `option` names (else the default one).
    fn history_baseline(
        &self,
        n: usize,
        option: Option<&str>,
        kind: (Mode, Metric),
        bench: Option<&str>,
    ) -> Result<FromHistory, Error>;

    /// Checks `--history`'s value as it is read.
    fn check_location(&self, value: &str) -> Result<(), Error>;

    /// Refuses, before anything is measured, a record that could not be
    /// made.
    fn check(&self, record: &Record) -> Result<(), Error>;

    /// The file of the history that `record` names or the default one,
    /// whether or not the run is recorded in it: no page may replace it.
    fn history_file(&self, record: &Record) -> Option<PathBuf>;

    /// Adds `run` to the history when `record` asks or one is configured.
    fn record(&self, run: &Run, record: &Record) -> Result<(), Error>;
}

/// What was asked of the history for a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// `--record`: add the run to the history (it always is when
    /// `YARDSTICK_HISTORY` configures one). The run is saved and printed
    /// first, so a history that cannot be reached loses nothing but the
    /// record, and says so in one line (exit 2).
    pub asked: bool,
    /// `--history`'s value, checked when it was given.
    pub history: Option<String>,
}

impl Record {
    /// Refuses, before anything is measured, a record that could not be
    /// made: by a bench that keeps no history, or to a history that is
    /// known not to take it.
    pub fn check(&self) -> Result<(), Error> {
        keeper().check(self)
    }

    /// The file of the history `--history`, `YARDSTICK_HISTORY` or the
    /// default names, whether or not this run is recorded in it: a bench
    /// keeps its runs there and `--baseline=history` reads it, so no page
    /// may replace it.
    pub fn history_file(&self) -> Option<PathBuf> {
        keeper().history_file(self)
    }
}

/// A [`Keeper`] offered to the binary it is linked into.
pub struct Keeping(pub &'static dyn Keeper);

crate::probe::inventory::collect!(Keeping);

/// The keeper linked into this binary, else [`Files`].
pub fn keeper() -> &'static dyn Keeper {
    crate::probe::inventory::iter::<Keeping>
        .into_iter()
        .next()
        .map_or(&Files, |k| k.0)
}

/// What the history gave for `--baseline=history`.
pub enum FromHistory {
    /// A baseline.
    Baseline(Box<Baseline>),
    /// Too few runs, and why, in a line.
    TooFew(String),
}

/// Runs kept as files, and no history: what a bench keeps by itself.
pub struct Files;

/// The usage error of an option that needs a history, in a bench that
/// links none.
fn without_history(option: &str) -> Error {
    Error::usage(format!(
        "{option}: this bench keeps no history: link the crate yardstick-history \
         (`yardstick::main!(..., yardstick_history)`); the yardstick binary has it"
    ))
}

impl Keeper for Files {
    fn place(&self, bench: &Bench, run: &Run) -> String {
        format!("as {}", bench.file_for(run).display())
    }

    fn location(&self, bench: &Bench, class: &str) -> String {
        bench.kept(class).display().to_string()
    }

    fn last(&self, bench: &Bench, class: Option<&str>) -> Result<Option<Last>, Error> {
        Ok(bench.last_file(class))
    }

    fn keep(&self, bench: &Bench, run: &Run) -> Result<(), Error> {
        bench.keep_file(run)
    }

    fn history_baseline(
        &self,
        _n: usize,
        _option: Option<&str>,
        _kind: (Mode, Metric),
        _bench: Option<&str>,
    ) -> Result<FromHistory, Error> {
        Err(without_history("--baseline=history"))
    }

    fn check_location(&self, _value: &str) -> Result<(), Error> {
        Err(without_history("--history"))
    }

    fn check(&self, record: &Record) -> Result<(), Error> {
        if record.asked {
            return Err(without_history("--record"));
        }
        Ok(())
    }

    fn history_file(&self, _record: &Record) -> Option<PathBuf> {
        None
    }

    /// A configured history cannot be written: a warning, and the run
    /// goes on.
    fn record(&self, _run: &Run, _record: &Record) -> Result<(), Error> {
        if std::env::var_os("YARDSTICK_HISTORY").is_some_and(|v| !v.is_empty()) {
            eprintln!(
                "warning: YARDSTICK_HISTORY is set, but this bench keeps no history (link the \
                 crate yardstick-history): the run is not recorded"
            );
        }
        Ok(())
    }
}
