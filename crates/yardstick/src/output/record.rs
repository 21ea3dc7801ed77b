//! Recording a finished run in the history: asked with `--record`, or
//! always when `YARDSTICK_HISTORY` configures one. The run is saved and
//! printed first, so a history that cannot be reached loses nothing but
//! the record, and says so in one line (exit 2).

use crate::document::run::Run;
use crate::error::Error;

/// What was asked of the history for a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// `--record`.
    pub asked: bool,
    /// `--history`'s value, checked when it was given.
    pub history: Option<String>,
}

/// Checks `--history`'s value as it is read.
pub(crate) fn check_location(value: &str) -> Result<(), Error> {
    #[cfg(feature = "history")]
    {
        crate::history::Location::from_option(value).map(drop)
    }
    #[cfg(not(feature = "history"))]
    {
        let _ = value;
        Err(without_history("--history"))
    }
}

#[cfg(not(feature = "history"))]
fn without_history(option: &str) -> Error {
    Error::usage(format!(
        "{option}: this build has no history (build it with the feature `history`; \
         the yardstick binary has it)"
    ))
}

impl Record {
    /// Refuses, before anything is measured, a record that could not be
    /// made: without the history in this build, or to a history that is
    /// known not to take it (see `history::check`).
    pub fn check(&self) -> Result<(), Error> {
        #[cfg(not(feature = "history"))]
        if self.asked {
            return Err(without_history("--record"));
        }
        #[cfg(feature = "history")]
        if let Some(location) = self.location()? {
            crate::history::check(&location)?;
        }
        Ok(())
    }

    /// The SQLite file of the history `--history`, `YARDSTICK_HISTORY` or
    /// the default names, whether or not this run is recorded in it: a
    /// bench keeps its runs there and `--baseline=history` reads it, so no
    /// page may replace it.
    pub fn history_file(&self) -> Option<std::path::PathBuf> {
        #[cfg(feature = "history")]
        if let Ok(crate::history::Location::Sqlite(path)) =
            crate::history::Location::chosen(self.history.as_deref(), || {
                crate::baseline::history::Bench::this_program().home
            })
        {
            return Some(path);
        }
        None
    }

    /// The history the run goes to, when it is recorded.
    #[cfg(feature = "history")]
    fn location(&self) -> Result<Option<crate::history::Location>, Error> {
        use crate::history::Location;
        if !self.asked && Location::from_env().is_none() {
            return Ok(None);
        }
        Location::chosen(self.history.as_deref(), || {
            crate::baseline::history::Bench::this_program().home
        })
        .map(Some)
    }
}

/// Adds `run` to the history when asked or configured; a line on stderr
/// says where, and under which id.
#[cfg(feature = "history")]
pub(crate) fn record(run: &Run, record: &Record) -> Result<(), Error> {
    use crate::history::{self, Added, Entry};
    let Some(location) = record.location()? else {
        return Ok(());
    };
    let text = crate::document::store::saved_text(run);
    let repository = crate::document::environment::repository_dir();
    let branch = crate::document::environment::branch_of(&repository).unwrap_or_default();
    let mut entry = Entry::new(text, run, &branch);
    // A bench's run is recorded under the bench's name, as its loop keeps
    // it: the same run, in the same history, is then one.
    let program = std::env::current_exe().unwrap_or_default();
    if let Some(bench) = crate::baseline::history::Bench::cargo_built(&program) {
        entry.columns.bench = bench.name;
    }
    let added = history::open(&location)?.add(&entry)?;
    let how = match added {
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

/// Without the history a configured one cannot be written: a warning, and
/// the run goes on.
#[cfg(not(feature = "history"))]
pub(crate) fn record(_run: &Run, _record: &Record) -> Result<(), Error> {
    if std::env::var_os("YARDSTICK_HISTORY").is_some_and(|v| !v.is_empty()) {
        eprintln!(
            "warning: YARDSTICK_HISTORY is set, but this build has no history (the feature \
             `history`): the run is not recorded"
        );
    }
    Ok(())
}
