//! wrk, run for `--duration` seconds with `--latency` for its percentiles.
//! It reports no minimum and no p95; its byte count includes the response
//! headers. Its statuses are counted exactly by Lua hooks (`wrk_tally`):
//! an answer is a success when its status is 200 to 399, as with the other
//! clients; a `000`, an interim `1xx` (which wrk reads as the answer) and a
//! `101` are errors. A late answer (past `--timeout`) is counted by wrk as
//! a request and a timeout error with no time: here it is an error, not a
//! success. An answer cut short (the server closed before the end its
//! headers declared) is one of wrk's `read` errors, an error here too; an
//! answer ended by the close it announced is whole, and the read error wrk
//! also counts for it is dropped.

use super::invocation::Invocation;
use super::units::{after, bytes, count, millis};
use super::wrk_tally::{self, Tally};
use super::{Summary, first_line};
use crate::document::failures::Kind;
use crate::error::Error;
use crate::job::Job;
use std::path::Path;

/// Runs wrk for one page. Its Lua script (the credentials, if any, and the
/// hooks that count statuses) has mode 0600 in a private folder, removed
/// when the run ends.
pub(crate) fn measure(run: &Invocation) -> Result<Summary, Error> {
    let dir = crate::private_tempdir()
        .map_err(|e| Error::Refused(format!("wrk: no temporary folder: {e}")))?;
    let script = dir.path().join("yardstick.lua");
    write_script(&script, &run.handed.secrets)
        .map_err(|e| Error::Refused(format!("wrk: cannot write its script: {e}")))?;
    let args = args(
        &run.handed.url,
        run.job.duration_seconds(),
        run.concurrency,
        run.job,
        &run.handed.headers,
        Some(&script),
    );
    let printed = run.output(&args)?;
    printed
        .trusted(())
        .and_then(|()| parse_tallied(&printed.stdout, &printed.stderr))
        .map_err(|m| run.failed(&args, m))
}

/// The command line for `seconds` of load with `c` connections; `script`
/// is the Lua file that sets the credentials, if any.
pub(crate) fn args(
    url: &str,
    seconds: u64,
    c: u64,
    job: &Job,
    headers: &[String],
    script: Option<&Path>,
) -> Vec<String> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let threads = c.clamp(1, cpus);
    let mut a = vec![
        "--latency".to_string(),
        "-t".to_string(),
        threads.to_string(),
        "-c".to_string(),
        c.to_string(),
        "-d".to_string(),
        format!("{seconds}s"),
        "--timeout".to_string(),
        // wrk takes whole seconds (or m, h) only.
        format!("{}s", job.timeout.as_secs().max(1)),
    ];
    for h in headers {
        a.push("-H".to_string());
        a.push(h.clone());
    }
    if let Some(script) = script {
        a.push("-s".to_string());
        a.push(script.display().to_string());
    }
    a.push(url.to_string());
    a
}

/// The Lua that adds `headers` to every request wrk makes. Every byte of a
/// name or value is written as a decimal escape, so no value can end the
/// string or add code.
pub(crate) fn script(headers: &[(String, String)]) -> String {
    let quoted = |text: &str| -> String {
        let escaped: String = text.bytes().map(|b| format!("\\{b}")).collect();
        format!("\"{escaped}\"")
    };
    let mut out = String::from("-- written by yardstick: the credentials of one run\n");
    for (name, value) in headers {
        out.push_str(&format!(
            "wrk.headers[{}] = {}\n",
            quoted(name),
            quoted(value)
        ));
    }
    out
}

/// Writes [`script`] and the hooks that count statuses to `path`, readable
/// by this user alone (0600) from the moment it exists.
pub(crate) fn write_script(path: &Path, headers: &[(String, String)]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(script(headers).as_bytes())?;
    file.write_all(wrk_tally::HOOKS.as_bytes())?;
    file.sync_all()
}

/// Reads wrk's summary, and the status tally of its hooks when it printed
/// one; the error says why there is none.
pub fn parse(stdout: &str, stderr: &str) -> Result<Summary, String> {
    read(stdout, stderr, false)
}

/// [`parse`] of a run given the hooks: a summary of answers without their
/// tally is an error, since wrk's own counts take a `000` for a success.
fn parse_tallied(stdout: &str, stderr: &str) -> Result<Summary, String> {
    read(stdout, stderr, true)
}

fn read(stdout: &str, stderr: &str, hooked: bool) -> Result<Summary, String> {
    let said = format!("{stdout}\n{stderr}");
    if let Some(s) = could_not_connect(&said) {
        return Ok(s);
    }
    let totals = totals(stdout)
        .ok_or_else(|| format!("no summary in wrk's output ({})", first_line(&said)))?;
    let mut s = match wrk_tally::read(stdout)? {
        Some(tally) => tallied(stdout, &totals, &tally)?,
        None if hooked && totals.requests > 0 => {
            return Err(format!(
                "wrk counted {} answers but its hooks printed no status tally",
                totals.requests
            ));
        }
        None => counted(stdout, &totals),
    };
    if s.succeeded > 0 {
        read_times(&mut s, stdout);
    }
    Ok(s)
}

/// The requests of a summary by the exact statuses of its hooks' `tally`.
/// A status from 200 to 399 is a success; the others are errors. An answer
/// without a length, ended by the close, was also counted by wrk as a read
/// error, which is dropped. The tally must hold every answer wrk counted.
fn tallied(stdout: &str, totals: &Totals, tally: &Tally) -> Result<Summary, String> {
    let answered = totals.requests;
    if tally.answers() != answered {
        return Err(format!(
            "wrk's counts do not add up: its summary has {answered} answers, its status tally {}",
            tally.answers()
        ));
    }
    let e = socket_errors(stdout);
    let read = e.read.saturating_sub(tally.unframed);
    let failed = e.connect.saturating_add(read).saturating_add(e.write);
    let mut s = Summary {
        requests: answered.saturating_add(failed),
        ..Summary::default()
    };
    let mut successes: Vec<(u16, u64)> = Vec::new();
    let mut interim = 0u64;
    for (&code, &n) in &tally.statuses {
        match code {
            200..=399 => successes.push((code, n)),
            0..=99 => s.add_failure(Kind::Other, &format!("HTTP {code:03}: not a status"), n),
            100..=199 => {
                interim = interim.saturating_add(n);
                s.add_failure(Kind::Other, &crate::failure::informational(code), n);
            }
            _ => s.add_failure(Kind::Http, &format!("HTTP {code}"), n),
        }
        if !(200..=399).contains(&code) {
            s.add_status(&format!("{code:03}"), n);
        }
    }
    e.add_to(&mut s, read);
    let ok = successes
        .iter()
        .fold(0u64, |sum, (_, n)| sum.saturating_add(*n));
    let late = e.timeout.min(ok);
    s.succeeded = ok - late;
    // wrk does not say which status a late answer had: they are taken from
    // the most frequent success statuses first.
    successes.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let mut late_left = late;
    for (code, n) in successes {
        let taken = late_left.min(n);
        late_left -= taken;
        s.add_status(&code.to_string(), n - taken);
    }
    s.add_status("failed", failed.saturating_add(late));
    s.rps = (totals.seconds > 0.0).then(|| s.succeeded as f64 / totals.seconds);
    s.bytes = (answered > 0).then(|| totals.bytes / answered as f64);
    if interim > 0 {
        s.note = format!(
            "wrk read {interim} interim (1xx) answers as the answers to their requests: \
             the final answer after each was taken for the next request's"
        );
    }
    Ok(s)
}

/// wrk gives up at the first connection it cannot open, and says so.
fn could_not_connect(said: &str) -> Option<Summary> {
    let line = said
        .lines()
        .find(|l| l.starts_with("unable to connect to "))?;
    let message = line
        .trim_start_matches("unable to connect to ")
        .split_once(' ')
        .map_or("unable to connect", |(_, m)| m.trim());
    let mut s = Summary::all_failed(1, Kind::Connect, message);
    s.note = "wrk stopped: it could not connect".to_string();
    Some(s)
}

/// The requests of a summary without a status tally (an output saved
/// before the hooks), by wrk's own outcome counts, the rate and the bytes.
/// A late answer (a timeout) was counted by wrk as answered: here it
/// failed.
fn counted(stdout: &str, totals: &Totals) -> Summary {
    let answered = totals.requests;
    let non2xx = after(stdout, "Non-2xx or 3xx responses:")
        .and_then(count)
        .unwrap_or(0);
    let e = socket_errors(stdout);
    let failed = e.connect.saturating_add(e.read).saturating_add(e.write);
    let mut s = Summary {
        requests: answered.saturating_add(failed),
        ..Summary::default()
    };
    s.add_failure(Kind::Http, "HTTP 4xx/5xx", non2xx);
    e.add_to(&mut s, e.read);
    s.succeeded = answered.saturating_sub(non2xx.saturating_add(e.timeout));
    let late = e.timeout.min(answered.saturating_sub(non2xx));
    s.add_status("2xx/3xx", s.succeeded);
    s.add_status("4xx/5xx", non2xx);
    s.add_status("failed", failed.saturating_add(late));
    s.rps = (totals.seconds > 0.0).then(|| s.succeeded as f64 / totals.seconds);
    s.bytes = (answered > 0).then(|| totals.bytes / answered as f64);
    if s.succeeded > 0 {
        s.note = "wrk counts an interim (1xx) answer as an answer: its summary cannot tell \
                  them from pages"
            .to_string();
    }
    s
}

/// The mean, deviation and maximum of `Latency`, and the percentiles of
/// `--latency`'s table.
fn read_times(s: &mut Summary, stdout: &str) {
    if let Some(words) = after(stdout, "Latency") {
        let w: Vec<&str> = words.split_whitespace().collect();
        s.figures.mean = w.first().and_then(|v| millis(v));
        s.figures.stddev = w.get(1).and_then(|v| millis(v));
        s.figures.max = w.get(2).and_then(|v| millis(v));
    }
    for line in stdout.lines() {
        let mut words = line.split_whitespace();
        let (Some(p), Some(v)) = (words.next(), words.next()) else {
            continue;
        };
        let value = millis(v);
        match p {
            "50%" => s.figures.median = value,
            "90%" => s.figures.p90 = value,
            "99%" => s.figures.p99 = value,
            _ => {}
        }
    }
}

/// The totals line of wrk's summary.
#[derive(Debug, Clone, PartialEq)]
struct Totals {
    /// Requests answered (late ones included).
    requests: u64,
    seconds: f64,
    /// Bytes read, headers included.
    bytes: f64,
}

/// `149156 requests in 2.10s, 176.24MB read`.
fn totals(stdout: &str) -> Option<Totals> {
    stdout.lines().find_map(|line| {
        let (n, rest) = line.trim().split_once(" requests in ")?;
        let (time, rest) = rest.split_once(", ")?;
        let read = rest.strip_suffix(" read")?;
        Some(Totals {
            requests: count(n)?,
            seconds: millis(time)? / 1000.0,
            bytes: bytes(read)?,
        })
    })
}

/// wrk's socket errors, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct SocketErrors {
    connect: u64,
    read: u64,
    write: u64,
    /// Answers later than `--timeout`, which wrk also counts as requests.
    timeout: u64,
}

/// `Socket errors: connect 0, read 0, write 0, timeout 2`.
impl SocketErrors {
    /// Adds wrk's socket errors to `s` by kind, with `read` of its read
    /// errors (those left when the close-delimited answers are taken out):
    /// a read or write error is a connection that broke under a request.
    fn add_to(&self, s: &mut Summary, read: u64) {
        s.add_failure(Kind::Connect, "connect error", self.connect);
        s.add_failure(Kind::Closed, "read error", read);
        s.add_failure(Kind::Closed, "write error", self.write);
        s.add_failure(Kind::Timeout, "timeout", self.timeout);
    }
}

fn socket_errors(stdout: &str) -> SocketErrors {
    let mut out = SocketErrors::default();
    let Some(text) = after(stdout, "Socket errors:") else {
        return out;
    };
    for part in text.split(',') {
        let mut words = part.split_whitespace();
        let (Some(kind), Some(n)) = (words.next(), words.next().and_then(count)) else {
            continue;
        };
        match kind {
            "connect" => out.connect = n,
            "read" => out.read = n,
            "write" => out.write = n,
            "timeout" => out.timeout = n,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn socket_errors_are_counted_by_kind() {
        let out = "  100 requests in 1.00s, 10.00KB read\n  Socket errors: connect 3, read 2, \
                   write 1, timeout 4\n  Non-2xx or 3xx responses: 5\n";
        let totals = totals(out).expect("totals");
        let s = counted(out, &totals);
        let f = s.failures.expect("kinds");
        assert_eq!(
            (f.connect, f.closed, f.timeout, f.http, f.other),
            (3, 3, 4, 5, 0)
        );
        assert_eq!(f.total(), s.errors);
    }

    #[test]
    fn totals_in_every_unit() {
        assert_eq!(
            totals("  4 requests in 3.02s, 2.39KB read\n"),
            Some(Totals {
                requests: 4,
                seconds: 3.02,
                bytes: 2.39 * 1024.0
            })
        );
        assert_eq!(
            totals("  1258 requests in 2.04s, 3.94GB read"),
            Some(Totals {
                requests: 1258,
                seconds: 2.04,
                bytes: 3.94 * 1024f64.powi(3)
            })
        );
        assert_eq!(totals("nothing"), None);
    }

    #[test]
    fn timeouts_are_whole_seconds() {
        let o = Job {
            timeout: std::time::Duration::from_millis(1500),
            ..Job::default()
        };
        let a = args(
            "http://127.0.0.1:1/",
            3,
            4,
            &o,
            &["X-A: 1".to_string()],
            None,
        );
        let at = a.iter().position(|w| w == "--timeout").unwrap();
        assert_eq!(a[at + 1], "1s");
        assert!(a.windows(2).any(|w| w == ["-d", "3s"]));
        assert!(a.windows(2).any(|w| w == ["-H", "X-A: 1"]));
        assert_eq!(a.last().map(String::as_str), Some("http://127.0.0.1:1/"));
    }

    #[test]
    fn credentials_go_in_a_private_script_not_the_command_line() {
        let secrets = [("Authorization".to_string(), "Basic \"]]..x\n".to_string())];
        assert_eq!(
            script(&secrets).lines().nth(1),
            Some(
                "wrk.headers[\"\\65\\117\\116\\104\\111\\114\\105\\122\\97\\116\\105\\111\\110\"] = \
                 \"\\66\\97\\115\\105\\99\\32\\34\\93\\93\\46\\46\\120\\10\""
            )
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.lua");
        write_script(&path, &secrets).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let a = args(
            "http://127.0.0.1:1/",
            1,
            1,
            &Job::default(),
            &[],
            Some(&path),
        );
        assert!(
            a.windows(2)
                .any(|w| w[0] == "-s" && w[1] == path.display().to_string())
        );
        assert!(!a.iter().any(|w| w.contains("Basic")), "{a:?}");
    }

    proptest! {
        #[test]
        fn never_panics(out in "\\PC{0,300}", err in "\\PC{0,60}") {
            let _ = parse(&out, &err);
        }

        #[test]
        fn never_panics_on_summary_like_lines(lines in proptest::collection::vec(
            prop_oneof![
                "[0-9]{0,22} requests in [0-9.]{0,4}(us|ms|s|m|x), [0-9.]{0,5}(B|KB|MB|GB|XB) read",
                "Socket errors: connect [0-9]{0,22}, read [0-9]{0,3}, write [0-9]{0,3}, timeout [0-9]{0,22}",
                "Non-2xx or 3xx responses: [0-9]{0,22}",
                "Latency [0-9.]{0,5}(us|ms|s) [0-9.]{0,4}ms",
                "(50|90|99)% [0-9.]{0,5}(us|ms|s)?",
                "unable to connect to [a-z:0-9]{0,10} ?[A-Za-z ]{0,12}",
            ], 0..8)) {
            let _ = parse(&lines.join("\n"), "");
        }
    }
}
