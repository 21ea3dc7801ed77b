//! `yardstick history list`: the kept runs, newest first, as a table, JSON
//! or CSV.

use super::options::HistoryOptions;
use crate::error::Error;
use crate::history::Listing;
use crate::output::Format;
use crate::output::layout::{Align, Table};

pub(super) fn main(mut options: HistoryOptions) -> Result<i32, Error> {
    if !options.operands.is_empty() {
        return Err(Error::usage(super::LIST.usage));
    }
    super::read_commits(&mut options)?;
    let (mut history, _) = super::open(&options)?;
    let listed = history.list(&options.filter)?;
    let text = match options.common.format {
        Format::Table => table(&listed),
        Format::Json => json(&listed),
        Format::Csv => csv(&listed)?,
    };
    super::print(options.common.format, &text);
    Ok(0)
}

const COLUMNS: [&str; 9] = [
    "id", "started", "mode", "metric", "class", "commit", "branch", "bench", "rows",
];

fn fields(l: &Listing) -> [String; 9] {
    let mode = if l.tool == crate::document::run::TOOL {
        l.mode.clone()
    } else {
        format!("{} ({})", l.mode, l.tool)
    };
    [
        l.short_id().to_string(),
        l.started.clone(),
        mode,
        l.metric.clone(),
        l.machine_class.clone(),
        l.git_commit.chars().take(12).collect(),
        l.branch.clone(),
        l.bench.clone(),
        l.rows.to_string(),
    ]
}

fn table(listed: &[Listing]) -> String {
    if listed.is_empty() {
        return "no run in the history matches\n".to_string();
    }
    let mut t = Table::new(&COLUMNS.map(|c| {
        let align = if c == "rows" {
            Align::Right
        } else {
            Align::Left
        };
        (c, align)
    }));
    for l in listed {
        t.push(fields(l).to_vec());
    }
    t.render()
}

/// Every field of each run, by the names of [`Listing`]'s fields.
fn json(listed: &[Listing]) -> String {
    let mut text = serde_json::to_string_pretty(listed).unwrap_or_default();
    text.push('\n');
    text
}

/// The same fields as the JSON, one run a line, under a header that
/// serde writes from [`Listing`]'s fields, also when no run matches.
fn csv(listed: &[Listing]) -> Result<String, Error> {
    let fail = |e: csv::Error| Error::input(format!("csv: {e}"));
    let none = [Listing::default()];
    let mut w = csv::Writer::from_writer(Vec::new());
    for l in if listed.is_empty() { &none[..] } else { listed } {
        w.serialize(l).map_err(fail)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::input(format!("csv: {e}")))?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if listed.is_empty() {
        return Ok(text
            .lines()
            .next()
            .map(|h| format!("{h}\n"))
            .unwrap_or_default());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_header_names_the_fields_a_run_would_have() {
        let one = Listing {
            id: "a".into(),
            rows: 3,
            ..Listing::default()
        };
        let full = csv(&[one]).unwrap();
        let empty = csv(&[]).unwrap();
        assert_eq!(full.lines().next(), empty.lines().next());
        assert_eq!(empty.lines().count(), 1);
        assert!(empty.starts_with("id,started,tool,"), "{empty}");
    }
}
