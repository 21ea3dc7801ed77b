//! Where a bench keeps its runs.
//!
//! A bench keeps every timed run for the next run of its class to compare
//! with. By itself it keeps them as files, the newest `KEPT` of each class
//! ([`Files`]); the crate yardstick-history offers a [`Keeper`] that keeps
//! them all in a history, and with it `--baseline=history` (and, to the
//! output, a recorder for `--record`). A bench links it by naming it
//! (`yardstick::main!(my_crate, yardstick_history)`), as it links the
//! report, and the `yardstick` command always does. The history is a crate
//! apart because SQLite's C library declares `links = "sqlite3"`, which
//! would clash with a user's own, so a bench never builds it unless asked.

use super::Baseline;
use super::history::{Bench, Last};
use crate::document::run::{Metric, Mode, Run};
use crate::error::Error;

/// What keeps a bench's runs and records runs in a history. Submitted as a
/// [`Keeping`] with `inventory::submit!` by the crate that keeps; a binary
/// with two linked is refused before it runs ([`linked_once`]).
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
}

/// A [`Keeper`] offered to the binary it is linked into.
pub struct Keeping(pub &'static dyn Keeper);

crate::probe::inventory::collect!(Keeping);

/// Refuses a binary into which two keepers are linked: which of them would
/// keep its runs, and which its `--baseline=history` would read, is not
/// something the order of linking should decide.
pub fn linked_once() -> Result<(), Error> {
    Error::linked_once(
        crate::probe::inventory::iter::<Keeping>.into_iter().count(),
        "keepers of runs (a crate such as yardstick-history)",
        "keeps its runs",
    )
}

/// The keeper linked into this binary (one: [`linked_once`]), else
/// [`Files`].
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
        Err(Error::usage(
            "--baseline=history: this bench keeps no history: link the crate \
             yardstick-history (`yardstick::main!(..., yardstick_history)`); the yardstick \
             binary has it",
        ))
    }
}
