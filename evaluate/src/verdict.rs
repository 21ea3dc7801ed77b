//! One probe's verdict in one trial, read from the comparison that
//! yardstick itself made: the harness never re-implements the rules it
//! evaluates, it only counts what they decided.

use serde::{Deserialize, Serialize};
use yardstick::comparison::Comparison;
use yardstick::run::Run;

/// What a comparison decided about one probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Pass,
    Regressed,
    /// No verdict could be given: the probe was not measured, or the
    /// comparison called its change inconclusive. Counts as no alarm in A/A and as a miss in
    /// power: abstaining must not make a method look better on either.
    Inconclusive,
}

impl Verdict {
    /// True when the verdict would fail a CI job: a false alarm in A/A, a
    /// detection under an injected slowdown.
    pub fn flagged(self) -> bool {
        self == Verdict::Regressed
    }
}

/// A probe's verdict and how much it moved against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeOutcome {
    pub probe: String,
    pub verdict: Verdict,
    /// Change of the median in milliseconds, in percent.
    pub raw_pct: Option<f64>,
    /// Change of the median in milliseconds.
    pub raw_ms: Option<f64>,
    /// Change of the figure the method judged (micro: median / calibration),
    /// in percent, as the comparison computed it.
    pub judged_pct: Option<f64>,
}

/// The outcome of every probe of `baseline`, in the baseline's order.
pub fn outcomes(baseline: &Run, run: &Run, comparison: &Comparison) -> Vec<ProbeOutcome> {
    baseline
        .rows
        .iter()
        .map(|base| {
            let now = run.rows.iter().find(|r| r.key == base.key);
            let checks = || comparison.checks.iter().filter(|c| c.key == base.key);
            let verdict = if now.is_none() {
                Verdict::Inconclusive
            } else if checks().any(|c| c.regressed) {
                Verdict::Regressed
            } else if checks().any(|c| c.inconclusive) {
                Verdict::Inconclusive
            } else {
                Verdict::Pass
            };
            let medians = now
                .and_then(|n| n.median)
                .zip(base.median)
                .filter(|(n, b)| n.is_finite() && b.is_finite() && *b > 0.0);
            ProbeOutcome {
                probe: base.key.clone(),
                verdict,
                raw_pct: medians.map(|(n, b)| (n / b - 1.0) * 100.0),
                raw_ms: medians.map(|(n, b)| n - b),
                judged_pct: checks()
                    .find(|c| c.metric != "errors")
                    .map(|c| c.change_pct),
            }
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use yardstick::compare::{Rules, compare};
    use yardstick::environment::Environment;
    use yardstick::run::{CalibrationSummary, FORMAT, Metric, Mode, Row, RowKind, TOOL};

    pub fn micro_run(calibration: f64, rows: &[(&str, f64)]) -> Run {
        Run {
            tool: TOOL.into(),
            format: FORMAT,
            mode: Mode::Micro,
            metric: Metric::Time,
            started: String::new(),
            machine: String::new(),
            settings: Default::default(),
            environment: Environment::default(),
            warnings: Vec::new(),
            rows: rows
                .iter()
                .map(|(k, m)| {
                    Row::with_samples(k.to_string(), RowKind::Probe, k.to_string(), vec![*m])
                })
                .collect(),
            calibration: Some(CalibrationSummary {
                n: 1,
                min: calibration,
                mean: calibration,
                median: calibration,
                p90: calibration,
                p95: calibration,
                p99: calibration,
                max: calibration,
                stddev: 0.0,
                before_median: calibration,
                after_median: calibration,
                drift_pct: 0.0,
                checksum: 0,
            }),
            comparison: None,
            pairs: None,
        }
    }

    fn judge(base: &Run, now: &Run) -> Vec<ProbeOutcome> {
        let rules = Rules {
            threshold: Some(15.0),
            min_delta: None,
        };
        let c = compare(base, "base", now, &rules).unwrap();
        outcomes(base, now, &c)
    }

    #[test]
    fn verdicts_follow_the_library_and_changes_are_raw_and_normalised() {
        let base = micro_run(10.0, &[("a", 1.0), ("b", 2.0), ("c", 4.0)]);
        // The machine is 20 % slower at everything, and b is 20 % slower
        // on top of that: only b regresses at 15 %.
        let now = micro_run(12.0, &[("a", 1.2), ("b", 2.88), ("c", 4.8)]);
        let o = judge(&base, &now);
        let verdicts: Vec<_> = o.iter().map(|x| x.verdict).collect();
        assert_eq!(verdicts, [Verdict::Pass, Verdict::Regressed, Verdict::Pass]);
        assert!((o[0].raw_pct.unwrap() - 20.0).abs() < 1e-9);
        assert!(o[0].judged_pct.unwrap().abs() < 1e-9);
        assert!((o[1].judged_pct.unwrap() - 20.0).abs() < 1e-9);
        assert!((o[2].raw_ms.unwrap() - 0.8).abs() < 1e-9);
    }

    #[test]
    fn a_probe_missing_from_the_run_is_inconclusive() {
        let base = micro_run(10.0, &[("a", 1.0), ("gone", 1.0)]);
        let now = micro_run(10.0, &[("a", 1.0)]);
        let o = judge(&base, &now);
        assert_eq!(o[1].verdict, Verdict::Inconclusive);
        assert!(!o[1].verdict.flagged());
        assert_eq!(o[1].raw_pct, None);
    }

    #[test]
    fn an_inconclusive_check_is_an_inconclusive_verdict() {
        let base = micro_run(10.0, &[("a", 1.0), ("b", 1.0)]);
        let now = micro_run(10.0, &[("a", 1.3), ("b", 1.3)]);
        let rules = Rules {
            threshold: Some(15.0),
            min_delta: None,
        };
        let mut c = compare(&base, "base", &now, &rules).unwrap();
        // As a method that can abstain marks it: above the threshold, but
        // not significant.
        for check in c.checks.iter_mut().filter(|k| k.key == "b") {
            check.regressed = false;
            check.inconclusive = true;
        }
        let o = outcomes(&base, &now, &c);
        assert_eq!(o[0].verdict, Verdict::Regressed);
        assert_eq!(o[1].verdict, Verdict::Inconclusive);
        assert!((o[1].judged_pct.unwrap() - 30.0).abs() < 1e-9);
    }

    #[test]
    fn a_failing_probe_is_flagged() {
        let base = micro_run(10.0, &[("a", 1.0)]);
        let mut now = micro_run(10.0, &[("a", 1.0)]);
        now.rows[0] = Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![]);
        now.rows[0].errors = 3;
        let o = judge(&base, &now);
        assert_eq!(o[0].verdict, Verdict::Regressed);
        assert_eq!(o[0].judged_pct, None);
    }
}
