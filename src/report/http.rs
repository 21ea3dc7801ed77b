//! An HTTP run drawn: its comparison, the A/B table of `--compare`, then
//! per page and server how its requests' times spread, with the status
//! and cache answers counted.

use super::Page;
use super::chart::Histogram;
use crate::document::row::Row;
use crate::document::run::Run;
use crate::error::Error;
use crate::output::layout::significant;
use std::collections::BTreeMap;

/// Draws `run`, judged as [`super::micro::draw`] says.
pub fn draw(page: &mut Page, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    super::comparison::draw(page, run, baseline)?;
    servers(page, run);
    for row in &run.rows {
        one(page, row)?;
    }
    Ok(())
}

/// `--compare`'s table: each server against the first, page by page.
fn servers(page: &mut Page, run: &Run) {
    let Some(pairs) = run.server_pairs.as_ref().filter(|p| !p.is_empty()) else {
        return;
    };
    page.subheading("Servers side by side");
    let fig = |v: Option<f64>| v.map(|v| significant(v, 4)).unwrap_or_default();
    let ratio = |v: Option<f64>| {
        v.map(|v| format!("×{}", significant(v, 3)))
            .unwrap_or_default()
    };
    let rows: Vec<Vec<String>> = pairs
        .iter()
        .map(|p| {
            vec![
                p.name.clone(),
                p.base.clone(),
                p.other.clone(),
                fig(p.base_median),
                fig(p.other_median),
                ratio(p.median_ratio),
                fig(p.base_rps),
                fig(p.other_rps),
                ratio(p.rps_ratio),
            ]
        })
        .collect();
    let numbers = [
        "median A (ms)",
        "median B (ms)",
        "B/A",
        "req/s A",
        "req/s B",
        "B/A req/s",
    ];
    let header = [
        "page", "A", "B", numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5],
    ];
    page.table(&header, &rows, &numbers);
}

/// One page of one server: its requests' times as a histogram, and what
/// the server answered.
fn one(page: &mut Page, row: &Row) -> Result<(), Error> {
    page.subheading(&row.key);
    if let Some(url) = &row.page.url {
        page.paragraph(url, true);
    }
    let histogram = Histogram {
        unit: "ms per request".to_string(),
        samples: row.samples.clone(),
    };
    if let Some(svg) = histogram.svg()? {
        page.chart(&format!("{}: every request's time", row.key), &svg);
    }
    let ms = |v: Option<f64>| v.map(|v| significant(v, 4)).unwrap_or_default();
    let counted = |m: &BTreeMap<String, u64>| {
        m.iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut rows = vec![
        vec!["requests".into(), row.requests.to_string()],
        vec!["errors".into(), row.errors.to_string()],
        vec!["median (ms)".into(), ms(row.figures.median)],
        vec!["p95 (ms)".into(), ms(row.figures.p95)],
        vec!["p99 (ms)".into(), ms(row.figures.p99)],
        vec![
            "time to first byte, median (ms)".into(),
            ms(row.page.ttfb_median),
        ],
        vec!["requests per second".into(), ms(row.rps)],
        vec!["bytes per response".into(), ms(row.page.bytes)],
        vec!["status".into(), counted(&row.page.status)],
        vec!["cache".into(), counted(&row.page.cache)],
    ];
    rows.retain(|r| !r[1].is_empty());
    for (message, n) in &row.error_messages {
        rows.push(vec![format!("error: {message}"), n.to_string()]);
    }
    page.table(&["figure", "value"], &rows, &["value"]);
    Ok(())
}
