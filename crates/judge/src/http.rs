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
        // An overloaded page's times say what the server sustained, not how
        // fast it is: on either side, only its failures are judged.
        if !(base.page.overloaded || now.page.overloaded) {
            speed(base, now, threshold, min_delta, out);
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

/// The checks of a page's times and req/s.
fn speed(base: &Row, now: &Row, threshold: f64, min_delta: f64, out: &mut Comparison) {
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
}

/// How the pages of two runs differ when either found them from the site
/// (as the option list names it, the baseline's pages alone, this run's
/// alone): the site's content changed, or other pages were asked for, so
/// the runs measured other pages and their changes are information.
pub(super) fn page_list_difference(baseline: &Run, run: &Run) -> Option<(String, String, String)> {
    let (b, n) = (baseline.settings.http()?, run.settings.http()?);
    if b.pages_from_site.is_none() && n.pages_from_site.is_none() {
        return None;
    }
    let only = |a: &[String], other: &[String]| -> Vec<String> {
        a.iter().filter(|p| !other.contains(p)).cloned().collect()
    };
    let (before, now) = (only(&b.pages, &n.pages), only(&n.pages, &b.pages));
    if before.is_empty() && now.is_empty() {
        return None;
    }
    let shown = |pages: Vec<String>| {
        if pages.is_empty() {
            "no other page".to_string()
        } else {
            pages.join(", ")
        }
    };
    Some((
        "pages found from the site".to_string(),
        shown(before),
        shown(now),
    ))
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
    use crate::document::settings::{HttpSettings, PagesFromSite, Settings};
    use crate::{Rules, compare};

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
            ranking: None,
            matrix: None,
            thresholds: None,
            outcome: None,
            explanation: None,
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
    fn an_overloaded_page_is_judged_by_its_failures_alone() {
        let overloaded = |mut r: Row| {
            r.page.overloaded = true;
            r
        };
        // Twice as slow, half the req/s: no speed check on either side.
        let slow = page(20.0, 500.0, 100, 50);
        let c = compare(
            &run(vec![page(10.0, 1000.0, 100, 0)]),
            "b",
            &run(vec![overloaded(slow.clone())]),
            &Rules::default(),
        )
        .unwrap();
        let judged: Vec<String> = c.checks.iter().map(|k| k.metric.to_string()).collect();
        assert_eq!(judged, ["error_rate"]);
        assert_eq!(
            regressed(overloaded(page(10.0, 1000.0, 100, 10)), slow),
            ["error_rate"]
        );
    }

    #[test]
    fn error_rate_rises_by_more_than_a_point() {
        assert!(regressed(page(10.0, 1.0, 100, 0), page(10.0, 1.0, 100, 1)).is_empty());
        assert_eq!(
            regressed(page(10.0, 1.0, 100, 0), page(10.0, 1.0, 100, 2)),
            ["error_rate"]
        );
    }

    #[test]
    fn pages_found_from_the_site_that_differ_make_the_comparison_information() {
        let with_pages = |pages: &[&str], found: bool| {
            let mut r = run(vec![page(10.0, 1000.0, 100, 0)]);
            r.settings = Settings::Http(HttpSettings {
                pages: pages.iter().map(|p| p.to_string()).collect(),
                pages_from_site: found.then(PagesFromSite::default),
                ..HttpSettings::default()
            });
            r
        };
        let judged =
            |baseline: &Run, now: &Run| compare(baseline, "b", now, &Rules::default()).unwrap();
        let mut slower = with_pages(&["/", "/news"], true);
        slower.rows = vec![page(20.0, 1000.0, 100, 0)];
        // The same pages: a verdict.
        let c = judged(&with_pages(&["/news", "/"], true), &slower);
        assert!(c.failed() && c.param_differences.is_empty());
        // The site's menu changed: information, naming the pages.
        let c = judged(&with_pages(&["/", "/old"], true), &slower);
        assert!(!c.failed() && c.informational && c.regressions() > 0);
        let d = &c.param_differences[0];
        assert_eq!(
            (d.field.as_str(), d.baseline.as_str(), d.current.as_str()),
            ("pages found from the site", "/old", "/news")
        );
        // Pages given by hand that differ: judged where they meet, as before.
        let c = judged(
            &with_pages(&["/", "/old"], false),
            &with_pages(&["/"], false),
        );
        assert!(c.param_differences.is_empty());
    }
}
