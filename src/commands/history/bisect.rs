//! `yardstick history bisect PROBE`: the first commit, on the first-parent
//! line, whose step in the figure still stands (the rule:
//! `history::changes::first_standing`, over the change points that
//! `history changes` lists).

use super::changes::{change_json, change_row, change_table};
use super::options::HistoryOptions;
use crate::error::Error;
use crate::history::changes::{self, Step};
use crate::history::{Figure, Point};
use crate::output::Format;
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
    let text = if json {
        self::json(&key, figure, &steps, &found)
    } else {
        table(&key, figure, &rev, &steps, &found)
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
    found: &[changes::Change],
) -> String {
    let bisected = changes::first_standing(found);
    let mut out = format!(
        "{key}: {} on the first-parent line of {rev}: {} commits with runs, {} (PELT, as \
         `history changes` lists them)\n",
        figure.name(),
        steps.len(),
        match found.len() {
            1 => "1 change".to_string(),
            n => format!("{n} changes"),
        },
    );
    let Some(first) = bisected.first else {
        out.push_str(if found.is_empty() {
            "no change found\n"
        } else {
            "none: every change was taken back\n"
        });
        return out;
    };
    out.push_str("the first that stands:\n");
    let mut t = change_table();
    t.push(change_row(key, figure, first, steps));
    out.push_str(&t.render());
    out.push_str(&format!(
        "first bad commit: {} (last good: {})\n",
        steps[first.first_bad].commit, steps[first.last_good].commit
    ));
    for (step, back) in &bisected.passed_over {
        out.push_str(&format!(
            "passed over: the step at {} ({}), taken back at {}\n",
            steps[step.first_bad].commit,
            crate::output::layout::change((step.after / step.before - 1.0) * 100.0),
            steps[back.first_bad].commit,
        ));
    }
    out
}

fn json(key: &str, figure: Figure, steps: &[Step], found: &[changes::Change]) -> String {
    let bisected = changes::first_standing(found);
    let commits: Vec<serde_json::Value> = steps
        .iter()
        .map(|s| serde_json::json!({ "commit": s.commit, "value": s.value }))
        .collect();
    let passed_over: Vec<serde_json::Value> = bisected
        .passed_over
        .iter()
        .map(|(step, back)| {
            serde_json::json!({ "change": change_json(step, steps), "taken_back_by": change_json(back, steps) })
        })
        .collect();
    let document = serde_json::json!({
        "key": key, "figure": figure.name(),
        "commits": commits,
        "changes": found.len(),
        "first_standing": bisected.first.map(|c| change_json(c, steps)),
        "passed_over": passed_over,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
