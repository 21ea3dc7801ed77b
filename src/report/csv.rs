//! CSV: one line per row (or per comparison check), for spreadsheets.

use super::Render;
use crate::comparison::Comparison;
use crate::run::Run;

pub struct CsvFormat;

const RUN_COLUMNS: &[&str] = &[
    "key",
    "kind",
    "name",
    "n",
    "min",
    "mean",
    "median",
    "p90",
    "p95",
    "p99",
    "max",
    "stddev",
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
];

fn num(v: Option<f64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

fn write(records: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for record in records {
        // Writing into memory cannot fail.
        let _ = w.write_record(&record);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

impl Render for CsvFormat {
    fn run(&self, run: &Run) -> String {
        let header = RUN_COLUMNS.iter().map(|c| c.to_string()).collect();
        let rows = run.rows.iter().map(|r| {
            vec![
                r.key.clone(),
                format!("{:?}", r.kind).to_lowercase(),
                r.name.clone(),
                r.n.to_string(),
                num(r.min),
                num(r.mean),
                num(r.median),
                num(r.p90),
                num(r.p95),
                num(r.p99),
                num(r.max),
                num(r.stddev),
                r.batch.map(|b| b.to_string()).unwrap_or_default(),
                r.requests.to_string(),
                r.errors.to_string(),
                r.ops.map(|o| o.to_string()).unwrap_or_default(),
                num(r.rps),
                num(r.normalized),
                r.note.clone(),
                r.target.clone().unwrap_or_default(),
                r.url.clone().unwrap_or_default(),
                num(r.ttfb_median),
                num(r.bytes),
                r.server.clone().unwrap_or_default(),
                r.tool.clone().unwrap_or_default(),
            ]
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
                k.key.clone(),
                k.metric.clone(),
                k.baseline.to_string(),
                k.current.to_string(),
                k.change_pct.to_string(),
                k.regressed.to_string(),
            ]
        });
        write(std::iter::once(header.iter().map(|h| h.to_string()).collect()).chain(rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_where_needed() {
        let text = write([vec![
            "a,b".to_string(),
            "say \"hi\"".to_string(),
            "plain".to_string(),
        ]]);
        assert_eq!(text, "\"a,b\",\"say \"\"hi\"\"\",plain\n");
    }
}
