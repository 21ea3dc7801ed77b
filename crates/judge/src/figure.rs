//! The figure a check judges, computed from rows in one place: a comparison
//! reads it from the run, and the confirmation of a regression from the
//! rows measured again, so the two can never judge different figures.

use crate::document::comparison::Figure;
use crate::document::run::{Row, RowKind, Run};

/// The floor's name: its rows are `empty.boot` and `empty.process`.
pub const FLOOR: &str = "empty";

/// The rows a figure is read among (a process row's floor is one of
/// them), and the calibration loop's median they were timed beside.
#[derive(Debug, Clone, Copy)]
pub struct Among<'a> {
    /// Every row measured with the one judged.
    pub rows: &'a [Row],
    /// The loop's median, C, in micro mode.
    pub calibration: Option<f64>,
}

impl<'a> Among<'a> {
    /// The rows of `run`, with its loop.
    pub fn run(run: &'a Run) -> Among<'a> {
        Among {
            rows: &run.rows,
            calibration: run.calibration_median(),
        }
    }
}

/// `figure` of `row`, measured among `among`; `None` when the row has no
/// such figure (no samples, no floor).
pub fn of(figure: &Figure, row: &Row, among: Among) -> Option<f64> {
    match figure {
        // Recomputed from the samples: a stored `normalized` field may be
        // stale or edited, so it is never trusted.
        Figure::MedianPerCalibration => row.normalized_median(among.calibration?),
        Figure::Median => row.figures.median,
        Figure::MedianPerFloor => {
            let (_, phase) = floor_phase(row)?;
            Some(row.figures.median? / floor_median(among.rows, phase)?)
        }
        _ => None,
    }
}

/// The probe and phase of a process probe's `boot` or `process` row.
pub(crate) fn floor_phase(row: &Row) -> Option<(&str, &str)> {
    if row.kind != RowKind::Process {
        return None;
    }
    let (probe, phase) = row.key.split_once('.')?;
    matches!(phase, "boot" | "process").then_some((probe, phase))
}

/// The floor's median for `phase` among `rows`, if it has a positive one.
pub(crate) fn floor_median(rows: &[Row], phase: &str) -> Option<f64> {
    let key = format!("{FLOOR}.{phase}");
    rows.iter()
        .find(|r| r.key == key)
        .and_then(|r| r.figures.median)
        .filter(|m| *m > 0.0)
}
