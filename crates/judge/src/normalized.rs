//! The normalised method: wall time of micro runs, judged by medians
//! divided by the calibration loop. Runs of counts have their own method
//! (`counts.rs`).
//!
//! Each probe's time is divided by the calibration loop's time of the same
//! run (sample by sample where the run interleaved them, see
//! [`Row::normalized_median`]), so a machine that is twice as slow at
//! everything shows no change; only a probe that got slower relative to the
//! calibration loop regresses.

use super::figure::{Among, of};
use super::threshold::Choice;
use super::{change_pct, common_rows, over_threshold};
use crate::document::comparison::{
    CalibrationRatio, Check, Comparison, EnvironmentDifference, Figure, Reason, Verdict,
};
use crate::document::run::{RowKind, Run};
use crate::error::Error;

/// Percent a probe's normalised figure may grow before it regresses: 30 %
/// (why: docs/evaluation.md, "The threshold of 30 %").
pub const DEFAULT_THRESHOLD: f64 = 30.0;
/// Percent the calibration loop may run slower than in the baseline before
/// a probe over the threshold is inconclusive instead of regressed: 30 %
/// (why: docs/evaluation.md, "The machine-slowdown limit"). One-sided: a
/// machine faster than the baseline's is not under contention.
pub const DEFAULT_MAX_MACHINE_SLOWDOWN: f64 = 30.0;

/// Judges `run`'s normalised medians against `baseline`'s.
pub(super) fn compare(
    baseline: &Run,
    baseline_name: &str,
    run: &Run,
    (max_slowdown, thresholds): (f64, Choice<'_>),
    out: &mut Comparison,
) -> Result<(), Error> {
    // A run of process probes alone has nothing this method judges, and
    // needs no loop.
    if only_processes(run) {
        return Ok(());
    }
    let base_c = calibration(baseline, baseline_name)?;
    let now_c = run.calibration_median().ok_or_else(|| {
        Error::input("the run has no calibration and cannot be compared".to_string())
    })?;
    let ratio = CalibrationRatio {
        baseline: base_c,
        current: now_c,
        speed: base_c / now_c,
        max_slowdown: Some(max_slowdown),
    };
    let too_slow = ratio.too_slow();
    out.calibration = Some(ratio);
    // Other versions of the loop's crates may move its speed: a note, not a
    // refusal, since the loop's checksum still guards what it computes.
    let crates = baseline
        .environment
        .calibration_crate_differences(&run.environment);
    out.environment_differences
        .extend(crates.into_iter().map(EnvironmentDifference::from));
    let figure = Figure::MedianPerCalibration;
    let among = (Among::run(baseline), Among::run(run));
    for (base, now) in common_rows(baseline, run) {
        if let (Some(b), Some(n)) = (of(&figure, base, among.0), of(&figure, now, among.1)) {
            let change = change_pct(b, n);
            let threshold = thresholds.of(&now.key);
            let over = over_threshold(change, threshold.percent);
            let verdict = match (over, too_slow) {
                (false, _) => Verdict::Ok,
                (true, false) => Verdict::Regressed,
                (true, true) => Verdict::Inconclusive(Reason::Machine),
            };
            let mut check = Check::new(&now.key, figure.clone(), b, n, change, verdict);
            check.threshold = Some(threshold);
            out.checks.push(check);
        }
    }
    Ok(())
}

/// Whether `run` holds process probes' rows and nothing else.
fn only_processes(run: &Run) -> bool {
    let kind = |k: RowKind| run.rows.iter().any(|r| r.kind == k);
    kind(RowKind::Process) && !kind(RowKind::Probe)
}

/// The calibration median of the timed run `name`: a normalised figure
/// divides by it, so a run without one cannot be compared.
pub fn calibration(run: &Run, name: &str) -> Result<f64, Error> {
    run.calibration_median().ok_or_else(|| {
        Error::input(format!(
            "{name}: a micro run without calibration cannot be compared"
        ))
    })
}

#[cfg(test)]
mod tests {
    use crate::document::comparison::Method;
    use crate::document::run::{CalibrationSummary, Mode, Row, RowKind, Run, test_micro_run};
    use crate::{Rules, compare};

    fn calibration(median: f64) -> CalibrationSummary {
        let loops = [median; 5];
        CalibrationSummary::of(&loops, &loops, 1).unwrap()
    }

    fn row(name: &str, median: f64, errors: u64) -> Row {
        let mut r = Row::with_samples(name.into(), RowKind::Probe, name.into(), vec![median]);
        r.errors = errors;
        r
    }

    fn run(c: f64, rows: Vec<Row>) -> Run {
        test_micro_run(rows, Some(calibration(c)))
    }

    fn at(threshold: f64) -> Rules {
        Rules {
            threshold: Some(threshold),
            ..Rules::default()
        }
    }

    #[test]
    fn a_machine_twice_as_slow_is_no_regression() {
        let base = run(10.0, vec![row("a", 2.0, 0), row("b", 5.0, 0)]);
        let now = run(20.0, vec![row("a", 4.0, 0), row("b", 10.0, 0)]);
        let c = compare(&base, "base.json", &now, &Rules::default()).unwrap();
        assert_eq!(c.regressions(), 0);
        assert_eq!(c.threshold, super::DEFAULT_THRESHOLD);
        let cal = c.calibration.unwrap();
        assert_eq!(cal.speed, 0.5);
        assert!(c.checks.iter().all(|k| k.change_pct.abs() < 1e-9));
        assert_eq!(c.method, Method::Normalized);
    }

    #[test]
    fn other_versions_of_the_loop_s_crates_give_a_note_not_a_refusal() {
        let with = |c: f64, ms: f64, crates: Option<&[(&str, &str)]>| {
            let mut r = run(c, vec![row("a", ms, 0)]);
            r.environment.calibration_crates = crates.map(|pairs| {
                pairs
                    .iter()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect()
            });
            r
        };
        let old: &[(&str, &str)] = &[("regex", "1.10.0"), ("sha2", "0.10.9")];
        let new: &[(&str, &str)] = &[("regex", "1.13.2"), ("sha2", "0.10.9")];
        let c = compare(
            &with(10.0, 1.0, Some(old)),
            "b",
            &with(10.0, 2.0, Some(new)),
            &Rules::default(),
        )
        .unwrap();
        let noted: Vec<_> = c
            .environment_differences
            .iter()
            .map(|d| (d.field.as_str(), d.baseline.as_str(), d.current.as_str()))
            .collect();
        assert_eq!(noted, [("calibration loop's regex", "1.10.0", "1.13.2")]);
        assert_eq!((c.regressions(), c.informational), (1, false));
        for (base, now) in [(Some(old), Some(old)), (None, Some(new)), (Some(old), None)] {
            let c = compare(
                &with(10.0, 1.0, base),
                "b",
                &with(10.0, 2.0, now),
                &Rules::default(),
            )
            .unwrap();
            assert!(c.environment_differences.is_empty(), "{base:?} {now:?}");
        }
    }

    #[test]
    fn a_probe_s_own_threshold_from_the_baseline_judges_it_unless_one_is_given() {
        use crate::document::check::Basis;
        use crate::document::thresholds::Thresholds;
        let mut base = run(10.0, vec![row("a", 1.0, 0), row("b", 1.0, 0)]);
        base.thresholds = Some(Thresholds {
            runs: 41,
            probes: [("a".to_string(), 9.1)].into_iter().collect(),
        });
        let now = run(10.0, vec![row("a", 1.15, 0), row("b", 1.15, 0)]);
        let c = compare(&base, "b", &now, &Rules::default()).unwrap();
        let a = c.checks.iter().find(|k| k.key == "a").unwrap();
        let b = c.checks.iter().find(|k| k.key == "b").unwrap();
        // a's own 9.1 % catches +15 %; b has none and keeps the 30 %.
        assert!(a.regressed() && !b.regressed());
        assert_eq!(a.threshold.unwrap().basis, Basis::Learned { runs: 41 });
        assert_eq!(b.threshold.unwrap().to_string(), "30 % (default: 41 runs)");
        let given = compare(&base, "b", &now, &at(20.0)).unwrap();
        assert_eq!(given.regressions(), 0);
        assert!(
            given
                .checks
                .iter()
                .all(|k| k.threshold.unwrap().basis == Basis::Given)
        );
    }

    #[test]
    fn threshold_edge_39_passes_41_fails() {
        let base = run(10.0, vec![row("a", 1.0, 0), row("b", 1.0, 0)]);
        let now = run(10.0, vec![row("a", 1.39, 0), row("b", 1.41, 0)]);
        let c = compare(&base, "b", &now, &at(40.0)).unwrap();
        let a = c.checks.iter().find(|k| k.key == "a").unwrap();
        let b = c.checks.iter().find(|k| k.key == "b").unwrap();
        assert!(!a.regressed() && b.regressed());
        assert_eq!(c.regressions(), 1);
        assert!((b.change_pct - 41.0).abs() < 1e-9);
    }

    #[test]
    fn interleaved_pairs_cancel_a_slowdown_during_the_run() {
        // The baseline ran at one speed; the run became twice as slow for
        // its last two samples, and the loops before them show it.
        let mut base = Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![1.0; 5]);
        base.calibration_samples = vec![10.0; 5];
        let mut now = Row::with_samples(
            "a".into(),
            RowKind::Probe,
            "a".into(),
            vec![1.0, 1.0, 2.0, 2.0, 2.0],
        );
        now.calibration_samples = vec![10.0, 10.0, 20.0, 20.0, 20.0];
        let c = compare(
            &run(10.0, vec![base]),
            "b",
            &run(14.0, vec![now]),
            &at(15.0),
        )
        .unwrap();
        assert_eq!(c.regressions(), 0);
        assert!(c.checks[0].change_pct.abs() < 1e-9);
    }

    #[test]
    fn a_run_too_slow_to_judge_is_inconclusive() {
        // `a` is 50 % slower relative to the loop, `b` unchanged.
        let base = run(10.0, vec![row("a", 1.0, 0), row("b", 1.0, 0)]);
        let judged = |loop_ms: f64, limit: Option<f64>| {
            let now = run(
                loop_ms,
                vec![row("a", 0.15 * loop_ms, 0), row("b", 0.1 * loop_ms, 0)],
            );
            let rules = Rules {
                max_machine_slowdown: limit,
                ..at(15.0)
            };
            compare(&base, "b", &now, &rules).unwrap()
        };
        // The loop 40 % slower: past the default 30 %, so `a` is neither
        // passed nor failed, and `b` is still a plain pass.
        let c = judged(14.0, None);
        let cal = c.calibration.as_ref().unwrap();
        assert!(cal.too_slow() && (cal.slowdown_pct() - 40.0).abs() < 1e-9);
        assert_eq!(cal.max_slowdown, Some(super::DEFAULT_MAX_MACHINE_SLOWDOWN));
        assert_eq!(c.regressions(), 0);
        let verdict = |c: &crate::document::comparison::Comparison, key: &str| {
            let k = c.checks.iter().find(|k| k.key == key).unwrap();
            (k.regressed(), k.inconclusive())
        };
        assert_eq!(verdict(&c, "a"), (false, true));
        assert_eq!(verdict(&c, "b"), (false, false));
        assert!((c.checks[0].change_pct - 50.0).abs() < 1e-9);
        // A looser limit, a loop exactly at the limit, and a faster machine
        // judge as before.
        for (loop_ms, limit) in [(14.0, Some(50.0)), (13.0, None), (5.0, None)] {
            let c = judged(loop_ms, limit);
            assert_eq!(verdict(&c, "a"), (true, false), "{loop_ms} {limit:?}");
            assert_eq!(c.regressions(), 1);
        }
    }

    #[test]
    fn a_stale_normalized_field_is_ignored() {
        let mut stale = row("a", 1.0, 0);
        stale.normalized = Some(1000.0);
        let base = run(10.0, vec![stale]);
        let now = run(10.0, vec![row("a", 1.0, 0)]);
        let c = compare(&base, "b", &now, &at(40.0)).unwrap();
        assert_eq!(c.regressions(), 0);
        assert!((c.checks[0].baseline - 0.1).abs() < 1e-12);
    }

    #[test]
    fn missing_new_and_failing_probes() {
        let base = run(
            10.0,
            vec![
                row("gone", 1.0, 0),
                row("kept", 1.0, 0),
                row("flaky", 1.0, 0),
            ],
        );
        let mut broken = row("flaky", 1.0, 30);
        broken.figures.median = None;
        let now = run(
            10.0,
            vec![row("kept", 1.0, 0), row("fresh", 1.0, 0), broken],
        );
        let c = compare(&base, "b", &now, &at(40.0)).unwrap();
        assert_eq!(c.missing, vec!["gone".to_string()]);
        assert_eq!(c.new, vec!["fresh".to_string()]);
        assert_eq!(c.regressions(), 1);
        let failed = c.checks.iter().find(|k| k.regressed()).unwrap();
        assert_eq!(
            (failed.key.as_str(), failed.metric.as_str()),
            ("flaky", "errors")
        );
    }

    #[test]
    fn a_run_of_process_probes_alone_needs_no_loop() {
        let mut base = run(10.0, vec![]);
        base.calibration = None;
        let mut now = base.clone();
        let mut row = Row::with_samples(
            "k.boot".into(),
            RowKind::Process,
            "k.boot".into(),
            vec![5.0],
        );
        row.errors = 1;
        now.rows = vec![row.clone()];
        base.rows = vec![Row { errors: 0, ..row }];
        let c = compare(&base, "base.json", &now, &Rules::default()).unwrap();
        assert!(c.checks.is_empty() && c.calibration.is_none());
    }

    #[test]
    fn refusals_for_mode_and_missing_calibration() {
        let base = run(10.0, vec![]);
        let mut other = run(10.0, vec![]);
        other.mode = Mode::Http;
        let e = compare(&base, "base.json", &other, &Rules::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("different modes") && e.contains("base.json"),
            "{e}"
        );
        let mut bare = run(10.0, vec![]);
        bare.calibration = None;
        let e = compare(&bare, "base.json", &base, &Rules::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("without calibration") && e.contains("base.json"),
            "{e}"
        );
    }
}
