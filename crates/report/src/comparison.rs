//! A comparison drawn, whatever the kind of run: the verdict and the notes
//! it rests on in the terminal's words, every check judged by the
//! threshold as a bar with its interval, and every check in a table.

use super::Page;
use super::chart::{Change, Changes};
use crate::document::check::{Check, Figure as Judged, Reason, Verdict};
use crate::document::comparison::Comparison;
use crate::document::row::Row;
use crate::document::run::Run;
use crate::error::Error;
use crate::judge::paired::pair_figures;
use crate::output::layout::{change, check_value};
use crate::output::{table, verdict};
use crate::stats::bootstrap::{self, Interval};
use std::collections::HashMap;

/// The verdict, the notes it rests on, and every check as a bar.
pub fn draw(page: &mut Page, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    let lines = verdict::lines(run);
    let Some(c) = &run.comparison else {
        page.subheading("Verdict");
        if lines.is_empty() {
            let said = if run.matrix.is_some() || run.ranking.is_some() {
                "No baseline: nothing was judged against an earlier run; the table above \
                 sets them side by side."
            } else {
                "No baseline: nothing was judged."
            };
            page.paragraph(said, true);
        }
        for line in &lines {
            page.paragraph(line, false);
        }
        return Ok(());
    };
    page.subheading("Against the baseline");
    for line in &lines {
        page.paragraph(line, false);
    }
    for line in table::comparison_notes(c).lines() {
        page.paragraph(line, true);
    }
    // Rows by key once: a lookup per check must not scan the run.
    let (ours, theirs) = (by_key(run), baseline.map(by_key).unwrap_or_default());
    let bounded = bounded_checks(c);
    let intervals: Vec<Option<Interval>> = c
        .checks
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let at_hand = (run, &ours, baseline.map(|b| (b, &theirs)));
            bounded[i].then(|| interval(at_hand, k)).flatten()
        })
        .collect();
    bars(page, c, &intervals, &bounded)?;
    checks(page, c, &intervals);
    super::attribution::moved(page, c);
    if let Some(e) = &run.explanation {
        super::attribution::explanation(page, e, c);
    }
    Ok(())
}

/// The rows of `run` by key.
fn by_key(run: &Run) -> HashMap<&str, &Row> {
    run.rows.iter().map(|row| (row.key.as_str(), row)).collect()
}

/// Which checks are drawn as bars and given an interval: all, or the
/// [`super::MAX_DRAWN`] flagged or changed most.
fn bounded_checks(c: &Comparison) -> Vec<bool> {
    let n = c.checks.len();
    if n <= super::MAX_DRAWN {
        return vec![true; n];
    }
    let mut order: Vec<usize> = (0..n).collect();
    let key = |i: usize| {
        let k = &c.checks[i];
        let change = if k.change_pct.is_finite() {
            k.change_pct.abs()
        } else {
            f64::MAX
        };
        (k.regressed() || k.inconclusive(), change)
    };
    order.sort_by(|&a, &b| {
        let ((fa, ca), (fb, cb)) = (key(a), key(b));
        fb.cmp(&fa).then(cb.total_cmp(&ca)).then(a.cmp(&b))
    });
    let mut kept = vec![false; n];
    for i in order.into_iter().take(super::MAX_DRAWN) {
        kept[i] = true;
    }
    kept
}

/// Every check (or the bounded ones) as a bar against the threshold.
fn bars(
    page: &mut Page,
    c: &Comparison,
    intervals: &[Option<Interval>],
    bounded: &[bool],
) -> Result<(), Error> {
    // Allocations and errors are judged by rules of their own, not by the
    // threshold the chart marks: they are in the table below it.
    let by_threshold = |k: &&Check| {
        !matches!(
            k.metric,
            Judged::Allocs | Judged::Errors | Judged::ErrorRate
        )
    };
    let changes = Changes {
        threshold_pct: c.threshold,
        rows: c
            .checks
            .iter()
            .zip(intervals)
            .zip(bounded)
            .filter(|((k, _), drawn)| **drawn && by_threshold(k))
            .map(|((k, i), _)| Change {
                label: label(k),
                pct: worse_pct(k),
                interval: i.map(|i| (i.low, i.high)),
                // A regression of a comparison given as information fails
                // nothing (`Comparison::failed`): drawn amber, not red.
                verdict: if k.regressed() && c.informational {
                    Verdict::Inconclusive(Reason::Machine)
                } else {
                    k.verdict
                },
            })
            .collect(),
    };
    if let Some(svg) = changes.svg()? {
        page.chart(
            "the change of every check judged by the threshold, worse to the right",
            &svg,
        );
        page.paragraph(
            &format!(
                "Bars: the change, red when it regressed, amber without a verdict; whiskers: \
                 its 95 % interval (a bootstrap of the rounds or requests, or of the worker \
                 pairs' figures for paired builds); dashed: the threshold{}.",
                c.min_delta
                    .filter(|d| *d > 0.0)
                    .map(|d| format!(
                        ", which a time passes only when it also grew by {d} ms (a grey bar \
                         beyond it did not)"
                    ))
                    .unwrap_or_default()
            ),
            true,
        );
    }
    Ok(())
}

/// Every check in the terminal's words, with its interval.
/// A check's first cells in a table: what, which figure, baseline, now
/// and the change.
pub(crate) fn check_cells(k: &Check) -> Vec<String> {
    vec![
        k.key.clone(),
        k.metric.to_string(),
        check_value(&k.metric, k.baseline),
        check_value(&k.metric, k.current),
        change(k.change_pct),
    ]
}

fn checks(page: &mut Page, c: &Comparison, intervals: &[Option<Interval>]) {
    let rows: Vec<Vec<String>> = c
        .checks
        .iter()
        .zip(intervals)
        .map(|(k, i)| {
            let mut cells = check_cells(k);
            cells.push(
                i.map(|i| format!("{} to {}", change(i.low), change(i.high)))
                    .unwrap_or_default(),
            );
            cells.push(k.verdict.explained());
            cells
        })
        .collect();
    let header = [
        "row",
        "figure",
        "baseline",
        "now",
        "change",
        "95 % interval",
        "verdict",
    ];
    page.table(&header, &rows, &["baseline", "now", "change"]);
}

/// A bar's label: the row, its figure and its change as the table gives
/// it. Requests per second are drawn reversed (fewer is worse, and worse
/// is to the right), so their label says so: a bar at -22 is +21.8 % req/s.
fn label(k: &Check) -> String {
    let reversed = if k.metric == Judged::Rps {
        ", drawn reversed"
    } else {
        ""
    };
    format!(
        "{} ({} {}{reversed})",
        k.key,
        k.metric,
        change(k.change_pct)
    )
}

/// A check's change with worse to the right: requests per second are
/// worse when fewer.
fn worse_pct(k: &Check) -> f64 {
    if k.metric == Judged::Rps {
        -k.change_pct
    } else {
        k.change_pct
    }
}

/// The run judged and its rows by key, and the baseline's when its rows
/// are at hand.
type AtHand<'a> = (
    &'a Run,
    &'a HashMap<&'a str, &'a Row>,
    Option<(&'a Run, &'a HashMap<&'a str, &'a Row>)>,
);

/// The interval of a timed check's median: from the rounds of both runs
/// (or a page's requests), or for a paired one from its worker pairs'
/// figures. Counts are exact and have none; other figures get none.
fn interval(at_hand: AtHand<'_>, k: &Check) -> Option<Interval> {
    let (run, ours, baseline) = at_hand;
    let base = || {
        let (base, theirs) = baseline?;
        Some((
            base,
            *theirs.get(k.key.as_str())?,
            *ours.get(k.key.as_str())?,
        ))
    };
    let ratio = match k.metric {
        Judged::PairedMedianRatio => bootstrap::median_of(&pair_figures(&k.rounds)),
        Judged::MedianPerCalibration => {
            let (base, b, r) = base()?;
            bootstrap::ratio_of_medians(&base.x_calib_samples(b), &run.x_calib_samples(r))
        }
        // A kernel probe's or a page's median, from the samples themselves
        // while resampling them stays cheap.
        Judged::Median => {
            let (_, b, r) = base()?;
            let cheap = b.samples.len().max(r.samples.len()) <= MOST_RESAMPLED;
            cheap.then(|| bootstrap::ratio_of_medians(&b.samples, &r.samples))?
        }
        _ => None,
    };
    ratio.map(Interval::as_change_pct)
}

/// The most samples a side may have for a bootstrap on a page: each
/// check resamples both sides 2,000 times, a sort of each side each time,
/// and a page may hold a check per page and server; beyond, the bootstrap
/// would cost more than drawing the page, and no interval is drawn.
const MOST_RESAMPLED: usize = 1_000;

#[cfg(test)]
mod tests {
    use super::{label, worse_pct};
    use crate::document::check::{Check, Figure, Verdict};

    #[test]
    fn more_requests_a_second_are_drawn_to_the_left_and_labelled_as_they_are() {
        let faster = Check::new("a /", Figure::Rps, 100.0, 121.8, 21.8, Verdict::Ok);
        assert_eq!(worse_pct(&faster), -21.8);
        assert_eq!(label(&faster), "a / (rps +21.8 %, drawn reversed)");
        let slower = Check::new("a /", Figure::Median, 1.0, 1.2, 20.0, Verdict::Regressed);
        assert_eq!(
            (worse_pct(&slower), label(&slower)),
            (20.0, "a / (median +20.0 %)".into())
        );
    }
}
