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

/// What a ring means.
const RINGED: &str = "Ringed in amber in the chart, marked * in the table: runs made with an \
     injected slowdown (YARDSTICK_INJECT), worse on purpose.";

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
            points: labels(points)
                .into_iter()
                .zip(points)
                .map(|(label, p)| (label, p.value))
                .collect(),
            band: before_newest(points).map(|(_, s)| Band {
                low: s.min,
                median: s.median,
                high: s.max,
            }),
            ringed: points
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.injected.is_empty())
                .map(|(i, _)| i)
                .collect(),
        };
        if let Some(svg) = trend.svg()? {
            page.chart(heading, &svg);
            if trend.band.is_some() {
                page.paragraph(BAND, true);
            }
        }
        if points.iter().any(|p| !p.injected.is_empty()) {
            page.paragraph(RINGED, true);
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

/// The runs' labels under the chart: their commits when each run has one
/// of its own, else when they started (`12-06 21:33:13`), so that runs of
/// one commit (a series measured again and again) are told apart.
fn labels(points: &[Point]) -> Vec<String> {
    let commits: std::collections::HashSet<&str> =
        points.iter().map(|p| p.git_commit.as_str()).collect();
    let own_commits = commits.len() == points.len() && !commits.contains("");
    points
        .iter()
        .map(|p| {
            if own_commits {
                p.git_commit.chars().take(7).collect()
            } else {
                p.started
                    .get(5..19)
                    .map_or_else(|| p.started.clone(), |t| t.replacen('T', " ", 1))
            }
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn point(commit: &str, started: &str) -> Point {
        Point {
            id: String::new(),
            started: started.to_string(),
            git_commit: commit.to_string(),
            branch: String::new(),
            machine_class: String::new(),
            count_setup: String::new(),
            injected: String::new(),
            value: 1.0,
        }
    }

    #[test]
    fn runs_of_one_commit_are_labelled_by_their_start() {
        let a = point("0123456789ab", "2026-12-06T21:33:13Z");
        let b = point("fedcba987654", "2026-12-06T21:40:02Z");
        assert_eq!(labels(&[a.clone(), b.clone()]), ["0123456", "fedcba9"]);
        let again = point("0123456789ab", "2026-12-06T21:45:59Z");
        assert_eq!(
            labels(&[a, b, again]),
            ["12-06 21:33:13", "12-06 21:40:02", "12-06 21:45:59"]
        );
        assert_eq!(labels(&[point("", "x")]), ["x"]);
    }
}
