//! `yardstick history bisect PROBE`: the commit, on the first-parent line,
//! that took the figure to where it is now (the rule:
//! `history::changes::first_standing`, over the change points that
//! `history changes` lists).

use super::changes::{change_json, change_row, change_table};
use super::options::HistoryOptions;
use crate::error::Error;
use crate::history::changes::{self, Step};
use crate::history::{Figure, Point};
use crate::output::Format;
use crate::output::layout::change;
use crate::stats::Summary;
use std::collections::HashMap;

pub(super) fn main(mut options: HistoryOptions) -> Result<i32, Error> {
    let [key] = options.operands.as_slice() else {
        return Err(Error::usage(super::BISECT.usage));
    };
    let key = key.to_string_lossy().into_owned();
    let json = match options.common.format {
        Format::Table => false,
        Format::Json => true,
        Format::Csv => {
            return Err(Error::usage(
                "--format: bisect prints a table or JSON, not CSV",
            ));
        }
    };
    let rev = options.rev.clone().unwrap_or_else(|| "HEAD".to_string());
    let line = super::git::first_parent(&rev)?;
    super::read_commits(&mut options)?;
    let (mut history, _) = super::open(&options)?;
    let figure = super::trend::scope(&mut options, history.as_mut(), &key)?;
    let points = history.trend(&key, figure, &options.filter)?;
    let steps = on_line(&line, &points);
    let counted = matches!(figure, Figure::Instructions | Figure::EstimatedCycles);
    let found = changes::find(&steps, counted);
    let values: Vec<f64> = steps.iter().map(|s| s.value).collect();
    let bisected = changes::first_standing(&values, &found, counted);
    let text = if json {
        self::json(&key, figure, &steps, found.len(), &bisected)
    } else {
        table(&key, figure, &rev, &steps, found.len(), &bisected)
    };
    super::print(options.common.format, &text);
    Ok(0)
}

/// The commits of `line` (oldest first) that have runs, each with the
/// median of its runs' figures. A run's commit may be abbreviated (7
/// digits or more).
pub(super) fn on_line(line: &[String], points: &[Point]) -> Vec<Step> {
    let mut by_prefix: HashMap<&str, Vec<&str>> = HashMap::new();
    for full in line {
        by_prefix
            .entry(&full[..full.len().min(7)])
            .or_default()
            .push(full);
    }
    let mut values: HashMap<&str, Vec<f64>> = HashMap::new();
    for p in points {
        // Shorter than 7 digits (or not hex at all): on no line.
        let Some(head) = p.git_commit.get(..7) else {
            continue;
        };
        let candidates = by_prefix.get(head).into_iter().flatten();
        if let Some(full) = candidates
            .into_iter()
            .find(|f| f.starts_with(&p.git_commit))
        {
            values.entry(full).or_default().push(p.value);
        }
    }
    line.iter()
        .filter_map(|commit| {
            let median = Summary::of(values.get(commit.as_str())?)?.median;
            Some(Step {
                commit: commit.clone(),
                value: median,
            })
        })
        .collect()
}

fn table(
    key: &str,
    figure: Figure,
    rev: &str,
    steps: &[Step],
    found: usize,
    bisected: &changes::Bisected<'_>,
) -> String {
    let mut out = format!(
        "{key}: {} on the first-parent line of {rev}: {} commits with runs, {} (PELT, as \
         `history changes` lists them)\n",
        figure.name(),
        steps.len(),
        match found {
            1 => "1 change".to_string(),
            n => format!("{n} changes"),
        },
    );
    if let Some(net) = bisected.net {
        let interval = net.interval.map_or_else(String::new, |i| {
            format!(
                " [{}, {}]",
                change((i.low - 1.0) * 100.0),
                change((i.high - 1.0) * 100.0)
            )
        });
        out.push_str(&format!(
            "now against the line's first level: {}{interval}\n",
            change((net.ratio - 1.0) * 100.0)
        ));
    }
    match bisected.first {
        None if found == 0 => out.push_str("no change found\n"),
        None => out.push_str("none: the figure is back where the line began\n"),
        Some(first) => {
            out.push_str("the change that took it there:\n");
            let mut t = change_table();
            t.push(change_row(key, figure, first, steps));
            out.push_str(&t.render());
            out.push_str(&format!(
                "first bad commit: {} (last good: {})\n",
                steps[first.first_bad].commit, steps[first.last_good].commit
            ));
        }
    }
    for step in &bisected.passed_over {
        out.push_str(&format!(
            "passed over: the step at {} ({}), which did not last\n",
            steps[step.first_bad].commit,
            change((step.after / step.before - 1.0) * 100.0),
        ));
    }
    out
}

fn json(
    key: &str,
    figure: Figure,
    steps: &[Step],
    found: usize,
    bisected: &changes::Bisected<'_>,
) -> String {
    let commits: Vec<serde_json::Value> = steps
        .iter()
        .map(|s| serde_json::json!({ "commit": s.commit, "value": s.value }))
        .collect();
    let passed_over: Vec<serde_json::Value> = bisected
        .passed_over
        .iter()
        .map(|c| change_json(c, steps))
        .collect();
    let document = serde_json::json!({
        "key": key, "figure": figure.name(),
        "commits": commits,
        "changes": found,
        "net": bisected.net.map(|n| serde_json::json!({ "ratio": n.ratio, "interval": n.interval })),
        "first_standing": bisected.first.map(|c| change_json(c, steps)),
        "passed_over": passed_over,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
