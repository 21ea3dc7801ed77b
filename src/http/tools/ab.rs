//! ApacheBench (`ab`, from apache2-utils). Its printed percentiles are
//! whole milliseconds, useless on a fast page, so the run also asks for its
//! percentile file (`-e`), which has them to the microsecond.
//!
//! ab counts a response whose length differs from the first one's as a
//! failure; for a dynamic page that is no error a visitor sees, so those go
//! into the note. ab's `Non-2xx responses` cannot tell a redirect from an
//! error page: all of them count as errors.

use super::invocation::Invocation;
use super::units::{after, count, number};
use super::{Summary, first_line};
use crate::error::Error;
use crate::http::job::Job;
use std::collections::BTreeMap;
use std::path::Path;

/// Runs ab for one page: a warm-up, then the measured requests, their
/// percentiles read from a file in a private folder.
pub(crate) fn measure(run: &Invocation) -> Result<Summary, Error> {
    let dir =
        tempfile::tempdir().map_err(|e| Error::Refused(format!("ab: no temporary folder: {e}")))?;
    let csv = dir.path().join("percentiles.csv");
    let (url, headers) = (&run.handed.url, &run.handed.headers);
    let c = run.concurrency;
    run.counted(
        |n| args(url, n, c, run.job, headers, &csv),
        |printed| {
            let percentiles = std::fs::read_to_string(&csv).unwrap_or_default();
            parse(&printed.stdout, &printed.stderr, &percentiles, run.requests)
        },
    )
}

/// The command line for `n` requests, `c` at a time.
pub(crate) fn args(
    url: &str,
    n: u64,
    c: u64,
    job: &Job,
    headers: &[String],
    csv: &Path,
) -> Vec<String> {
    let mut a = vec![
        "-q".to_string(),
        "-r".to_string(),
        "-n".to_string(),
        n.to_string(),
        "-c".to_string(),
        c.to_string(),
        "-s".to_string(),
        job.timeout.as_secs().max(1).to_string(),
        "-e".to_string(),
        csv.display().to_string(),
    ];
    if job.keepalive {
        a.push("-k".to_string());
    }
    for h in headers {
        a.push("-H".to_string());
        a.push(h.clone());
    }
    a.push(url.to_string());
    a
}

/// Reads ab's summary (`stdout`), its error output and its percentile file
/// (`percentiles`, possibly empty); `requested` is the `-n` given, for a run
/// that ended before it could count anything. The error says why there is
/// no summary.
pub fn parse(
    stdout: &str,
    stderr: &str,
    percentiles: &str,
    requested: u64,
) -> Result<Summary, String> {
    let Some(complete) = after(stdout, "Complete requests:").and_then(count) else {
        return without_summary(stdout, stderr, requested);
    };
    let mut s = Summary {
        requests: complete,
        server: after(stdout, "Server Software:")
            .filter(|v| !v.is_empty())
            .map(str::to_string),
        ..Summary::default()
    };
    count_failures(&mut s, stdout, complete);
    let seconds = after(stdout, "Time taken for tests:").and_then(first_number);
    s.rps = seconds.filter(|t| *t > 0.0).map(|t| s.succeeded as f64 / t);
    let html = after(stdout, "HTML transferred:").and_then(first_number);
    s.bytes = html.filter(|_| complete > 0).map(|b| b / complete as f64);
    // ab times every request it made, failed or not: no success, no time.
    if s.succeeded > 0 {
        read_times(&mut s, stdout, percentiles);
    }
    Ok(s)
}

/// ab printed no summary: every request failed when it names a socket
/// error (`apr_...`), else its output is not understood.
fn without_summary(stdout: &str, stderr: &str, requested: u64) -> Result<Summary, String> {
    let said = format!("{stdout}\n{stderr}");
    if let Some(line) = said.lines().find(|l| l.contains("apr_")) {
        return Ok(Summary::all_failed(requested, &apr_message(line)));
    }
    Err(format!(
        "no summary in ab's output ({})",
        first_line(stderr)
    ))
}

/// The failures of `complete` requests, by kind, and the successes left.
fn count_failures(s: &mut Summary, stdout: &str, complete: u64) {
    let breakdown = failure_breakdown(stdout);
    let get = |k: &str| breakdown.get(k).copied().unwrap_or(0);
    let failed = get("Connect")
        .saturating_add(get("Receive"))
        .saturating_add(get("Exceptions"));
    let non2xx = after(stdout, "Non-2xx responses:")
        .and_then(count)
        .unwrap_or(0);
    s.add_error("ab: connect error", get("Connect"));
    s.add_error("ab: receive error", get("Receive"));
    s.add_error("ab: exception", get("Exceptions"));
    s.add_error("non-2xx", non2xx);
    if get("Length") > 0 {
        s.note = format!(
            "ab: {} answers differed in length from the first (not counted as errors)",
            get("Length")
        );
    }
    s.succeeded = complete.saturating_sub(failed.saturating_add(non2xx));
    s.add_status("2xx", s.succeeded);
    s.add_status("non-2xx", non2xx);
    s.add_status("failed", failed);
}

/// The mean, deviation and percentiles: from the percentile file, to the
/// microsecond, else from the printed table, in whole milliseconds.
fn read_times(s: &mut Summary, stdout: &str, percentiles: &str) {
    s.mean = after(stdout, "Time per request:").and_then(first_number);
    s.stddev = after(stdout, "Total:")
        .and_then(|t| t.split_whitespace().nth(2))
        .and_then(number);
    let table = percentile_file(percentiles);
    let table = if table.is_empty() {
        percentile_lines(stdout)
    } else {
        table
    };
    let at = |p: u32| table.get(&p).copied();
    s.min = at(0);
    s.median = at(50);
    s.p90 = at(90);
    s.p95 = at(95);
    s.p99 = at(99);
    s.max = at(100);
}

/// `apr_socket_recv: Connection refused (111)` → `Connection refused`.
fn apr_message(line: &str) -> String {
    let text = line.rsplit_once(": ").map_or(line, |(_, m)| m).trim();
    let text = match text.rfind(" (") {
        Some(i) if text.ends_with(')') => &text[..i],
        _ => text,
    };
    text.to_string()
}

fn first_number(text: &str) -> Option<f64> {
    text.split_whitespace().next().and_then(number)
}

/// `(Connect: 0, Receive: 0, Length: 164, Exceptions: 0)`.
fn failure_breakdown(stdout: &str) -> BTreeMap<String, u64> {
    let Some(line) = stdout
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("(Connect:"))
    else {
        return BTreeMap::new();
    };
    line.trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .filter_map(|part| {
            let (k, v) = part.split_once(':')?;
            Some((k.trim().to_string(), count(v)?))
        })
        .collect()
}

/// The `-e` file: `Percentage served,Time in ms` then `p,ms` for 0..=100.
///
/// ab reads one past the end of its sorted times for the top percentiles
/// when it made 50 requests or fewer (so `99,0.257` can follow `98,14.8`):
/// a value below an earlier percentile's is such a stray read and is left
/// out rather than reported.
fn percentile_file(text: &str) -> BTreeMap<u32, f64> {
    let table: BTreeMap<u32, f64> = text
        .lines()
        .filter_map(|line| {
            let (p, ms) = line.split_once(',')?;
            Some((p.trim().parse().ok()?, number(ms)?))
        })
        .collect();
    let mut highest = f64::NEG_INFINITY;
    table
        .into_iter()
        .filter(|&(_, v)| {
            let keep = v >= highest;
            highest = highest.max(v);
            keep
        })
        .collect()
}

/// The printed table (`  50%     13`, ` 100%     15 (longest request)`).
fn percentile_lines(stdout: &str) -> BTreeMap<u32, f64> {
    stdout
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let p = words.next()?.strip_suffix('%')?.parse().ok()?;
            Some((p, number(words.next()?)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn apr_messages_lose_their_codes() {
        assert_eq!(
            apr_message("Benchmarking x (be patient)...apr_socket_recv: Connection refused (111)"),
            "Connection refused"
        );
        assert_eq!(
            apr_message("apr_pollset_poll: The timeout specified has expired (70007)"),
            "The timeout specified has expired"
        );
    }

    #[test]
    fn stray_percentiles_are_left_out() {
        let t = percentile_file(
            "Percentage served,Time in ms\n0,1.0\n50,2.0\n98,3.0\n99,0.2\n100,3.5\n",
        );
        assert_eq!(t.get(&98), Some(&3.0));
        assert_eq!(t.get(&99), None);
        assert_eq!(t.get(&100), Some(&3.5));
    }

    proptest! {
        #[test]
        fn never_panics(out in "\\PC{0,300}", err in "\\PC{0,80}", csv in "[0-9,.\n]{0,80}") {
            let _ = parse(&out, &err, &csv, 10);
        }

        #[test]
        fn never_panics_on_summary_like_lines(lines in proptest::collection::vec(
            prop_oneof![
                Just("Complete requests: 10".to_string()),
                Just("Failed requests: 3".to_string()),
                "\\(Connect: [0-9]{0,3}, Receive: [0-9x]{0,3}, Length: [0-9]{0,3}, Exceptions: [0-9]{0,2}\\)",
                "Non-2xx responses: [0-9]{0,25}",
                "Time taken for tests: [0-9.]{0,6} seconds",
                "Total: [0-9 .]{0,20}",
                "[0-9]{1,3}% [0-9.]{0,5}",
            ], 0..10)) {
            let _ = parse(&lines.join("\n"), "", "", 10);
        }
    }
}
