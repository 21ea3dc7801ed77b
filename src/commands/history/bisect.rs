//! `yardstick history bisect PROBE`: the first commit, on the first-parent
//! line, whose figure left the band of the commits before it (the rule:
//! `history::band`).

use super::options::HistoryOptions;
use crate::commands::flags::Number;
use crate::error::Error;
use crate::history::band::{self, Band, Finding, Step};
use crate::history::{Figure, Point};
use crate::output::Format;
use crate::output::layout::{change, significant};
use crate::stats::Summary;
use std::collections::HashMap;

/// `--window`: the commits before a commit whose band it is judged by.
pub(super) const WINDOW: Number = Number {
    default: 5,
    min: 1,
    max: 1000,
};
/// The narrowest wall-time band: ± 2 % of the median.
const FLOOR: f64 = 0.02;

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
    let window = options.window.unwrap_or(WINDOW.default_usize());
    let counted = matches!(figure, Figure::Instructions | Figure::EstimatedCycles);
    let rule = if counted {
        Band::Exact
    } else {
        Band::Spread { floor: FLOOR }
    };
    let found = band::first_outside(&steps, window, rule);
    let text = if json {
        self::json(&key, figure, &steps, window, found.as_ref())
    } else {
        table(&key, figure, &rev, &steps, window, rule, found.as_ref())
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
    window: usize,
    rule: Band,
    found: Option<&Finding>,
) -> String {
    let how = match rule {
        Band::Exact => "the range of their figures (counts are exact)".to_string(),
        Band::Spread { floor } => format!(
            "their median ± {} scaled MADs, at least ± {} %",
            band::SPREADS,
            floor * 100.0
        ),
    };
    let mut out = format!(
        "{key}: {} on the first-parent line of {rev}: {} commits with runs; each judged by the \
         {window} before it, {how}\n",
        figure.name(),
        steps.len()
    );
    match found {
        None if steps.len() <= window => out.push_str(&format!(
            "too few commits with runs to judge one: the first is judged after {window}\n"
        )),
        None => out.push_str("no commit left the band of the ones before it\n"),
        Some(f) => {
            let step = &steps[f.at];
            let median = (f.low + f.high) / 2.0;
            let moved = if median != 0.0 {
                format!(
                    " ({} from the band's middle)",
                    change((step.value / median - 1.0) * 100.0)
                )
            } else {
                String::new()
            };
            out.push_str(&format!(
                "first to leave it: {}: {} against {} to {}{moved}\n",
                step.commit,
                significant(step.value, 4),
                significant(f.low, 4),
                significant(f.high, 4)
            ));
        }
    }
    out
}

fn json(
    key: &str,
    figure: Figure,
    steps: &[Step],
    window: usize,
    found: Option<&Finding>,
) -> String {
    let commits: Vec<serde_json::Value> = steps
        .iter()
        .map(|s| serde_json::json!({ "commit": s.commit, "value": s.value }))
        .collect();
    let first = found.map(|f| {
        serde_json::json!({
            "commit": steps[f.at].commit, "value": steps[f.at].value,
            "band": [f.low, f.high],
        })
    });
    let document = serde_json::json!({
        "key": key, "figure": figure.name(), "window": window,
        "commits": commits, "first_outside": first,
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
