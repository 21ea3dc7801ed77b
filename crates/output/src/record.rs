//! Recording a delivered run in a history: asked with `--record`, or
//! always when `YARDSTICK_HISTORY` configures one. The run is saved and
//! printed first, so a history that cannot be reached loses nothing but
//! the record, and says so in one line (exit 2).
//!
//! The history is a crate of its own (yardstick-history), which offers a
//! [`Recorder`] to the binary it is linked into, as it offers the baselines
//! a `Keeper`; a bench links it by naming it in `main!`, and the
//! `yardstick` command always does. Without one, the options that need a
//! history are refused as they are read ([`NoHistory`]).

use crate::document::run::Run;
use crate::error::Error;
use std::path::PathBuf;

/// What was asked of the history for a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// `--record`: add the run to the history (it always is when
    /// `YARDSTICK_HISTORY` configures one).
    pub asked: bool,
    /// `--history`'s value, checked when it was given.
    pub history: Option<String>,
}

impl Record {
    /// Refuses, before anything is measured, a record that could not be
    /// made: by a bench that keeps no history, or to a history that is
    /// known not to take it.
    pub fn check(&self) -> Result<(), Error> {
        recorder().check(self)
    }

    /// The file of the history `--history`, `YARDSTICK_HISTORY` or the
    /// default names, whether or not this run is recorded in it: a bench
    /// keeps its runs there and `--baseline=history` reads it, so no page
    /// may replace it.
    pub fn history_file(&self) -> Option<PathBuf> {
        recorder().history_file(self)
    }

    /// Adds `run` to the history when asked or configured.
    pub fn record(&self, run: &Run) -> Result<(), Error> {
        recorder().record(run, self)
    }
}

/// What records runs in a history. Submitted as a [`Recording`] with
/// `inventory::submit!` by the crate that keeps the history; a binary with
/// two linked is refused before it runs ([`linked_once`]).
pub trait Recorder: Sync {
    /// Checks `--history`'s value as it is read.
    fn check_location(&self, value: &str) -> Result<(), Error>;

    /// Refuses, before anything is measured, a record that could not be
    /// made.
    fn check(&self, record: &Record) -> Result<(), Error>;

    /// The file of the history that `record` names or the default one.
    fn history_file(&self, record: &Record) -> Option<PathBuf>;

    /// Adds `run` to the history when `record` asks or one is configured;
    /// a line on stderr says where.
    fn record(&self, run: &Run, record: &Record) -> Result<(), Error>;
}

/// A [`Recorder`] offered to the binary it is linked into.
pub struct Recording(pub &'static dyn Recorder);

crate::probe::inventory::collect!(Recording);

/// Refuses a binary into which two recorders are linked: which history
/// `--record` adds a run to is not something the order of linking should
/// decide.
pub fn linked_once() -> Result<(), Error> {
    Error::linked_once(
        crate::probe::inventory::iter::<Recording>
            .into_iter()
            .count(),
        "recorders of runs (a crate such as yardstick-history)",
        "records its runs",
    )
}

/// The recorder linked into this binary (one: [`linked_once`]), else
/// [`NoHistory`].
pub fn recorder() -> &'static dyn Recorder {
    crate::probe::inventory::iter::<Recording>
        .into_iter()
        .next()
        .map_or(&NoHistory, |r| r.0)
}

/// No history linked: what a bench has by itself.
pub struct NoHistory;

impl NoHistory {
    /// The usage error of `option`, which needs a history.
    pub fn refuses(option: &str) -> Error {
        Error::usage(format!(
            "{option}: this bench keeps no history: link the crate yardstick-history \
             (`yardstick::main!(..., yardstick_history)`); the yardstick binary has it"
        ))
    }
}

impl Recorder for NoHistory {
    fn check_location(&self, _value: &str) -> Result<(), Error> {
        Err(NoHistory::refuses("--history"))
    }

    fn check(&self, record: &Record) -> Result<(), Error> {
        if record.asked {
            return Err(NoHistory::refuses("--record"));
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
