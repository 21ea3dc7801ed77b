//! From per-request outcomes to rows and pairs. Only successful answers
//! (status below 400) are timed samples: a refused connection has no time,
//! and an error page answered fast must not make a broken server look fast.

use super::client::Outcome;
use super::plan::Plan;
use super::session::JobResult;
use crate::document::run::{Row, RowKind, ServerPair};
use crate::stats::median;
use std::collections::BTreeMap;

/// The `status` key of a request that got no answer.
pub const FAILED: &str = "failed";

/// The row of one job measured by the built-in client.
pub fn row(key: String, page: String, target: String, url: String, result: &JobResult) -> Row {
    let mut samples = Vec::new();
    let mut ttfbs = Vec::new();
    let mut bytes = Vec::new();
    let mut errors = 0u64;
    let mut messages: BTreeMap<String, u64> = BTreeMap::new();
    let mut status: BTreeMap<String, u64> = BTreeMap::new();
    let mut cache: BTreeMap<String, u64> = BTreeMap::new();
    let mut servers: BTreeMap<String, u64> = BTreeMap::new();
    for outcome in &result.outcomes {
        match outcome {
            Outcome::Failed(f) => {
                errors += 1;
                *messages.entry(f.0.clone()).or_default() += 1;
                *status.entry(FAILED.to_string()).or_default() += 1;
            }
            Outcome::Answer(a) => {
                *status.entry(a.status.to_string()).or_default() += 1;
                if let Some(c) = &a.cache {
                    *cache.entry(c.clone()).or_default() += 1;
                }
                if let Some(s) = &a.server {
                    *servers.entry(s.clone()).or_default() += 1;
                }
                if a.status >= 400 {
                    errors += 1;
                    *messages.entry(format!("HTTP {}", a.status)).or_default() += 1;
                } else {
                    samples.push(a.total);
                    ttfbs.push(a.ttfb);
                    bytes.push(a.bytes as f64);
                }
            }
        }
    }
    let successes = samples.len();
    let mut row = Row::with_samples(key, RowKind::Page, page, samples);
    row.requests = result.outcomes.len() as u64;
    row.errors = errors;
    row.error_messages = messages;
    row.rps = rate(successes, result.wall.as_secs_f64());
    row.target = Some(target);
    row.url = Some(url);
    row.ttfb_median = median(&ttfbs);
    row.status = status;
    row.bytes = mean(&bytes);
    row.cache = cache;
    row.server = most_frequent(&servers);
    row.tool = Some("builtin".to_string());
    row
}

/// Successful requests per second of wall time; none without time.
pub fn rate(successes: usize, seconds: f64) -> Option<f64> {
    (seconds > 0.0 && seconds.is_finite()).then(|| successes as f64 / seconds)
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// The most frequent value; the first in order among equals, so the choice
/// does not depend on the order answers came in.
pub fn most_frequent(counts: &BTreeMap<String, u64>) -> Option<String> {
    let mut best: Option<(&String, u64)> = None;
    for (value, &n) in counts {
        if best.is_none_or(|(_, b)| n > b) {
            best = Some((value, n));
        }
    }
    best.map(|(v, _)| v.clone())
}

/// For each page measured on several servers: every later server against
/// the first. `rows` are in job order.
pub fn pairs(plan: &Plan, rows: &[Row]) -> Vec<ServerPair> {
    let mut out = Vec::new();
    for group in plan.groups.iter().filter(|g| g.len() > 1) {
        let base = &rows[group[0]];
        for &other_index in &group[1..] {
            let other = &rows[other_index];
            out.push(ServerPair {
                name: plan.jobs[group[0]].page.clone(),
                base: base.target.clone().unwrap_or_default(),
                other: other.target.clone().unwrap_or_default(),
                base_median: base.median,
                other_median: other.median,
                median_ratio: ratio(other.median, base.median),
                base_rps: base.rps,
                other_rps: other.rps,
                rps_ratio: ratio(other.rps, base.rps),
            });
        }
    }
    out
}

fn ratio(top: Option<f64>, bottom: Option<f64>) -> Option<f64> {
    match (top, bottom) {
        (Some(t), Some(b)) if b > 0.0 => Some(t / b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::client::Answer;
    use crate::http::failure::Failure;
    use crate::http::options::Options;
    use std::time::Duration;

    fn answer(total: f64, status: u16, cache: Option<&str>, server: &str) -> Outcome {
        Outcome::Answer(Answer {
            total,
            ttfb: total / 2.0,
            status,
            bytes: 1000,
            cache: cache.map(str::to_string),
            server: Some(server.to_string()),
        })
    }

    fn result(outcomes: Vec<Outcome>) -> JobResult {
        JobResult {
            outcomes,
            wall: Duration::from_millis(500),
        }
    }

    #[test]
    fn only_successful_answers_are_samples() {
        let r = row(
            "k".into(),
            "/".into(),
            "t".into(),
            "u".into(),
            &result(vec![
                answer(2.0, 200, Some("HIT"), "nginx"),
                answer(4.0, 200, Some("MISS"), "nginx"),
                answer(0.1, 404, None, "other"),
                Outcome::Failed(Failure::new("Connection refused")),
                Outcome::Failed(Failure::new("Connection refused")),
            ]),
        );
        assert_eq!((r.n, r.requests, r.errors), (2, 5, 3));
        assert_eq!(r.samples, [2.0, 4.0]);
        assert_eq!(r.median, Some(3.0));
        assert_eq!(r.ttfb_median, Some(1.5));
        assert_eq!(r.error_messages["Connection refused"], 2);
        assert_eq!(r.error_messages["HTTP 404"], 1);
        assert_eq!(
            (r.status["200"], r.status["404"], r.status[FAILED]),
            (2, 1, 2)
        );
        assert_eq!((r.cache["HIT"], r.cache["MISS"]), (1, 1));
        assert_eq!(r.server.as_deref(), Some("nginx"));
        assert_eq!(r.rps, Some(4.0));
        assert_eq!(r.bytes, Some(1000.0));
    }

    #[test]
    fn a_dead_server_has_no_time() {
        let r = row(
            "k".into(),
            "/".into(),
            "t".into(),
            "u".into(),
            &result(vec![Outcome::Failed(Failure::new("Connection refused"))]),
        );
        assert_eq!((r.n, r.median, r.min, r.bytes), (0, None, None, None));
        assert_eq!(r.rps, Some(0.0));
    }

    #[test]
    fn most_frequent_breaks_ties_by_order() {
        let m: BTreeMap<String, u64> = [
            ("b".to_string(), 2),
            ("a".to_string(), 2),
            ("c".to_string(), 1),
        ]
        .into();
        assert_eq!(most_frequent(&m).as_deref(), Some("a"));
        assert_eq!(most_frequent(&BTreeMap::new()), None);
    }

    #[test]
    fn pairs_compare_later_servers_with_the_first() {
        let o = Options {
            compare: vec!["http://a".into(), "http://b".into(), "http://c".into()],
            ..Options::default()
        };
        let plan = Plan::new(&o, vec!["/".into(), "http://d/x".into()]).unwrap();
        let mk = |t: &str, med: f64, rps: f64| {
            let mut r = Row::with_samples(t.into(), RowKind::Page, "/".into(), vec![med]);
            r.target = Some(t.into());
            r.rps = Some(rps);
            r
        };
        let rows = vec![
            mk("http://a", 2.0, 100.0),
            mk("http://b", 3.0, 50.0),
            mk("http://c", 1.0, 200.0),
            mk("http://d", 1.0, 1.0),
        ];
        let p = pairs(&plan, &rows);
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].base.as_str(), p[0].other.as_str()),
            ("http://a", "http://b")
        );
        assert_eq!((p[0].median_ratio, p[0].rps_ratio), (Some(1.5), Some(0.5)));
        assert_eq!(p[1].median_ratio, Some(0.5));
        assert_eq!(p[0].name, "/");
    }
}
