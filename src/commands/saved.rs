//! `yardstick show FILE` and `yardstick compare BASE RUN`: work on saved runs
//! without measuring anything.

use super::common::{self, Common};
use super::flags::{Entry, Flag, Preset, Section, Spec};
use crate::baseline::Baseline;
use crate::document::comparison::Method;
use crate::document::run::{Metric, Mode};
use crate::document::store;
use crate::error::Error;
use crate::judge::{self, Rules};

use crate::output::deliver;
use lexopt::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

/// HTTP's `--min-delta` default, as the judge states it.
const HTTP_MIN_DELTA: f64 = match judge::default_min_delta(&Method::Http) {
    Some(ms) => ms,
    None => panic!("HTTP times take a minimum delta"),
};

/// The output options, which `show` and `compare` both take.
const OUTPUT: Section<Common> = Section {
    title: Some("Output"),
    entries: &[Entry::SharedGroup(common::OUTPUT)],
};

/// Saving, recording and a baseline mean nothing to a command on saved
/// runs.
const NOT_MEASURING: [(&str, &str); 5] = [
    (
        "save",
        "it measures nothing, so there is no new run to save",
    ),
    ("baseline", "name the runs as BASE RUN"),
    ("no-baseline", "name the runs as BASE RUN"),
    (
        "record",
        "it makes no run; `yardstick history add` records saved ones",
    ),
    (
        "history",
        "it makes no run; `yardstick history add` records saved ones",
    ),
];

/// `yardstick show`'s command line.
pub(crate) static SHOW: Spec<Common> = Spec {
    command: "show",
    usage: "usage: yardstick show FILE [OPTIONS]",
    about: "Prints a saved run (and its comparison, if it was judged) without measuring.",
    sections: &[OUTPUT],
    notes: "",
    exit: "Exit codes: 0, or 2 on bad usage or input (one line on stderr).\n",
    refuses: &[
        NOT_MEASURING[0],
        NOT_MEASURING[1],
        NOT_MEASURING[2],
        NOT_MEASURING[3],
        NOT_MEASURING[4],
        ("threshold", "it judges nothing (compare does)"),
        ("min-delta", "it judges nothing (compare does)"),
        ("all-checks", "it judges nothing (compare does)"),
        ("max-machine-slowdown", "it judges nothing (compare does)"),
        ("cross-machine", "it judges nothing (compare does)"),
        ("cross-tool", "it judges nothing (compare does)"),
    ],
};

/// `yardstick compare`'s command line.
pub(crate) static COMPARE: Spec<Common> = Spec {
    command: "compare",
    usage: "usage: yardstick compare BASE RUN [OPTIONS]",
    about: "Judges the saved run RUN against the saved run BASE without measuring, by
the rules of their kind: normalised medians for timed micro runs, counts,
or HTTP times. It cannot measure again, so nothing is confirmed.",
    sections: &[
        Section {
            title: None,
            entries: &[
                Entry::Stating(
                    &common::THRESHOLD,
                    "how much slower regresses",
                    &[
                        Preset::when("timed micro", judge::default_threshold(&Method::Normalized)),
                        Preset::when("counts", judge::default_threshold(&Method::EstimatedCycles)),
                        Preset::when("HTTP", judge::default_threshold(&Method::Http)),
                    ],
                ),
                Entry::Stating(
                    &common::MAX_MACHINE_SLOWDOWN,
                    "timed micro runs only: judge nothing when RUN's calibration loop ran \
                     more than PCT % slower than BASE's",
                    &[Preset::always(judge::DEFAULT_MAX_MACHINE_SLOWDOWN)],
                ),
                Entry::Stating(
                    &common::MIN_DELTA,
                    "HTTP runs: a time regresses only when it also grew by MS milliseconds",
                    &[Preset::always(HTTP_MIN_DELTA)],
                ),
                Entry::SharedAs(
                    &common::CROSS_MACHINE,
                    "judge wall time across machine classes too (expect false alarms)",
                ),
                Entry::SharedAs(
                    &common::CROSS_TOOL,
                    "judge RUN against a BASE made by another tool too (an imported run)",
                ),
                Entry::Shared(&common::ALL_CHECKS),
            ],
        },
        OUTPUT,
    ],
    notes: "",
    exit: common::EXIT_CODES,
    refuses: &NOT_MEASURING,
};

/// Shared options plus the positional file names.
fn parse(
    args: Vec<OsString>,
    spec: &'static Spec<Common>,
    files: usize,
) -> Result<(Common, Vec<PathBuf>), Error> {
    let mut common = Common::default();
    let mut paths = Vec::new();
    let mut parser = Parser::from_args(args);
    while let Some(flag) = spec.next(&mut parser, &mut common)? {
        match flag {
            Flag::Value(v) => paths.push(PathBuf::from(v)),
            other => return Err(spec.unexpected(&other)),
        }
    }
    if paths.len() != files {
        return Err(Error::usage(spec.usage));
    }
    Ok((common, paths))
}

/// Prints a saved run in the chosen format.
pub fn show(args: Vec<OsString>) -> Result<i32, Error> {
    let (common, paths) = parse(args, &SHOW, 1)?;
    let run = store::load(&paths[0])?;
    deliver::show(&run, &common.delivery());
    Ok(0)
}

/// Compares two saved runs; exit 1 on a regression.
pub fn compare(args: Vec<OsString>) -> Result<i32, Error> {
    let (common, paths) = parse(args, &COMPARE, 2)?;
    let base = Baseline::load(&paths[0])?;
    let run = Baseline::load(&paths[1])?;
    // The run is measured against the baseline: where they differ in kind,
    // the run is the one named.
    base.suits(run.run.mode, run.run.metric).map_err(|_| {
        Error::input(format!(
            "{}: {} cannot be compared with {}, {}",
            run.name,
            run.run.mode.a_run_of(run.run.metric),
            base.name,
            base.run.mode.a_run_of(base.run.metric)
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
