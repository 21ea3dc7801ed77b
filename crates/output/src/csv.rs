//! CSV: one line per row (or per comparison check), for spreadsheets.
//!
//! A text field comes from the run, which may be anybody's file, and a
//! spreadsheet runs a cell starting `=`, `+`, `-` or `@` as a formula: such
//! a text field gets a leading `'`, the usual defence, which spreadsheets
//! hide. Numbers are never touched: `-3.5` stays a number. Every text field
//! is quoted (numbers are not), so no line can start with a field's own
//! text, such as a `::` workflow command in a CI log.

use super::Render;
use crate::document::comparison::Comparison;
use crate::document::figures::Figures;
use crate::document::run::Run;
use crate::text::clean;

pub(crate) struct CsvFormat;

/// The columns before a row's figures.
const FIRST_COLUMNS: &[&str] = &["key", "kind", "name", "n"];

/// The columns after them.
const LATER_COLUMNS: &[&str] = &[
    "batch",
    "requests",
    "errors",
    "ops",
    "rps",
    "normalized",
    "note",
    "target",
    "url",
    "ttfb_median",
    "bytes",
    "server",
    "tool",
    "allocs",
    "reallocs",
    "alloc_bytes",
    "peak_bytes",
];

fn num(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// A text field as written: [`clean`]ed, and kept from being a formula.
fn text(v: &str) -> String {
    let v = clean(v);
    if v.starts_with(['=', '+', '-', '@']) {
        format!("'{v}")
    } else {
        v.into_owned()
    }
}

fn write(records: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut w = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::NonNumeric)
        .from_writer(Vec::new());
    for record in records {
        // Writing into memory cannot fail.
        let _ = w.write_record(&record);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

impl Render for CsvFormat {
    fn run(&self, run: &Run) -> String {
        let figures = Figures::default();
        let header = (FIRST_COLUMNS.iter().copied())
            .chain(figures.named().map(|(name, _)| name))
            .chain(LATER_COLUMNS.iter().copied())
            .map(str::to_string)
            .collect();
        let rows = run.rows.iter().map(|r| {
            let mut record = vec![
                text(&r.key),
                format!("{:?}", r.kind).to_lowercase(),
                text(&r.name),
                r.figures.n.to_string(),
            ];
            record.extend(r.figures.named().map(|(_, value)| num(value)));
            record.extend([
                r.batch.map(|b| b.to_string()).unwrap_or_default(),
                r.requests.to_string(),
                r.errors.to_string(),
                r.ops.map(|o| o.to_string()).unwrap_or_default(),
                num(r.rps),
                num(run.x_calib(r)),
                text(&r.note),
                text(r.page.target.as_deref().unwrap_or_default()),
                text(r.page.url.as_deref().unwrap_or_default()),
                num(r.page.ttfb_median),
                num(r.page.bytes),
                text(r.page.server.as_deref().unwrap_or_default()),
                text(r.page.tool.as_deref().unwrap_or_default()),
            ]);
            let memory = r.memory.map(|m| [m.allocs, m.reallocs, m.bytes, m.peak]);
            record.extend((0..4).map(|i| memory.map(|m| m[i].to_string()).unwrap_or_default()));
            record
        });
        write(std::iter::once(header).chain(rows))
    }

    fn comparison(&self, c: &Comparison) -> String {
        let header = [
            "key",
            "metric",
            "baseline",
            "current",
            "change_pct",
            "regressed",
        ];
        let rows = c.checks.iter().map(|k| {
            vec![
                text(&k.key),
                text(k.metric.as_str()),
                k.baseline.to_string(),
                k.current.to_string(),
                k.change_pct.to_string(),
                k.regressed().to_string(),
            ]
        });
        write(std::iter::once(header.iter().map(|h| h.to_string()).collect()).chain(rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_quoted_and_numbers_are_not() {
        let out = write([vec![
            "a,b".to_string(),
            "say \"hi\"".to_string(),
            "plain".to_string(),
            "-3.5".to_string(),
            "12".to_string(),
        ]]);
        assert_eq!(out, "\"a,b\",\"say \"\"hi\"\"\",\"plain\",-3.5,12\n");
    }

    #[test]
    fn text_that_a_spreadsheet_would_run_is_escaped_and_numbers_are_not() {
        for (given, written) in [
            ("=1+1", "'=1+1"),
            ("+x", "'+x"),
            ("-cmd", "'-cmd"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("a=b", "a=b"),
            ("x\n::error::y", "x\u{FFFD}::error::y"),
        ] {
            assert_eq!(text(given), written);
        }
        let mut c = Comparison::default();
        c.checks.push(crate::document::comparison::Check::new(
            "=HYPERLINK(1)",
            crate::document::comparison::Figure::MedianPerCalibration,
            1.0,
            0.5,
            -50.0,
            crate::document::comparison::Verdict::Ok,
        ));
        let out = CsvFormat.comparison(&c);
        let line = out.lines().nth(1).unwrap_or_default();
        assert_eq!(
            line,
            "\"'=HYPERLINK(1)\",\"median/calib\",1,0.5,-50,\"false\""
        );
    }
}
