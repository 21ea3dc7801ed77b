//! `--tool=ab|wrk|oha|h2load`: hands each page to an installed load tool
//! and reads its printed summary into the same row the built-in client
//! fills. Only what the tool reports is filled in; the rest stays empty.
//!
//! Each tool runs once per page and server, servers back to back; rounds do
//! not apply (a tool's percentiles cannot be merged across runs of it).

pub mod ab;
pub(crate) mod ab_log;
pub mod h2load;
pub(crate) mod h2load_log;
pub(crate) mod handed;
pub mod interrupt;
pub(crate) mod invocation;
pub(crate) mod kinds;
pub mod oha;
pub(crate) mod units;
pub mod wrk;
pub(crate) mod wrk_tally;

use super::address;
use super::job::{Job, Protocol, Tool};
use super::rows::{FAILED, Labels};
use super::schedule::{Schedule, Visit};
use crate::document::failures::Failures;
use crate::document::failures::Kind;
use crate::document::figures::Figures;
use crate::document::run::Row;
use crate::error::Error;
use invocation::{Invocation, time_limit};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a tool reported for one page, read from its output: the part of a
/// row a tool can fill. Times in milliseconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Requests attempted.
    pub requests: u64,
    /// Answered with a status below 400.
    pub succeeded: u64,
    /// Requests that failed or were answered with an error status.
    pub errors: u64,
    /// Why requests failed → how many.
    pub error_messages: BTreeMap<String, u64>,
    /// Status code or class (`2xx`, `4xx`, `non-2xx`) → count.
    pub status: BTreeMap<String, u64>,
    /// The request times the tool reports (its `n` is set from
    /// `succeeded`).
    pub figures: Figures,
    /// The median time to the first byte.
    pub ttfb_median: Option<f64>,
    /// Successful requests per second.
    pub rps: Option<f64>,
    /// Mean bytes per answer, as the tool counts them.
    pub bytes: Option<f64>,
    /// The `Server` header, when the tool reports it.
    pub server: Option<String>,
    /// What the tool said that the row's figures do not show.
    pub note: String,
    /// The failed requests by kind, as the tool's words tell them apart;
    /// every error is counted under one.
    pub failures: Option<Failures>,
}

impl Summary {
    /// Every request failed before an answer, of one kind, for one
    /// reason.
    pub(crate) fn all_failed(requests: u64, kind: Kind, message: &str) -> Summary {
        let mut s = Summary {
            requests,
            status: BTreeMap::from([(FAILED.to_string(), requests)]),
            rps: Some(0.0),
            ..Summary::default()
        };
        s.add_failure(kind, message, requests);
        s
    }

    /// Adds `n` failed requests of a kind (`kind` picks its count in the
    /// row's failures) under `message`, when there are any.
    fn add_failure(&mut self, kind: Kind, message: &str, n: u64) {
        if n > 0 {
            self.errors = self.errors.saturating_add(n);
            let e = self.error_messages.entry(message.to_string()).or_default();
            *e = e.saturating_add(n);
            self.failures
                .get_or_insert_with(Failures::default)
                .add(kind, n);
        }
    }

    /// Adds `n` requests under the status key `key`, when there are any.
    fn add_status(&mut self, key: &str, n: u64) {
        if n > 0 {
            self.status.insert(key.to_string(), n);
        }
    }

    fn into_row(self, labels: Labels, tool: Tool) -> Row {
        let mut row = labels.row(Vec::new());
        row.figures = Figures {
            n: usize::try_from(self.succeeded).unwrap_or(usize::MAX),
            ..self.figures
        };
        row.page.ttfb_median = self.ttfb_median;
        row.requests = self.requests;
        row.errors = self.errors;
        row.error_messages = super::tally::capped(self.error_messages);
        row.rps = self.rps;
        row.note = self.note;
        row.page.status = super::tally::capped(self.status);
        row.page.bytes = self.bytes;
        row.page.server = self.server;
        row.page.tool = Some(tool.as_str().to_string());
        row.page.failures = self.failures;
        row
    }
}

/// The path of an installed program, found on `PATH`: whether a tool can
/// be used, and what a run saves as the tools it found.
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
pub(crate) fn require(tool: Tool) -> Result<PathBuf, Error> {
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
pub(crate) fn check_options(tool: Tool, job: &Job) -> Result<(), Error> {
    let name = tool.as_str();
    let refuse = |what: &str| Err(Error::usage(format!("--tool={name}: {what}")));
    // k6 is given a script, which makes each request's query unique.
    if job.cold && tool != Tool::K6 {
        return refuse("--cold needs the built-in client (a unique query per request)");
    }
    if !job.resolve.is_empty() {
        return refuse("--resolve works with the built-in client only");
    }
    match tool {
        Tool::Ab | Tool::Wrk if job.protocol == Protocol::Http2 => refuse("speaks HTTP/1.1 only"),
        Tool::Wrk | Tool::H2load if !job.keepalive => refuse("always keeps connections alive"),
        _ => Ok(()),
    }
}

/// Measures every visit of `schedule` with `tool`, telling `progress` of
/// each page; rows are in visit order.
pub(crate) fn run(
    tool: Tool,
    schedule: &Schedule,
    job: &Job,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Row>, Error> {
    check_options(tool, job)?;
    handed::check(tool, schedule, job)?;
    let program = require(tool)?;
    // Before the first tool starts, so that none outlives a signal.
    interrupt::catch()?;
    let mut rows: Vec<Option<Row>> = vec![None; schedule.visits.len()];
    for &index in schedule.groups.iter().flatten() {
        let visit = &schedule.visits[index];
        progress(&format!("{}: {}", tool.as_str(), visit.url));
        let summary = measure_visit(tool, &program, schedule, job, visit)?;
        let row = summary.into_row(Labels::of(visit, schedule), tool);
        // What the tool cannot have measured is refused as it is read,
        // before a run that could not be read back is shown or saved.
        if let Some(why) = crate::document::store::check::row_problem(&row) {
            return Err(Error::input(format!(
                "{}: {}: reported what no run of it can give: {why}",
                tool.as_str(),
                visit.url
            )));
        }
        rows[index] = Some(row);
    }
    Ok(rows.into_iter().flatten().collect())
}

/// Runs `tool` for one visit. A server without an address fails every
/// request, as the built-in client says it, and no tool looks it up.
fn measure_visit(
    tool: Tool,
    program: &Path,
    schedule: &Schedule,
    job: &Job,
    visit: &Visit,
) -> Result<Summary, Error> {
    let addresses = &schedule.servers[visit.server].addresses;
    if addresses.ips.is_empty() && address::literal(&visit.url.host).is_none() {
        return Ok(Summary::all_failed(
            schedule.requests,
            Kind::Connect,
            &format!("cannot resolve {}", visit.url.host),
        ));
    }
    let run = Invocation {
        tool,
        program,
        job,
        handed: handed::hand(job, visit, addresses.first()),
        requests: schedule.requests,
        warmup: schedule.warmup,
        concurrency: schedule.concurrency,
        limit: time_limit(
            job,
            schedule.requests.max(schedule.warmup),
            schedule.concurrency,
        ),
        past_limit: std::cell::Cell::new(false),
        warming_up: std::cell::Cell::new(false),
    };
    let measured = match tool {
        Tool::Ab => ab::measure(&run),
        Tool::Wrk => wrk::measure(&run),
        Tool::Oha => oha::measure(&run),
        Tool::H2load => h2load::measure(&run),
        Tool::Builtin | Tool::K6 => Err(Error::usage(format!(
            "{} is not run page by page",
            tool.as_str()
        ))),
    };
    // A page whose tool hung is a failed row; the other pages are kept.
    // A tool that saw no request end (a server that never answers, for
    // wrk's whole --duration) measured nothing: its connections' requests
    // failed, and the row must not pass as an empty success.
    let nothing = |tool: Tool| {
        Summary::all_failed(
            schedule.concurrency.max(1),
            Kind::Timeout,
            &format!(
                "{}: no request ended within the run (a server that never answers?)",
                tool.as_str()
            ),
        )
    };
    match measured {
        Ok(summary) if summary.requests == 0 && summary.errors == 0 => Ok(nothing(tool)),
        Err(_) if run.past_limit.get() => Ok(Summary::all_failed(
            schedule.requests,
            Kind::Timeout,
            &format!(
                "{} still running after its limit of {} s{}, killed",
                tool.as_str(),
                run.limit.as_secs_f64(),
                if run.warming_up.get() {
                    " in its warm-up"
                } else {
                    ""
                }
            ),
        )),
        other => other,
    }
}

/// The first line of `text` that is not blank, for messages: at most 200
/// characters of it.
fn first_line(text: &str) -> &str {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    match line.char_indices().nth(200) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn job(f: impl FnOnce(&mut Job)) -> Job {
        let mut job = Job {
            urls: vec!["http://127.0.0.1:1/".into()],
            ..Job::default()
        };
        f(&mut job);
        job
    }

    #[test]
    fn a_tool_may_take_what_it_was_asked_to_do_plus_the_slack() {
        let o = job(|j| j.timeout = Duration::from_secs(2));
        // 100 requests on 4 connections: 25 each and one more.
        assert_eq!(time_limit(&o, 100, 4), Duration::from_secs(2 * 26 + 20));
        // wrk runs for the default 10 s --duration, whatever the requests,
        // and its last requests wait at most their timeout.
        let o = job(|j| {
            j.timeout = Duration::from_secs(2);
            j.tool = Tool::Wrk;
        });
        assert_eq!(time_limit(&o, 100, 4), Duration::from_secs(10 + 2 + 20));
        let o = job(|j| {
            j.tool = Tool::Wrk;
            j.duration = Some(5);
        });
        assert_eq!(
            time_limit(&o, 1_000_000, 1),
            Duration::from_secs(5 + 30 + 20)
        );
        // The others run for a --duration beside their requests.
        let o = job(|j| {
            j.tool = Tool::Ab;
            j.duration = Some(5);
        });
        assert_eq!(time_limit(&o, 1, 0), Duration::from_secs(30 * 2 + 5 + 20));
        let o = job(|j| j.timeout = Duration::from_secs(86_400));
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
        let e = check_options(Tool::Wrk, &job(|j| j.cold = true))
            .unwrap_err()
            .to_string();
        assert!(e.contains("--tool=wrk") && e.contains("--cold"), "{e}");
        let http2 = job(|j| j.protocol = Protocol::Http2);
        assert!(check_options(Tool::Ab, &http2).is_err());
        assert!(check_options(Tool::H2load, &http2).is_ok());
        let resolved = job(|j| {
            j.resolve = vec![crate::job::Resolve {
                host: "a".into(),
                port: 1,
                address: "127.0.0.1".parse().unwrap(),
            }]
        });
        assert!(check_options(Tool::Oha, &resolved).is_err());
        let closing = job(|j| j.keepalive = false);
        assert!(check_options(Tool::Wrk, &closing).is_err());
        assert!(check_options(Tool::Ab, &closing).is_ok());
    }

    #[test]
    fn summaries_become_rows_with_only_what_was_reported() {
        let s = Summary {
            requests: 10,
            succeeded: 9,
            figures: Figures {
                median: Some(1.5),
                ..Figures::default()
            },
            ..Summary::default()
        };
        let labels = Labels {
            key: "k".into(),
            page: "/".into(),
            target: "t".into(),
            url: "u".into(),
        };
        let r = s.into_row(labels, Tool::Wrk);
        assert_eq!(
            (
                r.figures.n,
                r.figures.median,
                r.figures.p95,
                r.page.tool.as_deref()
            ),
            (9, Some(1.5), None, Some("wrk"))
        );
        assert!(r.samples.is_empty());
        let f = Summary::all_failed(5, Kind::Connect, "Connection refused");
        assert_eq!((f.errors, f.status[FAILED]), (5, 5));
        assert_eq!(f.failures.map(|k| (k.connect, k.total())), Some((5, 5)));
    }
}
