//! k6's per-request output (`--out json=FILE`), read as it streams into
//! the samples of each series yardstick's script tagged.
//!
//! Every request k6 makes writes about thirteen lines of some 230 bytes
//! (one `Point` per built-in metric), so a 100,000-request run is some
//! 300 MB: it is read line by line, and a line is parsed only when a cheap
//! substring test says it is a point of one of the four metrics kept. From
//! the rest nothing is kept. yardstick computes every figure from the raw
//! values, never from k6's summary.
//!
//! The four metrics, and what each request gives:
//! - `http_req_duration` and `http_req_waiting` (the time to the first
//!   byte): a value each, kept when the answer was one k6 expected
//!   (`expected_response` tag `true`);
//! - `http_req_failed`: 0 or 1, so every request is counted once, as a
//!   success or as a failure by its status or error;
//! - `http_reqs`: its time, so a series' requests per second stand on the
//!   span its requests were made in.
//!
//! A request tagged `warmup` is dropped whole: it warmed its connection.

use serde::Deserialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;

/// Where a request was measured: the tags the script gives every request.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SeriesKey {
    /// The page's key (k6's `name` tag, so `--cold`'s unique URLs are one
    /// series).
    pub page: String,
    /// The server's label.
    pub server: String,
    /// The round, from 1.
    pub round: u32,
}

/// What the requests of one series gave. Times in milliseconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Samples {
    /// The duration of each successful request.
    pub durations: Vec<f64>,
    /// The time to the first byte of each successful request.
    pub waiting: Vec<f64>,
    /// Requests that succeeded.
    pub succeeded: u64,
    /// Requests that failed, by status or error.
    pub failures: BTreeMap<String, u64>,
    /// The first and last time a request was counted, in seconds since
    /// the Unix epoch.
    pub span: Option<(f64, f64)>,
    /// The execution segments the requests came from (empty without).
    pub segments: BTreeSet<String>,
}

impl Samples {
    /// Requests counted, succeeded and failed.
    pub fn requests(&self) -> u64 {
        self.succeeded + self.failures.values().sum::<u64>()
    }

    /// Adds `other`'s requests, as one instance's samples merge with
    /// another's: counts add, and the values are pooled, never averaged.
    pub fn merge(&mut self, other: Samples) {
        self.durations.extend(other.durations);
        self.waiting.extend(other.waiting);
        self.succeeded += other.succeeded;
        for (why, n) in other.failures {
            *self.failures.entry(why).or_default() += n;
        }
        self.span = match (self.span, other.span) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (span, None) | (None, span) => span,
        };
        self.segments.extend(other.segments);
    }
}

/// Why k6's output could not be read: the line, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The line, from 1.
    pub line: u64,
    /// What is wrong with it.
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The metrics kept, as they appear in a point's line.
const KEPT: [&str; 4] = [
    "\"metric\":\"http_req_duration\"",
    "\"metric\":\"http_req_waiting\"",
    "\"metric\":\"http_req_failed\"",
    "\"metric\":\"http_reqs\"",
];

/// One line of the output, as far as it is read.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    metric: Cow<'a, str>,
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    data: Data<'a>,
}

#[derive(Deserialize)]
struct Data<'a> {
    #[serde(borrow)]
    time: Option<Cow<'a, str>>,
    value: Option<f64>,
    #[serde(borrow, default)]
    tags: Option<Tags<'a>>,
}

/// The tags read; k6's others are skipped.
#[derive(Deserialize, Default)]
struct Tags<'a> {
    #[serde(borrow, default)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    server: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    round: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    segment: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    warmup: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    status: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    error: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    expected_response: Option<Cow<'a, str>>,
}

/// Reads k6's JSON output to its end: each series' samples. A line that
/// is not JSON, a point without the script's tags, or a last line cut
/// short is an error naming the line: a run read in part is never
/// presented as whole.
pub fn read(mut input: impl BufRead) -> Result<BTreeMap<SeriesKey, Samples>, ReadError> {
    let mut series: BTreeMap<SeriesKey, Samples> = BTreeMap::new();
    let mut number = 0;
    let mut line = Vec::new();
    loop {
        line.clear();
        number += 1;
        let error = |message: String| ReadError {
            line: number,
            message,
        };
        let read = input
            .read_until(b'\n', &mut line)
            .map_err(|e| error(format!("cannot read: {e}")))?;
        if read == 0 {
            break;
        }
        // k6 ends every line: one without its end was cut short, whatever
        // metric it was of.
        if line.pop() != Some(b'\n') {
            return Err(error("cut short: the output ends inside a line".into()));
        }
        let text = std::str::from_utf8(&line).map_err(|_| error("not UTF-8".into()))?;
        if text.trim().is_empty() || !KEPT.iter().any(|m| text.contains(m)) {
            continue;
        }
        let parsed: Line =
            serde_json::from_str(text).map_err(|e| error(format!("not k6's JSON: {e}")))?;
        if parsed.kind != "Point" {
            continue;
        }
        add(&mut series, &parsed).map_err(error)?;
    }
    Ok(series)
}

/// Adds one point to its series.
fn add(series: &mut BTreeMap<SeriesKey, Samples>, line: &Line) -> Result<(), String> {
    let tags = line.data.tags.as_ref().ok_or("a point without tags")?;
    if tags.warmup.as_deref() == Some("1") {
        return Ok(());
    }
    let key = SeriesKey {
        page: tags
            .name
            .as_deref()
            .ok_or("a point without a name tag")?
            .to_string(),
        server: tags
            .server
            .as_deref()
            .ok_or("a point without a server tag")?
            .to_string(),
        round: tags
            .round
            .as_deref()
            .and_then(|r| r.parse().ok())
            .ok_or("a point without a round tag")?,
    };
    let value = line
        .data
        .value
        .filter(|v| v.is_finite())
        .ok_or("a point without a value")?;
    let samples = series.entry(key).or_default();
    if let Some(segment) = &tags.segment {
        samples.segments.insert(segment.to_string());
    }
    let expected = tags.expected_response.as_deref() == Some("true");
    match line.metric.as_ref() {
        "http_req_duration" if expected => samples.durations.push(value),
        "http_req_waiting" if expected => samples.waiting.push(value),
        "http_req_failed" if value == 0.0 => samples.succeeded += 1,
        "http_req_failed" => {
            let why = match (&tags.error, &tags.status) {
                (Some(error), _) if !error.is_empty() => error.to_string(),
                (_, Some(status)) if status != "0" => format!("status {status}"),
                _ => "failed".to_string(),
            };
            *samples.failures.entry(why).or_default() += 1;
        }
        "http_reqs" => {
            let time = line.data.time.as_deref().ok_or("a point without a time")?;
            let at = seconds(time).ok_or_else(|| format!("time `{time}` is not RFC 3339"))?;
            samples.span = Some(
                samples
                    .span
                    .map_or((at, at), |(a, b)| (a.min(at), b.max(at))),
            );
        }
        _ => {}
    }
    Ok(())
}

/// An RFC 3339 time as k6 writes it (`2026-12-03T20:31:23.224185011Z`, or
/// with an offset) in seconds since the Unix epoch.
fn seconds(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let digits = |at: usize, n: usize| -> Option<i64> {
        let part = text.get(at..at + n)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let (year, month, day) = (digits(0, 4)?, digits(5, 2)?, digits(8, 2)?);
    let (hour, minute, second) = (digits(11, 2)?, digits(14, 2)?, digits(17, 2)?);
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut rest = &text[19..];
    let mut fraction = 0.0;
    if let Some(after) = rest.strip_prefix('.') {
        let n = after.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        fraction = format!("0.{}", &after[..n]).parse().ok()?;
        rest = &after[n..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            sign * (digits(text.len() - 5, 2)? * 3600 + digits(text.len() - 2, 2)? * 60)
        }
    };
    let days = days_from_civil(year, month, day);
    let whole = days * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Some(whole as f64 + fraction)
}

/// Days from 1970-01-01 to the given date of the proleptic Gregorian
/// calendar (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests;
