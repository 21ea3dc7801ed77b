//! A kernel run drawn: its comparison, the in-process probes as a micro
//! run's (with their memory), then the whole processes: each figure of
//! a process probe beside its floor, the empty child's same figure, which
//! is what a process costs before the kernel does anything.

use super::Page;
use super::chart::{Distribution, Series};
use crate::document::row::{Row, RowKind};
use crate::document::run::Run;
use crate::error::Error;
use crate::judge::figure::FLOOR;
use crate::output::layout::significant;
use std::collections::BTreeMap;

/// Draws `run`, judged as [`super::micro::draw`] says.
pub fn draw(page: &mut Page, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    super::comparison::draw(page, run, baseline)?;
    for row in run.rows.iter().filter(|r| r.kind != RowKind::Process) {
        super::micro::probe(page, run, row, baseline)?;
    }
    processes(page, run)
}

/// One chart per figure (`boot`, `process`, ...): every process probe's
/// children, the floor's first.
fn processes(page: &mut Page, run: &Run) -> Result<(), Error> {
    let mut by_figure: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
    for row in run.rows.iter().filter(|r| r.kind == RowKind::Process) {
        let (probe, figure) = row.key.split_once('.').unwrap_or((&row.key, ""));
        let rows = by_figure.entry(figure).or_default();
        if probe == FLOOR {
            rows.insert(0, row);
        } else {
            rows.push(row);
        }
    }
    if by_figure.is_empty() {
        return Ok(());
    }
    page.subheading("Whole processes, against their floor");
    page.paragraph(
        "Each child process timed from outside, in milliseconds; the floor is the empty \
         child's same figure, what a process costs before the kernel does anything.",
        true,
    );
    for (figure, rows) in by_figure {
        let series = rows
            .iter()
            .map(|r| Series {
                label: r.key.clone(),
                samples: r.samples.clone(),
                baseline: r.key.starts_with(&format!("{FLOOR}.")),
            })
            .collect();
        let chart = Distribution {
            unit: "ms per child".to_string(),
            series,
        };
        if let Some(svg) = chart.svg()? {
            page.chart(&format!("process figure {figure}"), &svg);
        }
        let table: Vec<Vec<String>> = rows.iter().map(|r| cells(r)).collect();
        page.table(
            &[
                "row",
                "children",
                "median (ms)",
                "p95 (ms)",
                "peak RSS (KiB)",
                "note",
            ],
            &table,
            &["children", "median (ms)", "p95 (ms)", "peak RSS (KiB)"],
        );
    }
    Ok(())
}

fn cells(r: &Row) -> Vec<String> {
    let ms = |v: Option<f64>| v.map(|v| significant(v, 4)).unwrap_or_default();
    vec![
        r.key.clone(),
        r.figures.n.to_string(),
        ms(r.figures.median),
        ms(r.figures.p95),
        r.peak_rss
            .map(|b| (b / 1024).to_string())
            .unwrap_or_default(),
        r.note.clone(),
    ]
}
