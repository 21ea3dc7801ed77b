//! The history: every run kept in a database, to list, show and follow
//! over time (`yardstick history`, `--record`).
//!
//! One interface, [`Store`], over the back ends: SQLite, embedded, a file
//! under the target folder by default (`sqlite/`), and PostgreSQL for
//! teams (`postgres/`). Each implements a `Backend` (how it writes a run
//! and runs a query); the questions are written once, over it. The tables are the
//! same on every back end (`schema.rs`), and so are the questions
//! (`query.rs`). A run is stored whole, as the text it was saved as, with
//! the columns it is selected by ([`Entry`]); its id is the hash of that
//! text, so the same run added twice, or by two jobs at once, is stored
//! once.

#![warn(missing_docs)]

pub mod changes;
pub mod entry;
pub mod keeping;
pub mod location;
mod postgres;
pub mod query;
mod row;
mod schema;
mod sqlite;
mod write;

pub use entry::Entry;
pub use location::Location;
pub use query::{Figure, Filter, Listing, Point};

// The crates below, by the names the rest of yardstick gives them.
use yardstick_document as document;
use yardstick_document::{error, text};
use yardstick_stats as stats;

use crate::error::Error;

/// What adding a run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// The run is new to the history.
    New,
    /// A run of the same text was there already; nothing changed.
    Already,
}

/// A run found by its id.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// The whole id.
    pub id: String,
    /// The run's text, byte for byte as it was added.
    pub text: String,
}

/// A history, whatever holds it. Every write is one transaction: a writer
/// killed halfway leaves the history as it was.
pub trait Store {
    /// Adds a run; a run already there is left as it is.
    fn add(&mut self, entry: &Entry) -> Result<Added, Error>;
    /// The run whose id starts with `prefix`: an error when none or
    /// several do.
    fn find(&mut self, prefix: &str) -> Result<Stored, Error>;
    /// The runs `filter` selects, newest first.
    fn list(&mut self, filter: &Filter) -> Result<Vec<Listing>, Error>;
    /// `figure` of the row `key` in the runs `filter` selects that have
    /// it, oldest first (with a limit, the newest that many).
    fn trend(&mut self, key: &str, figure: Figure, filter: &Filter) -> Result<Vec<Point>, Error>;
}

/// Opens a history that is there already, to read: a SQLite file that
/// does not exist is an error naming it, not a new empty history.
pub fn open_existing(location: &Location) -> Result<Box<dyn Store>, Error> {
    if !exists(location) {
        return Err(Error::input(format!(
            "{}: no history there (runs are kept with --record, or history add)",
            location.shown()
        )));
    }
    match location {
        Location::Sqlite(path) => Ok(Box::new(sqlite::Sqlite::open(path, false)?)),
        Location::Postgres(_) => open(location),
    }
}

/// What can be known of a history before a run is measured to go into
/// it: a SQLite file is opened (a corrupt file or a newer schema is
/// refused then, costing no run); a server's URL and environment are read
/// but it is not yet reached, so a server that is down when the run ends
/// costs the record, never the run's saved file.
pub fn check(location: &Location) -> Result<(), Error> {
    match location {
        Location::Sqlite(path) => sqlite::Sqlite::open(path, true).map(drop),
        Location::Postgres(url) => postgres::check(url),
    }
}

/// Whether there is a history at `location` (a server is assumed to be).
pub fn exists(location: &Location) -> bool {
    match location {
        Location::Sqlite(path) => path.exists(),
        Location::Postgres(_) => true,
    }
}

/// Opens the history at `location`, creating it (and upgrading its
/// tables) when needed.
pub fn open(location: &Location) -> Result<Box<dyn Store>, Error> {
    match location {
        Location::Sqlite(path) => Ok(Box::new(sqlite::Sqlite::open(path, true)?)),
        Location::Postgres(url) => Ok(Box::new(postgres::Postgres::open(url)?)),
    }
}

/// What each back end does its own way: write a run, and run a query.
/// The questions every back end asks alike ([`Store`]'s `find`, `list`
/// and `trend`) are written once, over it.
trait Backend {
    /// How the history is named in messages.
    fn shown(&self) -> &str;
    /// The SQL placeholder of the `n`th value (`?1`, `$1`).
    fn placeholder(n: usize) -> String;
    /// Adds a run in one transaction.
    fn record(&mut self, entry: &Entry) -> Result<Added, Error>;
    /// The rows `statement` selects.
    fn select<T: row::FromRow>(&mut self, statement: &query::Statement) -> Result<Vec<T>, Error>;
}

impl<B: Backend> Store for B {
    fn add(&mut self, entry: &Entry) -> Result<Added, Error> {
        self.record(entry)
    }

    fn find(&mut self, prefix: &str) -> Result<Stored, Error> {
        let statement = query::find(prefix, B::placeholder)
            .map_err(|m| Error::usage(format!("{}: {m}", self.shown())))?;
        let found: Vec<Stored> = self.select(&statement)?;
        match <[Stored; 1]>::try_from(found) {
            Ok([one]) => Ok(one),
            Err(found) => Err(not_one(self.shown(), prefix, found.len())),
        }
    }

    fn list(&mut self, filter: &Filter) -> Result<Vec<Listing>, Error> {
        self.select(&filter.list(B::placeholder))
    }

    fn trend(&mut self, key: &str, figure: Figure, filter: &Filter) -> Result<Vec<Point>, Error> {
        self.select(&query::trend(key, figure, filter, B::placeholder))
    }
}

/// The error for an id that no run, or several, start with.
fn not_one(shown: &str, prefix: &str, found: usize) -> Error {
    if found == 0 {
        Error::input(format!("{shown}: no run has the id {prefix}"))
    } else {
        Error::input(format!(
            "{shown}: several runs have ids starting {prefix}; give more digits"
        ))
    }
}

#[cfg(test)]
mod tests;
