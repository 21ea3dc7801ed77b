//! An HTTP run drawn: its comparison, the A/B table of `--compare`, then
//! per page and server how its requests' times spread, with the status
//! and cache answers counted.

use super::Page;
use super::chart::Histogram;
use crate::document::row::Row;
use crate::document::run::Run;
use crate::error::Error;
use crate::output::http_table;
use crate::output::layout::ms;

/// Draws `run`, judged as [`super::micro::draw`] says.
pub fn draw(page: &mut Page, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    super::comparison::draw(page, run, baseline)?;
    servers(page, run);
    super::say_undrawn(page, run);
    for row in super::drawn_rows(run) {
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
    let rate = |v: Option<f64>| v.map_or("-".to_string(), http_table::rate);
    let rows: Vec<Vec<String>> = pairs
        .iter()
        .map(|p| {
            vec![
                p.name.clone(),
                p.base.clone(),
                p.other.clone(),
                ms(p.base_median),
                ms(p.other_median),
                http_table::ratio(p.median_ratio),
                rate(p.base_rps),
                rate(p.other_rps),
                http_table::ratio(p.rps_ratio),
            ]
        })
        .collect();
    // The terminal's A/B table, with the page as a column.
    let numbers = [
        "A median",
        "B median",
        "B/A",
        "A req/s",
        "B req/s",
        "B/A req/s",
    ];
    let header = [
        "page", "A", "B", numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5],
    ];
    page.table(&header, &rows, &numbers);
}

/// Times a chart of bucketed times is drawn from: more than a chart's
/// bins can tell apart.
const DRAWN_FROM_BUCKETS: usize = 10_000;

/// One page of one server: its requests' times as a histogram, and what
/// the server answered.
fn one(page: &mut Page, row: &Row) -> Result<(), Error> {
    page.subheading(&row.key);
    if let Some(url) = &row.page.url {
        page.paragraph(url, true);
    }
    // A row of more requests than it kept one by one has its times in
    // buckets: drawn from times at evenly spaced ranks, the same shape.
    let (samples, title) = match &row.histogram {
        Some(buckets) if row.samples.is_empty() => (
            buckets.representatives(DRAWN_FROM_BUCKETS),
            "every request's time, from its buckets",
        ),
        _ => (row.samples.clone(), "every request's time"),
    };
    let histogram = Histogram {
        unit: "ms per request".to_string(),
        samples,
    };
    if let Some(svg) = histogram.svg()? {
        page.chart(&format!("{}: {title}", row.key), &svg);
    }
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
        vec![
            "requests per second".into(),
            row.rps.map_or("-".into(), http_table::rate),
        ],
        vec!["bytes per response".into(), ms(row.page.bytes)],
        vec!["status".into(), http_table::counts(&row.page.status)],
        vec!["cache".into(), http_table::counts(&row.page.cache)],
    ];
    // A figure the row has not (`-`), or answers it had none of, left out.
    rows.retain(|r| !r[1].is_empty() && r[1] != "-");
    for (kind, n) in row.page.failures.iter().flat_map(|f| f.kinds()) {
        if n > 0 {
            rows.push(vec![format!("failed: {kind}"), n.to_string()]);
        }
    }
    for (message, n) in &row.error_messages {
        rows.push(vec![format!("error: {message}"), n.to_string()]);
    }
    if row.page.overloaded {
        page.paragraph(
            "Overloaded: more requests failed than --max-failures allows. The times and \
             req/s are what the server sustained for the requests it answered, and no \
             comparison judges them as a speed.",
            false,
        );
    }
    page.table(&["figure", "value"], &rows, &["value"]);
    Ok(())
}
