//! `yardstick history`: the runs kept in a history (`--record` adds them
//! as they are made), listed, shown and added from saved files.

mod add;
mod bisect;
mod changes;
mod git;
mod list;
mod options;
mod show;
mod trend;

pub(crate) use options::{ADD, BISECT, CHANGES, LIST, SHOW, TREND};

use crate::error::Error;
use crate::history::{self, Location, Store};
use crate::output::stdout;
use options::HistoryOptions;
use std::ffi::OsString;

const USAGE: &str = "usage: yardstick history <add|list|show|trend|bisect|changes> [OPTIONS]

  add    RUN...: add saved runs (yardstick's, exp:benchmark's, criterion
         results) to the history
  list   the runs kept, newest first, filtered
  show   ID: print a kept run, as `show` prints a saved one
  trend  PROBE: one figure of a probe or page over the kept runs
  bisect PROBE: the commit that took the figure to where it is now
  changes [PROBE...]: every step in each probe's figure along the line of
         commits, with its size and whether it held

yardstick history <subcommand> --help prints its options; docs/cli.md,
\"History\", has them all.";

/// Runs `yardstick history SUBCOMMAND ...`.
pub fn main(mut args: Vec<OsString>) -> Result<i32, Error> {
    if args.is_empty() {
        return Err(Error::usage(USAGE));
    }
    let sub = args.remove(0);
    match sub.to_str() {
        Some("add") => add::main(HistoryOptions::parse(args, &ADD)?),
        Some("list") => list::main(HistoryOptions::parse(args, &LIST)?),
        Some("show") => show::main(HistoryOptions::parse(args, &SHOW)?),
        Some("trend") => trend::main(HistoryOptions::parse(args, &TREND)?),
        Some("bisect") => bisect::main(HistoryOptions::parse(args, &BISECT)?),
        Some("changes") => changes::main(HistoryOptions::parse(args, &CHANGES)?),
        Some("-h" | "--help" | "help") => Err(Error::Help(USAGE)),
        _ => Err(Error::usage(format!(
            "history: unknown subcommand `{}` (add, list, show, trend, bisect or changes)",
            sub.to_string_lossy()
        ))),
    }
}

/// The most commits `--commits` selects by (SQLite binds at most 32,766
/// values in one statement).
const MAX_COMMITS: usize = 20_000;

/// Writes a command's output: a table shielded from GitHub Actions'
/// workflow commands, a JSON or CSV document as it is, so it stays one.
fn print(format: crate::output::Format, text: &str) {
    if format == crate::output::Format::Table {
        stdout::print(&crate::output::github::shielded(text));
    } else {
        stdout::print(text);
    }
}

/// `--commits`, read from git into the filter.
fn read_commits(options: &mut HistoryOptions) -> Result<(), Error> {
    if let Some(range) = &options.commits {
        let commits = git::commits(range)?;
        // Each is a bound value, and the databases bound how many.
        if commits.len() > MAX_COMMITS {
            return Err(Error::usage(format!(
                "--commits: `{range}` holds {} commits, more than {MAX_COMMITS}: narrow it, \
                 or use --since and --until",
                commits.len()
            )));
        }
        options.filter.commits = Some(commits);
    }
    Ok(())
}

/// Opens the history the options name (`--history`, else
/// `YARDSTICK_HISTORY`, else the default file beside the kept runs) to
/// read: one that is not there is an error, never made empty.
fn open(options: &HistoryOptions) -> Result<(Box<dyn Store>, Location), Error> {
    let location = location(options)?;
    Ok((history::open_existing(&location)?, location))
}

/// Opens (or makes) the history the options name, to add runs to.
fn open_to_add(options: &HistoryOptions) -> Result<(Box<dyn Store>, Location), Error> {
    let location = location(options)?;
    Ok((history::open(&location)?, location))
}

/// The history the options name.
fn location(options: &HistoryOptions) -> Result<Location, Error> {
    Location::chosen(options.common.history.as_deref(), || {
        crate::baseline::history::Bench::this_program().home
    })
}
