//! Confirmation: a timed regression must show again before it fails a run.
//!
//! A shared machine can slow one probe for the few seconds it is measured.
//! The command measures every flagged probe once more (micro mode:
//! interleaved with the calibration loop; kernel mode: its iterations or
//! its children again) and hands the new figures here: a slowdown that does
//! not show again was the machine's, not the code's, and its check becomes
//! inconclusive (a warning), neither a silent pass nor a false failure. The
//! rule lives here, beside the others; measuring lives in the command.

use crate::document::comparison::{Check, Comparison, Figure, Method, Reason, Verdict};

/// A probe measured again: its new figure, or why it could not be
/// measured.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Remeasured {
    /// The row's key.
    pub key: String,
    /// The new figure of the check: the median of the per-round ratios to
    /// the loop (micro mode), or the median in ms, or against the floor's
    /// (kernel mode).
    pub figure: Result<f64, String>,
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

/// Applies the re-measured figures to `comparison`'s timed regressions and
/// returns the notes the run shows: one per regression that did not show
/// again (now inconclusive), and one per probe that could not be measured
/// again (its regression stands).
pub(crate) fn apply(comparison: &mut Comparison, again: &[Remeasured]) -> Vec<String> {
    let threshold = comparison.threshold;
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
        let figure = match &remeasured.figure {
            Ok(figure) => *figure,
            Err(message) => {
                notes.push(format!(
                    "{}: could not be measured again ({message}); the regression stands",
                    check.key
                ));
                continue;
            }
        };
        let change = (figure / check.baseline - 1.0) * 100.0;
        check.confirmation_pct = Some(change);
        let small = check.metric == Figure::Median
            && method == Method::Absolute
            && figure - check.baseline <= min_delta;
        if change <= threshold || small {
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
            &[
                Remeasured {
                    key: "steady".into(),
                    figure: Ok(1.25),
                },
                Remeasured {
                    key: "passing".into(),
                    figure: Ok(1.05),
                },
                Remeasured {
                    key: "failing".into(),
                    figure: Err("panicked".into()),
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
        assert!(notes[1].contains("failing: could not be measured again (panicked)"));
    }

    #[test]
    fn a_change_exactly_at_the_threshold_is_not_confirmed() {
        let mut c = comparison();
        c.threshold = 25.0;
        let again = Remeasured {
            key: "steady".into(),
            figure: Ok(1.25),
        };
        apply(&mut c, &[again]);
        assert_eq!(c.checks[0].confirmation_pct, Some(25.0));
        assert_eq!(
            c.checks[0].verdict,
            Verdict::Inconclusive(Reason::Unconfirmed)
        );
    }

    #[test]
    fn kernel_mode_confirms_its_medians_past_the_delta_too() {
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
            ],
            min_delta: Some(0.5),
            ..Comparison::new("base.json", Method::Absolute, 30.0)
        };
        assert_eq!(flagged(&c), ["small", "k.boot"]);
        let again = |key: &str, figure| Remeasured {
            key: key.into(),
            figure: Ok(figure),
        };
        // 40 % slower again, but by 0.4 ms only; the ratio to the floor
        // has no delta in ms and stands at 40 %.
        apply(&mut c, &[again("small", 1.4), again("k.boot", 1.4)]);
        assert_eq!(
            c.checks[0].verdict,
            Verdict::Inconclusive(Reason::Unconfirmed)
        );
        assert_eq!(c.checks[1].verdict, Verdict::Regressed);
    }
}
