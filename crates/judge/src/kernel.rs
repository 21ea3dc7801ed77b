//! Kernel mode's rule: medians, judged only within one machine class
//! (`machine.rs` holds back every time figure across classes).
//!
//! A kernel probe holds state (a database, a cache directory) or is a whole
//! process, so its time is not a multiple of the calibration loop's the way
//! a short, CPU-bound micro probe's is. In-process rows and the times a
//! child reports about itself are judged as absolute medians. A process
//! probe's `boot` and `process` rows are judged against the floor, the empty
//! child measured in the same run: on a shared machine the cost of starting
//! any process moves by tens of percent from minute to minute, and the
//! floor moves with it, so the ratio keeps what the probe's own start-up
//! adds ("x floor", as micro mode's "x calib"). The floor's own rows are
//! shown, not judged: they are the machine's, like the calibration loop.
//!
//! A figure regresses when it grew by more than the threshold **and** the
//! median by more than the minimum delta. Allocation counts are judged
//! beside it (`memory.rs`), failures by the rule every mode shares.

use super::{change_pct, common_rows, figure, over_threshold};
use crate::document::comparison::{Check, Comparison, Figure, Verdict};
use crate::document::run::{Row, Run};

/// Percent a figure may grow before it regresses. In 40 runs of unchanged
/// code on this project's 2-core machine, the median of five children's
/// boots moved by up to +157 % in absolute time and by up to +122 % against
/// the floor (+33 % for the whole process); confirmation measures a flagged
/// probe again (docs/evaluation.md, "Kernel mode").
pub const DEFAULT_THRESHOLD: f64 = 50.0;
/// Milliseconds a median must also grow by: none unless asked. In 30 runs
/// of unchanged code, and 20 beside a busy loop, no row regressed without
/// one (confirmation took back what was flagged); a delta of 0.05 ms hid
/// every slowdown, even +100 %, of the four rows under 50 µs
/// (docs/evaluation.md, "Kernel mode": "The minimum delta").
pub(crate) const DEFAULT_MIN_DELTA: f64 = 0.0;

pub(super) fn compare(baseline: &Run, run: &Run, min_delta: Option<f64>, out: &mut Comparison) {
    let min_delta = min_delta.unwrap_or(DEFAULT_MIN_DELTA);
    out.min_delta = Some(min_delta);
    for (base, now) in common_rows(baseline, run) {
        let (Some(b), Some(n)) = (base.figures.median, now.figures.median) else {
            continue;
        };
        let Some((figure, b_figure, n_figure)) = figures(baseline, run, (base, now)) else {
            continue;
        };
        let change = change_pct(b_figure, n_figure);
        let worse = worse(change, out.threshold, Some((b, n)), min_delta);
        out.checks.push(Check::new(
            &now.key,
            figure,
            b_figure,
            n_figure,
            change,
            Verdict::of(worse),
        ));
    }
}

/// Kernel mode's rule: a figure grown past the threshold, and the median
/// (ms, baseline and now) by more than the minimum delta. The comparison
/// and the confirmation of its regressions both judge by it.
pub(super) fn worse(
    change: f64,
    threshold: f64,
    medians: Option<(f64, f64)>,
    min_delta: f64,
) -> bool {
    over_threshold(change, threshold) && medians.is_none_or(|(b, n)| n - b > min_delta)
}

/// What a row is judged by, and its baseline and current values; `None`
/// for the floor's own rows.
fn figures(baseline: &Run, run: &Run, (base, row): (&Row, &Row)) -> Option<(Figure, f64, f64)> {
    let among = (figure::Among::run(baseline), figure::Among::run(run));
    let judged = |f: Figure| {
        let b = figure::of(&f, base, among.0)?;
        Some((f.clone(), b, figure::of(&f, row, among.1)?))
    };
    match figure::floor_phase(row) {
        Some((probe, _)) if probe == figure::FLOOR => None,
        // A run without its floor (an older one) is judged as it stands.
        Some(_) => judged(Figure::MedianPerFloor).or_else(|| judged(Figure::Median)),
        None => judged(Figure::Median),
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
        let now = run(&[("slow", 16.0), ("tiny", 0.05), ("same", 5.1)]);
        let regressed = |min_delta: Option<f64>| {
            let mut c = Comparison::new("b.json", Method::Absolute, DEFAULT_THRESHOLD);
            compare(&base, &now, min_delta, &mut c);
            let keys: Vec<String> = c
                .checks
                .iter()
                .filter(|k| k.regressed())
                .map(|k| k.key.clone())
                .collect();
            (keys, c.min_delta)
        };
        // tiny grew by 400 %, but by 0.04 ms only.
        assert_eq!(regressed(Some(0.05)), (vec!["slow".into()], Some(0.05)));
        assert_eq!(
            regressed(None),
            (vec!["slow".into(), "tiny".into()], Some(DEFAULT_MIN_DELTA))
        );
    }

    fn process(key: &str, ms: f64) -> Row {
        Row::with_samples(key.into(), RowKind::Process, key.into(), vec![ms])
    }

    #[test]
    fn boots_are_judged_against_the_floor_and_the_floor_is_not_judged() {
        let mut base = run(&[]);
        base.rows = vec![
            process("empty.boot", 2.0),
            process("k.boot", 4.0),
            process("k.render_cold", 1.0),
        ];
        // The whole machine starts processes twice as slowly: k's boot
        // doubled with the floor, which is no regression of k's; its
        // render, which no start-up is in, grew by 60 %.
        let mut now = run(&[]);
        now.rows = vec![
            process("empty.boot", 4.0),
            process("k.boot", 8.0),
            process("k.render_cold", 1.6),
        ];
        let mut c = Comparison::new("b.json", Method::Absolute, DEFAULT_THRESHOLD);
        compare(&base, &now, None, &mut c);
        let judged: Vec<(&str, &str, bool)> = c
            .checks
            .iter()
            .map(|k| (k.key.as_str(), k.metric.as_str(), k.regressed()))
            .collect();
        assert_eq!(
            judged,
            [
                ("k.boot", "median/floor", false),
                ("k.render_cold", "median", true)
            ]
        );
        assert_eq!((c.checks[0].baseline, c.checks[0].current), (2.0, 2.0));
    }
}
