//! A probe of a paired comparison (`compare-builds`) drawn: where each
//! build's rounds lay, the change of each round the two builds took back
//! to back, grouped by worker pair, and the signed-rank test the verdict
//! rests on.

use super::Page;
use super::chart::{Distribution, PairedChange, Pairs, Series};
use crate::document::check::{Check, Figure, PairedRound};
use crate::document::comparison::Comparison;
use crate::error::Error;
use crate::judge::paired::{self, ALPHA, pair_figures};
use crate::output::layout::significant;

/// The paired check of `key` with its rounds, and the threshold it was
/// judged by; `None` unless the comparison is paired and kept them (runs
/// saved before they were kept have none).
pub fn kept<'a>(comparison: &'a Comparison, key: &str) -> Option<(&'a Check, f64)> {
    let check = comparison
        .checks
        .iter()
        .find(|k| k.key == key && k.metric == Figure::PairedMedianRatio && !k.rounds.is_empty())?;
    Some((check, comparison.threshold))
}

/// Both builds' rounds, each round's change, and the test in words.
pub fn draw(page: &mut Page, check: &Check, threshold_pct: f64) -> Result<(), Error> {
    let key = &check.key;
    let figures = |label: &str, baseline: bool, f: fn(&PairedRound) -> f64| Series {
        label: label.to_string(),
        samples: check.rounds.iter().map(f).collect(),
        baseline,
    };
    let builds = Distribution {
        unit: "ms per iteration, each round's median".to_string(),
        series: vec![
            figures("old build", true, |r| r.baseline),
            figures("new build", false, |r| r.current),
        ],
    };
    if let Some(svg) = builds.svg()? {
        page.chart(&format!("{key}: every round of each build"), &svg);
    }
    let pairs = Pairs {
        threshold_pct,
        rounds: check
            .rounds
            .iter()
            .map(|r| PairedChange {
                pair: r.pair,
                round: r.round,
                pct: (r.current / r.baseline - 1.0) * 100.0,
            })
            .collect(),
    };
    if let Some(svg) = pairs.svg()? {
        page.chart(
            &format!("{key}: the new build against the old, round by round"),
            &svg,
        );
    }
    page.paragraph(&test_result(check), true);
    Ok(())
}

/// The signed-rank test in words: over how many pairs, its p-value, and
/// what that means for the verdict.
fn test_result(check: &Check) -> String {
    let pairs = pair_figures(&check.rounds).len();
    let rounds = check.rounds.len();
    let (p, agree) = match check.p_value {
        Some(p) => (
            format!("p = {}", significant(p, 3)),
            if paired::significant(p, ALPHA) {
                format!("below {ALPHA}: the pairs agree on a slowdown")
            } else {
                format!("not below {ALPHA}: the pairs do not agree on a slowdown")
            },
        ),
        None => ("no p-value".to_string(), "no verdict".to_string()),
    };
    format!(
        "Dots: each of the {rounds} rounds, in the colour of its worker pair (the colours \
         alternate); bars: each pair's median, the one figure a pair gives, since the rounds \
         of one pair of processes share its offset; dashed: the threshold. The exact \
         one-sided Wilcoxon signed-rank test over the {pairs} pairs' figures gives {p}, \
         {agree}."
    )
}
