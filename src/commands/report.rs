//! `yardstick report RUN... --html=FILE`: saved runs drawn as one page,
//! judged against `--baseline=BASE` when one is given (with the intervals
//! only both runs' rounds give), else by the comparison each was saved
//! with.

use super::common::Common;
use super::flags::{Def, Entry, Flag, Options, Section, Set, Spec};
use crate::baseline::Baseline;
use crate::document::run::Run;
use crate::document::store;
use crate::error::Error;
use crate::judge::{self, Rules};
use crate::report::{self, Page};
use lexopt::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

/// `yardstick report`'s command line.
pub(crate) static SPEC: Spec<Asked> = Spec {
    command: "report",
    usage: "usage: yardstick report RUN... --html=FILE [--baseline=BASE]",
    about: "Draws saved runs as one self-contained HTML page, each run in its own
section: each check of a comparison as a bar with its 95 % interval, the
threshold and the verdict in the terminal's words; per probe every round
beside the baseline's and round by round, a counted probe's cycles split
by where they go, a kernel run's processes against their floor; per HTTP
page and server a histogram of its requests, its status and cache answers,
and --compare's table; then where and how each run was measured. It
fetches nothing, reads in light and dark mode and prints.",
    sections: &[Section {
        title: None,
        entries: &[
            Entry::Own(Def {
                long: "html",
                short: None,
                value: Some("FILE"),
                help: "the page to write (through a temporary file and a rename)",
                set: Set::Path(|o, v| o.html = Some(v)),
            }),
            Entry::Own(Def {
                long: "baseline",
                short: None,
                value: Some("BASE"),
                help: "judge each run against the saved run BASE, by compare's rules, and \
                       draw the intervals of its changes (default: the comparison a run was \
                       saved with, without intervals)",
                set: Set::Path(|o, v| o.baseline = Some(v)),
            }),
        ],
    }],
    notes: "",
    exit: "Exit codes: 0, or 2 on bad usage or input (one line on stderr).\n",
    refuses: &[],
};

/// What `yardstick report` was asked.
#[derive(Debug, Default)]
pub(crate) struct Asked {
    runs: Vec<PathBuf>,
    html: Option<PathBuf>,
    baseline: Option<PathBuf>,
}

impl Options for Asked {
    fn common(&mut self) -> Option<&mut Common> {
        None
    }
}

/// Writes the page; 0, since a report judges nothing by its exit code.
pub fn main(args: Vec<OsString>) -> Result<i32, Error> {
    let mut asked = Asked::default();
    let mut parser = Parser::from_args(args);
    while let Some(flag) = SPEC.next(&mut parser, &mut asked)? {
        match flag {
            Flag::Value(v) => asked.runs.push(PathBuf::from(v)),
            other => return Err(SPEC.unexpected(&other)),
        }
    }
    let Some(html) = asked.html.clone().filter(|_| !asked.runs.is_empty()) else {
        return Err(Error::usage(SPEC.usage));
    };
    let inputs: Vec<&std::path::Path> = asked
        .runs
        .iter()
        .chain(&asked.baseline)
        .map(PathBuf::as_path)
        .collect();
    store::check_distinct(&html, "--html", &inputs)?;
    store::check_writable(&html)?;
    let baseline = asked.baseline.as_deref().map(Baseline::load).transpose()?;
    let mut runs = Vec::new();
    for path in &asked.runs {
        let mut run = store::load(path)?;
        if let Some(base) = &baseline {
            // Which run could not be judged, when several are drawn.
            let named = |e: Error| {
                let message = e.to_string();
                let message = message.trim_start_matches("error: ");
                Error::input(format!("{}: {message}", path.display()))
            };
            base.suits(run.mode, run.metric).map_err(named)?;
            let judged = judge::compare(&base.run, &base.name, &run, &Rules::default());
            run.comparison = Some(judged.map_err(named)?);
        }
        runs.push((path.display().to_string(), run));
    }
    let mut page = Page::new(&title(&runs));
    for (name, run) in &runs {
        report::draw_run(&mut page, name, run, baseline.as_ref().map(|b| &b.run))?;
    }
    page.save(&html, &report::command_line())?;
    eprintln!("report: {}", html.display());
    Ok(0)
}

fn title(runs: &[(String, Run)]) -> String {
    match runs {
        [(name, _)] => format!("yardstick report: {name}"),
        _ => format!("yardstick report: {} runs", runs.len()),
    }
}
