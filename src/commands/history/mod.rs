//! `yardstick history`: the runs kept in a history (`--record` adds them
//! as they are made), listed, shown and added from saved files.

mod add;
mod bisect;
mod git;
mod list;
mod options;
mod show;
mod trend;

pub(crate) use options::{ADD, BISECT, LIST, SHOW, TREND};

use crate::error::Error;
use crate::history::{self, Location, Store};
use options::HistoryOptions;
use std::ffi::OsString;

const USAGE: &str = "usage: yardstick history <add|list|show|trend|bisect> [OPTIONS]

  add    RUN...: add saved runs (yardstick's, exp:benchmark's, criterion
         results) to the history
  list   the runs kept, newest first, filtered
  show   ID: print a kept run, as `show` prints a saved one
  trend  PROBE: one figure of a probe or page over the kept runs
  bisect PROBE: the first commit whose figure left the band of the ones
         before it

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
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(0)
        }
        _ => Err(Error::usage(format!(
            "history: unknown subcommand `{}` (add, list, show, trend or bisect)",
            sub.to_string_lossy()
        ))),
    }
}

/// `--commits`, read from git into the filter.
fn read_commits(options: &mut HistoryOptions) -> Result<(), Error> {
    if let Some(range) = &options.commits {
        options.filter.commits = Some(git::commits(range)?);
    }
    Ok(())
}

/// Opens the history the options name: `--history`, else
/// `YARDSTICK_HISTORY`, else the default file beside the kept runs.
fn open(options: &HistoryOptions) -> Result<(Box<dyn Store>, Location), Error> {
    let home = || {
        let program = std::env::current_exe().unwrap_or_default();
        crate::baseline::history::Bench::for_program(&program).home
    };
    let location = Location::chosen(options.common.history.as_deref(), home)?;
    Ok((history::open(&location)?, location))
}
