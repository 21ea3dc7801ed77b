//! Rendering runs and comparisons. One small file per output format behind
//! one trait, so adding a format never touches the runner; plus the GitHub
//! annotations and job summary, which CI reads beside the chosen format,
//! and the delivery of a finished run ([`deliver`]): printed, saved,
//! annotated and recorded, then its exit code.

#![warn(missing_docs)]

pub mod attribution;
pub mod colour;
mod csv;
pub mod deliver;
pub mod github;
pub mod http_table;
mod json;
pub mod layout;
pub mod markdown;
pub mod matrix;
pub mod progress;
#[cfg(test)]
pub(crate) mod properties;
pub mod ranking;
pub mod record;
pub mod stdout;
pub mod table;
pub mod verdict;
pub mod width;

// The crates below, by the names the rest of yardstick gives them.
use yardstick_document as document;
use yardstick_document::{error, text};
use yardstick_judge as judge;
use yardstick_measure as measure;
use yardstick_probe as probe;
use yardstick_probe::fs;
use yardstick_stats as stats;

use crate::document::comparison::Comparison;
use crate::document::run::Run;

/// How a run is printed on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned columns for people.
    #[default]
    Table,
    /// The run document.
    Json,
    /// One line per row, for spreadsheets.
    Csv,
}

/// An output format for stdout.
pub trait Render {
    /// A whole run (with its comparison, when it has one).
    fn run(&self, run: &Run) -> String;
    /// A comparison alone (`yardstick compare`).
    fn comparison(&self, comparison: &Comparison) -> String;
}

/// The renderer of a format. `all_checks`: list every check of a
/// comparison in the table, not only the regressions.
pub fn renderer(format: Format, all_checks: bool) -> Box<dyn Render> {
    match format {
        Format::Table => Box::new(table::TableFormat { all_checks }),
        Format::Json => Box::new(json::JsonFormat),
        Format::Csv => Box::new(csv::CsvFormat),
    }
}

/// The one-line description of a run's set-up, shared by the table and the
/// job summary.
pub fn header(run: &Run) -> String {
    let e = &run.environment;
    let mut parts = vec![
        format!("yardstick {}", run.mode.as_str()),
        e.date.replace('T', " ").replace('Z', " UTC"),
    ];
    match &e.imported {
        // Another tool's build: what it said of itself, not rustc's.
        Some(imported) => parts.push(imported.describe()),
        None => parts.extend([
            if e.rustc.is_empty() {
                "rustc ?".to_string()
            } else {
                e.rustc.clone()
            },
            format!("{} (opt-level {})", e.profile, e.opt_level),
            format!(
                "debug assertions {}",
                if e.debug_assertions { "on" } else { "off" }
            ),
        ]),
    }
    if e.cpus > 0 {
        parts.push(format!("{} CPUs", e.cpus));
    }
    parts.push(format!("class {}", e.class_name()));
    if let Some([a, b, c]) = e.load {
        parts.push(format!("load {a:.2} {b:.2} {c:.2}"));
    }
    parts.push(match e.git_commit.get(..12) {
        _ if e.git_commit.is_empty() => "commit -".to_string(),
        Some(short) => format!("commit {short}"),
        None => format!("commit {}", e.git_commit),
    });
    if !e.ci.is_empty() {
        parts.push(format!("ci {}", e.ci));
    }
    // Every part but the mode comes from the run, which may be a saved
    // file from anywhere.
    crate::text::cleaned(&parts.join(" · "))
}
