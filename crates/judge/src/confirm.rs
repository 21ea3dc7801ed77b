//! Confirmation: a timed regression must show again before it fails a run.
//!
//! A shared machine can slow one probe for the few seconds it is measured.
//! The command measures every flagged probe once more (micro mode:
//! interleaved with the calibration loop; kernel mode: its iterations or
//! its children again) and hands the new rows here, where the check's
//! figure is read from them as the comparison read it (`figure.rs`): a
//! slowdown that does not show again was the machine's, not the code's, and
//! its check becomes inconclusive (a warning), neither a silent pass nor a
//! false failure. The rule lives here, beside the others; measuring lives in
//! the command.

use super::figure::{self, Among};
use super::{change_pct, kernel, over_threshold};
use crate::document::comparison::{Check, Comparison, Figure, Method, Reason, Verdict};
use crate::document::run::{Row, Run};

/// A flagged row measured again, or why it could not be measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Remeasured {
    /// The row's key.
    pub key: String,
    /// What the new measurement gave.
    pub again: Result<Again, String>,
}

/// The rows of a new measurement: the probe's, and with a process probe
/// judged against the floor, the floor's too.
#[derive(Debug, Clone, PartialEq)]
pub struct Again {
    /// The rows measured.
    pub rows: Vec<Row>,
    /// The calibration loop's median they were timed beside (micro mode).
    pub calibration: Option<f64>,
}

impl Again {
    /// The figure `check` judges, read from these rows, with the row's
    /// median (kernel mode's minimum delta is in ms), or why there is none.
    fn figure(&self, check: &Check) -> Result<(f64, Option<f64>), String> {
        let row = self
            .rows
            .iter()
            .find(|r| r.key == check.key)
            .ok_or("not reported again")?;
        if row.errors > 0 {
            return Err(failure(row));
        }
        let among = Among {
            rows: &self.rows,
            calibration: self.calibration,
        };
        // A figure that cannot be read may owe it to another row that
        // failed: the floor a process row is divided by.
        let failed = self.rows.iter().find(|r| r.errors > 0);
        let figure = figure::of(&check.metric, row, among).ok_or_else(|| match failed {
            Some(r) => format!("{}: {}", r.key, failure(r)),
            None => format!("no {}", check.metric.as_str()),
        })?;
        Ok((figure, row.figures.median))
    }
}

/// Why `row` failed, as it says.
fn failure(row: &Row) -> String {
    row.error_messages
        .keys()
        .next()
        .unwrap_or(&row.note)
        .clone()
}

/// Whether `check` is a timed regression a confirmation measures again.
fn confirmable(method: &Method, check: &Check) -> bool {
    check.regressed()
        && match check.metric {
            Figure::MedianPerCalibration => true,
            Figure::Median | Figure::MedianPerFloor => *method == Method::Absolute,
            _ => false,
        }
}

/// The keys of the checks a confirmation measures again: timed regressions.
pub fn flagged(comparison: &Comparison) -> Vec<String> {
    comparison
        .checks
        .iter()
        .filter(|c| confirmable(&comparison.method, c))
        .map(|c| c.key.clone())
        .collect()
}

/// Applies the rows measured again to `comparison`'s timed regressions,
/// against `baseline` by the comparison's own rule, and returns the notes
/// the run shows: one per regression that did not show again (now
/// inconclusive), and one per probe that could not be measured again (its
/// regression stands).
pub fn apply(comparison: &mut Comparison, baseline: &Run, again: &[Remeasured]) -> Vec<String> {
    // Kernel mode's rule also asks for the minimum delta, in ms.
    let min_delta = comparison.min_delta.unwrap_or(0.0);
    let method = comparison.method.clone();
    let mut notes = Vec::new();
    for check in comparison
        .checks
        .iter_mut()
        .filter(|c| confirmable(&method, c))
    {
        let Some(remeasured) = again.iter().find(|r| r.key == check.key) else {
            continue;
        };
        let (figure, median) = match remeasured
            .again
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|a| a.figure(check))
        {
            Ok(figure) => figure,
            Err(message) => {
                notes.push(format!(
                    "{}: could not be measured again ({message}); the regression stands",
                    check.key
                ));
                continue;
            }
        };
        let change = change_pct(check.baseline, figure);
        check.confirmation_pct = Some(change);
        // Confirmed against the threshold the check was judged by.
        let threshold = check.threshold.map_or(comparison.threshold, |t| t.percent);
        let still = if method == Method::Absolute {
            let base = baseline.rows.iter().find(|r| r.key == check.key);
            let medians = base.and_then(|r| r.figures.median).zip(median);
            kernel::worse(change, threshold, medians, min_delta)
        } else {
            over_threshold(change, threshold)
        };
        if !still {
            check.verdict = Verdict::Inconclusive(Reason::Unconfirmed);
            notes.push(format!(
                "inconclusive: {} measured {:+.1} % against the baseline, but {:+.1} % when measured again: \
                 the machine's load moved during the run",
                check.key, check.change_pct, change
            ));
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::comparison::{Check, Method};
    use crate::document::run::{RowKind, test_micro_run};

    /// `key` measured again at `ratio` times the calibration loop.
    fn again(key: &str, ratio: f64) -> Remeasured {
        let mut row = Row::with_samples(key.into(), RowKind::Probe, key.into(), vec![ratio * 2.0]);
        row.calibration_samples = vec![2.0];
        measured(key, vec![row])
    }

    fn measured(key: &str, rows: Vec<Row>) -> Remeasured {
        Remeasured {
            key: key.into(),
            again: Ok(Again {
                rows,
                calibration: Some(2.0),
            }),
        }
    }

    fn comparison() -> Comparison {
        let check = |key: &str, figure, change: f64| {
            let verdict = Verdict::of(change > 10.0);
            Check::new(key, figure, 1.0, 1.0 + change / 100.0, change, verdict)
        };
        Comparison {
            checks: vec![
                check("steady", Figure::MedianPerCalibration, 30.0),
                check("passing", Figure::MedianPerCalibration, 40.0),
                check("failing", Figure::MedianPerCalibration, 50.0),
                check("quiet", Figure::MedianPerCalibration, 2.0),
                check("failed", Figure::Errors, 100.0),
            ],
            ..Comparison::new("base.json", Method::Normalized, 10.0)
        }
    }

    #[test]
    fn only_timed_regressions_are_measured_again() {
        assert_eq!(flagged(&comparison()), ["steady", "passing", "failing"]);
    }

    #[test]
    fn a_slowdown_that_shows_again_stands_and_one_that_does_not_is_inconclusive() {
        let mut c = comparison();
        let notes = apply(
            &mut c,
            &test_micro_run(Vec::new(), None),
            &[
                again("steady", 1.25),
                again("passing", 1.05),
                Remeasured {
                    key: "failing".into(),
                    again: Err("the probe timed out".into()),
                },
            ],
        );
        let verdicts: Vec<_> = c.checks.iter().map(|k| k.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Regressed,
                Verdict::Inconclusive(Reason::Unconfirmed),
                Verdict::Regressed,
                Verdict::Ok,
                Verdict::Regressed,
            ]
        );
        assert_eq!(c.regressions(), 3);
        let confirmed: Vec<_> = c.checks.iter().map(|k| k.confirmation_pct).collect();
        assert_eq!(confirmed[..3], [Some(25.0), Some(5.000000000000004), None]);
        assert_eq!(notes.len(), 2);
        assert!(notes[0].starts_with("inconclusive: passing measured +40.0 %"));
        assert!(notes[1].contains("failing: could not be measured again (the probe timed out)"));
    }

    #[test]
    fn a_change_exactly_at_the_threshold_is_not_confirmed() {
        let mut c = comparison();
        c.threshold = 25.0;
        apply(
            &mut c,
            &test_micro_run(Vec::new(), None),
            &[again("steady", 1.25)],
        );
        assert_eq!(c.checks[0].confirmation_pct, Some(25.0));
        assert_eq!(
            c.checks[0].verdict,
            Verdict::Inconclusive(Reason::Unconfirmed)
        );
    }

    #[test]
    fn a_probe_is_confirmed_against_its_own_threshold() {
        use crate::document::check::{Basis, Threshold};
        // The comparison's default is 10 %; steady was judged by its own
        // 30 %, and +25 % again is under it.
        let mut c = comparison();
        c.checks[0].threshold = Some(Threshold {
            percent: 30.0,
            basis: Basis::Learned { runs: 20 },
        });
        apply(
            &mut c,
            &test_micro_run(Vec::new(), None),
            &[again("steady", 1.25), again("passing", 1.25)],
        );
        assert_eq!(
            c.checks[0].verdict,
            Verdict::Inconclusive(Reason::Unconfirmed)
        );
        assert_eq!(c.checks[1].verdict, Verdict::Regressed);
    }

    #[test]
    fn kernel_mode_confirms_by_the_comparison_s_rule_delta_and_all() {
        let regressed = |key: &str, figure, now: f64| {
            Check::new(
                key,
                figure,
                1.0,
                now,
                (now - 1.0) * 100.0,
                Verdict::Regressed,
            )
        };
        let mut c = Comparison {
            checks: vec![
                regressed("small", Figure::Median, 2.0),
                regressed("k.boot", Figure::MedianPerFloor, 2.0),
                regressed("j.boot", Figure::MedianPerFloor, 2.0),
            ],
            min_delta: Some(0.5),
            ..Comparison::new("base.json", Method::Absolute, 30.0)
        };
        assert_eq!(flagged(&c), ["small", "k.boot", "j.boot"]);
        let process = |key: &str, ms: f64| {
            Row::with_samples(key.into(), RowKind::Process, key.into(), vec![ms])
        };
        let mut baseline = test_micro_run(Vec::new(), None);
        baseline.rows = vec![
            process("small", 1.0),
            process("k.boot", 2.0),
            process("j.boot", 1.0),
        ];
        let floor = || process("empty.boot", 2.0);
        let again = [
            // 40 % slower again, but by 0.4 ms only.
            measured("small", vec![process("small", 1.4)]),
            // 40 % slower against the floor, and by 0.8 ms.
            measured("k.boot", vec![process("k.boot", 2.8), floor()]),
            // 40 % slower against the floor, but by 0.4 ms of its own.
            measured("j.boot", vec![process("j.boot", 1.4), floor()]),
        ];
        // The check holds j.boot's baseline ratio to a floor of 2 ms.
        c.checks[2].baseline = 0.5;
        apply(&mut c, &baseline, &again);
        let verdicts: Vec<Verdict> = c.checks.iter().map(|k| k.verdict).collect();
        let unconfirmed = Verdict::Inconclusive(Reason::Unconfirmed);
        assert_eq!(verdicts, [unconfirmed, Verdict::Regressed, unconfirmed]);
        let change = c.checks[2].confirmation_pct.unwrap();
        assert!((change - 40.0).abs() < 1e-9, "{change}");
    }

    #[test]
    fn a_row_that_failed_again_or_is_missing_leaves_the_regression_standing() {
        let mut c = comparison();
        let mut failed = Row::with_samples(
            "steady".into(),
            crate::document::run::RowKind::Probe,
            "steady".into(),
            Vec::new(),
        );
        failed.errors = 1;
        failed.error_messages = [("panicked: index out of bounds".to_string(), 1)].into();
        let rows = |rows: Vec<Row>| {
            Ok(Again {
                rows,
                calibration: Some(1.0),
            })
        };
        let notes = apply(
            &mut c,
            &test_micro_run(Vec::new(), None),
            &[
                Remeasured {
                    key: "steady".into(),
                    again: rows(vec![failed]),
                },
                Remeasured {
                    key: "passing".into(),
                    again: rows(Vec::new()),
                },
            ],
        );
        assert_eq!(
            notes,
            [
                "steady: could not be measured again (panicked: index out of bounds); the regression stands",
                "passing: could not be measured again (not reported again); the regression stands",
            ]
        );
        assert_eq!(c.regressions(), 4);
    }

    #[test]
    fn a_floor_that_failed_again_is_named() {
        let check = Check::new(
            "k.boot",
            Figure::MedianPerFloor,
            1.0,
            2.0,
            100.0,
            Verdict::Regressed,
        );
        let mut c = Comparison {
            checks: vec![check],
            ..Comparison::new("base.json", Method::Absolute, 30.0)
        };
        let process = |key: &str, ms: f64| {
            Row::with_samples(key.into(), RowKind::Process, key.into(), vec![ms])
        };
        let mut floor = process("empty.boot", 1.0);
        floor.figures = crate::document::figures::Figures::default();
        floor.errors = 1;
        floor.error_messages = [("the child exited with 1".to_string(), 1)].into();
        let again = measured("k.boot", vec![process("k.boot", 2.0), floor]);
        let notes = apply(&mut c, &test_micro_run(Vec::new(), None), &[again]);
        assert_eq!(
            notes,
            [
                "k.boot: could not be measured again (empty.boot: the child exited with 1); \
              the regression stands"
            ]
        );
        assert_eq!(c.checks[0].verdict, Verdict::Regressed);
    }
}
