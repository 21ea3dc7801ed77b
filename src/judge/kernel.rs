//! Kernel mode's rule: absolute medians, judged only within one machine
//! class (`machine.rs` holds back every time figure across classes).
//!
//! A kernel probe holds state (a database, a cache directory) or is a whole
//! process, so its time is not a multiple of the calibration loop's the
//! way a short, CPU-bound micro probe's is: a process's start-up moves with
//! the kernel and the disk, not with the CPU alone. So, as in HTTP mode, a
//! median regresses when it grew by more than the threshold **and** by more
//! than the minimum delta. Allocation counts are judged beside it
//! (`memory.rs`), failures by the rule every mode shares.

use super::{change_pct, common_rows, over_threshold};
use crate::document::comparison::{Check, Comparison, Figure, Verdict};
use crate::document::run::Run;

/// Percent a median may grow before it regresses. Not yet evaluated with
/// the `evaluate` harness: it is micro mode's default, kept until kernel
/// runs on a loaded machine have measured their own false alarms.
pub const DEFAULT_THRESHOLD: f64 = 30.0;
/// Milliseconds a median must also grow by: the shortest kernel probes take
/// tens of microseconds, where a few microseconds of scheduling are
/// 10 %.
pub(crate) const DEFAULT_MIN_DELTA: f64 = 0.05;

pub(super) fn compare(baseline: &Run, run: &Run, min_delta: Option<f64>, out: &mut Comparison) {
    let min_delta = min_delta.unwrap_or(DEFAULT_MIN_DELTA);
    out.min_delta = Some(min_delta);
    for (base, now) in common_rows(baseline, run) {
        let (Some(b), Some(n)) = (base.median, now.median) else {
            continue;
        };
        let change = change_pct(b, n);
        let worse = over_threshold(change, out.threshold) && n - b > min_delta;
        out.checks.push(Check::new(
            &now.key,
            Figure::Median,
            b,
            n,
            change,
            Verdict::of(worse),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::comparison::Method;
    use crate::document::run::{Mode, Row, RowKind, test_micro_run};

    fn run(medians: &[(&str, f64)]) -> Run {
        let rows = medians
            .iter()
            .map(|(k, m)| Row::with_samples(k.to_string(), RowKind::Probe, k.to_string(), vec![*m]))
            .collect();
        Run {
            mode: Mode::Kernel,
            ..test_micro_run(rows, None)
        }
    }

    #[test]
    fn a_median_regresses_past_the_threshold_and_the_delta() {
        let base = run(&[("slow", 10.0), ("tiny", 0.01), ("same", 5.0)]);
        let now = run(&[("slow", 14.0), ("tiny", 0.05), ("same", 5.1)]);
        let mut c = Comparison::new("b.json", Method::Absolute, 30.0);
        compare(&base, &now, None, &mut c);
        let regressed: Vec<&str> = c
            .checks
            .iter()
            .filter(|k| k.regressed())
            .map(|k| k.key.as_str())
            .collect();
        // tiny grew by 400 % but by 0.04 ms only.
        assert_eq!(regressed, ["slow"]);
        assert_eq!(c.min_delta, Some(DEFAULT_MIN_DELTA));
    }
}
