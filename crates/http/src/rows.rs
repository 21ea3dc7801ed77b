//! From per-request outcomes to rows and pairs. Only successful answers
//! (status below 400) are timed samples: a refused connection has no time,
//! and an error page answered fast must not make a broken server look fast.

use super::client::{Answer, Outcome};
use super::failure::Kind;
use super::schedule::{Schedule, Visit};
use super::session::Fetched;
use crate::document::failures::{Failures, over_limit};
use crate::document::run::{Row, RowKind, ServerPair};
use crate::stats::median;
use std::collections::BTreeMap;
use std::sync::Arc;

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

/// The outcomes of a visit's requests, counted as a row shows them.
/// Distinct values of a peer's header (or of error messages) a row keeps;
/// the rest are counted together as [`OTHER`]. A server that sends a new
/// value with every answer must not make a run keep every one.
const MAX_DISTINCT: usize = 32;

/// The key the values past [`MAX_DISTINCT`] are counted under.
const OTHER: &str = "(other)";

/// The longest error message or status a row keeps, in characters.
const MAX_VALUE_CHARS: usize = 300;

/// `counts` as a row keeps them, whoever made them (a load tool, k6): at
/// most [`MAX_DISTINCT`] values, the most frequent, each of at most
/// [`MAX_VALUE_CHARS`] characters; the rest counted together as
/// [`OTHER`]. A peer that answers 800 statuses, or k6 reporting 500
/// messages of 20 KB, must not make a run keep every one.
pub(crate) fn capped(counts: BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    let mut shortened: BTreeMap<String, u64> = BTreeMap::new();
    for (value, n) in counts {
        let value = match value.char_indices().nth(MAX_VALUE_CHARS) {
            Some((at, _)) => format!("{}...", &value[..at]),
            None => value,
        };
        let e = shortened.entry(value).or_default();
        *e = e.saturating_add(n);
    }
    if shortened.len() <= MAX_DISTINCT {
        return shortened;
    }
    let mut ranked: Vec<(String, u64)> = shortened.into_iter().collect();
    // The most frequent first; ties by value, so the cut is the same on
    // every run.
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let rest = ranked.split_off(MAX_DISTINCT - 1);
    let mut kept: BTreeMap<String, u64> = ranked.into_iter().collect();
    let other = rest.iter().fold(0u64, |sum, (_, n)| sum.saturating_add(*n));
    let e = kept.entry(OTHER.to_string()).or_default();
    *e = e.saturating_add(other);
    kept
}

fn count_capped(counts: &mut BTreeMap<String, u64>, value: &str) {
    if let Some(n) = counts.get_mut(value) {
        *n += 1;
    } else if counts.len() < MAX_DISTINCT {
        counts.insert(value.to_string(), 1);
    } else {
        *counts.entry(OTHER.to_string()).or_default() += 1;
    }
}

/// Counts of a header's words as answers share them: an answer mostly
/// carries the very text the last one did (one `Arc`), so its count is
/// found by a pointer before any text is compared, and no text is copied
/// until the row is made. Capped as [`count_capped`] caps.
#[derive(Debug, Default)]
struct Shared {
    counts: Vec<(Arc<str>, u64)>,
    other: u64,
}

impl Shared {
    fn add(&mut self, value: &Arc<str>) {
        let known = self.counts.len();
        let found = self
            .counts
            .iter_mut()
            .find(|(v, _)| Arc::ptr_eq(v, value) || v == value);
        match found {
            Some((_, n)) => *n += 1,
            None if known < MAX_DISTINCT => self.counts.push((Arc::clone(value), 1)),
            None => self.other += 1,
        }
    }

    fn into_map(self) -> BTreeMap<String, u64> {
        let mut map: BTreeMap<String, u64> = self
            .counts
            .into_iter()
            .map(|(v, n)| (v.to_string(), n))
            .collect();
        if self.other > 0 {
            *map.entry(OTHER.to_string()).or_default() += self.other;
        }
        map
    }
}

#[derive(Debug, Default)]
struct Tally {
    /// Total times of the successful answers, in milliseconds.
    samples: Vec<f64>,
    ttfbs: Vec<f64>,
    bytes: Vec<f64>,
    messages: BTreeMap<String, u64>,
    /// Answers by status.
    status: BTreeMap<u16, u64>,
    /// Failed requests and error statuses, by kind: the row's errors.
    kinds: Failures,
    cache: Shared,
    servers: Shared,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Failed(f) => {
                count_capped(&mut self.messages, &f.message);
                let kind = match f.kind {
                    Kind::Connect => &mut self.kinds.connect,
                    Kind::Closed => &mut self.kinds.closed,
                    Kind::Timeout => &mut self.kinds.timeout,
                    Kind::Other => &mut self.kinds.other,
                };
                *kind += 1;
            }
            Outcome::Answer(a) => self.add_answer(a),
        }
    }

    fn add_answer(&mut self, a: &Answer) {
        *self.status.entry(a.status).or_default() += 1;
        if let Some(c) = &a.cache {
            self.cache.add(c);
        }
        if let Some(s) = &a.server {
            self.servers.add(s);
        }
        if a.status >= 400 {
            self.kinds.http += 1;
            *self
                .messages
                .entry(format!("HTTP {}", a.status))
                .or_default() += 1;
        } else {
            self.samples.push(a.total);
            self.ttfbs.push(a.ttfb);
            self.bytes.push(a.bytes as f64);
        }
    }
}

/// The row of one visit measured by the built-in client.
pub(crate) fn row(labels: Labels, result: &Fetched) -> Row {
    let mut tally = Tally::default();
    for outcome in &result.outcomes {
        tally.add(outcome);
    }
    let successes = tally.samples.len();
    let mut row = labels.row(tally.samples);
    row.requests = result.outcomes.len() as u64;
    row.errors = tally.kinds.total();
    row.error_messages = tally.messages;
    row.rps = rate(successes, result.wall.as_secs_f64());
    row.page.ttfb_median = median(&tally.ttfbs);
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
    row.page.bytes = mean(&tally.bytes);
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
pub(crate) fn rate(successes: usize, seconds: f64) -> Option<f64> {
    (seconds > 0.0 && seconds.is_finite()).then(|| successes as f64 / seconds)
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
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
    use crate::failure::Failure;
    use crate::job::Job;
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
        Fetched {
            outcomes,
            wall: Duration::from_millis(500),
        }
    }

    #[test]
    fn only_successful_answers_are_samples() {
        let r = row(
            labels(),
            &result(vec![
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
    fn a_dead_server_has_no_time() {
        let r = row(
            labels(),
            &result(vec![Outcome::Failed(Failure::new("Connection refused"))]),
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

    #[test]
    fn what_a_tool_counts_is_capped_as_the_built_in_client_caps_it() {
        let statuses: BTreeMap<String, u64> = (200..1000u64).map(|c| (c.to_string(), c)).collect();
        let kept = capped(statuses);
        assert_eq!(kept.len(), MAX_DISTINCT);
        assert_eq!(kept.values().sum::<u64>(), (200..1000u64).sum::<u64>());
        assert!(kept.contains_key("999") && !kept.contains_key("200"));
        let messages: BTreeMap<String, u64> = (0..500)
            .map(|i| (format!("{i}{}", "x".repeat(20_000)), 1))
            .collect();
        let kept = capped(messages);
        assert_eq!(kept.len(), MAX_DISTINCT);
        assert_eq!(kept[OTHER], 500 - (MAX_DISTINCT as u64 - 1));
        assert!(
            kept.keys()
                .all(|k| k.chars().count() <= MAX_VALUE_CHARS + 3)
        );
        let few = BTreeMap::from([("200".to_string(), 3)]);
        assert_eq!(capped(few.clone()), few);
    }
}
