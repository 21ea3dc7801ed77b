//! `--tool=ab|wrk|oha|h2load`: hands each page to an installed load tool
//! and reads its printed summary into the same row the built-in client
//! fills. Only what the tool reports is filled in; the rest stays empty.
//!
//! Each tool runs once per page and server, servers back to back; rounds do
//! not apply (a tool's percentiles cannot be merged across runs of it).

pub mod ab;
pub mod h2load;
pub mod handed;
pub mod oha;
pub mod units;
pub mod wrk;

use super::address;
use super::measure::{self, FAILED};
use super::options::{Options, Protocol, Tool};
use super::plan::{Job, Plan};
use crate::document::run::{Row, RowKind, ServerPair};
use crate::error::Error;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What a tool reported for one page. Times in milliseconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Requests attempted.
    pub requests: u64,
    /// Answered with a status below 400.
    pub succeeded: u64,
    pub errors: u64,
    pub error_messages: BTreeMap<String, u64>,
    /// Status code or class (`2xx`, `4xx`, `non-2xx`) → count.
    pub status: BTreeMap<String, u64>,
    pub min: Option<f64>,
    pub mean: Option<f64>,
    pub median: Option<f64>,
    pub p90: Option<f64>,
    pub p95: Option<f64>,
    pub p99: Option<f64>,
    pub max: Option<f64>,
    pub stddev: Option<f64>,
    pub ttfb_median: Option<f64>,
    /// Successful requests per second.
    pub rps: Option<f64>,
    /// Mean bytes per answer, as the tool counts them.
    pub bytes: Option<f64>,
    pub server: Option<String>,
    /// What the tool said that the row's figures do not show.
    pub note: String,
}

impl Summary {
    /// Every request failed before an answer, for one reason.
    pub fn all_failed(requests: u64, message: &str) -> Summary {
        Summary {
            requests,
            errors: requests,
            error_messages: BTreeMap::from([(message.to_string(), requests)]),
            status: BTreeMap::from([(FAILED.to_string(), requests)]),
            rps: Some(0.0),
            ..Summary::default()
        }
    }

    fn add_error(&mut self, message: &str, n: u64) {
        if n > 0 {
            self.errors = self.errors.saturating_add(n);
            let e = self.error_messages.entry(message.to_string()).or_default();
            *e = e.saturating_add(n);
        }
    }

    fn into_row(self, key: String, page: String, target: String, url: String, tool: Tool) -> Row {
        let mut row = Row::with_samples(key, RowKind::Page, page, Vec::new());
        row.n = usize::try_from(self.succeeded).unwrap_or(usize::MAX);
        row.min = self.min;
        row.mean = self.mean;
        row.median = self.median;
        row.p90 = self.p90;
        row.p95 = self.p95;
        row.p99 = self.p99;
        row.max = self.max;
        row.stddev = self.stddev;
        row.ttfb_median = self.ttfb_median;
        row.requests = self.requests;
        row.errors = self.errors;
        row.error_messages = self.error_messages;
        row.rps = self.rps;
        row.note = self.note;
        row.target = Some(target);
        row.url = Some(url);
        row.status = self.status;
        row.bytes = self.bytes;
        row.server = self.server;
        row.tool = Some(tool.as_str().to_string());
        row
    }
}

/// The path of an installed program, found on `PATH`.
pub fn installed(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

/// Refuses a tool that is not installed, naming it.
pub fn require(tool: Tool) -> Result<PathBuf, Error> {
    require_program(tool.as_str())
}

fn require_program(name: &str) -> Result<PathBuf, Error> {
    installed(name).ok_or_else(|| {
        Error::Refused(format!(
            "--tool={name}: {name} is not installed (not found on PATH)"
        ))
    })
}

/// Refuses options the tool cannot honour, rather than measuring something
/// else than was asked.
pub fn check_options(tool: Tool, o: &Options) -> Result<(), Error> {
    let name = tool.as_str();
    let refuse = |what: &str| Err(Error::usage(format!("--tool={name}: {what}")));
    if o.cold {
        return refuse("--cold needs the built-in client (a unique query per request)");
    }
    if !o.resolve.is_empty() {
        return refuse("--resolve works with the built-in client only");
    }
    match tool {
        Tool::Ab | Tool::Wrk if o.protocol == Protocol::Http2 => refuse("speaks HTTP/1.1 only"),
        Tool::Wrk | Tool::H2load if !o.keepalive => refuse("always keeps connections alive"),
        _ => Ok(()),
    }
}

/// Measures every job with `tool`.
pub fn run(
    tool: Tool,
    plan: &Plan,
    o: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<Row>, Vec<ServerPair>), Error> {
    check_options(tool, o)?;
    handed::check(tool, plan, o)?;
    let program = require(tool)?;
    let mut rows: Vec<Option<Row>> = vec![None; plan.jobs.len()];
    for &index in plan.groups.iter().flatten() {
        let job = &plan.jobs[index];
        progress(&format!("{}: {}", tool.as_str(), job.url));
        let summary = measure_job(tool, &program, plan, o, job)?;
        rows[index] = Some(summary.into_row(
            job.key(plan),
            job.page.clone(),
            plan.servers[job.server].name.clone(),
            job.url.to_string(),
            tool,
        ));
    }
    let rows: Vec<Row> = rows.into_iter().flatten().collect();
    let pairs = measure::pairs(plan, &rows);
    Ok((rows, pairs))
}

fn measure_job(
    tool: Tool,
    program: &Path,
    plan: &Plan,
    o: &Options,
    job: &Job,
) -> Result<Summary, Error> {
    let n = plan.requests;
    let addresses = &plan.servers[job.server].addresses;
    if addresses.ips.is_empty() && address::literal(&job.url.host).is_none() {
        // As the built-in client says it, and no lookup of the tool's own.
        return Ok(Summary::all_failed(
            n,
            &format!("cannot resolve {}", job.url.host),
        ));
    }
    let handed = handed::hand(o, job, addresses.first());
    let (url, headers) = (&handed.url, &handed.headers);
    let c = plan.concurrency;
    let limit = time_limit(o, n.max(plan.warmup), c);
    // No credential is ever an argument; a header that looks like one is
    // still hidden, should one of the tools print its command line.
    let shown = |args: &[String]| -> String {
        args.iter()
            .map(|a| match a.split_once(':') {
                Some((name, _)) if o.is_secret(name) => format!("{name}: (hidden)"),
                _ => a.clone(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let failed = |args: &[String], m: String| {
        Error::Refused(format!("{} {}: {m}", tool.as_str(), shown(args)))
    };
    match tool {
        Tool::Ab => {
            let dir = tempfile::tempdir()
                .map_err(|e| Error::Refused(format!("ab: no temporary folder: {e}")))?;
            let csv = dir.path().join("percentiles.csv");
            if plan.warmup > 0 {
                let warm = ab::args(url, plan.warmup.max(c), c, o, headers, &csv);
                let _ = output(program, &warm, limit);
            }
            let args = ab::args(url, n, c, o, headers, &csv);
            let (stdout, stderr) = output(program, &args, limit).map_err(|m| failed(&args, m))?;
            let percentiles = std::fs::read_to_string(&csv).unwrap_or_default();
            ab::parse(&stdout, &stderr, &percentiles, n).map_err(|m| failed(&args, m))
        }
        Tool::Wrk => {
            // Credentials go in a Lua script of mode 0600 in a private
            // folder, removed when the run ends.
            let dir = tempfile::tempdir()
                .map_err(|e| Error::Refused(format!("wrk: no temporary folder: {e}")))?;
            let script = if handed.secrets.is_empty() {
                None
            } else {
                let path = dir.path().join("credentials.lua");
                wrk::write_script(&path, &handed.secrets)
                    .map_err(|e| Error::Refused(format!("wrk: cannot write its script: {e}")))?;
                Some(path)
            };
            let args = wrk::args(url, o.duration, c, o, headers, script.as_deref());
            let (stdout, stderr) = output(program, &args, limit).map_err(|m| failed(&args, m))?;
            wrk::parse(&stdout, &stderr).map_err(|m| failed(&args, m))
        }
        Tool::Oha => {
            if plan.warmup > 0 {
                let _ = output(
                    program,
                    &oha::args(url, plan.warmup.max(c), c, o, headers),
                    limit,
                );
            }
            let args = oha::args(url, n, c, o, headers);
            let (stdout, _) = output(program, &args, limit).map_err(|m| failed(&args, m))?;
            oha::parse(&stdout, n).map_err(|m| failed(&args, m))
        }
        Tool::H2load => {
            if plan.warmup > 0 {
                let _ = output(
                    program,
                    &h2load::args(url, plan.warmup.max(c), c, o, headers),
                    limit,
                );
            }
            let args = h2load::args(url, n, c, o, headers);
            let (stdout, stderr) = output(program, &args, limit).map_err(|m| failed(&args, m))?;
            h2load::parse(&stdout, &stderr).map_err(|m| failed(&args, m))
        }
        Tool::Builtin => Err(Error::usage("the built-in client is not an external tool")),
    }
}

/// The longest a tool may run: every request of a connection timing out one
/// after the other (or the whole `--duration`), plus a minute to start and
/// report; at most a day.
fn time_limit(o: &Options, requests: u64, concurrency: u64) -> Duration {
    let per_connection = requests.div_ceil(concurrency.max(1)) as f64 + 1.0;
    let seconds = o.timeout.as_secs_f64() * per_connection + o.duration as f64 + 60.0;
    Duration::from_secs_f64(seconds.min(86_400.0))
}

/// Runs the tool and returns its stdout and stderr, whatever its exit code:
/// a tool that could not connect says so in its output, which the parser
/// turns into errors. Past `limit` it is killed, and that is the error.
fn output(program: &Path, args: &[String], limit: Duration) -> Result<(String, String), String> {
    let out = crate::process::output_within(Command::new(program).args(args), limit)?;
    Ok((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// The first line of `text` that is not blank, for messages.
pub fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::options::parse;

    fn opts(a: &[&str]) -> Options {
        parse(a.iter().map(|s| s.to_string()).collect(), None).unwrap()
    }

    #[test]
    fn a_tool_may_take_every_request_timing_out_plus_a_minute() {
        let o = opts(&["--url=http://127.0.0.1:1/", "--timeout=2"]);
        // 100 requests on 4 connections: 25 each and one more, beside the
        // default 10 s --duration.
        assert_eq!(
            time_limit(&o, 100, 4),
            Duration::from_secs(2 * 26 + 10 + 60)
        );
        let o = opts(&["--url=http://127.0.0.1:1/", "--timeout=30", "--duration=5"]);
        assert_eq!(time_limit(&o, 1, 0), Duration::from_secs(30 * 2 + 5 + 60));
        let o = opts(&["--url=http://127.0.0.1:1/", "--timeout=86400"]);
        assert_eq!(time_limit(&o, 1_000_000, 1), Duration::from_secs(86_400));
    }

    #[test]
    fn a_missing_tool_is_named() {
        // No real tool is named like this, so the lookup must fail.
        assert!(installed("yardstick-no-such-tool").is_none());
        assert!(installed("sh").is_some());
        let e = require_program("yardstick-no-such-tool").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert_eq!(
            e.to_string(),
            "REFUSED: --tool=yardstick-no-such-tool: yardstick-no-such-tool is not installed (not found on PATH)"
        );
    }

    #[test]
    fn options_a_tool_cannot_honour_are_refused() {
        let e = check_options(Tool::Wrk, &opts(&["--cold"]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--tool=wrk") && e.contains("--cold"), "{e}");
        assert!(check_options(Tool::Ab, &opts(&["--http=2"])).is_err());
        assert!(check_options(Tool::H2load, &opts(&["--http=2"])).is_ok());
        assert!(check_options(Tool::Oha, &opts(&["--resolve=a:1:127.0.0.1"])).is_err());
        assert!(check_options(Tool::Wrk, &opts(&["--no-keepalive"])).is_err());
        assert!(check_options(Tool::Ab, &opts(&["--no-keepalive"])).is_ok());
    }

    #[test]
    fn summaries_become_rows_with_only_what_was_reported() {
        let s = Summary {
            requests: 10,
            succeeded: 9,
            median: Some(1.5),
            ..Summary::default()
        };
        let r = s.into_row("k".into(), "/".into(), "t".into(), "u".into(), Tool::Wrk);
        assert_eq!(
            (r.n, r.median, r.p95, r.tool.as_deref()),
            (9, Some(1.5), None, Some("wrk"))
        );
        assert!(r.samples.is_empty());
        let f = Summary::all_failed(5, "Connection refused");
        assert_eq!((f.errors, f.status[FAILED]), (5, 5));
    }
}
