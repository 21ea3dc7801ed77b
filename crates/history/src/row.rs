//! A result row, read the same way from every back end: each SELECT's
//! columns are named here, beside the reader that takes them in order.

use super::Stored;
use super::query::{Listing, Point};

/// A back end's result row, read by column index.
pub(crate) trait Row {
    type Error;
    fn text(&self, i: usize) -> Result<String, Self::Error>;
    fn int(&self, i: usize) -> Result<i64, Self::Error>;
    fn real(&self, i: usize) -> Result<f64, Self::Error>;
}

/// What a row is read into.
pub(crate) trait FromRow: Sized {
    fn read<R: Row>(r: &R) -> Result<Self, R::Error>;
}

/// The columns a [`Listing`] is read from, in order, over `runs`.
pub(crate) const LISTING_COLUMNS: &str = "runs.id, runs.started, runs.tool, runs.mode, \
     runs.metric, runs.machine_class, runs.git_commit, runs.branch, runs.count_setup, \
     runs.bench, (SELECT COUNT(*) FROM yardstick_figures figures \
     WHERE figures.run_id = runs.id)";

/// The columns a [`Point`] is read from, in order; its value follows.
pub(crate) const POINT_COLUMNS: &str = "runs.id, runs.started, runs.git_commit, runs.branch, runs.machine_class, runs.count_setup, \
     runs.injected";

/// The columns a [`Stored`] is read from.
pub(crate) const STORED_COLUMNS: &str = "id, text";

impl FromRow for Listing {
    fn read<R: Row>(r: &R) -> Result<Listing, R::Error> {
        Ok(Listing {
            id: r.text(0)?,
            started: r.text(1)?,
            tool: r.text(2)?,
            mode: r.text(3)?,
            metric: r.text(4)?,
            machine_class: r.text(5)?,
            git_commit: r.text(6)?,
            branch: r.text(7)?,
            count_setup: r.text(8)?,
            bench: r.text(9)?,
            rows: u64::try_from(r.int(10)?).unwrap_or(0),
        })
    }
}

impl FromRow for Point {
    fn read<R: Row>(r: &R) -> Result<Point, R::Error> {
        Ok(Point {
            id: r.text(0)?,
            started: r.text(1)?,
            git_commit: r.text(2)?,
            branch: r.text(3)?,
            machine_class: r.text(4)?,
            count_setup: r.text(5)?,
            injected: r.text(6)?,
            value: r.real(7)?,
        })
    }
}

impl FromRow for Stored {
    fn read<R: Row>(r: &R) -> Result<Stored, R::Error> {
        Ok(Stored {
            id: r.text(0)?,
            text: r.text(1)?,
        })
    }
}
