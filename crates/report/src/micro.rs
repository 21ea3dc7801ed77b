//! A micro run drawn: its comparison, then per probe where its rounds lay
//! beside the baseline's and how they moved round by round, where a
//! counted probe's cycles go, where a flagged count moved (a differential
//! flame graph), and the figures `show` prints.

use super::Page;
use super::chart::{Bar, Distribution, Flame, PARTS, Series, Stacked, Trend, split};
use crate::document::functions::Attribution;
use crate::document::row::Row;
use crate::document::run::{Mode, Run};
use crate::error::Error;
use crate::measure::callgrind::costs;
use crate::output::layout::significant;

/// Draws `run`, timed or counted, judged against `baseline` when its
/// samples are at hand (`compare`), else by the comparison it was saved
/// with, if any.
pub fn draw(page: &mut Page, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    super::comparison::draw(page, run, baseline)?;
    super::say_undrawn(page, run);
    for row in super::drawn_rows(run) {
        probe(page, run, row, baseline)?;
    }
    Ok(())
}

/// One probe: its rounds beside the baseline's, round by round (for a
/// paired comparison, the two builds' rounds), and its figures.
pub fn probe(page: &mut Page, run: &Run, row: &Row, baseline: Option<&Run>) -> Result<(), Error> {
    page.subheading(&row.key);
    if !row.note.is_empty() {
        page.paragraph(&row.note, true);
    }
    match run
        .comparison
        .as_ref()
        .and_then(|c| super::paired::kept(c, &row.key))
    {
        Some((check, threshold)) => super::paired::draw(page, check, threshold)?,
        None => rounds(page, run, row, baseline)?,
    }
    cycles(page, row, baseline.and_then(|b| b.row(&row.key)))?;
    flame(page, run, row, baseline.and_then(|b| b.row(&row.key)));
    figures(page, run, row);
    Ok(())
}

/// Where a flagged count moved: the run's call tree coloured by the
/// baseline's, for a check that says where it moved and rows that both
/// kept their functions.
fn flame(page: &mut Page, run: &Run, row: &Row, theirs: Option<&Row>) {
    let flagged =
        run.comparison.iter().flat_map(|c| &c.checks).any(|k| {
            k.key == row.key && matches!(k.attribution, Some(Attribution::Functions { .. }))
        });
    let (Some(now), Some(baseline)) = (&row.functions, theirs.and_then(|t| t.functions.as_ref()))
    else {
        return;
    };
    if !flagged {
        return;
    }
    let chart = Flame {
        now,
        baseline,
        metric: run.metric,
    };
    if let Some(svg) = chart.svg() {
        page.chart(&format!("{}: where the count moved", row.key), &svg);
        page.paragraph(
            &format!(
                "Each frame is a function as wide as its {} with its callees', on its \
                 caller: red grew against the baseline, blue shrank, grey stayed (the \
                 stronger, the more; a quarter or more is the full colour). The tree is \
                 unfolded from the calls the run kept, so a function of several callers \
                 is shared among them by their calls' counts.",
                run.metric.as_str()
            ),
            true,
        );
    }
}

/// Where a probe's rounds lay beside the baseline's, and round by round.
fn rounds(page: &mut Page, run: &Run, row: &Row, baseline: Option<&Run>) -> Result<(), Error> {
    // x calib where the run is judged by it (micro mode); a kernel run's
    // in-process probes are judged by their times, and drawn in them.
    let ours = if run.mode == Mode::Micro {
        run.x_calib_samples(row)
    } else {
        Vec::new()
    };
    let (unit, samples, theirs) = if ours.is_empty() {
        let theirs = baseline
            .and_then(|b| b.row(&row.key))
            .map(|r| r.samples.clone());
        ("ms per iteration", row.samples.clone(), theirs)
    } else {
        let theirs = baseline.and_then(|b| b.row(&row.key).map(|r| b.x_calib_samples(r)));
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
            ringed: Vec::new(),
        };
        if let Some(svg) = rounds.svg()? {
            page.chart(&format!("{}: round by round", row.key), &svg);
        }
    }
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
        let (ll, ram) = weights;
        page.paragraph(
            &format!(
                "From the left: {} (each 1 cycle), {} (each {ll}), {} (each {ram}).",
                PARTS[0], PARTS[1], PARTS[2]
            ),
            true,
        );
    }
    Ok(())
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
