//! `yardstick show FILE` and `yardstick compare BASE RUN`: work on saved runs
//! without measuring anything.

use super::common::{Common, Flag, exit_help, output_help};
use crate::baseline::Baseline;
use crate::document::run::{Metric, Mode};
use crate::document::store;
use crate::error::Error;
use crate::judge::{self, Rules};

use crate::output::deliver;
use lexopt::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

/// What `yardstick show --help` prints; keep it in step with `parse` and
/// docs/cli.md (tests/help.rs checks both).
pub(crate) const SHOW_HELP: &str = concat!(
    "usage: yardstick show FILE [OPTIONS]

Prints a saved run (and its comparison, if it was judged) without measuring.

",
    output_help!(),
    "
Exit codes: 0, or 2 on bad usage or input (one line on stderr).
"
);

/// What `yardstick compare --help` prints; keep it in step with `parse`,
/// `Common::accept` and docs/cli.md (tests/help.rs checks all three).
pub(crate) const COMPARE_HELP: &str = concat!(
    "usage: yardstick compare BASE RUN [OPTIONS]

Judges the saved run RUN against the saved run BASE without measuring, by
the rules of their kind: normalised medians for timed micro runs, counts,
or HTTP times. It cannot measure again, so nothing is confirmed.

  --threshold=PCT           how much slower regresses (default: 30 for timed
                            micro runs, 1 for counts, 15 for HTTP runs)
  --max-machine-slowdown=PCT
                            judge nothing when RUN's calibration loop ran more
                            than PCT % slower than BASE's (default 30; timed
                            micro runs only)
  --min-delta=MS            HTTP runs: a time regresses only when it also grew
                            by MS milliseconds (default 1)
  --cross-machine           judge wall time across machine classes too
                            (expect false alarms)
  --all-checks              list every check, not only the regressions
",
    output_help!(),
    exit_help!()
);

/// Shared options plus the positional file names; `help` answers `--help`.
fn parse(
    args: Vec<OsString>,
    command: &str,
    files: usize,
    help: &'static str,
) -> Result<(Common, Vec<PathBuf>), Error> {
    let mut common = Common::default();
    let mut paths = Vec::new();
    let mut parser = Parser::from_args(args);
    while let Some(flag) = common.next_own(&mut parser, help)? {
        match flag {
            Flag::Value(v) => paths.push(PathBuf::from(v)),
            other => return Err(other.unexpected()),
        }
    }
    // Shared options that mean nothing here are refused, not ignored.
    let refused = [
        (common.save.is_some(), "--save"),
        (common.baseline.is_some(), "--baseline"),
        (common.no_baseline, "--no-baseline"),
        (
            command == "show" && common.threshold.is_some(),
            "--threshold",
        ),
        (
            command == "show" && common.min_delta.is_some(),
            "--min-delta",
        ),
        (command == "show" && common.all_checks, "--all-checks"),
        (
            command == "show" && common.max_machine_slowdown.is_some(),
            "--max-machine-slowdown",
        ),
        (command == "show" && common.cross_machine, "--cross-machine"),
    ];
    if let Some((_, option)) = refused.iter().find(|(given, _)| *given) {
        return Err(Error::usage(format!(
            "yardstick {command} does not take {option}"
        )));
    }
    if paths.len() != files {
        let wanted = if files == 1 { "FILE" } else { "BASE RUN" };
        return Err(Error::usage(format!(
            "usage: yardstick {command} {wanted} [OPTIONS]"
        )));
    }
    Ok((common, paths))
}

/// Prints a saved run in the chosen format.
pub fn show(args: Vec<OsString>) -> Result<i32, Error> {
    let (common, paths) = parse(args, "show", 1, SHOW_HELP)?;
    let run = store::load(&paths[0])?;
    deliver::show(&run, &common.delivery());
    Ok(0)
}

/// Compares two saved runs; exit 1 on a regression.
pub fn compare(args: Vec<OsString>) -> Result<i32, Error> {
    let (common, paths) = parse(args, "compare", 2, COMPARE_HELP)?;
    let base = Baseline::load(&paths[0])?;
    let run = Baseline::load(&paths[1])?;
    // The run is measured against the baseline: where they differ in kind,
    // the run is the one named.
    base.suits(run.run.mode, run.run.metric).map_err(|_| {
        Error::input(format!(
            "{}: a {} run of {} cannot be compared with {}, a {} run of {}",
            run.name,
            run.run.mode.as_str(),
            run.run.metric.as_str(),
            base.name,
            base.run.mode.as_str(),
            base.run.metric.as_str()
        ))
    })?;
    let rules = Rules::from(&common);
    let untimed = [&base, &run]
        .into_iter()
        .find(|r| r.run.mode != Mode::Micro || r.run.metric != Metric::Time);
    if let (Some(r), Some(_)) = (untimed, rules.max_machine_slowdown) {
        return Err(Error::usage(format!(
            "--max-machine-slowdown: {} is not a timed micro run, and only those have a calibration loop",
            r.name
        )));
    }
    let c = judge::compare(&base.run, &base.name, &run.run, &rules)?;
    Ok(deliver::comparison(&c, &run.run, &common.delivery()))
}
