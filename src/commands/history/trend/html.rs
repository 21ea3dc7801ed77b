//! `history trend --html`: the trend as a chart, with the band of the
//! runs before the newest, and its table, in one self-contained file.

use super::{NONE, Point, before_newest, columns, rows, summary};
use crate::document::store;
use crate::error::Error;
use crate::history::{Figure, Location};
use crate::output::layout::Align;
use crate::report::Page;
use crate::report::chart::{Band, Trend};
use std::path::Path;

/// Refuses, before the history is read, a file that could not be written,
/// and the history itself, which the page would replace.
pub(super) fn check(path: &Path, history: &Location) -> Result<(), Error> {
    if let Location::Sqlite(db) = history {
        store::check_distinct(path, "--html", &[db])?;
    }
    store::check_writable(path)
}

/// The most runs the page's table lists, the newest: the chart has them
/// all, and a page of thousands of rows is read by nobody.
const TABLE_ROWS: usize = 100;

/// What the shading means.
const BAND: &str = "Shaded: the range of the runs before the newest; the blue line: their median.";

/// Writes the page of the trend `heading` says, of `figure` over `points`.
pub(super) fn save(
    path: &Path,
    heading: &str,
    figure: Figure,
    points: &[Point],
) -> Result<(), Error> {
    let mut page = Page::new(heading);
    if points.is_empty() {
        page.paragraph(NONE.trim_end(), false);
    } else {
        let trend = Trend {
            unit: unit(figure).to_string(),
            points: points.iter().map(|p| (label(p), p.value)).collect(),
            band: before_newest(points).map(|(_, s)| Band {
                low: s.min,
                median: s.median,
                high: s.max,
            }),
        };
        if let Some(svg) = trend.svg()? {
            page.chart(heading, &svg);
            if trend.band.is_some() {
                page.paragraph(BAND, true);
            }
        }
        page.paragraph(summary(points).trim_end(), false);
        let mut rows = rows(points);
        if rows.len() > TABLE_ROWS {
            page.paragraph(
                &format!(
                    "The table gives the newest {TABLE_ROWS} of the {} runs; --csv gives them all.",
                    rows.len()
                ),
                true,
            );
            rows.drain(..rows.len() - TABLE_ROWS);
        }
        let columns = columns(figure);
        let header: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
        let numbers: Vec<&str> = columns
            .iter()
            .filter(|(_, align)| *align == Align::Right)
            .map(|(name, _)| *name)
            .collect();
        page.table(&header, &rows, &numbers);
    }
    page.save(path, &crate::report::command_line())?;
    eprintln!("report: {}", path.display());
    Ok(())
}

/// A run's label under the chart: its commit, else its start.
fn label(p: &Point) -> String {
    if p.git_commit.is_empty() {
        p.started.get(5..16).unwrap_or(&p.started).to_string()
    } else {
        p.git_commit.chars().take(7).collect()
    }
}

/// What the vertical axis counts.
fn unit(figure: Figure) -> &'static str {
    match figure {
        Figure::Median => "median (ms)",
        Figure::P95 => "p95 (ms)",
        Figure::P99 => "p99 (ms)",
        Figure::XCalib => "x calib",
        Figure::Instructions => "instructions per iteration",
        Figure::EstimatedCycles => "estimated cycles per iteration",
        Figure::Rps => "requests per second",
    }
}
