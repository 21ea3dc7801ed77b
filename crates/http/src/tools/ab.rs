//! ApacheBench (`ab`, from apache2-utils). Its printed percentiles are
//! whole milliseconds, useless on a fast page, so the run also asks for its
//! percentile file (`-e`), which has them to the microsecond.
//!
//! An answer is a success only when it is whole, and ab does not check
//! that: it ends an answer at the server's close whatever the length the
//! answer declared. So the warm-up runs with `-v 2`, which logs every
//! answer's headers (`ab_log`); the measured run does not, since logging
//! them took ab to about 0.6 of its rate (20,000 requests of a 13 KB page
//! gave a 164 MB log). ab's count is trusted only as far as the lengths the
//! warm-up's answers declared allow: when every one declared the length ab
//! read of the measured run's first (`Document Length`), an answer of
//! another length was cut short (an error); when they declared another
//! length, only the answers ab ended at their declared length
//! (`Keep-Alive requests`) are known whole, and the others are errors the
//! note explains. Without a warm-up log (an output read alone), nothing is checked,
//! and the note says so. An answer
//! without a length, ended by the close, is whole by HTTP/1.0's rule; there
//! a length that differs from the first one's is no error (a dynamic page),
//! and goes into the note. An answer whose head ab could not read (no
//! status line, as HTTP/0.9 sends, or a head never ended) is a 2xx success
//! of 0 bytes to ab: when the warm-up logged one, ab's count is not
//! trusted either. ab's `Non-2xx responses` cannot tell a redirect from an
//! error page, nor an interim 1xx from either, where the other clients
//! count a final 3xx a success: a page whose warm-up was answered so is not
//! measured with ab, and its row says why. Without a warm-up such answers
//! count as errors.

use super::ab_log::{AbLog, Close, Declared};
use super::invocation::Invocation;
use super::units::{after, count, number};
use super::{Summary, first_line, kinds};
use crate::document::failures::Kind;
use crate::error::Error;
use crate::job::Job;
use std::collections::BTreeMap;
use std::path::Path;

/// Runs ab for one page: a warm-up, then the measured requests, their
/// percentiles read from a file in a private folder.
pub(crate) fn measure(run: &Invocation) -> Result<Summary, Error> {
    let dir = crate::private_tempdir()
        .map_err(|e| Error::Refused(format!("ab: no temporary folder: {e}")))?;
    let csv = dir.path().join("percentiles.csv");
    let (url, headers) = (&run.handed.url, &run.handed.headers);
    let c = run.concurrency;
    let warmed = run.warm_up_into(
        |n| args(url, n, c, run.job, headers, &csv, true),
        AbLog::default(),
    )?;
    let declared = warmed.map(|mut log| {
        log.finish();
        log.declared
    });
    if let Some(why) = declared.as_ref().and_then(not_for_ab) {
        return Ok(Summary::all_failed(run.requests, Kind::Other, &why));
    }
    let measured = args(url, run.requests, c, run.job, headers, &csv, false);
    let ran = run.output_into(&measured, Vec::new())?;
    let percentiles = std::fs::read_to_string(&csv).unwrap_or_default();
    let stdout = String::from_utf8_lossy(&ran.stdout);
    let ended = ran.success.then_some(&*stdout);
    read(
        ended,
        declared.as_ref(),
        &ran.stderr,
        &percentiles,
        run.requests,
    )
    .map_err(|m| run.failed(&measured, m))
}

/// Why ab cannot measure a page whose warm-up answered as `declared`
/// says: a redirect (3xx) or an interim answer (1xx) is an answer to the
/// other clients, counted as a success once final, but ab counts it among
/// its `Non-2xx responses` with the error pages, and cannot read the final
/// answer after a 1xx. Rather than call such a page failing, its row says
/// so, and measures nothing. (A `000` and a `101` are errors to every
/// client, ab too.)
fn not_for_ab(declared: &Declared) -> Option<String> {
    let (&status, _) = declared
        .others
        .iter()
        .find(|&(&status, _)| matches!(status, 100 | 102..=199 | 300..=399))?;
    let what = if status < 200 {
        "an interim answer, after which ab cannot read the final one"
    } else {
        "a redirect, which ab cannot tell from an error page"
    };
    Some(format!(
        "ab: the warm-up was answered {status:03}, {what}: not measured; measure the page with another tool"
    ))
}

/// The command line for `n` requests, `c` at a time; `log` asks for every
/// answer's headers (what they declare of its length).
pub(crate) fn args(
    url: &str,
    n: u64,
    c: u64,
    job: &Job,
    headers: &[String],
    csv: &Path,
    log: bool,
) -> Vec<String> {
    let mut a = vec!["-q".to_string(), "-r".to_string()];
    if log {
        a.extend(["-v".to_string(), "2".to_string()]);
    }
    a.extend([
        "-n".to_string(),
        n.to_string(),
        "-c".to_string(),
        c.to_string(),
        "-s".to_string(),
        job.timeout.as_secs().max(1).to_string(),
        "-e".to_string(),
        csv.display().to_string(),
    ]);
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
    let log = AbLog::of(stdout);
    let d = &log.declared;
    let logged = d.logged > 0 || d.unreadable > 0;
    read(
        Some(log.summary()),
        logged.then_some(d),
        stderr,
        percentiles,
        requested,
    )
}

/// [`parse`] of the summary of a run that ended with success (`None` for
/// one that did not, whose output, were it like a summary, could be the
/// server's words, not ab's), against what the warm-up's answers
/// `declared` (none without a warm-up).
fn read(
    summary: Option<&str>,
    declared: Option<&Declared>,
    stderr: &str,
    percentiles: &str,
    requested: u64,
) -> Result<Summary, String> {
    let stdout = summary.unwrap_or("");
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
    count_failures(&mut s, stdout, complete, declared);
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
        let message = apr_message(line);
        return Ok(Summary::all_failed(
            requested,
            kinds::in_words(&message),
            &message,
        ));
    }
    Err(format!(
        "no summary in ab's output ({})",
        first_line(stderr)
    ))
}

/// The failures of `complete` requests, by kind, and the successes left.
fn count_failures(s: &mut Summary, stdout: &str, complete: u64, declared: Option<&Declared>) {
    let breakdown = failure_breakdown(stdout);
    let get = |k: &str| breakdown.get(k).copied().unwrap_or(0);
    let failed = get("Connect")
        .saturating_add(get("Receive"))
        .saturating_add(get("Exceptions"));
    let non2xx = after(stdout, "Non-2xx responses:")
        .and_then(count)
        .unwrap_or(0);
    s.add_failure(Kind::Connect, "ab: connect error", get("Connect"));
    s.add_failure(Kind::Closed, "ab: receive error", get("Receive"));
    s.add_failure(Kind::Other, "ab: exception", get("Exceptions"));
    // A redirect's page is refused before it is measured (`not_for_ab`):
    // what ab calls non-2xx here is an error page.
    s.add_failure(Kind::Http, "non-2xx", non2xx);
    let answered = complete.saturating_sub(failed.saturating_add(non2xx));
    s.succeeded = whole_answers(s, stdout, answered, get("Length"), declared);
    s.add_status("2xx", s.succeeded);
    s.add_status("non-2xx", non2xx);
    s.add_status(
        "failed",
        failed.saturating_add(answered.saturating_sub(s.succeeded)),
    );
}

/// Of the `answered` 2xx answers ab counted, `length_failures` of them of
/// another length than the first, those known whole (see the module's
/// doc); the others are counted as errors, and the note says why.
fn whole_answers(
    s: &mut Summary,
    stdout: &str,
    answered: u64,
    length_failures: u64,
    declared: Option<&Declared>,
) -> u64 {
    let first = after(stdout, "Document Length:")
        .and_then(|t| t.split_whitespace().next())
        .and_then(count);
    let varied = || {
        format!(
            "ab: {length_failures} answers differed in length from the first (not counted as errors)"
        )
    };
    let declared = match declared {
        None => Err("no warm-up logged the answers' headers".to_string()),
        Some(d) if d.answers == 0 && d.unreadable == 0 => Err(format!(
            "none of the warm-up's {} answers logged was 2xx",
            d.logged
        )),
        Some(d) => Ok(d),
    };
    let declared = match declared {
        Ok(declared) => declared,
        Err(why) => {
            // Nothing to check the answers against.
            if answered > 0 {
                s.note = format!("ab: {why}, so whether its answers were whole is not checked");
            }
            if length_failures > 0 {
                s.note = format!("{}; {}", varied(), s.note);
            }
            return answered;
        }
    };
    match first.and_then(|d| declared.all_of(d)) {
        Some(Close { any: true }) => {
            if length_failures > 0 {
                s.note = varied();
            }
            answered
        }
        Some(Close { any: false }) => {
            let cut = length_failures.min(answered);
            s.add_failure(Kind::Other, "ab: answer not of its declared length", cut);
            if cut > 0 && cut < answered {
                s.note = format!(
                    "ab: {cut} answers were not of their declared length; its times include them"
                );
            }
            answered - cut
        }
        None => ended_at_their_length(s, stdout, answered, first, declared),
    }
}

/// Of `answered` 2xx answers that did not all declare the length ab read of
/// the first (`first`), those ab ended at their declared length
/// (`Keep-Alive requests`): the others ended at the server's close, cut
/// short or not.
fn ended_at_their_length(
    s: &mut Summary,
    stdout: &str,
    answered: u64,
    first: Option<u64>,
    declared: &Declared,
) -> u64 {
    let kept_alive = after(stdout, "Keep-Alive requests:")
        .and_then(count)
        .unwrap_or(0);
    // Error answers may be among those ended at their length: of the
    // others, only those that must be 2xx answers count.
    let non2xx = after(stdout, "Non-2xx responses:")
        .and_then(count)
        .unwrap_or(0);
    let whole = answered.min(kept_alive.saturating_sub(non2xx));
    let unknown = answered - whole;
    s.add_failure(Kind::Other, "ab: answer not known whole", unknown);
    if unknown > 0 {
        s.note = format!(
            "ab: {unknown} answers ended at the server's close, not at the end their headers \
             declared ({}; ab read {} bytes of the first): ab cannot tell them whole from cut \
             short{}",
            declared.described(),
            first.map_or_else(|| "no".to_string(), |d| d.to_string()),
            if whole > 0 {
                "; its times include them"
            } else {
                ""
            }
        );
    }
    whole
}

/// The mean, deviation and percentiles: from the percentile file, to the
/// microsecond, else from the printed table, in whole milliseconds.
fn read_times(s: &mut Summary, stdout: &str, percentiles: &str) {
    s.figures.mean = after(stdout, "Time per request:").and_then(first_number);
    s.figures.stddev = after(stdout, "Total:")
        .and_then(|t| t.split_whitespace().nth(2))
        .and_then(number);
    let table = percentile_file(percentiles);
    let table = if table.is_empty() {
        percentile_lines(stdout)
    } else {
        table
    };
    let at = |p: u32| table.get(&p).copied();
    s.figures.min = at(0);
    s.figures.median = at(50);
    s.figures.p90 = at(90);
    s.figures.p95 = at(95);
    s.figures.p99 = at(99);
    s.figures.max = at(100);
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
