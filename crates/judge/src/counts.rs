//! The rules for runs of counts: instructions or estimated cycles per
//! iteration, compared directly.
//!
//! Counts need no calibration: they do not move with the machine's speed or
//! load, so a small threshold can be trusted. They do move with what made
//! and counted the machine code (see `counts::setup`): when any of that
//! differs, the changes are information and the comparison names what
//! differs, since a new compiler alone can move a count by more than the
//! threshold.

use super::attribution::attribute;
use super::common_rows;
use super::{change_pct, over_threshold};
use crate::document::comparison::{Check, Comparison, EnvironmentDifference, Figure, Verdict};
use crate::document::run::{Metric, Run};
use crate::document::setup::Setup;

/// Percent a probe's instruction count may grow before it regresses: 1 %
/// (why: docs/evaluation.md, "Counts").
pub(crate) const INSTRUCTIONS_THRESHOLD: f64 = 1.0;
/// Percent a probe's estimated cycles may grow before it regresses: 1 %
/// (why: docs/evaluation.md, "Counts").
pub(crate) const ESTIMATED_CYCLES_THRESHOLD: f64 = 1.0;

/// True when a run of `run` can be judged against a baseline of `baseline`:
/// time against time, and counts against counts that hold the run's
/// metric (a run of estimated cycles also holds instructions).
pub fn comparable(baseline: Metric, run: Metric) -> bool {
    match run {
        Metric::Time => baseline == Metric::Time,
        Metric::Instructions => baseline.is_count(),
        Metric::EstimatedCycles => baseline == Metric::EstimatedCycles,
    }
}

/// Judges `run`'s counts against `baseline`'s; `judge::compare` has
/// checked that the two are [`comparable`].
pub(super) fn compare(baseline: &Run, run: &Run, out: &mut Comparison) {
    let metric = run.metric;
    out.setup_differences = Setup::of(baseline, metric)
        .differences(&Setup::of(run, metric))
        .into_iter()
        .map(EnvironmentDifference::from)
        .collect();
    // Counts of another set-up are shown, never judged.
    out.informational |= !out.setup_differences.is_empty();
    for (base, now) in common_rows(baseline, run) {
        if let (Some(b), Some(n)) = (base.counted.of(metric), now.counted.of(metric)) {
            let change = change_pct(b, n);
            let figure = match metric {
                Metric::EstimatedCycles => Figure::EstimatedCycles,
                _ => Figure::Instructions,
            };
            let verdict = Verdict::of(over_threshold(change, out.threshold));
            let mut check = Check::new(&now.key, figure, b, n, change, verdict);
            // A count that moved past the threshold either way is a
            // finding (the count check fails a stale baseline too): say
            // where it moved.
            if over_threshold(change.abs(), out.threshold) {
                check.attribution = Some(attribute(base, now, metric));
            }
            out.checks.push(check);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::comparison::Method;
    use crate::document::run::{Row, RowKind, test_micro_run};
    use crate::{Rules, compare};

    fn counted(metric: Metric, batch: u64, rows: &[(&str, f64, f64)]) -> Run {
        let mut r = test_micro_run(Vec::new(), None);
        r.metric = metric;
        let counting = &mut r.settings.micro_mut().unwrap().counting;
        counting.valgrind = Some("valgrind-3.19.0".into());
        counting.cache_sim = Some("I1=32768,8,64 D1=32768,8,64 LL=8388608,16,64".to_string());
        for (name, instructions, cycles) in rows {
            let mut row =
                Row::with_samples((*name).into(), RowKind::Probe, (*name).into(), Vec::new());
            row.batch = Some(batch);
            row.counted.instructions = Some(*instructions);
            row.counted.estimated_cycles = (metric == Metric::EstimatedCycles).then_some(*cycles);
            r.rows.push(row);
        }
        r
    }

    #[test]
    fn instruction_counts_compare_at_one_percent_without_calibration() {
        let base = counted(
            Metric::Instructions,
            5,
            &[("a", 1000.0, 0.0), ("b", 1000.0, 0.0)],
        );
        let now = counted(
            Metric::Instructions,
            5,
            &[("a", 1009.0, 0.0), ("b", 1011.0, 0.0)],
        );
        let c = compare(&base, "b", &now, &Rules::default()).unwrap();
        assert_eq!((c.method.as_str(), c.threshold), ("instructions", 1.0));
        assert_eq!(c.regressions(), 1);
        assert!(c.failed() && c.setup_differences.is_empty());
        assert!(
            c.checks
                .iter()
                .any(|k| k.key == "b" && k.regressed() && k.metric == Figure::Instructions)
        );
        assert!(c.calibration.is_none());
    }

    #[test]
    fn estimated_cycles_see_what_instructions_do_not() {
        // The same instructions, four times the cycles: data from RAM.
        let base = counted(Metric::EstimatedCycles, 5, &[("walk", 1000.0, 1500.0)]);
        let now = counted(Metric::EstimatedCycles, 5, &[("walk", 1000.0, 6000.0)]);
        let c = compare(&base, "b", &now, &Rules::default()).unwrap();
        assert_eq!(c.method, Method::EstimatedCycles);
        assert_eq!(c.threshold, ESTIMATED_CYCLES_THRESHOLD);
        assert!(c.checks[0].regressed() && c.checks[0].metric == Figure::EstimatedCycles);
        // Judged by instructions against the same baseline: no change.
        let mut by_instructions = now.clone();
        by_instructions.metric = Metric::Instructions;
        let c = compare(&base, "b", &by_instructions, &Rules::default()).unwrap();
        assert_eq!((c.method.as_str(), c.regressions()), ("instructions", 0));
        assert_eq!(c.checks[0].change_pct, 0.0);
    }

    #[test]
    fn another_set_up_makes_the_changes_information_and_names_it() {
        let base = counted(Metric::Instructions, 5, &[("a", 1000.0, 0.0)]);
        // A batch of 50 spreads one-off costs thinner: fewer per iteration.
        let mut now = counted(Metric::Instructions, 50, &[("a", 1100.0, 0.0)]);
        now.settings.micro_mut().unwrap().counting.valgrind = Some("valgrind-3.22.0".into());
        let c = compare(&base, "b", &now, &Rules::default()).unwrap();
        assert_eq!(c.regressions(), 1);
        assert!(c.informational && !c.failed());
        let fields: Vec<&str> = c
            .setup_differences
            .iter()
            .map(|d| d.field.as_str())
            .collect();
        assert_eq!(fields, ["valgrind", "batch"]);
        let note = c.setup_note().unwrap();
        assert!(note.contains("batch 5 in the baseline, 50 now"), "{note}");
    }

    #[test]
    fn time_and_counts_do_not_mix() {
        let counts = counted(Metric::EstimatedCycles, 5, &[]);
        let instructions = counted(Metric::Instructions, 5, &[]);
        let timed = test_micro_run(Vec::new(), None);
        for (base, now) in [
            (&counts, &timed),
            (&timed, &counts),
            (&instructions, &counts),
        ] {
            let e = compare(base, "base.json", now, &Rules::default())
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("base.json") && e.contains("is no baseline for"),
                "{e}"
            );
        }
        assert!(comparable(Metric::EstimatedCycles, Metric::Instructions));
    }
}
