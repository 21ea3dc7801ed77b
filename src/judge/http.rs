//! HTTP mode's rules: absolute times, since a server's answer time is what a
//! visitor waits for and no calibration loop speaks for the network.
//!
//! A time regresses only when it grew by more than the threshold **and** by
//! more than the minimum delta, so a page answered in 0.3 ms does not fail
//! for growing to 0.4 ms.

use super::{change_pct, common_rows, over_threshold};
use crate::document::comparison::{Check, Comparison, Figure, Verdict};
use crate::document::run::{Row, Run};

/// Percent a page's median or p95 may grow before it regresses.
pub const DEFAULT_THRESHOLD: f64 = 15.0;
/// Milliseconds a time must also grow by to count.
pub(crate) const DEFAULT_MIN_DELTA: f64 = 1.0;
/// Percentage points the error rate may rise.
const ERROR_RATE_POINTS: f64 = 1.0;

pub(super) fn compare(baseline: &Run, run: &Run, min_delta: Option<f64>, out: &mut Comparison) {
    let min_delta = min_delta.unwrap_or(DEFAULT_MIN_DELTA);
    let threshold = out.threshold;
    out.min_delta = Some(min_delta);
    for (base, now) in common_rows(baseline, run) {
        let grew = |b: Option<f64>, n: Option<f64>| match (b, n) {
            (Some(b), Some(n)) => Some((b, n, change_pct(b, n), n - b)),
            _ => None,
        };
        let median = grew(base.figures.median, now.figures.median);
        let median_grew_by_delta = median.is_some_and(|(_, _, _, delta)| delta > min_delta);
        for (metric, figures) in [
            (Figure::Median, median),
            (Figure::P95, grew(base.figures.p95, now.figures.p95)),
        ] {
            if let Some((b, n, change, delta)) = figures {
                out.checks.push(check(
                    now,
                    metric,
                    b,
                    n,
                    change,
                    over_threshold(change, threshold) && delta > min_delta,
                ));
            }
        }
        if let (Some(b), Some(n)) = (base.rps, now.rps) {
            let change = change_pct(b, n);
            out.checks.push(check(
                now,
                Figure::Rps,
                b,
                n,
                change,
                over_threshold(-change, threshold) && median_grew_by_delta,
            ));
        }
        let (b, n) = (error_rate(base), error_rate(now));
        out.checks.push(check(
            now,
            Figure::ErrorRate,
            b,
            n,
            n - b,
            n - b > ERROR_RATE_POINTS,
        ));
    }
}

fn check(
    row: &Row,
    metric: Figure,
    baseline: f64,
    current: f64,
    change_pct: f64,
    regressed: bool,
) -> Check {
    let verdict = Verdict::of(regressed);
    Check::new(&row.key, metric, baseline, current, change_pct, verdict)
}

/// Failed requests in percent of all requests.
fn error_rate(row: &Row) -> f64 {
    if row.requests == 0 {
        0.0
    } else {
        row.errors as f64 * 100.0 / row.requests as f64
    }
}

#[cfg(test)]
mod tests {
    use crate::document::environment::Environment;
    use crate::document::run::{FORMAT, Mode, Row, RowKind, Run, TOOL};
    use crate::document::settings::{HttpSettings, Settings};
    use crate::judge::{Rules, compare};

    fn page(median: f64, rps: f64, requests: u64, errors: u64) -> Row {
        let mut r = Row::with_samples("a /".into(), RowKind::Page, "/".into(), vec![median]);
        r.rps = Some(rps);
        r.requests = requests;
        r.errors = errors;
        r
    }

    fn run(rows: Vec<Row>) -> Run {
        Run {
            tool: TOOL.into(),
            format: FORMAT,
            mode: Mode::Http,
            started: String::new(),
            machine: String::new(),
            settings: Settings::Http(HttpSettings::default()),
            environment: Environment::default(),
            warnings: Vec::new(),
            rows,
            calibration: None,
            comparison: None,
            server_pairs: None,
            metric: Default::default(),
        }
    }

    fn regressed(base: Row, now: Row) -> Vec<String> {
        let c = compare(&run(vec![base]), "b", &run(vec![now]), &Rules::default()).unwrap();
        c.checks
            .into_iter()
            .filter(|k| k.regressed())
            .map(|k| k.metric.to_string())
            .collect()
    }

    #[test]
    fn time_must_grow_by_threshold_and_min_delta() {
        assert!(regressed(page(0.3, 1000.0, 100, 0), page(0.6, 1000.0, 100, 0)).is_empty());
        assert_eq!(
            regressed(page(10.0, 1000.0, 100, 0), page(12.0, 1000.0, 100, 0)),
            ["median", "p95"]
        );
        assert!(regressed(page(10.0, 1000.0, 100, 0), page(11.0, 1000.0, 100, 0)).is_empty());
    }

    #[test]
    fn rps_falls_only_count_with_a_slower_median() {
        assert!(regressed(page(10.0, 1000.0, 100, 0), page(10.0, 500.0, 100, 0)).is_empty());
        let r = regressed(page(10.0, 1000.0, 100, 0), page(11.1, 500.0, 100, 0));
        assert_eq!(r, ["rps"]);
    }

    #[test]
    fn error_rate_rises_by_more_than_a_point() {
        assert!(regressed(page(10.0, 1.0, 100, 0), page(10.0, 1.0, 100, 1)).is_empty());
        assert_eq!(
            regressed(page(10.0, 1.0, 100, 0), page(10.0, 1.0, 100, 2)),
            ["error_rate"]
        );
    }
}
