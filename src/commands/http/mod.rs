//! `yardstick http`: pages measured over HTTP (see `http`), then judged,
//! printed and saved like every mode.

pub(crate) mod cli;
pub mod options;

use crate::baseline::{Baseline, Resolved};
use crate::commands::common::Common;
use crate::document::run::{Metric, Mode, Run};
use crate::error::Error;
use crate::http;
use crate::http::job::Job;
use crate::judge::Rules;
use crate::output::deliver;
use crate::output::progress::Progress;
use options::HttpOptions;

/// `yardstick http ARGS`: measures, then reports, saves and compares like
/// every mode; returns the exit code.
pub fn main(args: Vec<String>) -> Result<i32, Error> {
    run(parse(args)?)
}

/// The options of `args`, the secrets of the environment added.
pub(crate) fn parse(args: Vec<String>) -> Result<HttpOptions, Error> {
    let mut o = options::parse(args, std::env::var("YARDSTICK_AUTH").ok())?;
    options::secret_headers_from_env(&mut o.job, std::env::var("YARDSTICK_SECRET_HEADERS").ok())?;
    Ok(o)
}

/// Measures what `o` asks for, then reports, saves and compares like
/// every mode; returns the exit code.
pub(crate) fn run(mut o: HttpOptions) -> Result<i32, Error> {
    // Read before measuring, so a bad baseline file costs no run.
    let baseline = baseline(&o.common)?;
    if baseline.is_none() {
        o.job.max_failures.get_or_insert(Job::MAX_FAILURES_ALONE);
    }
    // The page first: checking the delivery opens a history to record in.
    let page = o
        .common
        .page(o.job.urls_file.iter().chain(&o.job.cold_clear).cloned())?;
    let delivery = o.common.delivery();
    delivery.check()?;
    let measured = measure(&o);
    if let Some(code) = interrupted("nothing was saved") {
        return Ok(code);
    }
    let mut run = measured?;
    if let Some(b) = &baseline {
        run = b.judge(run, &Rules::from(&o.common))?;
    }
    let against = baseline.as_ref().map(|b| &b.run);
    let code = page.draw_then("yardstick http", run, against, |run| {
        deliver::deliver(run, &delivery)
    })?;
    Ok(interrupted("after the run was delivered").unwrap_or(code))
}

/// The exit code of a run a signal asked to end while a load tool ran
/// (128 + its number, as a shell reports a process the signal killed),
/// saying so on stderr with `what` became of the run; `None` when no
/// signal came.
fn interrupted(what: &str) -> Option<i32> {
    let signal = http::tools::interrupt::caught()?;
    eprintln!(
        "yardstick http: stopped by {}: the load tool's processes were killed; {what}",
        http::tools::interrupt::name(signal)
    );
    Some(128 + signal)
}

/// Measures what `o` asks for, with progress lines on stderr (marked
/// `http: `) unless `-q`, and returns the run, neither judged nor saved:
/// the command's first step, for callers that want the run itself.
pub fn measure(o: &HttpOptions) -> Result<Run, Error> {
    let progress = Progress::new(0, o.common.quiet);
    let run = http::measure(&o.job, &mut |line| {
        progress.say(&format!("http: {line}"));
    });
    progress.finish();
    run
}

/// The baseline `--baseline` names, if any, checked to hold HTTP times.
/// HTTP has no default baseline: without `--baseline` nothing is judged.
fn baseline(common: &Common) -> Result<Option<Baseline>, Error> {
    let kind = (Mode::Http, Metric::Time);
    let baseline = match Baseline::resolve(common.asked()?, None, None, kind)? {
        Resolved::Baseline(b) => Some(*b),
        Resolved::Nothing(why) => {
            eprintln!("note: {why}; nothing is judged");
            None
        }
        Resolved::NotAsked => None,
    };
    if let Some(b) = &baseline {
        b.suits(Mode::Http, Metric::Time)?;
    }
    Ok(baseline)
}
