//! From what a page's requests came to (`tally`) to rows, and from rows
//! to the pairs of servers.

use super::schedule::{Schedule, Visit};
use super::session::Fetched;
use crate::document::failures::over_limit;
use crate::document::figures::Figures;
use crate::document::run::{Row, RowKind, ServerPair};
use std::collections::BTreeMap;

/// The `status` key of a request that got no answer.
pub(crate) const FAILED: &str = "failed";

/// What names a visit's row, whoever measured it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Labels {
    /// Server and page, unique within a run.
    pub(crate) key: String,
    /// The page as given.
    pub(crate) page: String,
    /// The server's name.
    pub(crate) target: String,
    /// The URL requested (credentials hidden).
    pub(crate) url: String,
}

impl Labels {
    /// The labels of `visit`'s row.
    pub(crate) fn of(visit: &Visit, schedule: &Schedule) -> Labels {
        Labels {
            key: visit.key(schedule),
            page: visit.page.clone(),
            target: schedule.servers[visit.server].name.clone(),
            url: visit.url.to_string(),
        }
    }

    /// A page row of `samples` under these labels; the rest is the
    /// measurer's to fill.
    pub(crate) fn row(self, samples: Vec<f64>) -> Row {
        let mut row = Row::with_samples(self.key, RowKind::Page, self.page, samples);
        row.page.target = Some(self.target);
        row.page.url = Some(self.url);
        row
    }
}

/// The row of one visit measured by the built-in client.
pub(crate) fn row(labels: Labels, result: Fetched) -> Row {
    let tally = result.tally;
    // Kept times are summarised as the row is made; bucketed ones here.
    let bucketed = tally.times.is_bucketed().then(|| tally.times.summary());
    let successes = tally.times.len();
    let error_messages = tally.messages();
    let (samples, histogram) = tally.times.into_saved();
    let mut row = labels.row(samples);
    if let Some(summary) = bucketed {
        row.figures = Figures::of(summary.as_ref());
    }
    row.histogram = histogram;
    row.requests = tally.requests;
    row.errors = tally.kinds.total();
    row.error_messages = error_messages;
    row.rps = rate(successes, result.wall.as_secs_f64());
    row.page.ttfb_median = tally.ttfbs.median();
    let mut status: BTreeMap<String, u64> = tally
        .status
        .iter()
        .map(|(code, n)| (code.to_string(), *n))
        .collect();
    // Requests without an answer: every error but the error statuses.
    let unanswered = tally.kinds.total() - tally.kinds.http;
    if unanswered > 0 {
        status.insert(FAILED.to_string(), unanswered);
    }
    row.page.status = status;
    row.page.bytes = (successes > 0).then(|| tally.bytes as f64 / successes as f64);
    row.page.cache = tally.cache.into_map();
    row.page.server = most_frequent(&tally.servers.into_map());
    row.page.tool = Some("builtin".to_string());
    row.page.failures = (tally.kinds.total() > 0).then_some(tally.kinds);
    row
}

/// Marks the page rows of which more requests failed than `limit` percent
/// allows (`--max-failures`) as overloaded: the one limit that also fails
/// the run. Without a limit (a baseline judges the failures), none is.
pub(crate) fn mark_overloaded(rows: &mut [Row], limit: Option<f64>) {
    let Some(limit) = limit else {
        return;
    };
    for row in rows.iter_mut().filter(|r| r.kind == RowKind::Page) {
        row.page.overloaded = over_limit(row.errors, row.requests, limit);
    }
}

/// Successful requests per second of wall time; none without time.
pub(crate) fn rate(successes: u64, seconds: f64) -> Option<f64> {
    (seconds > 0.0 && seconds.is_finite()).then(|| successes as f64 / seconds)
}

/// The most frequent value; the first in order among equals, so the choice
/// does not depend on the order answers came in.
pub(crate) fn most_frequent(counts: &BTreeMap<String, u64>) -> Option<String> {
    let mut best: Option<(&String, u64)> = None;
    for (value, &n) in counts {
        if best.is_none_or(|(_, b)| n > b) {
            best = Some((value, n));
        }
    }
    best.map(|(v, _)| v.clone())
}

/// For each page measured on several servers: every later server against
/// the first. `rows` are in visit order.
pub(crate) fn pairs(schedule: &Schedule, rows: &[Row]) -> Vec<ServerPair> {
    let mut out = Vec::new();
    for group in schedule.groups.iter().filter(|g| g.len() > 1) {
        let base = &rows[group[0]];
        for &other_index in &group[1..] {
            let other = &rows[other_index];
            // An overloaded page's times are no speed to set against
            // another's.
            let judged = !(base.page.overloaded || other.page.overloaded);
            let ratio = |top, bottom| if judged { ratio(top, bottom) } else { None };
            out.push(ServerPair {
                name: schedule.visits[group[0]].page.clone(),
                base: base.page.target.clone().unwrap_or_default(),
                other: other.page.target.clone().unwrap_or_default(),
                base_median: base.figures.median,
                other_median: other.figures.median,
                median_ratio: ratio(other.figures.median, base.figures.median),
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
    use crate::client::{Answer, Outcome};
    use crate::failure::Failure;
    use crate::job::Job;
    use crate::tally::Tally;
    use std::sync::Arc;
    use std::time::Duration;

    fn answer(total: f64, status: u16, cache: Option<&str>, server: &str) -> Outcome {
        Outcome::Answer(Answer {
            total,
            ttfb: total / 2.0,
            status,
            bytes: 1000,
            cache: cache.map(Arc::from),
            server: Some(Arc::from(server)),
        })
    }

    fn labels() -> Labels {
        Labels {
            key: "k".into(),
            page: "/".into(),
            target: "t".into(),
            url: "u".into(),
        }
    }

    fn result(outcomes: Vec<Outcome>) -> Fetched {
        let mut tally = Tally::default();
        outcomes.iter().for_each(|o| tally.add(o));
        Fetched {
            tally,
            wall: Duration::from_millis(500),
        }
    }

    #[test]
    fn only_successful_answers_are_samples() {
        let r = row(
            labels(),
            result(vec![
                answer(2.0, 200, Some("HIT"), "nginx"),
                answer(4.0, 200, Some("MISS"), "nginx"),
                answer(0.1, 404, None, "other"),
                Outcome::Failed(Failure::new("Connection refused")),
                Outcome::Failed(Failure::new("Connection refused")),
            ]),
        );
        assert_eq!((r.figures.n, r.requests, r.errors), (2, 5, 3));
        assert_eq!(r.samples, [2.0, 4.0]);
        assert_eq!(r.figures.median, Some(3.0));
        assert_eq!(r.page.ttfb_median, Some(1.5));
        assert_eq!(r.error_messages["Connection refused"], 2);
        assert_eq!(r.error_messages["HTTP 404"], 1);
        assert_eq!(
            (
                r.page.status["200"],
                r.page.status["404"],
                r.page.status[FAILED]
            ),
            (2, 1, 2)
        );
        assert_eq!((r.page.cache["HIT"], r.page.cache["MISS"]), (1, 1));
        assert_eq!(r.page.server.as_deref(), Some("nginx"));
        assert_eq!(r.rps, Some(4.0));
        assert_eq!(r.page.bytes, Some(1000.0));
    }

    #[test]
    fn past_the_kept_number_a_row_saves_buckets_and_exact_counts() {
        let many: Vec<Outcome> = (0..=crate::tally::KEPT)
            .map(|i| answer(1.0 + (i % 100) as f64, 200, None, "nginx"))
            .collect();
        let r = row(labels(), result(many));
        let n = crate::tally::KEPT + 1;
        assert!(r.samples.is_empty());
        let buckets = r.histogram.as_ref().map(|h| h.count());
        assert_eq!(
            (r.figures.n, r.requests, buckets),
            (n, n as u64, Some(n as u64))
        );
        assert_eq!((r.figures.min, r.figures.max), (Some(1.0), Some(100.0)));
        assert_eq!(r.page.bytes, Some(1000.0));
        let json = serde_json::to_string(&r).unwrap();
        let back: Row = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn a_dead_server_has_no_time() {
        let r = row(
            labels(),
            result(vec![Outcome::Failed(Failure::new("Connection refused"))]),
        );
        assert_eq!(
            (r.figures.n, r.figures.median, r.figures.min, r.page.bytes),
            (0, None, None, None)
        );
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
        let o = Job {
            compare: vec!["http://a".into(), "http://b".into(), "http://c".into()],
            ..Job::default()
        };
        let schedule = Schedule::new(&o, vec!["/".into(), "http://d/x".into()]).unwrap();
        let mk = |t: &str, med: f64, rps: f64| {
            let mut r = Row::with_samples(t.into(), RowKind::Page, "/".into(), vec![med]);
            r.page.target = Some(t.into());
            r.rps = Some(rps);
            r
        };
        let rows = vec![
            mk("http://a", 2.0, 100.0),
            mk("http://b", 3.0, 50.0),
            mk("http://c", 1.0, 200.0),
            mk("http://d", 1.0, 1.0),
        ];
        let p = pairs(&schedule, &rows);
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
