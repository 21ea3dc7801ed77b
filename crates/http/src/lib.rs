//! HTTP mode: pages timed as a visitor gets them, several servers measured
//! back to back, warm or cold caches, and the same rows, formats and
//! comparisons as every other mode.
//!
//! A [`job::Job`] says what to measure; `pages` (or, when no page is
//! given, `discover`, from the site's sitemap) and `schedule` decide what
//! is requested in which order, `address` where each request goes, `safety`
//! refuses what could harm a server that is not ours, `builtin` (over
//! `session`, `workers`, `client`, `template`, `connect`, `h1`, `http2`, `words`
//! and `tls`) measures with the built-in client, `tools` hands pages to
//! an installed load tool, `tally` counts the answers as they come, `rows`
//! turns what they came to into rows, and `settings`
//! says what the run saves of the job.
//! Nothing here reads the command line or prints: progress lines go to a
//! callback, which the command connects to its output.

#![warn(missing_docs)]

pub mod address;
pub mod builtin;
pub(crate) mod clear;
pub(crate) mod client;
pub(crate) mod connect;
pub mod discover;
pub(crate) mod failure;
pub(crate) mod fetch;
pub mod h1;
pub(crate) mod h2_resets;
pub mod http2;
pub mod job;
pub mod k6;
pub(crate) mod pages;
pub(crate) mod rows;
pub(crate) mod safety;
pub mod schedule;
pub(crate) mod session;
pub(crate) mod settings;
pub(crate) mod tally;
pub(crate) mod template;
pub(crate) mod tls;
pub mod tools;
pub mod url;
pub(crate) mod words;
pub(crate) mod workers;

// The crates below, by the names the rest of yardstick gives them.
use yardstick_document as document;
use yardstick_document::{error, text};
use yardstick_process as process;
use yardstick_stats as stats;

use crate::document::builder::{FigureKind, RunBuilder};
use crate::document::environment::{Environment, now};
use crate::document::run::{Mode, Run};
use crate::document::settings::{PagesFromSite, Settings};
use crate::error::Error;
use job::{Job, Tool};
use schedule::Schedule;
use std::path::Path;

/// A temporary folder only this user can enter (0700 on Unix): it holds
/// the tools' scripts, which may carry credentials. tempfile makes its
/// folders with the default mode, which the umask leaves readable to all.
pub(crate) fn private_tempdir() -> std::io::Result<tempfile::TempDir> {
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    builder.tempdir()
}

/// Measures what `job` asks for and returns the run, not yet compared or
/// saved; each step is told to `progress` as a line. Refusals (safety
/// caps, bad pages, a missing tool) come before any connection is made.
pub fn measure(job: &Job, progress: &mut dyn FnMut(&str)) -> Result<Run, Error> {
    let (schedule, from_site) = match &job.k6_logs {
        // Measured elsewhere: the schedule names the pages, nothing here
        // makes a request or looks up a name.
        Some(_) => (
            Schedule::new(job, k6::given_pages(job, "k6 collect")?)?,
            None,
        ),
        None => checked_schedule(job, progress)?,
    };
    let started = now();
    let mut rows = match job.tool {
        Tool::Builtin => builtin::run(&schedule, job, progress)?,
        Tool::K6 => k6::run(&schedule, job, progress)?,
        tool => tools::run(tool, &schedule, job, progress)?,
    };
    rows::mark_overloaded(&mut rows, job.max_failures);
    let pairs = rows::pairs(&schedule, &rows);
    let environment = Environment::current(Path::new("."), started.clone());
    // An external tool's times owe nothing to this build.
    let figures = match job.tool {
        Tool::Builtin => FigureKind::ClientTime,
        _ => FigureKind::Unaffected,
    };
    let settings = Settings::Http(settings::of(job, &schedule, from_site));
    Ok(RunBuilder::new(Mode::Http, started, settings)
        .rows(rows)
        .server_pairs((!job.compare.is_empty()).then_some(pairs))
        .build(environment, figures))
}

/// The schedule of `job`'s pages (from `urls`, then `urls_file`; without
/// either, the site's own, found through `discover`), every server's
/// addresses found, once the caps and the tool allow it, and every cache
/// cleared when `--cold-clear` asks; and how the pages were found from the
/// site, when they were.
fn checked_schedule(
    job: &Job,
    progress: &mut dyn FnMut(&str),
) -> Result<(Schedule, Option<PagesFromSite>), Error> {
    let mut pages = given_pages(job)?;
    let mut from_site = None;
    let n_bases = job.base.iter().count() + job.compare.len();
    if pages.is_empty() && n_bases > 0 {
        // The front page alone first: the server is checked and its
        // addresses found before any document is asked of it.
        let front = resolved(job, vec!["/".to_string()])?;
        if job.cold_clear.is_some() {
            clear::check_loopback(&front)?;
        }
        let found = discover::pages(job, &front, progress)?;
        pages = found.pages;
        from_site = Some(found.settings);
    }
    let schedule = resolved(job, pages)?;
    if job.tool != Tool::Builtin {
        tools::require(job.tool)?;
    }
    if let Some(token_file) = &job.cold_clear {
        clear::clear(job, &schedule, n_bases, token_file, progress)?;
    }
    Ok((schedule, from_site))
}

/// The pages `--url` and `--urls-file` give, in that order.
fn given_pages(job: &Job) -> Result<Vec<String>, Error> {
    let mut pages = job.urls.clone();
    if let Some(file) = &job.urls_file {
        pages.extend(pages::from_file(file)?);
    }
    Ok(pages)
}

/// The schedule of `pages`, its addresses found and the safety caps
/// checked.
fn resolved(job: &Job, pages: Vec<String>) -> Result<Schedule, Error> {
    let mut schedule = Schedule::new(job, pages)?;
    schedule.resolve(&job.resolve, &address::system_lookup);
    safety::check(&schedule, job)?;
    Ok(schedule)
}

#[cfg(all(test, unix))]
mod private_tests {
    #[test]
    fn the_tools_folder_is_the_user_s_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = super::private_tempdir().unwrap();
        let mode = std::fs::metadata(dir.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
    }
}
