//! The lines a worker and its parent exchange, one type per kind of line,
//! each with the one way to read it (`parse`) and the one way to write it
//! (`Display`), so that the server and the client cannot disagree.
//!
//! The worker prepares and verifies its probes, then writes one JSON line,
//! a [`Greeting`] (its probes, and each one's result fingerprint). Then,
//! per [`Request`] line, one [`Answer`] line:
//!
//! - `warm NAME BATCH COUNT` runs COUNT untimed samples: `ok`;
//! - `time NAME BATCH` times one sample: milliseconds per iteration;
//!
//! or `error MESSAGE` (the probe failed its set-up or check, or panicked,
//! and stays failed). End of input ends the worker.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// What a worker offers, its first line: every selected probe, ready or
/// failed. The parent learns from it which probes it can ask for, the
/// batch each would take, and each verified probe's result fingerprint
/// (the saved row's `checksum`), so that it can tell whether two builds do
/// the same work.
///
/// The fingerprints sit under a key of their own, absent when there are
/// none, so the line stays one every parent and worker reads: a parent
/// built before them skips the unknown key, and a worker built before them
/// writes none, which reads as none. A token appended to each `time`
/// answer instead would make an older parent fail on every answer of a
/// newer worker.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Greeting {
    /// One offer per selected probe, in the worker's order.
    pub probes: Vec<Offer>,
    /// Probe name → fingerprint (16 hex digits), for the probes that have
    /// one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub checksums: BTreeMap<String, String>,
}

/// One probe of a worker, as its greeting describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    /// The probe's registered name: what requests ask for.
    pub name: String,
    /// Operations one iteration stands for (the saved row's `ops`).
    pub ops: u64,
    /// What the probe says it measured (empty when it failed).
    pub note: String,
    /// The batch the worker would pick (a sample of about a millisecond);
    /// absent when the probe failed.
    pub batch: Option<u64>,
    /// Why the probe cannot be timed, if it cannot.
    pub error: Option<String>,
}

impl Greeting {
    /// Reads a greeting line; the error says why it is not one.
    pub fn parse(line: &str) -> Result<Greeting, String> {
        serde_json::from_str(line).map_err(|e| e.to_string())
    }
}

impl fmt::Display for Greeting {
    /// The greeting as one line of JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&line)
    }
}

/// What the parent asks of a worker, one line each.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `warm NAME BATCH COUNT`: COUNT untimed samples of BATCH iterations.
    Warm {
        /// The probe's name.
        probe: String,
        /// Iterations per sample, at least 1.
        batch: u64,
        /// Untimed samples to run.
        count: usize,
    },
    /// `time NAME BATCH`: one timed sample of BATCH iterations.
    Time {
        /// The probe's name.
        probe: String,
        /// Iterations in the sample, at least 1.
        batch: u64,
    },
}

impl Request {
    /// Reads a request line; the error is the message the worker answers
    /// with (see [`Answer::Error`]).
    pub(crate) fn parse(line: &str) -> Result<Request, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (probe, batch, count) = match words.as_slice() {
            ["time", probe, batch] => (*probe, *batch, None),
            ["warm", probe, batch, count] => (*probe, *batch, Some(*count)),
            _ => return Err(format!("unknown request `{line}`")),
        };
        let bad = || format!("bad numbers in `{line}`");
        let batch = batch
            .parse::<u64>()
            .ok()
            .filter(|b| *b > 0)
            .ok_or_else(bad)?;
        let probe = probe.to_string();
        match count {
            None => Ok(Request::Time { probe, batch }),
            Some(count) => {
                let count = count.parse().map_err(|_| bad())?;
                Ok(Request::Warm {
                    probe,
                    batch,
                    count,
                })
            }
        }
    }

    /// The probe the request is for.
    pub(crate) fn probe(&self) -> &str {
        match self {
            Request::Warm { probe, .. } | Request::Time { probe, .. } => probe,
        }
    }
}

impl fmt::Display for Request {
    /// The request line, without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Warm {
                probe,
                batch,
                count,
            } => write!(f, "warm {probe} {batch} {count}"),
            Request::Time { probe, batch } => write!(f, "time {probe} {batch}"),
        }
    }
}

/// A worker's answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// `ok`: the warm-up samples ran.
    Warmed,
    /// The timed sample, in milliseconds per iteration: finite, not
    /// negative.
    Time(f64),
    /// `error MESSAGE`: the probe failed (or the request was wrong), and a
    /// probe that failed stays failed.
    Error(String),
}

impl Answer {
    /// Reads an answer line; `None` when it is none of the three.
    pub fn parse(line: &str) -> Option<Answer> {
        if let Some(message) = line.strip_prefix("error ") {
            return Some(Answer::Error(message.to_string()));
        }
        if line == "ok" {
            return Some(Answer::Warmed);
        }
        match line.parse::<f64>() {
            Ok(ms) if ms.is_finite() && ms >= 0.0 => Some(Answer::Time(ms)),
            _ => None,
        }
    }
}

impl fmt::Display for Answer {
    /// The answer line, without its newline; a time is written in full
    /// precision (`{:e}`). An error message keeps to its line: a panic
    /// message with a newline would otherwise send half of itself as the
    /// next answer, and the parent would give up on the whole comparison.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Warmed => f.write_str("ok"),
            Answer::Time(ms) => write!(f, "{ms:e}"),
            Answer::Error(message) => {
                write!(f, "error {}", message.replace(['\n', '\r'], " "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_what_they_write() {
        for request in [
            Request::Warm {
                probe: "a".into(),
                batch: 20,
                count: 3,
            },
            Request::Time {
                probe: "a".into(),
                batch: 1,
            },
        ] {
            let line = request.to_string();
            assert_eq!(Request::parse(&line), Ok(request), "{line}");
        }
        assert_eq!(
            Request::parse("time a 7").map(|r| r.to_string()).as_deref(),
            Ok("time a 7")
        );
    }

    #[test]
    fn wrong_requests_say_what_is_wrong() {
        for (line, start) in [
            ("sing", "unknown request"),
            ("time a", "unknown request"),
            ("warm a 1", "unknown request"),
            ("time a 0", "bad numbers"),
            ("time a x", "bad numbers"),
            ("warm a 1 x", "bad numbers"),
        ] {
            let message = Request::parse(line).unwrap_err();
            assert!(message.starts_with(start), "{line}: {message}");
            assert!(message.ends_with(&format!("`{line}`")), "{message}");
        }
    }

    #[test]
    fn answers_read_what_they_write() {
        for answer in [
            Answer::Warmed,
            Answer::Time(0.001),
            Answer::Time(1.5e-7),
            Answer::Error("check failed: 2".into()),
        ] {
            let line = answer.to_string();
            assert_eq!(Answer::parse(&line), Some(answer), "{line}");
        }
        assert_eq!(Answer::Time(0.004).to_string(), "4e-3");
        let multiline = Answer::Error("panicked: a\nb\r\nc".into()).to_string();
        assert_eq!(multiline, "error panicked: a b  c");
        for line in ["", "okay", "-1", "NaN", "inf", "error"] {
            assert_eq!(Answer::parse(line), None, "{line}");
        }
    }

    #[test]
    fn a_greeting_is_one_line_of_json() {
        let greeting = Greeting {
            probes: vec![Offer {
                name: "a".into(),
                ops: 2,
                note: "n".into(),
                batch: None,
                error: Some("no input".into()),
            }],
            ..Greeting::default()
        };
        let line = greeting.to_string();
        assert_eq!(
            line,
            r#"{"probes":[{"name":"a","ops":2,"note":"n","batch":null,"error":"no input"}]}"#
        );
        assert_eq!(Greeting::parse(&line), Ok(greeting));
        assert!(Greeting::parse("--bench").is_err());
    }

    #[test]
    fn fingerprints_ride_beside_the_offers_for_old_and_new_readers() {
        let old = r#"{"probes":[{"name":"a","ops":1,"note":"","batch":3,"error":null}]}"#;
        let mut greeting = read_greeting(old);
        // An older worker's greeting has none, and without them the line is
        // the old greeting, byte for byte.
        assert!(greeting.checksums.is_empty());
        assert_eq!(greeting.to_string(), old);
        greeting.checksums = BTreeMap::from([("a".to_string(), "00000000000013ba".to_string())]);
        let line = greeting.to_string();
        assert_eq!(
            line,
            r#"{"probes":[{"name":"a","ops":1,"note":"","batch":3,"error":null}],"checksums":{"a":"00000000000013ba"}}"#
        );
        assert_eq!(Greeting::parse(&line), Ok(greeting));
        // A parent that knows no fingerprints reads the offers as before.
        #[derive(Deserialize)]
        struct OlderParent {
            probes: Vec<Offer>,
        }
        let older: OlderParent = serde_json::from_str(&line).unwrap();
        assert_eq!(older.probes.len(), 1);
    }

    fn read_greeting(line: &str) -> Greeting {
        Greeting::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }
}
