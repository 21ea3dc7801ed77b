//! A micro run drawn: the comparison's changes as bars, then per probe
//! where its rounds lay beside the baseline's and how they moved round by
//! round, each with the figures `show` prints.

use super::Page;
use super::chart::{Bar, Change, Changes, Distribution, PARTS, Series, Stacked, Trend, split};
use crate::document::check::{Check, Figure as Judged};
use crate::document::comparison::Comparison;
use crate::document::row::Row;
use crate::document::run::Run;
use crate::error::Error;
use crate::measure::callgrind::costs;
use crate::output::layout::{change, significant};
use crate::output::{table, verdict};
use crate::stats::bootstrap::{self, Interval};

/// Draws `run`, timed or counted, judged against `baseline` when its
/// samples are at hand (`compare`), else by the comparison it was saved
/// with, if any.
pub fn draw(page: &mut Page, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    comparison(page, run, baseline)?;
    for row in &run.rows {
        probe(page, run, row, baseline)?;
    }
    Ok(())
}

/// The verdict, the notes it rests on, and every check as a bar.
fn comparison(page: &mut Page, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    let lines = verdict::lines(run);
    let Some(c) = &run.comparison else {
        page.subheading("Verdict");
        if lines.is_empty() {
            page.paragraph("No baseline: nothing was judged.", true);
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
    let intervals: Vec<Option<Interval>> = c
        .checks
        .iter()
        .map(|k| interval(run, baseline, k))
        .collect();
    bars(page, c, &intervals)?;
    checks(page, c, &intervals);
    Ok(())
}

/// Every check as a bar against the threshold.
fn bars(page: &mut Page, c: &Comparison, intervals: &[Option<Interval>]) -> Result<(), Error> {
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
            .filter(|(k, _)| by_threshold(k))
            .map(|(k, i)| Change {
                label: format!("{} ({})", k.key, k.metric),
                pct: worse_pct(k),
                interval: i.map(|i| (i.low, i.high)),
                verdict: k.verdict,
            })
            .collect(),
    };
    if let Some(svg) = changes.svg()? {
        page.chart(
            "the change of every check judged by the threshold, worse to the right",
            &svg,
        );
        page.paragraph(
            "Bars: the change, red when it regressed, amber without a verdict; whiskers: its \
             95 % interval (a bootstrap of the rounds); dashed: the threshold.",
            true,
        );
    }
    Ok(())
}

/// Every check in the terminal's words, with its interval.
fn checks(page: &mut Page, c: &Comparison, intervals: &[Option<Interval>]) {
    let rows: Vec<Vec<String>> = c
        .checks
        .iter()
        .zip(intervals)
        .map(|(k, i)| {
            vec![
                k.key.clone(),
                k.metric.to_string(),
                significant(k.baseline, 4),
                significant(k.current, 4),
                change(k.change_pct),
                i.map(|i| format!("{} to {}", change(i.low), change(i.high)))
                    .unwrap_or_default(),
                k.verdict.explained(),
            ]
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

/// A check's change with worse to the right: requests per second are
/// worse when fewer.
fn worse_pct(k: &Check) -> f64 {
    if k.metric == Judged::Rps {
        -k.change_pct
    } else {
        k.change_pct
    }
}

/// The interval of a timed check, from the rounds of both runs: counts are
/// exact and have none.
fn interval(run: &Run, baseline: Option<&Run>, k: &Check) -> Option<Interval> {
    if k.metric != Judged::MedianPerCalibration {
        return None;
    }
    let base = baseline?;
    let (b, r) = (row(base, &k.key)?, row(run, &k.key)?);
    bootstrap::ratio_of_medians(&base.x_calib_samples(b), &run.x_calib_samples(r))
        .map(Interval::as_change_pct)
}

fn row<'a>(run: &'a Run, key: &str) -> Option<&'a Row> {
    run.rows.iter().find(|r| r.key == key)
}

/// One probe: its rounds beside the baseline's, round by round, and its
/// figures.
fn probe(page: &mut Page, run: &Run, row: &Row, baseline: Option<&Run>) -> Result<(), Error> {
    page.subheading(&row.key);
    if !row.note.is_empty() {
        page.paragraph(&row.note, true);
    }
    let ours = run.x_calib_samples(row);
    let (unit, samples, theirs) = if ours.is_empty() {
        let theirs = baseline
            .and_then(|b| row_of(b, row))
            .map(|r| r.samples.clone());
        ("ms per iteration", row.samples.clone(), theirs)
    } else {
        let theirs = baseline.and_then(|b| row_of(b, row).map(|r| b.x_calib_samples(r)));
        ("x calib", ours, theirs)
    };
    let mut series = Vec::new();
    if let Some(theirs) = theirs.filter(|s| !s.is_empty()) {
        series.push(Series {
            label: "baseline".into(),
            samples: theirs,
            baseline: true,
        });
    }
    series.push(Series {
        label: "this run".into(),
        samples: samples.clone(),
        baseline: false,
    });
    let where_ = Distribution {
        unit: unit.to_string(),
        series,
    };
    if let Some(svg) = where_.svg()? {
        page.chart(&format!("{}: every round", row.key), &svg);
    }
    if samples.len() > 1 {
        let rounds = Trend {
            unit: format!("{unit}, round by round"),
            points: samples
                .iter()
                .enumerate()
                .map(|(i, v)| ((i + 1).to_string(), *v))
                .collect(),
            band: None,
        };
        if let Some(svg) = rounds.svg()? {
            page.chart(&format!("{}: round by round", row.key), &svg);
        }
    }
    cycles(page, row, baseline.and_then(|b| row_of(b, row)))?;
    figures(page, run, row);
    Ok(())
}

/// Where a counted row's estimated cycles go, beside the baseline's.
fn cycles(page: &mut Page, row: &Row, theirs: Option<&Row>) -> Result<(), Error> {
    let weights = (costs::LL_HIT_WEIGHT as f64, costs::RAM_WEIGHT as f64);
    let bar = |label: &str, r: &Row| {
        let c = &r.counted;
        Some(Bar {
            label: label.to_string(),
            parts: split(c.estimated_cycles?, c.l1_misses?, c.ll_misses?, weights),
        })
    };
    let Some(ours) = bar("this run", row) else {
        return Ok(());
    };
    let bars = theirs
        .and_then(|t| bar("baseline", t))
        .into_iter()
        .chain([ours])
        .collect();
    let stacked = Stacked {
        unit: "estimated cycles per iteration".to_string(),
        bars,
    };
    if let Some(svg) = stacked.svg()? {
        page.chart(&format!("{}: where the estimated cycles go", row.key), &svg);
        page.paragraph(&format!("From the left: {}.", PARTS.join(", ")), true);
    }
    Ok(())
}

fn row_of<'a>(run: &'a Run, like: &Row) -> Option<&'a Row> {
    row(run, &like.key)
}

/// The figures `show` gives of a row, by their names in the saved run.
fn figures(page: &mut Page, run: &Run, row: &Row) {
    let mut cells: Vec<(String, String)> = vec![("n".into(), row.figures.n.to_string())];
    if let Some(x) = run.x_calib(row) {
        cells.push(("x calib".into(), significant(x, 4)));
    }
    for (name, value) in row.figures.named() {
        if let Some(v) = value {
            cells.push((format!("{name} (ms)"), significant(v, 4)));
        }
    }
    for (name, value) in [
        ("instructions", row.counted.instructions),
        ("estimated cycles", row.counted.estimated_cycles),
    ] {
        if let Some(v) = value {
            cells.push((name.into(), significant(v, 6)));
        }
    }
    if let Some(m) = &row.memory {
        for (name, v) in [
            ("allocations", m.allocs),
            ("bytes allocated", m.bytes),
            ("peak bytes", m.peak),
        ] {
            cells.push((format!("{name} per iteration"), v.to_string()));
        }
    }
    let rows: Vec<Vec<String>> = cells.into_iter().map(|(h, v)| vec![h, v]).collect();
    page.table(&["figure", "value"], &rows, &["value"]);
}
