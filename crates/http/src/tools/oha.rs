//! oha, asked for its JSON summary (`--output-format json`). oha counts
//! every answer as a success and times it, whatever its status; here an
//! answer of 400 or more is an error, and so is a `101` (which hyper hands
//! back as the answer), as with the other clients, so a row whose answers were all
//! errors gets no times, and a mixed row says in its note that oha's times
//! include the error answers. An answer cut short (the server closed before
//! the end its headers declared) is in oha's error distribution (hyper's
//! "connection closed before message completed"), an error here; hyper
//! reads past an interim 1xx answer to the final one. oha's times are in
//! seconds; its time to the first byte gives the row's TTFB median.

use super::invocation::Invocation;
use super::{Summary, kinds};
use crate::document::failures::Kind;
use crate::error::Error;
use crate::job::{Job, Protocol};
use serde_json::Value;

/// Runs oha for one page: a warm-up, then the measured requests.
pub(crate) fn measure(run: &Invocation) -> Result<Summary, Error> {
    let (url, headers) = (&run.handed.url, &run.handed.headers);
    let c = run.concurrency;
    run.counted(
        |n| args(url, n, c, run.job, headers),
        |printed| parse(&printed.stdout, run.requests),
    )
}

/// The command line for `n` requests, `c` at a time.
pub(crate) fn args(url: &str, n: u64, c: u64, o: &Job, headers: &[String]) -> Vec<String> {
    let mut a = vec![
        "--no-tui".to_string(),
        "--output-format".to_string(),
        "json".to_string(),
        "-n".to_string(),
        n.to_string(),
        "-c".to_string(),
        c.to_string(),
        "-t".to_string(),
        format!("{}ms", o.timeout.as_millis().max(1)),
        "--redirect".to_string(),
        "0".to_string(),
    ];
    if !o.keepalive {
        a.push("--disable-keepalive".to_string());
    }
    match o.protocol {
        Protocol::Http2 => a.push("--http2".to_string()),
        Protocol::Http1 | Protocol::Negotiated => {}
    }
    if o.insecure {
        a.push("--insecure".to_string());
    }
    for h in headers {
        a.push("-H".to_string());
        a.push(h.clone());
    }
    a.push(url.to_string());
    a
}

/// Reads oha's JSON summary; `requested` is the `-n` given. The error says
/// why there is none.
pub fn parse(stdout: &str, requested: u64) -> Result<Summary, String> {
    let start = stdout.find('{').ok_or("no JSON summary in oha's output")?;
    let doc: Value = serde_json::from_str(&stdout[start..])
        .map_err(|e| format!("oha's summary is not JSON: {e}"))?;
    let summary = doc.get("summary").ok_or("oha's JSON has no summary")?;
    let mut s = Summary::default();
    let answers = count_answers(&mut s, &doc);
    let failed = count_failures(&mut s, &doc);
    s.requests = answers.all.saturating_add(failed);
    if s.requests == 0 {
        return Ok(Summary::all_failed(
            requested,
            Kind::Other,
            "no request completed",
        ));
    }
    s.succeeded = answers.all.saturating_sub(answers.errors);
    let total = seconds(summary.get("total"));
    s.rps = total.filter(|t| *t > 0.0).map(|t| s.succeeded as f64 / t);
    s.bytes = summary
        .get("sizePerRequest")
        .and_then(Value::as_f64)
        .filter(|b| b.is_finite());
    if s.succeeded > 0 {
        read_times(&mut s, &doc, summary);
        if answers.errors > 0 {
            s.note = "oha's times include its error answers".to_string();
        }
    }
    Ok(s)
}

/// The answers oha got, by its status codes.
struct Answers {
    all: u64,
    /// Those of status 400 or more, an informational one, or not a status
    /// at all.
    errors: u64,
}

/// Counts `statusCodeDistribution` into `s` by code; error statuses are
/// errors.
fn count_answers(s: &mut Summary, doc: &Value) -> Answers {
    let mut answers = Answers { all: 0, errors: 0 };
    let codes = doc.get("statusCodeDistribution").and_then(Value::as_object);
    for (code, n) in codes.into_iter().flatten() {
        let n = n.as_u64().unwrap_or(0);
        answers.all = answers.all.saturating_add(n);
        s.status.insert(code.clone(), n);
        let error: Option<(Kind, String)> = match code.parse::<u16>() {
            Ok(200..=399) => None,
            Ok(c @ 100..=199) => Some((Kind::Other, crate::failure::informational(c))),
            Ok(400..) => Some((Kind::Http, format!("HTTP {code}"))),
            _ => Some((Kind::Other, format!("HTTP {code}: not a status"))),
        };
        if let Some((kind, message)) = error {
            answers.errors = answers.errors.saturating_add(n);
            s.add_failure(kind, &message, n);
        }
    }
    answers
}

/// Counts `errorDistribution` (requests without an answer) into `s`;
/// returns how many there were.
fn count_failures(s: &mut Summary, doc: &Value) -> u64 {
    let mut failed = 0u64;
    let errors = doc.get("errorDistribution").and_then(Value::as_object);
    for (message, n) in errors.into_iter().flatten() {
        let n = n.as_u64().unwrap_or(0);
        failed = failed.saturating_add(n);
        let message = without_os_code(message);
        s.add_failure(kinds::in_words(&message), &message, n);
    }
    if failed > 0 {
        s.status.insert("failed".to_string(), failed);
    }
    failed
}

/// The request times of the summary and the percentiles, in milliseconds.
fn read_times(s: &mut Summary, doc: &Value, summary: &Value) {
    s.figures.min = millis(summary.get("fastest"));
    s.figures.max = millis(summary.get("slowest"));
    s.figures.mean = millis(summary.get("average"));
    s.figures.stddev = millis(summary.get("stdDev"));
    let p = doc.get("latencyPercentiles");
    let at = |k: &str| millis(p.and_then(|p| p.get(k)));
    (
        s.figures.median,
        s.figures.p90,
        s.figures.p95,
        s.figures.p99,
    ) = (at("p50"), at("p90"), at("p95"), at("p99"));
    let first_byte = doc.get("firstBytePercentiles");
    s.ttfb_median = millis(first_byte.and_then(|p| p.get("p50")));
}

/// oha's seconds, when finite.
fn seconds(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64).filter(|x| x.is_finite())
}

/// oha's seconds in milliseconds.
fn millis(v: Option<&Value>) -> Option<f64> {
    seconds(v).map(|s| s * 1000.0)
}

/// `Connection refused (os error 111)` → `Connection refused`, so the
/// message reads like the built-in client's.
fn without_os_code(message: &str) -> String {
    match message.rfind(" (os error ") {
        Some(i) if message.ends_with(')') => message[..i].to_string(),
        _ => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn os_codes_are_dropped() {
        assert_eq!(
            without_os_code("Connection refused (os error 111)"),
            "Connection refused"
        );
        assert_eq!(without_os_code("timeout"), "timeout");
    }

    #[test]
    fn only_final_statuses_below_400_are_successes() {
        let text = r#"{"summary":{"total":1.0},"statusCodeDistribution":{"101":4,"200":3,"302":2,"503":1}}"#;
        let s = parse(text, 10).unwrap();
        assert_eq!((s.requests, s.succeeded, s.errors), (10, 5, 5));
        let informational = crate::failure::informational(101);
        assert_eq!(s.error_messages.get(&informational), Some(&4));
        assert_eq!(s.error_messages.get("HTTP 503"), Some(&1));
        let kinds = s.failures.unwrap_or_default();
        assert_eq!((kinds.http, kinds.other, kinds.total()), (1, 4, 5));
    }

    #[test]
    fn requests_without_an_answer_are_counted_by_kind() {
        let text = r#"{"summary":{"total":1.0},"statusCodeDistribution":{"200":2},
            "errorDistribution":{"connection closed before message completed":3,
            "Connection refused (os error 111)":4,"timeout":1}}"#;
        let s = parse(text, 10).unwrap();
        assert_eq!((s.requests, s.succeeded, s.errors), (10, 2, 8));
        let k = s.failures.unwrap_or_default();
        assert_eq!((k.closed, k.connect, k.timeout, k.total()), (3, 4, 1, 8));
    }

    proptest! {
        #[test]
        fn never_panics(text in "\\PC{0,200}") {
            let _ = parse(&text, 10);
        }

        #[test]
        fn never_panics_on_json_like_input(
            total in prop_oneof![Just("1.5".to_string()), Just("null".to_string()), Just("-1".to_string()), "[0-9]{1,3}"],
            code in "[0-9a-z]{0,4}",
            n in "[0-9]{1,25}",
        ) {
            let text = format!(
                r#"{{"summary":{{"total":{total},"fastest":0.1}},"statusCodeDistribution":{{"{code}":{n}}},"errorDistribution":{{"x":{n}}},"latencyPercentiles":{{"p50":"a"}}}}"#
            );
            let _ = parse(&text, 10);
        }
    }
}
