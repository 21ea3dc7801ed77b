//! What a saved run must hold before anything is judged by it: figures in
//! their ranges, one row per key. A run edited by hand, or written by a
//! broken tool, is refused naming the field, rather than judged: an all-zero
//! calibration once made every probe skip and the run PASS with no check, and
//! samples of 1e-308 made an infinite change that JSON could not hold.

use crate::document::figures::Figures;
use crate::document::run::{Row, Run};
use std::collections::HashSet;

/// The shortest time a sample can take, in milliseconds (a picosecond):
/// below it, the figure is not a measurement.
pub(crate) const MIN_MS: f64 = 1e-9;
/// The longest time a figure can hold, in milliseconds (about 31 years).
pub(crate) const MAX_MS: f64 = 1e12;

/// Why `run` cannot be used, naming the row and field; `None` when it can.
pub(crate) fn problem(run: &Run) -> Option<String> {
    if !run.settings.fit(run.mode) {
        return Some(format!(
            "the settings are those of {}, not of a {} run",
            run.settings.kind(),
            run.mode.as_str()
        ));
    }
    if let Some(why) = run
        .calibration
        .as_ref()
        .and_then(|c| time("calibration.median", c.loops.median))
    {
        return Some(why);
    }
    let mut keys = HashSet::with_capacity(run.rows.len());
    for row in &run.rows {
        if !keys.insert(row.key.as_str()) {
            return Some(format!("row `{}` appears twice; keys are unique", row.key));
        }
        if let Some(why) = row_problem(row) {
            return Some(format!("row `{}`: {why}", row.key));
        }
    }
    None
}

fn row_problem(row: &Row) -> Option<String> {
    for (field, values) in [
        ("samples", &row.samples),
        ("calibration_samples", &row.calibration_samples),
    ] {
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !in_range(**v)) {
            return Some(format!(
                "{field}[{i}] is {v:?}, not a time from {MIN_MS:e} to {MAX_MS:e} ms"
            ));
        }
    }
    let figures = Figures::TIMES
        .iter()
        .map(|(field, get)| (*field, get(&row.figures)))
        .chain([("ttfb_median", row.page.ttfb_median)]);
    for (field, value) in figures {
        if let Some(why) = value.and_then(|v| time(field, v)) {
            return Some(why);
        }
    }
    let spreads = Figures::SPREADS
        .iter()
        .map(|(field, get)| (*field, get(&row.figures)));
    let counts = spreads.chain([
        ("rps", row.rps),
        ("normalized", row.normalized),
        ("instructions", row.counted.instructions),
        ("bytes", row.page.bytes),
    ]);
    for (field, value) in counts {
        if let Some(v) = value.filter(|v| !v.is_finite() || *v < 0.0 || *v > 1e18) {
            return Some(format!(
                "{field} is {v}, not a finite figure from 0 to 1e18"
            ));
        }
    }
    None
}

fn in_range(ms: f64) -> bool {
    ms.is_finite() && (MIN_MS..=MAX_MS).contains(&ms)
}

fn time(field: &str, ms: f64) -> Option<String> {
    (!in_range(ms))
        .then(|| format!("{field} is {ms:?}, not a time from {MIN_MS:e} to {MAX_MS:e} ms"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::{CalibrationSummary, RowKind, test_micro_run};

    fn run(samples: &[f64], loops: &[f64]) -> Run {
        let mut row = Row::with_samples("a".into(), RowKind::Probe, "a".into(), samples.to_vec());
        row.calibration_samples = loops.to_vec();
        test_micro_run(vec![row], CalibrationSummary::of(&[1.0], &[1.0], 1))
    }

    #[test]
    fn a_measured_run_passes() {
        assert_eq!(problem(&run(&[0.5, 0.6], &[1.0, 1.1])), None);
    }

    #[test]
    fn figures_out_of_range_are_named() {
        for (samples, loops, field) in [
            (vec![0.0], vec![1.0], "samples[0] is 0"),
            (vec![-1.0], vec![1.0], "samples[0] is -1"),
            (vec![1e-308], vec![1.0], "samples[0] is 1e-308"),
            (vec![1e308], vec![1.0], "samples[0] is 1"),
            (vec![1.0], vec![0.0], "calibration_samples[0] is 0"),
        ] {
            let why = problem(&run(&samples, &loops)).unwrap_or_default();
            assert!(why.starts_with("row `a`: ") && why.contains(field), "{why}");
        }
        let mut bad = run(&[1.0], &[1.0]);
        if let Some(c) = bad.calibration.as_mut() {
            c.loops.median = 0.0;
        }
        assert!(
            problem(&bad)
                .unwrap_or_default()
                .starts_with("calibration.median is 0")
        );
        let mut bad = run(&[1.0], &[1.0]);
        bad.rows[0].counted.instructions = Some(f64::NAN);
        assert!(
            problem(&bad)
                .unwrap_or_default()
                .contains("instructions is NaN")
        );
    }

    #[test]
    fn a_key_twice_is_refused() {
        let mut twice = run(&[1.0], &[1.0]);
        twice.rows.push(twice.rows[0].clone());
        assert_eq!(
            problem(&twice).as_deref(),
            Some("row `a` appears twice; keys are unique")
        );
    }
}
