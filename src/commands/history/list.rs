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

const COLUMNS: [&str; 8] = [
    "id", "started", "mode", "metric", "class", "commit", "branch", "rows",
];

fn fields(l: &Listing) -> [String; 8] {
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

fn json(listed: &[Listing]) -> String {
    let all: Vec<serde_json::Value> = listed
        .iter()
        .map(|l| {
            serde_json::json!({
                "id": l.id, "started": l.started, "tool": l.tool, "mode": l.mode,
                "metric": l.metric, "machine_class": l.machine_class,
                "git_commit": l.git_commit, "branch": l.branch, "rows": l.rows,
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&all).unwrap_or_default();
    text.push('\n');
    text
}

fn csv(listed: &[Listing]) -> Result<String, Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = [
        "id",
        "started",
        "tool",
        "mode",
        "metric",
        "machine_class",
        "git_commit",
        "branch",
        "rows",
    ];
    let mut write = |record: &[String]| {
        w.write_record(record)
            .map_err(|e| Error::input(format!("csv: {e}")))
    };
    write(&header.map(str::to_string))?;
    for l in listed {
        write(&[
            l.id.clone(),
            l.started.clone(),
            l.tool.clone(),
            l.mode.clone(),
            l.metric.clone(),
            l.machine_class.clone(),
            l.git_commit.clone(),
            l.branch.clone(),
            l.rows.to_string(),
        ])?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::input(format!("csv: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
