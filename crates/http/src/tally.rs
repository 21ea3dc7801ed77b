//! What a page's requests came to, counted as the answers arrive, in room
//! that does not grow with the requests.
//!
//! Each worker thread counts its slots' outcomes into a [`Tally`] as they
//! finish; a batch adds its threads' tallies, and a visit its batches'.
//! No list of outcomes is kept: at a million requests, one took 160 MB.
//! Times are kept one by one up to [`KEPT`] answers, so every ordinary
//! run saves each sample and exact figures; past that, [`Times`] counts
//! them in buckets instead (see `document::histogram`).
//!
//! Only successful answers (status below 400) are timed: a refused
//! connection has no time, and an error page answered fast must not make
//! a broken server look fast.

use super::client::{Answer, Outcome};
use crate::document::failures::Failures;
use crate::document::histogram::{Bucket, Histogram};
use crate::stats::Summary;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most answers whose times a page's row keeps one by one: 800 KB of
/// times in memory, about 2 MB saved. Past it, a row keeps buckets of a
/// few hundred KB at most, however many requests are made.
pub(crate) const KEPT: usize = 100_000;

/// Significant decimal digits of a bucket: each is at most a thousandth
/// of its time wide.
const DIGITS: u8 = 3;

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

fn count_capped(counts: &mut BTreeMap<String, u64>, value: &str, n: u64) {
    if let Some(had) = counts.get_mut(value) {
        *had += n;
    } else if counts.len() < MAX_DISTINCT {
        counts.insert(value.to_string(), n);
    } else {
        *counts.entry(OTHER.to_string()).or_default() += n;
    }
}

/// Counts of a header's words as answers share them: an answer mostly
/// carries the very text the last one did (one `Arc`), so its count is
/// found by a pointer before any text is compared, and no text is copied
/// until the row is made. Capped as [`capped`] caps.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    counts: Vec<(Arc<str>, u64)>,
    other: u64,
}

impl Shared {
    fn add(&mut self, value: &Arc<str>, n: u64) {
        let known = self.counts.len();
        let found = self
            .counts
            .iter_mut()
            .find(|(v, _)| Arc::ptr_eq(v, value) || v == value);
        match found {
            Some((_, had)) => *had += n,
            None if known < MAX_DISTINCT => self.counts.push((Arc::clone(value), n)),
            None => self.other += n,
        }
    }

    fn merge(&mut self, other: Shared) {
        for (value, n) in &other.counts {
            self.add(value, *n);
        }
        self.other += other.other;
    }

    pub(crate) fn into_map(self) -> BTreeMap<String, u64> {
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

/// The times of a page's successful answers, in milliseconds: each kept
/// up to [`KEPT`], then counted in buckets. The count, the fastest, the
/// slowest, the mean and the standard deviation stay exact either way
/// (kept as they come); past [`KEPT`], the percentiles are the top of
/// their bucket, at most a thousandth above the nearest-rank percentile.
#[derive(Debug, Default)]
pub(crate) struct Times {
    /// Every time, while there are at most [`KEPT`]; then none.
    kept: Vec<f64>,
    /// Every time, in nanoseconds, once there were more than [`KEPT`].
    buckets: Option<hdrhistogram::Histogram<u64>>,
    moments: Moments,
}

impl Times {
    fn add(&mut self, ms: f64) {
        self.moments.add(ms);
        match &mut self.buckets {
            Some(buckets) => record(buckets, nanos(ms), 1),
            None if self.kept.len() < KEPT => self.kept.push(ms),
            None => record(self.bucketed(), nanos(ms), 1),
        }
    }

    fn merge(&mut self, other: Times) {
        self.moments.merge(&other.moments);
        if self.buckets.is_none()
            && other.buckets.is_none()
            && self.kept.len() + other.kept.len() <= KEPT
        {
            self.kept.extend(other.kept);
            return;
        }
        let buckets = self.bucketed();
        for ms in other.kept {
            record(buckets, nanos(ms), 1);
        }
        if let Some(theirs) = other.buckets {
            // Both grow to any time, so adding cannot fail; were it to,
            // each bucket is recorded on its own.
            if buckets.add(&theirs).is_err() {
                for v in theirs.iter_recorded() {
                    record(buckets, v.value_iterated_to(), v.count_at_value());
                }
            }
        }
    }

    /// The buckets, made from the kept times the first time they are
    /// needed.
    fn bucketed(&mut self) -> &mut hdrhistogram::Histogram<u64> {
        let kept = std::mem::take(&mut self.kept);
        self.buckets.get_or_insert_with(|| {
            let mut buckets = hdrhistogram::Histogram::new(DIGITS)
                .unwrap_or_else(|_| unreachable!("three digits are within HdrHistogram's range"));
            for ms in kept {
                record(&mut buckets, nanos(ms), 1);
            }
            buckets
        })
    }

    /// Times counted.
    pub(crate) fn len(&self) -> u64 {
        self.moments.n
    }

    /// Whether the times are counted in buckets, no longer kept.
    pub(crate) fn is_bucketed(&self) -> bool {
        self.buckets.is_some()
    }

    /// Their median; none without a time.
    pub(crate) fn median(&self) -> Option<f64> {
        match &self.buckets {
            None => crate::stats::median(&self.kept),
            Some(_) if self.moments.n == 0 => None,
            Some(buckets) => Some(millis(buckets.value_at_quantile(0.5))),
        }
    }

    /// Their figures; none without a time.
    pub(crate) fn summary(&self) -> Option<Summary> {
        let Some(buckets) = &self.buckets else {
            return Summary::of(&self.kept);
        };
        let m = &self.moments;
        let n = usize::try_from(m.n).ok().filter(|n| *n > 0)?;
        let at = |q: f64| millis(buckets.value_at_quantile(q));
        Some(Summary {
            n,
            min: m.min,
            mean: m.mean,
            median: at(0.5),
            p90: at(0.9),
            p95: at(0.95),
            p99: at(0.99),
            max: m.max,
            stddev: m.stddev(),
        })
    }

    /// What a row saves of them: every time, or the buckets.
    pub(crate) fn into_saved(self) -> (Vec<f64>, Option<Histogram>) {
        match self.buckets {
            None => (self.kept, None),
            Some(buckets) => {
                let saved = buckets
                    .iter_recorded()
                    .map(|v| Bucket {
                        ms: millis(v.value_iterated_to()),
                        count: v.count_at_value(),
                    })
                    .collect();
                (
                    Vec::new(),
                    Some(Histogram {
                        digits: DIGITS,
                        buckets: saved,
                    }),
                )
            }
        }
    }
}

/// The count, extremes, mean and squared deviations of times as they
/// come (Welford's update, and Chan's for adding two), exact whatever
/// becomes of the times themselves.
#[derive(Debug, Clone, Copy)]
struct Moments {
    n: u64,
    mean: f64,
    /// The sum of squared deviations from the mean.
    m2: f64,
    min: f64,
    max: f64,
}

impl Default for Moments {
    fn default() -> Moments {
        Moments {
            n: 0,
            mean: 0.0,
            m2: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }
}

impl Moments {
    fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    fn merge(&mut self, other: &Moments) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let n = self.n + other.n;
        let delta = other.mean - self.mean;
        let (a, b) = (self.n as f64, other.n as f64);
        self.mean += delta * b / n as f64;
        self.m2 += other.m2 + delta * delta * a * b / n as f64;
        self.n = n;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Sample standard deviation, as `Summary` gives it: 0 for one time.
    fn stddev(&self) -> f64 {
        if self.n > 1 {
            (self.m2.max(0.0) / (self.n - 1) as f64).sqrt()
        } else {
            0.0
        }
    }
}

/// Counts `n` times of `ns` nanoseconds, the buckets growing to take
/// them; a time past what they can grow to is counted in the last.
fn record(buckets: &mut hdrhistogram::Histogram<u64>, ns: u64, n: u64) {
    if buckets.record_n(ns, n).is_err() {
        buckets.saturating_record_n(ns, n);
    }
}

/// A time in milliseconds as whole nanoseconds; none below zero (no
/// clock gives one).
fn nanos(ms: f64) -> u64 {
    (ms * 1e6).round() as u64
}

fn millis(ns: u64) -> f64 {
    ns as f64 / 1e6
}

/// Everything a row says of a page's requests.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Every request: answered or not.
    pub(crate) requests: u64,
    /// Total times of the successful answers.
    pub(crate) times: Times,
    /// Their times to the response head.
    pub(crate) ttfbs: Times,
    /// Body bytes of the successful answers, together.
    pub(crate) bytes: u64,
    pub(crate) messages: BTreeMap<String, u64>,
    /// Answers by status.
    pub(crate) status: BTreeMap<u16, u64>,
    /// Failed requests and error statuses, by kind: the row's errors.
    pub(crate) kinds: Failures,
    pub(crate) cache: Shared,
    pub(crate) servers: Shared,
}

impl Tally {
    pub(crate) fn add(&mut self, outcome: &Outcome) {
        self.requests += 1;
        match outcome {
            Outcome::Failed(f) => {
                count_capped(&mut self.messages, &f.message, 1);
                self.kinds.add(f.kind, 1);
            }
            Outcome::Answer(a) => self.add_answer(a),
        }
    }

    fn add_answer(&mut self, a: &Answer) {
        *self.status.entry(a.status).or_default() += 1;
        if let Some(c) = &a.cache {
            self.cache.add(c, 1);
        }
        if let Some(s) = &a.server {
            self.servers.add(s, 1);
        }
        if a.status >= 400 {
            // Its words (`HTTP 503`) are made once per row, from `status`.
            self.kinds.http += 1;
        } else {
            self.times.add(a.total);
            self.ttfbs.add(a.ttfb);
            self.bytes = self.bytes.saturating_add(a.bytes);
        }
    }

    /// The row's error messages: each failure's words, then each error
    /// status as `HTTP 503`, capped together.
    pub(crate) fn messages(&self) -> BTreeMap<String, u64> {
        let mut messages = self.messages.clone();
        for (status, n) in self.status.range(400..) {
            count_capped(&mut messages, &format!("HTTP {status}"), *n);
        }
        messages
    }

    /// Adds what `other` counted, as if each of its outcomes were added.
    pub(crate) fn merge(&mut self, other: Tally) {
        self.requests += other.requests;
        self.times.merge(other.times);
        self.ttfbs.merge(other.ttfbs);
        self.bytes = self.bytes.saturating_add(other.bytes);
        for (message, n) in &other.messages {
            count_capped(&mut self.messages, message, *n);
        }
        for (status, n) in other.status {
            *self.status.entry(status).or_default() += n;
        }
        let k = other.kinds;
        self.kinds.connect += k.connect;
        self.kinds.closed += k.closed;
        self.kinds.timeout += k.timeout;
        self.kinds.http += k.http;
        self.kinds.other += k.other;
        self.cache.merge(other.cache);
        self.servers.merge(other.servers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::Failure;
    use proptest::prelude::*;

    fn answer(total: f64, status: u16) -> Outcome {
        Outcome::Answer(Answer {
            total,
            ttfb: total / 2.0,
            status,
            bytes: 10,
            cache: Some(Arc::from("HIT")),
            server: None,
        })
    }

    #[test]
    fn up_to_the_kept_number_every_time_is_kept_and_exact() {
        let mut t = Times::default();
        for i in 0..KEPT {
            t.add(i as f64);
        }
        let s = t.summary().unwrap();
        let exact = Summary::of(&(0..KEPT).map(|i| i as f64).collect::<Vec<_>>()).unwrap();
        assert_eq!(s, exact);
        let (kept, histogram) = t.into_saved();
        assert_eq!((kept.len(), histogram), (KEPT, None));
    }

    #[test]
    fn past_the_kept_number_the_times_are_bucketed() {
        // 0.001 to 150 ms: three decades, as a loaded server answers.
        let times: Vec<f64> = (1..=150_000).map(|i| f64::from(i) / 1000.0).collect();
        let mut t = Times::default();
        for &ms in &times {
            t.add(ms);
        }
        let s = t.summary().unwrap();
        let exact = Summary::of(&times).unwrap();
        assert_eq!((s.n, s.min, s.max), (exact.n, exact.min, exact.max));
        assert!((s.mean - exact.mean).abs() <= 1e-9 * exact.mean);
        assert!((s.stddev - exact.stddev).abs() <= 1e-9 * exact.stddev);
        for (got, want) in [
            (s.median, exact.median),
            (s.p90, exact.p90),
            (s.p95, exact.p95),
            (s.p99, exact.p99),
        ] {
            assert!(got >= want - 0.001, "{got} below {want}");
            assert!(got <= want * 1.001 + 0.001, "{got} far above {want}");
        }
        let (kept, histogram) = t.into_saved();
        assert!(kept.is_empty());
        let histogram = histogram.unwrap();
        assert_eq!(histogram.count(), 150_000);
        assert!(histogram.buckets.len() < 10_000);
    }

    #[test]
    fn a_merge_counts_as_adding_each_time() {
        for (a, b) in [(10, 20), (KEPT - 5, 10), (KEPT + 5, 3), (3, KEPT + 7)] {
            let values = |n: usize, at: usize| -> Vec<f64> {
                (0..n)
                    .map(|i| ((i * 7919 + at) % 1000) as f64 / 10.0)
                    .collect()
            };
            let (xs, ys) = (values(a, 1), values(b, 2));
            let (mut left, mut right, mut whole) =
                (Times::default(), Times::default(), Times::default());
            xs.iter().for_each(|&x| left.add(x));
            ys.iter().for_each(|&y| right.add(y));
            xs.iter().chain(&ys).for_each(|&v| whole.add(v));
            left.merge(right);
            let (l, w) = (left.summary().unwrap(), whole.summary().unwrap());
            assert_eq!(
                (l.n, l.min, l.max, l.median, l.p99),
                (w.n, w.min, w.max, w.median, w.p99)
            );
            assert!((l.mean - w.mean).abs() < 1e-9 && (l.stddev - w.stddev).abs() < 1e-9);
            assert_eq!(left.into_saved(), whole.into_saved());
        }
    }

    #[test]
    fn a_tally_merged_is_the_tally_of_both() {
        let outcomes = [
            answer(2.0, 200),
            answer(0.5, 404),
            Outcome::Failed(Failure::new("Connection refused")),
            answer(4.0, 200),
        ];
        let (mut a, mut b, mut whole) = (Tally::default(), Tally::default(), Tally::default());
        for (i, o) in outcomes.iter().enumerate() {
            if i % 2 == 0 { &mut a } else { &mut b }.add(o);
            whole.add(o);
        }
        a.merge(b);
        assert_eq!((a.requests, a.bytes), (4, 20));
        assert_eq!(
            (a.messages, a.status, a.kinds),
            (whole.messages, whole.status, whole.kinds)
        );
        assert_eq!(a.times.summary(), whole.times.summary());
        assert_eq!(a.cache.into_map(), whole.cache.into_map());
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

    proptest! {
        #[test]
        fn bucketed_percentiles_stay_within_a_thousandth(
            times in prop::collection::vec(0.0f64..10_000.0, 1..400),
        ) {
            let mut t = Times::default();
            times.iter().for_each(|&ms| t.add(ms));
            let exact = t.summary().unwrap();
            t.bucketed();
            let s = t.summary().unwrap();
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            for (q, got) in [(0.5, s.median), (0.9, s.p90), (0.99, s.p99)] {
                // The nearest-rank percentile, which HdrHistogram reports.
                let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
                let want = sorted[rank - 1];
                prop_assert!(got >= want - 1e-6, "{} below {}", got, want);
                prop_assert!(got <= want * 1.001 + 1e-6, "{} far above {}", got, want);
            }
            prop_assert_eq!((s.n, s.min, s.max), (exact.n, exact.min, exact.max));
        }
    }
}
