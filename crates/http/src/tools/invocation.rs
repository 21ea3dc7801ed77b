//! Running an installed tool for one page: within a time limit, stopped
//! by a signal that ends the run, with its output read whatever its exit
//! code, and an error that names the command line without a credential in
//! it.
//!
//! A tool is waited for at most once per phase, each wait bounded by the
//! limit: a warm-up that runs past it ends the page's run (a tool that hung
//! once would hang again, and be waited for a second limit), and that
//! page's row fails; the other pages are still measured.

use super::Summary;
use super::handed::Handed;
use super::interrupt;
use crate::error::Error;
use crate::job::{Job, Tool};
use crate::process::{Capped, Sink, Stopped};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// One page handed to one tool: everything its module needs to run it.
pub(crate) struct Invocation<'a> {
    /// The tool, for messages.
    pub(crate) tool: Tool,
    /// Its program, found on `PATH`.
    pub(crate) program: &'a Path,
    /// What the run was asked for (timeout, keep-alive, protocol, ...).
    pub(crate) job: &'a Job,
    /// The URL and headers the tool is given, and the credentials it is
    /// given only in a private file.
    pub(crate) handed: Handed,
    /// Measured requests.
    pub(crate) requests: u64,
    /// Unmeasured requests first (none when 0).
    pub(crate) warmup: u64,
    /// Requests at a time.
    pub(crate) concurrency: u64,
    /// The longest one run of the tool may take.
    pub(crate) limit: Duration,
    /// Set when a run (the warm-up or the measured one) was killed at its
    /// limit: that page's row fails, and the other pages are still
    /// measured.
    pub(crate) past_limit: std::cell::Cell<bool>,
    /// Set while the warm-up runs, and left set when it failed: which run
    /// a row that failed at its limit failed in.
    pub(crate) warming_up: std::cell::Cell<bool>,
}

/// What a tool gave back: its output as its sink kept it, its error
/// output, and whether it exited with success.
pub(crate) struct Ran<S> {
    pub(crate) stdout: S,
    pub(crate) stderr: String,
    pub(crate) success: bool,
    /// How it ended, when not well (`exit status: 3`).
    pub(crate) status: Option<String>,
}

/// What a tool printed.
pub(crate) struct Printed {
    /// Standard output, where tools print their summary.
    pub(crate) stdout: String,
    /// Standard error, where they say why they could not.
    pub(crate) stderr: String,
    /// How the tool ended, when it did not end well (`exit status: 3`).
    pub(crate) failure: Option<String>,
}

impl Printed {
    /// `summary`, read from what the tool printed, if the tool ended well:
    /// a tool that failed may still print a summary (a wrk that exited 3
    /// after "10 requests in 2.00s"), and its figures are not its
    /// measurement.
    pub(crate) fn trusted<T>(&self, summary: T) -> Result<T, String> {
        match &self.failure {
            None => Ok(summary),
            Some(status) => {
                let said = self
                    .stderr
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("");
                Err(format!(
                    "it failed ({status}{}{}), so the summary it printed is not a measurement",
                    if said.is_empty() { "" } else { ": " },
                    crate::text::clean(&said.chars().take(200).collect::<String>())
                ))
            }
        }
    }
}

/// The most of a tool's printed summary read: wrk's, ab's, h2load's and
/// oha's are a few kilobytes.
const MAX_PRINTED: usize = 16 << 20;

impl Invocation<'_> {
    /// Runs the tool with `args` and returns what it printed, whatever its
    /// exit code: a tool that could not connect says so in its output,
    /// which its parser turns into errors. Past the limit it is killed,
    /// and that is the error.
    pub(crate) fn output(&self, args: &[String]) -> Result<Printed, Error> {
        let ran = self.output_into(args, Capped::new(MAX_PRINTED))?;
        if ran.stdout.cut {
            return Err(Error::Refused(format!(
                "{}: printed more than {} MB, which no summary of it is; nothing was saved",
                self.tool.as_str(),
                MAX_PRINTED >> 20
            )));
        }
        Ok(Printed {
            stdout: String::from_utf8_lossy(&ran.stdout.bytes).into_owned(),
            stderr: ran.stderr,
            failure: ran.status.clone(),
        })
    }

    /// Runs the tool with `args`, its standard output given to `stdout` as
    /// it comes.
    pub(crate) fn output_into<S: Sink>(&self, args: &[String], stdout: S) -> Result<Ran<S>, Error> {
        let stop = || interrupt::caught().is_some();
        let done = crate::process::run_within(
            Command::new(self.program).args(args),
            self.limit,
            &stop,
            stdout,
        )
        .map_err(|m| self.stopped(args, &m))?;
        Ok(Ran {
            stdout: done.stdout,
            stderr: String::from_utf8_lossy(&done.stderr).into_owned(),
            success: done.status.success(),
            status: (!done.status.success()).then(|| done.status.to_string()),
        })
    }

    /// Runs the tool for its warm-up, when there is one: nothing it says
    /// matters, a failure of its own included; but a warm-up stopped (past
    /// its limit, by a signal) or that could not run ends the page's run
    /// before the measured one starts.
    fn warm_up(&self, args: impl FnOnce(u64) -> Vec<String>) -> Result<(), Error> {
        self.warm_up_into(args, Discard).map(|_| ())
    }

    /// [`Invocation::warm_up`] with its standard output given to `stdout`,
    /// which is returned (none when there is no warm-up), for a tool whose
    /// warm-up also checks the server's answers.
    pub(crate) fn warm_up_into<S: Sink>(
        &self,
        args: impl FnOnce(u64) -> Vec<String>,
        stdout: S,
    ) -> Result<Option<S>, Error> {
        if self.warmup == 0 {
            return Ok(None);
        }
        let args = args(self.warmup.max(self.concurrency));
        self.warming_up.set(true);
        let ran = self.output_into(&args, stdout).map_err(|e| {
            // The measured run is not started after a failed warm-up.
            match e {
                Error::Refused(m) => {
                    Error::Refused(format!("warm-up: {m}; the measured run was not started"))
                }
                other => other,
            }
        })?;
        self.warming_up.set(false);
        Ok(Some(ran.stdout))
    }

    /// A tool run for a count of requests: a warm-up of `args(warm-up
    /// count)`, then `args(requests)` measured and its output read by
    /// `parse`. A tool that fails or prints what `parse` refuses is an error
    /// naming its command line (credentials hidden).
    pub(crate) fn counted(
        &self,
        args: impl Fn(u64) -> Vec<String>,
        parse: impl FnOnce(&Printed) -> Result<Summary, String>,
    ) -> Result<Summary, Error> {
        self.warm_up(&args)?;
        let args = args(self.requests);
        let printed = self.output(&args)?;
        parse(&printed)
            .and_then(|summary| printed.trusted(summary))
            .map_err(|m| self.failed(&args, m))
    }

    /// The error of a run with `args` that did not run to its end.
    fn stopped(&self, args: &[String], why: &Stopped) -> Error {
        if matches!(why, Stopped::Limit(_)) {
            self.past_limit.set(true);
        }
        match why {
            Stopped::Asked => Error::Refused(format!(
                "{}: stopped by {}: its processes were killed",
                self.tool.as_str(),
                interrupt::caught().map_or_else(|| "a signal".to_string(), interrupt::name)
            )),
            other => self.failed(args, other.to_string()),
        }
    }

    /// The error of a run with `args` that failed with `message`. No
    /// credential is ever an argument; a header that looks like one is
    /// still hidden, should one of the tools print its command line.
    pub(crate) fn failed(&self, args: &[String], message: String) -> Error {
        let shown: Vec<String> = args
            .iter()
            .map(|a| match a.split_once(':') {
                Some((name, _)) if self.job.is_secret(name) => format!("{name}: (hidden)"),
                _ => a.clone(),
            })
            .collect();
        Error::Refused(format!(
            "{} {}: {message}",
            self.tool.as_str(),
            shown.join(" ")
        ))
    }
}

/// The output of a warm-up, which nothing reads.
struct Discard;

impl Sink for Discard {
    fn take(&mut self, _bytes: &[u8]) {}
}

/// What a tool is given beyond its own work to start, write its report and
/// exit. Start-up is milliseconds for ab, wrk, oha and h2load and a second
/// or two for k6 on a loaded machine; a hung tool is waited for this long
/// past what it was asked to do.
const SLACK_SECONDS: f64 = 20.0;

/// The longest a tool may run, from what that tool does: wrk runs for its
/// `--duration` whatever the requests, and a request still open at the end
/// waits at most its timeout; the others make their requests, and may meet
/// every request of a connection timing out one after the other (plus one
/// for the connection), beside any `--duration`. Plus the slack; at most a
/// day.
pub(crate) fn time_limit(job: &Job, requests: u64, concurrency: u64) -> Duration {
    let timeout = job.timeout.as_secs_f64();
    let working = match job.tool {
        Tool::Wrk => job.duration_seconds() as f64 + timeout,
        _ => {
            let per_connection = requests.div_ceil(concurrency.max(1)) as f64 + 1.0;
            timeout * per_connection + job.duration.unwrap_or(0) as f64
        }
    };
    Duration::from_secs_f64((working + SLACK_SECONDS).min(86_400.0))
}
