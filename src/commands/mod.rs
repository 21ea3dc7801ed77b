//! The `yardstick` command's commands: each reads its options, runs the
//! steps below it in one direction (measure, summarise, judge, deliver) and
//! returns an exit code. [`main`] routes the arguments to them; `micro`
//! (and `--bench`, with which the binary can be one side of
//! `compare-builds`) is a bench binary's own command, in the crate
//! `yardstick`, as are the option table ([`flags`]) and the options the
//! commands share ([`common`]).

pub mod baseline;
pub mod compare_builds;
pub mod history;
pub mod http;
mod interleave;
pub mod k6;
pub mod machine;
pub mod matrix;
pub mod report;
pub mod saved;
mod shell;

pub(crate) use yardstick::commands::{common, flags, micro};

use crate::error::Error;
use std::ffi::OsString;
use yardstick::commands::{exit_code, measure_command, utf8};

/// What `yardstick` and `yardstick --help` print.
const USAGE: &str = "usage: yardstick <command> [OPTIONS]

commands:
  micro           measure the probes linked into this binary: what
                  cargo bench runs in a bench binary (this one links none)
  compare         BASE RUN: judge a saved run against another (exit 1 on a
                  regression)
  compare-builds  OLD NEW: measure two bench binaries in alternating rounds
                  and test the new one for a regression (exit 1)
  matrix          [FILE.toml]: measure configurations of a bench against a
                  base, each probe a multiplier with its interval
  show            FILE: print a saved run
  report          RUN... --html=FILE: draw saved runs as one HTML page
  baseline        RUN... --output=FILE: pool saved runs of one build into a
                  baseline
  http            measure pages over HTTP
  k6              manifest | collect DIR: run an HTTP measurement as k6 pods on
                  a cluster, and merge what they wrote into one run
  history         add, list and show the runs kept in a history
  machine         print this machine's class, the key of its wall-time
                  baselines
  completions     bash|zsh|fish: print the shell's completion script
  man             print the manual page (yardstick man | man -l -)

yardstick <command> --help (or yardstick help <command>) prints a command's
options; docs/cli.md has them all. -V, --version prints the version.
Exit codes: 0 no regression, 1 a regression or a failed probe, 2 bad usage
or input, 3 inconclusive (the machine ran too slow to judge).";

/// Entry point of the yardstick binary: the commands [`USAGE`] lists.
/// Returns the process exit code.
pub fn main() -> i32 {
    // `show`, `compare` and `report` read runs of any size: a large one is
    // parsed as a stream, in about its own size of memory.
    crate::document::store::parse_large_runs_with(|r| serde_json::from_reader(r));
    let mut args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.is_empty() {
        eprintln!("{USAGE}");
        return 2;
    }
    let command = args.remove(0);
    exit_code(yardstick::commands::linked_once().and_then(|()| run_command(command, args)))
}

/// Runs `command` of a yardstick binary with the arguments after it.
fn run_command(command: OsString, mut args: Vec<OsString>) -> Result<i32, Error> {
    match command.to_str() {
        Some("micro") => measure_command(true, args),
        // A bench binary is told to measure with `--bench`; a yardstick
        // binary that links probes takes the same call, so either can be
        // one side of `compare-builds`.
        Some("--bench") => measure_command(false, args),
        Some("compare") => saved::compare(args),
        Some("http") => utf8(args).and_then(http::main),
        Some("k6") => utf8(args).and_then(k6::main),
        Some("history") => history::main(args),
        Some("compare-builds") => compare_builds::options::PairedOptions::parse(args)
            .and_then(|o| compare_builds::main(&o)),
        Some("matrix") => matrix::run(args),
        Some("show") => saved::show(args),
        Some("report") => report::main(args),
        Some("machine") => machine::main(args),
        Some("completions") => shell::completions(args),
        Some("man") => shell::man(args),
        Some("baseline") => baseline::BaselineOptions::parse(args).and_then(|o| baseline::main(&o)),
        // `help COMMAND` answers as `COMMAND --help` does.
        Some("help") if !args.is_empty() => {
            let command = args.remove(0);
            // `help history add` asks a subcommand.
            args.push(OsString::from("--help"));
            run_command(command, args)
        }
        Some("-h" | "--help" | "help") => Err(Error::Help(USAGE)),
        Some("-V" | "--version") => Err(Error::Help(concat!(
            "yardstick ",
            env!("CARGO_PKG_VERSION")
        ))),
        _ => Err(Error::usage(format!(
            "unknown command `{}` (see yardstick --help)",
            command.to_string_lossy()
        ))),
    }
}

/// The options `command` takes as written (`--repeat`, `-q`), and the
/// shared options it refuses: what its `--help` and docs/cli.md must name,
/// read from the one table its parser takes them by (tests/help.rs).
#[doc(hidden)]
pub fn options_of(command: &str) -> Option<(Vec<String>, Vec<String>)> {
    described(command).map(|d| (d.options, d.refused))
}

/// The options of `command` whose default its help states, and that
/// default as its option table defines it once (`--repeat`, `30`;
/// `--threshold`, the judge's `30; counts 1; kernel mode 50`): what
/// docs/cli.md's default column must say (tests/help.rs).
#[doc(hidden)]
pub fn defaults_of(command: &str) -> Option<Vec<(String, String)>> {
    described(command).map(|d| d.defaults)
}

/// The help `command` prints (`history add` for a subcommand), from its
/// option table; none for a command without one.
pub(crate) fn help_of(command: &str) -> Option<&'static str> {
    described(command).map(|d| d.help)
}

/// What a command's option table says of it.
struct Described {
    options: Vec<String>,
    refused: Vec<String>,
    defaults: Vec<(String, String)>,
    help: &'static str,
}

fn described(command: &str) -> Option<Described> {
    fn both<T>(spec: &flags::Spec<T>) -> Option<Described> {
        Some(Described {
            options: spec.options(),
            refused: spec.refused(),
            defaults: spec.defaults(),
            help: spec.help(),
        })
    }
    match command {
        "micro" => both(&micro::cli::SPEC),
        "compare-builds" => both(&compare_builds::options::SPEC),
        "matrix" => both(&matrix::options::SPEC),
        "compare" => both(&saved::COMPARE),
        "show" => both(&saved::SHOW),
        "report" => both(&report::SPEC),
        "http" => both(&http::cli::SPEC),
        "baseline" => both(&baseline::SPEC),
        "history add" => both(&history::ADD),
        "history list" => both(&history::LIST),
        "history show" => both(&history::SHOW),
        "history trend" => both(&history::TREND),
        "history bisect" => both(&history::BISECT),
        "history changes" => both(&history::CHANGES),
        "machine" => both(&machine::SPEC),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_number_s_default_lies_within_its_bounds() {
        let mut numbers = super::micro::cli::SPEC.numbers();
        numbers.extend(super::compare_builds::options::SPEC.numbers());
        numbers.extend(super::matrix::options::SPEC.numbers());
        numbers.extend(super::http::cli::SPEC.numbers());
        assert!(numbers.len() >= 8, "{numbers:?}");
        for (long, n) in numbers {
            assert!(n.min <= n.default && n.default <= n.max, "--{long}: {n:?}");
        }
    }

    #[test]
    fn every_duration_s_default_lies_within_its_bounds() {
        let mut durations = super::micro::cli::SPEC.durations();
        durations.extend(super::compare_builds::options::SPEC.durations());
        durations.extend(super::matrix::options::SPEC.durations());
        durations.extend(super::http::cli::SPEC.durations());
        assert!(durations.len() >= 4, "{durations:?}");
        for (long, s) in durations {
            assert!(0 < s.default && s.default <= s.max, "--{long}: {s:?}");
        }
    }
}
