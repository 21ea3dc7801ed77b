//! h2load (nghttp2-client): HTTP/2 by default, `--h1` for HTTP/1.1. It
//! reports the minimum, maximum, mean and deviation of request times, but
//! no percentiles, so the row has no median from it. Its `failed` count
//! includes error statuses; `errored` includes timeouts and answers cut
//! short (the server closed before the end their headers declared), which
//! are errors here. It reads past an interim 1xx answer to the final one.
//!
//! It counts every status from 000 to 399 that is not 2xx as 3xx, and as a
//! success, where the other clients count a final 3xx a success and a
//! `000` or `101` an error. So the warm-up runs verbose (`h2load_log`),
//! and a page answered so there is not measured with h2load: its row says
//! why. (A tool's warm-up always runs: at least one request a connection.)

use super::h2load_log::Statuses;
use super::invocation::Invocation;
use super::units::{after, count, millis};
use super::{Summary, first_line};
use crate::document::failures::Kind;
use crate::error::Error;
use crate::job::{Job, Protocol};

/// Runs h2load for one page: a verbose warm-up whose statuses are read,
/// then the measured requests.
pub(crate) fn measure(run: &Invocation) -> Result<Summary, Error> {
    let (url, headers) = (&run.handed.url, &run.handed.headers);
    let c = run.concurrency;
    let verbose = |n| {
        let mut a = args(url, n, c, run.job, headers);
        a.insert(0, "-v".to_string());
        a
    };
    let warmed = run.warm_up_into(verbose, Statuses::default())?;
    if let Some(status) = warmed.as_ref().and_then(Statuses::not_a_page) {
        return Ok(Summary::all_failed(
            run.requests,
            Kind::Other,
            &format!(
                "h2load: the warm-up was answered {status:03}, which h2load counts a 3xx \
                 success where the other clients count an error: not measured"
            ),
        ));
    }
    let measured = args(url, run.requests, c, run.job, headers);
    let printed = run.output(&measured)?;
    parse(&printed.stdout, &printed.stderr)
        .and_then(|summary| printed.trusted(summary))
        .map(|mut summary| {
            if let Some(warmed) = &warmed {
                unseen_redirects(&mut summary, warmed);
            }
            summary
        })
        .map_err(|m| run.failed(&measured, m))
}

/// Counts as errors the measured run's 3xx when its warm-up saw no
/// redirect: they may be `000`s (a server that changed its answers after
/// the warm-up), which h2load counts so, and a failure must never pass for
/// a page.
fn unseen_redirects(s: &mut Summary, warmed: &Statuses) {
    let n = s.status.get("3xx").copied().unwrap_or(0);
    if n == 0 || warmed.seen.iter().any(|status| (300..400).contains(status)) {
        return;
    }
    let before = s.succeeded;
    s.succeeded = before.saturating_sub(n);
    s.add_failure(Kind::Other, "h2load: a 3xx its warm-up never saw", n);
    s.rps = s
        .rps
        .filter(|_| before > 0)
        .map(|rps| rps * s.succeeded as f64 / before as f64);
    if s.succeeded == 0 {
        s.figures = Default::default();
    }
    s.note = format!(
        "h2load: {n} answers counted as 3xx, which its warm-up never saw; h2load counts a 000 \
         so too, so they are errors here, and its times include them"
    );
}

/// The status that refuses a page, read from a verbose warm-up's output
/// given `chunk` bytes at a time (all at once for 0). The way in for the
/// fuzz target.
#[doc(hidden)]
pub fn warm_up_refusal(output: &[u8], chunk: usize) -> Option<u16> {
    let mut statuses = Statuses::default();
    for part in output.chunks(if chunk == 0 {
        output.len().max(1)
    } else {
        chunk
    }) {
        crate::process::Sink::take(&mut statuses, part);
    }
    statuses.not_a_page()
}

/// The command line for `n` requests over `c` connections.
pub(crate) fn args(url: &str, n: u64, c: u64, o: &Job, headers: &[String]) -> Vec<String> {
    let mut a = vec![
        "-n".to_string(),
        n.to_string(),
        "-c".to_string(),
        c.to_string(),
        "-T".to_string(),
        o.timeout.as_secs().max(1).to_string(),
    ];
    let cleartext = url.starts_with("http://");
    if o.protocol == Protocol::Http1 || (cleartext && o.protocol == Protocol::Negotiated) {
        a.push("--h1".to_string());
    }
    for h in headers {
        a.push("-H".to_string());
        a.push(h.clone());
    }
    a.push(url.to_string());
    a
}

/// Reads h2load's summary; the error says why there is none.
pub fn parse(stdout: &str, stderr: &str) -> Result<Summary, String> {
    let counts = after(stdout, "requests:").map(labelled).ok_or_else(|| {
        format!(
            "no summary in h2load's output ({})",
            first_line(&format!("{stdout}\n{stderr}"))
        )
    })?;
    let statuses = after(stdout, "status codes:")
        .map(labelled)
        .unwrap_or_default();
    let mut s = Summary {
        requests: counts.get("total"),
        succeeded: counts.get("succeeded"),
        ..Summary::default()
    };
    count_errors(&mut s, &counts, &statuses);
    count_statuses(&mut s, &statuses);
    let seconds = after(stdout, "finished in")
        .and_then(|t| t.split(',').next())
        .and_then(millis)
        .map(|ms| ms / 1000.0);
    s.rps = seconds.filter(|t| *t > 0.0).map(|t| s.succeeded as f64 / t);
    let done = counts.get("done");
    s.bytes = after(stdout, "traffic:")
        .and_then(data_bytes)
        .filter(|_| done > 0)
        .map(|b| b / done as f64);
    if s.succeeded > 0
        && let Some(t) = after(stdout, "time for request:")
    {
        let w: Vec<Option<f64>> = t.split_whitespace().map(millis).collect();
        let at = |i: usize| w.get(i).copied().flatten();
        let f = &mut s.figures;
        (f.min, f.max, f.mean, f.stddev) = (at(0), at(1), at(2), at(3));
    }
    Ok(s)
}

/// The errors by kind. h2load's `failed` includes error statuses and its
/// `errored` timeouts, so each is counted once here. The rest of
/// `errored` are requests lost with their connection (h2load opens no
/// other): a connection that never worked, when no request started at
/// all, else one closed under the requests.
fn count_errors(s: &mut Summary, counts: &Labelled, statuses: &Labelled) {
    let timeouts = counts.get("timeout");
    let lost = if counts.get("started") == 0 {
        Kind::Connect
    } else {
        Kind::Closed
    };
    s.add_failure(Kind::Http, "HTTP 4xx", statuses.get("4xx"));
    s.add_failure(Kind::Http, "HTTP 5xx", statuses.get("5xx"));
    s.add_failure(Kind::Timeout, "timeout", timeouts);
    s.add_failure(
        lost,
        "connection error",
        counts.get("errored").saturating_sub(timeouts),
    );
    // Requests never started are neither done nor errored in every
    // version: count the rest of the total as lost too.
    let accounted = s.succeeded.saturating_add(s.errors);
    s.add_failure(lost, "not done", s.requests.saturating_sub(accounted));
}

/// The answers by status class, and the requests that got none.
fn count_statuses(s: &mut Summary, statuses: &Labelled) {
    for class in ["2xx", "3xx", "4xx", "5xx"] {
        s.add_status(class, statuses.get(class));
    }
    s.add_status("failed", s.requests.saturating_sub(statuses.total()));
}

/// Counts by label, as printed: `400 total, 400 started, 400 done`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Labelled(Vec<Count>);

/// One count of a [`Labelled`] line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Count {
    label: String,
    n: u64,
}

impl Labelled {
    /// The first count labelled `label`; 0 when there is none.
    fn get(&self, label: &str) -> u64 {
        self.0.iter().find(|c| c.label == label).map_or(0, |c| c.n)
    }

    /// Every count together.
    fn total(&self) -> u64 {
        self.0.iter().map(|c| c.n).fold(0u64, u64::saturating_add)
    }
}

/// `400 total, 400 started, 400 done` → total 400, started 400, done 400.
fn labelled(text: &str) -> Labelled {
    Labelled(
        text.split(',')
            .filter_map(|part| {
                let mut w = part.split_whitespace();
                let n = count(w.next()?)?;
                Some(Count {
                    label: w.next()?.to_string(),
                    n,
                })
            })
            .collect(),
    )
}

/// `traffic: 483.98KB (495600) total, 73.44KB (75200) headers (space
/// savings 0.00%), 390.63KB (400000) data` → 400000.
fn data_bytes(text: &str) -> Option<f64> {
    let part = text
        .rsplit(", ")
        .find(|p| p.trim_end().ends_with(" data"))?;
    let open = part.find('(')?;
    let close = part[open..].find(')')? + open;
    count(&part[open + 1..close]).map(|n| n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn data_bytes_are_exact() {
        let t = "483.98KB (495600) total, 73.44KB (75200) headers (space savings 0.00%), 390.63KB (400000) data";
        assert_eq!(data_bytes(t), Some(400000.0));
        assert_eq!(data_bytes("0B (0) total"), None);
    }

    proptest! {
        #[test]
        fn never_panics(out in "\\PC{0,300}", err in "\\PC{0,60}") {
            let _ = parse(&out, &err);
        }

        #[test]
        fn never_panics_on_summary_like_lines(lines in proptest::collection::vec(
            prop_oneof![
                "requests: [0-9]{0,22} total, [0-9]{0,3} started, [0-9]{0,22} done, [0-9]{0,22} succeeded, [0-9]{0,3} failed, [0-9]{0,22} errored, [0-9]{0,22} timeout",
                "status codes: [0-9]{0,22} 2xx, [0-9]{0,22} 3xx, [0-9]{0,3} 4xx, [0-9]{0,22} 5xx",
                "finished in [0-9.]{0,5}(us|ms|s)?, [0-9.]{0,5} req/s",
                "traffic: [0-9.]{0,4}KB \\([0-9]{0,22}\\) total, [0-9.]{0,4}B \\(\\(?[0-9)]{0,4} data",
                "time for request: [0-9.]{0,4}(us|ms|s) [0-9.]{0,4}(us|ms|s)?",
            ], 0..8)) {
            let _ = parse(&lines.join("\n"), "");
        }
    }
}
