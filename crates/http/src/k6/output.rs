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
//!
//! A timed run's script ends each instance with its end mark
//! (`yardstick_end`): the iterations the instance completed, each of which
//! made one measured request. An output without it was cut short; one
//! with fewer requests than it lost its start (a pod log rotated).

use super::series::{Output, Samples, SeriesKey};
use crate::rows::FAILED;
use serde::Deserialize;
use std::borrow::Cow;
use std::io::BufRead;

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

/// The longest line read: k6's are a few hundred bytes.
const MAX_LINE: usize = 1 << 20;

/// The metrics kept, as they appear in a point's line.
const KEPT: [&str; 6] = [
    "\"metric\":\"dropped_iterations\"",
    "\"metric\":\"yardstick_end\"",
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
    #[serde(borrow, default)]
    proto: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    scenario: Option<Cow<'a, str>>,
}

/// k6's JSON output read as it comes: give it the bytes in order
/// ([`Reader::feed`], or as a process's output sink), then
/// [`Reader::finish`]. It holds one line at a time and the samples kept,
/// never the output.
#[derive(Debug, Default)]
pub struct Reader {
    output: Output,
    /// The line being read, from 1.
    number: u64,
    /// The start of a line whose end has not come yet.
    partial: Vec<u8>,
    /// The first error: what follows it is not read.
    error: Option<ReadError>,
}

impl Reader {
    /// A reader that has read nothing.
    pub fn new() -> Reader {
        Reader::default()
    }

    /// Reads the next bytes of the output.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while self.error.is_none() {
            let Some(end) = bytes.iter().position(|&b| b == b'\n') else {
                self.partial.extend_from_slice(bytes);
                if self.partial.len() > MAX_LINE {
                    self.error = Some(ReadError {
                        line: self.number + 1,
                        message: format!("a line longer than {MAX_LINE} bytes: not k6's output"),
                    });
                }
                return;
            };
            let (line, rest) = (&bytes[..end], &bytes[end + 1..]);
            bytes = rest;
            self.number += 1;
            let result = if self.partial.len() + line.len() > MAX_LINE {
                Err(format!(
                    "a line longer than {MAX_LINE} bytes: not k6's output"
                ))
            } else if self.partial.is_empty() {
                self.line(line)
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(line);
                self.line(&whole)
            };
            if let Err(message) = result {
                self.error = Some(ReadError {
                    line: self.number,
                    message,
                });
            }
        }
    }

    /// Each series' samples, once the output has ended. A line that is not
    /// JSON, a point without the script's tags, or a last line cut short is
    /// an error naming the line: a run read in part is never presented as
    /// whole.
    pub fn finish(self) -> Result<Output, ReadError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        // k6 ends every line: one without its end was cut short, whatever
        // metric it was of.
        if !self.partial.is_empty() {
            return Err(ReadError {
                line: self.number + 1,
                message: "cut short: the output ends inside a line".into(),
            });
        }
        Ok(self.output)
    }

    /// Reads one whole line, its end taken off.
    fn line(&mut self, line: &[u8]) -> Result<(), String> {
        let text = std::str::from_utf8(line).map_err(|_| "not UTF-8".to_string())?;
        // A pod's log holds k6's own log lines (`time="..." level=...`)
        // beside its output.
        if text.trim().is_empty() || text.starts_with("time=\"") {
            return Ok(());
        }
        // Every line k6 writes is a JSON object; one that is not is
        // garbage, whatever it says.
        if !text.starts_with('{') || !text.trim_end().ends_with('}') {
            return Err("not k6's JSON: not an object".to_string());
        }
        if !KEPT.iter().any(|m| text.contains(m)) {
            return Ok(());
        }
        let parsed: Line = serde_json::from_str(text).map_err(|e| format!("not k6's JSON: {e}"))?;
        if parsed.kind != "Point" {
            return Ok(());
        }
        add(&mut self.output, &parsed)
    }
}

impl crate::process::Sink for Reader {
    fn take(&mut self, bytes: &[u8]) {
        self.feed(bytes);
    }
}

/// Reads k6's JSON output from `input` to its end: [`Reader`] over a
/// file.
pub fn read(mut input: impl BufRead) -> Result<Output, ReadError> {
    let mut reader = Reader::new();
    loop {
        let chunk = input.fill_buf().map_err(|e| ReadError {
            line: reader.number + 1,
            message: format!("cannot read: {e}"),
        })?;
        if chunk.is_empty() {
            break;
        }
        let n = chunk.len();
        reader.feed(chunk);
        input.consume(n);
        if reader.error.is_some() {
            break;
        }
    }
    reader.finish()
}

/// Adds one point: a count, or a request's.
fn add(output: &mut Output, line: &Line) -> Result<(), String> {
    let tags = line.data.tags.as_ref().ok_or("a point without tags")?;
    let (counts, key, bad) = match line.metric.as_ref() {
        // k6 writes 1 a point; a hostile file cannot make a count wrap.
        "dropped_iterations" => (&mut output.dropped, &tags.scenario, Some(1.0)),
        "yardstick_end" => (&mut output.ended, &tags.segment, None),
        _ => return add_request(output, line, tags),
    };
    let n = line
        .data
        .value
        .filter(|v| v.is_finite() && (0.0..=1e15).contains(v))
        .or(bad)
        .ok_or("an end mark without a count")?;
    let count = counts
        .entry(key.as_deref().unwrap_or_default().to_string())
        .or_default();
    *count = count.saturating_add(n as u64);
    Ok(())
}

/// Adds one point of a request to its series.
fn add_request(output: &mut Output, line: &Line, tags: &Tags) -> Result<(), String> {
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
    let samples = output.series.entry(key).or_default();
    let expected = tags.expected_response.as_deref() == Some("true");
    match line.metric.as_ref() {
        "http_req_duration" if expected => samples.durations.push(value),
        "http_req_waiting" if expected => samples.waiting.push(value),
        "http_req_failed" => samples.count(tags, value != 0.0),
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

impl Samples {
    /// Counts one request, by its `http_req_failed` point: its status, its
    /// segment and protocol, and why it failed when it did.
    fn count(&mut self, tags: &Tags, failed: bool) {
        let status = match tags.status.as_deref() {
            None | Some("0") | Some("") => FAILED.to_string(),
            Some(code) => code.to_string(),
        };
        *self.status.entry(status.clone()).or_default() += 1;
        if let Some(segment) = &tags.segment {
            *self.segments.entry(segment.to_string()).or_default() += 1;
        }
        if let Some(proto) = tags.proto.as_deref().filter(|p| !p.is_empty()) {
            self.protocols.insert(proto.to_string());
        }
        if !failed {
            self.succeeded += 1;
            return;
        }
        let why = match &tags.error {
            Some(error) if !error.is_empty() => error.to_string(),
            _ if status != FAILED => format!("HTTP {status}"),
            _ => FAILED.to_string(),
        };
        *self.failures.entry(why).or_default() += 1;
    }
}

/// An RFC 3339 time as k6 writes it (`2026-12-03T20:31:23.224185011Z`, or
/// with an offset) in seconds since the Unix epoch.
fn seconds(text: &str) -> Option<f64> {
    let t =
        time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()?;
    Some(t.unix_timestamp() as f64 + f64::from(t.nanosecond()) * 1e-9)
}

#[cfg(test)]
mod tests;
