//! One probe's verdict in one trial, read from the comparison that
//! yardstick itself made: the harness never re-implements the rules it
//! evaluates, it only counts what they decided.

use serde::{Deserialize, Serialize};
use yardstick::document::comparison::{Comparison, Figure};
use yardstick::document::run::Run;

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
    /// The paired test's one-sided p-value, when the method has one: kept so
    /// that the same trials can be read again at another significance level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
}

/// The outcome of every probe of `baseline`, in the baseline's order:
/// stored-baseline, confirmed and instruction-count trials.
pub fn outcomes(baseline: &Run, run: &Run, comparison: &Comparison) -> Vec<ProbeOutcome> {
    baseline
        .rows
        .iter()
        .map(|base| {
            let now = run.rows.iter().find(|r| r.key == base.key);
            let medians = now
                .and_then(|n| n.figures.median)
                .zip(base.figures.median)
                .filter(|(n, b)| n.is_finite() && b.is_finite() && *b > 0.0);
            outcome(&base.key, now.is_some(), comparison, medians)
        })
        .collect()
}

/// The outcome of each of `probes` in a paired comparison (`run` is what
/// `compare-builds` printed). Its reference is the old build's rounds, not
/// a stored run: the raw change is that of the median of the per-round
/// medians, the judged change that of the median per-round ratio.
pub fn paired_outcomes(probes: &[String], run: &Run) -> Vec<ProbeOutcome> {
    probes
        .iter()
        .map(|key| match &run.comparison {
            Some(c) => {
                let check = c
                    .checks
                    .iter()
                    .find(|k| &k.key == key && k.metric != Figure::Errors);
                let medians = check
                    .map(|k| (k.current, k.baseline))
                    .filter(|(n, b)| n.is_finite() && b.is_finite() && *b > 0.0);
                let measured = run.rows.iter().any(|r| &r.key == key) && check.is_some();
                outcome(key, measured, c, medians)
            }
            None => ProbeOutcome {
                probe: key.clone(),
                verdict: Verdict::Inconclusive,
                raw_pct: None,
                raw_ms: None,
                judged_pct: None,
                p_value: None,
            },
        })
        .collect()
}

/// One probe's outcome from the comparison's checks; `medians` are the
/// (now, before) medians in milliseconds when both are known.
fn outcome(
    key: &str,
    measured: bool,
    comparison: &Comparison,
    medians: Option<(f64, f64)>,
) -> ProbeOutcome {
    let checks = || comparison.checks.iter().filter(|c| c.key == key);
    let verdict = if !measured {
        Verdict::Inconclusive
    } else if checks().any(|c| c.regressed()) {
        Verdict::Regressed
    } else if checks().any(|c| c.inconclusive()) {
        Verdict::Inconclusive
    } else {
        Verdict::Pass
    };
    let judged = checks().find(|c| c.metric != Figure::Errors);
    ProbeOutcome {
        probe: key.to_string(),
        verdict,
        raw_pct: medians.map(|(n, b)| (n / b - 1.0) * 100.0),
        raw_ms: medians.map(|(n, b)| n - b),
        judged_pct: judged.map(|c| c.change_pct),
        p_value: judged.and_then(|c| c.p_value),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use yardstick::document::environment::Environment;
    use yardstick::document::run::{CalibrationSummary, FORMAT, Metric, Mode, Row, RowKind, TOOL};
    use yardstick::judge::{Rules, compare};

    pub fn micro_run(calibration: f64, rows: &[(&str, f64)]) -> Run {
        Run {
            tool: TOOL.into(),
            format: FORMAT,
            mode: Mode::Micro,
            metric: Metric::Time,
            ranking: None,
            matrix: None,
            thresholds: None,
            outcome: None,
            explanation: None,
            started: String::new(),
            machine: String::new(),
            settings: Default::default(),
            environment: Environment {
                machine_class: Some("test-cpu-2cpu-00000000".into()),
                ..Environment::default()
            },
            warnings: Vec::new(),
            rows: rows
                .iter()
                .map(|(k, m)| {
                    Row::with_samples(k.to_string(), RowKind::Probe, k.to_string(), vec![*m])
                })
                .collect(),
            calibration: CalibrationSummary::of(&[calibration], &[calibration], 0),
            comparison: None,
            server_pairs: None,
        }
    }

    fn judge(base: &Run, now: &Run) -> Vec<ProbeOutcome> {
        let rules = Rules {
            threshold: Some(15.0),
            ..Rules::default()
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
            ..Rules::default()
        };
        let mut c = compare(&base, "base", &now, &rules).unwrap();
        // As a method that can abstain marks it: above the threshold, but
        // not significant.
        for check in c.checks.iter_mut().filter(|k| k.key == "b") {
            check.verdict = yardstick::document::check::Verdict::Inconclusive(
                yardstick::document::check::Reason::PairsDisagree,
            );
        }
        let o = outcomes(&base, &now, &c);
        assert_eq!(o[0].verdict, Verdict::Regressed);
        assert_eq!(o[1].verdict, Verdict::Inconclusive);
        assert!((o[1].judged_pct.unwrap() - 30.0).abs() < 1e-9);
    }

    #[test]
    fn paired_verdicts_come_from_the_run_s_own_comparison() {
        use yardstick::document::comparison::Check;
        let mut run = micro_run(1.0, &[("a", 1.0), ("b", 1.0), ("c", 1.0)]);
        run.calibration = None;
        let check = |key: &str, change: f64, regressed: bool, inconclusive: bool| {
            let verdict = match (regressed, inconclusive) {
                (true, _) => yardstick::document::check::Verdict::Regressed,
                (false, true) => yardstick::document::check::Verdict::Inconclusive(
                    yardstick::document::check::Reason::PairsDisagree,
                ),
                (false, false) => yardstick::document::check::Verdict::Ok,
            };
            let current = 2.0 * (1.0 + change / 100.0);
            let figure = Figure::PairedMedianRatio;
            Check {
                p_value: Some(if regressed { 0.001 } else { 0.5 }),
                ..Check::new(key, figure, 2.0, current, change, verdict)
            }
        };
        let probes: Vec<String> = ["a", "b", "c", "gone"].map(String::from).to_vec();
        assert!(
            paired_outcomes(&probes, &run)
                .iter()
                .all(|o| o.verdict == Verdict::Inconclusive)
        );
        let base = micro_run(1.0, &[("a", 1.0)]);
        let mut c = compare(&base, "old", &base, &Rules::default()).unwrap();
        c.checks = vec![
            check("a", 6.0, true, false),
            check("b", 4.0, false, true),
            check("c", -1.0, false, false),
        ];
        run.comparison = Some(c);
        let o = paired_outcomes(&probes, &run);
        let verdicts: Vec<_> = o.iter().map(|x| x.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Regressed,
                Verdict::Inconclusive,
                Verdict::Pass,
                Verdict::Inconclusive
            ]
        );
        assert!((o[0].raw_pct.unwrap() - 6.0).abs() < 1e-9);
        assert!((o[0].raw_ms.unwrap() - 0.12).abs() < 1e-9);
        assert_eq!(o[2].judged_pct, Some(-1.0));
        assert_eq!(o[0].p_value, Some(0.001));
        assert_eq!(o[1].p_value, Some(0.5));
        assert_eq!(o[3].raw_pct, None);
        assert_eq!(o[3].p_value, None);
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
