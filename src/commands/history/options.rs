//! The command lines of `history add`, `list` and `show`: one options
//! type, each subcommand taking its part.

use crate::commands::common::{self, Common};
use crate::commands::flags::{Def, Entry, Flag, Options, Section, Set, Spec};
use crate::error::Error;
use crate::history::{Figure, Filter};
use lexopt::Parser;
use std::ffi::OsString;

/// What a `history` subcommand was asked.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct HistoryOptions {
    pub common: Common,
    /// The positional arguments: runs to add, or the id to show.
    pub operands: Vec<OsString>,
    /// `add --branch`.
    pub branch: Option<String>,
    /// `list`'s filters.
    pub filter: Filter,
    /// `--commits=A..B`, read from git when listing.
    pub commits: Option<String>,
    /// `trend --figure`.
    pub figure: Option<Figure>,
    /// `bisect --rev`.
    pub rev: Option<String>,
    /// `trend --html`: where to write the chart.
    pub html: Option<std::path::PathBuf>,
}

impl Options for HistoryOptions {
    fn common(&mut self) -> Option<&mut Common> {
        Some(&mut self.common)
    }
}

impl HistoryOptions {
    pub fn parse(args: Vec<OsString>, spec: &'static Spec<Self>) -> Result<Self, Error> {
        let mut o = HistoryOptions::default();
        let mut parser = Parser::from_args(args);
        while let Some(flag) = spec.next(&mut parser, &mut o)? {
            match flag {
                Flag::Value(v) => o.operands.push(v),
                other => return Err(spec.unexpected(&other)),
            }
        }
        Ok(o)
    }
}

/// The options every subcommand takes.
const WHERE: Entry<HistoryOptions> = Entry::SharedAs(
    &common::HISTORY,
    "the history (default: YARDSTICK_HISTORY, else target/yardstick/history.sqlite); \
     a PostgreSQL URL never carries a password here",
);

/// Shared options that mean nothing to a command on kept runs.
const NOT_MEASURING: [(&str, &str); 11] = [
    ("save", "it measures nothing"),
    ("baseline", "it judges nothing"),
    ("no-baseline", "it judges nothing"),
    ("threshold", "it judges nothing"),
    ("min-delta", "it judges nothing"),
    ("max-machine-slowdown", "it judges nothing"),
    ("all-checks", "it judges nothing"),
    ("cross-machine", "it judges nothing"),
    ("cross-tool", "it judges nothing"),
    (
        "record",
        "`history add` records; other commands take --record",
    ),
    ("quiet", "it prints no progress"),
];

/// The formats `list`, `show` and `trend` print in.
const OUTPUT: Section<HistoryOptions> = Section {
    title: Some("Output"),
    entries: &[
        Entry::Shared(&common::FORMAT),
        Entry::Shared(&common::JSON),
        Entry::Shared(&common::CSV),
    ],
};

const EXIT: &str = "Exit codes: 0, or 2 on bad usage or input (one line on stderr).\n";

/// `yardstick history add`'s command line.
pub(crate) static ADD: Spec<HistoryOptions> = Spec {
    command: "history add",
    usage: "usage: yardstick history add RUN... [OPTIONS]",
    about: "Adds saved runs to the history: yardstick's, exp:benchmark's, and criterion
results (a target/criterion folder, or FOLDER@BASELINE). A run is kept as the
text it was saved as, under the hash of that text, so a run added twice is
kept once. Every run is read before any is added.",
    sections: &[Section {
        title: None,
        entries: &[
            WHERE,
            Entry::Own(Def {
                long: "branch",
                short: None,
                value: Some("NAME"),
                help: "the branch the runs were made on (default: none recorded)",
                set: Set::Text(|o, v, _| {
                    o.branch = Some(v.to_string());
                    Ok(())
                }),
            }),
        ],
    }],
    notes: "",
    exit: EXIT,
    refuses: &NOT_MEASURING,
};

/// `list`'s row filter; `trend` names the row as its operand.
const PROBE: Entry<HistoryOptions> = Entry::Own(Def {
    long: "probe",
    short: None,
    value: Some("KEY"),
    help: "runs with a row of this key (a probe's name, an HTTP row's key)",
    set: Set::Text(|o, v, _| {
        o.filter.probe = Some(v.to_string());
        Ok(())
    }),
});

/// The filters `list` and `trend` share.
const FILTERS: &[Entry<HistoryOptions>] = &[
    WHERE,
    Entry::Own(Def {
        long: "mode",
        short: None,
        value: Some("MODE"),
        help: "micro, kernel or http",
        set: Set::Text(|o, v, option| {
            o.filter.mode = Some(one_of(v, option, &["micro", "kernel", "http"])?);
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "metric",
        short: None,
        value: Some("METRIC"),
        help: "time, instructions or estimated-cycles",
        set: Set::Text(|o, v, option| {
            let all = ["time", "instructions", "estimated-cycles"];
            o.filter.metric = Some(one_of(v, option, &all)?);
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "class",
        short: None,
        value: Some("CLASS"),
        help: "runs of this machine class (yardstick machine --class; trend's default \
               for wall time is this machine's)",
        set: Set::Text(|o, v, _| {
            o.filter.machine_class = Some(v.to_string());
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "branch",
        short: None,
        value: Some("NAME"),
        help: "runs recorded on this branch",
        set: Set::Text(|o, v, _| {
            o.filter.branch = Some(v.to_string());
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "bench",
        short: None,
        value: Some("NAME"),
        help: "runs a bench recorded (micro for benches/micro.rs); --bench= for runs \
               added from files",
        set: Set::Text(|o, v, _| {
            o.filter.bench = Some(v.to_string());
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "commits",
        short: None,
        value: Some("RANGE"),
        help: "runs of these commits: A..B as git rev-list reads it, or one commit",
        set: Set::Text(|o, v, _| {
            o.commits = Some(v.to_string());
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "since",
        short: None,
        value: Some("DATE"),
        help: "runs started on or after DATE (2026-11-30, or RFC 3339)",
        set: Set::Text(|o, v, option| {
            o.filter.since = Some(date(v, option)?);
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "until",
        short: None,
        value: Some("DATE"),
        help: "runs started before DATE",
        set: Set::Text(|o, v, option| {
            o.filter.until = Some(date(v, option)?);
            Ok(())
        }),
    }),
    Entry::Own(Def {
        long: "limit",
        short: None,
        value: Some("N"),
        help: "the newest N runs only",
        set: Set::Text(|o, v, option| {
            let n =
                v.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                    Error::usage(format!("{option}: `{v}` is not a positive count"))
                })?;
            o.filter.limit = Some(n);
            Ok(())
        }),
    }),
];

/// `yardstick history list`'s command line.
pub(crate) static LIST: Spec<HistoryOptions> = Spec {
    command: "history list",
    usage: "usage: yardstick history list [OPTIONS]",
    about: "Lists the runs kept in the history, newest first: id, start, mode, metric,
machine class, commit, branch, bench and rows (JSON and CSV add the tool and
the count set-up). Each filter given narrows the list.",
    sections: &[
        Section {
            title: Some("Filters"),
            entries: &[PROBE],
        },
        Section {
            title: None,
            entries: FILTERS,
        },
        OUTPUT,
    ],
    notes: "",
    exit: EXIT,
    refuses: &NOT_MEASURING,
};

/// `trend --figure` and `bisect --figure`.
const FIGURE: Entry<HistoryOptions> = Entry::Own(Def {
    long: "figure",
    short: None,
    value: Some("FIGURE"),
    help: "median, x-calib, p95, p99, instructions, estimated-cycles or rps \
           (default: what the runs are judged by: x-calib for timed micro runs, \
           the count for counted ones, else the median)",
    set: Set::Text(|o, v, option| {
        let found = Figure::ALL.iter().find(|(name, _)| *name == v);
        let names: Vec<&str> = Figure::ALL.iter().map(|(n, _)| *n).collect();
        o.figure = Some(found.map(|(_, f)| *f).ok_or_else(|| {
            Error::usage(format!("{option}: `{v}` is none of {}", names.join(", ")))
        })?);
        Ok(())
    }),
});

/// `yardstick history trend`'s command line.
pub(crate) static TREND: Spec<HistoryOptions> = Spec {
    command: "history trend",
    usage: "usage: yardstick history trend PROBE [OPTIONS]",
    about: "Follows one figure of the row PROBE (a probe's name, an HTTP row's key) over
the kept runs, oldest first, each with its change from the run before, and
the newest against the median and range of the ones before it. Wall time
belongs to a machine: without --class, runs of this machine's class only.",
    sections: &[
        Section {
            title: None,
            entries: &[FIGURE],
        },
        Section {
            title: Some("Filters"),
            entries: FILTERS,
        },
        OUTPUT,
        Section {
            title: Some("Report"),
            entries: &[Entry::Own(Def {
                long: "html",
                short: None,
                value: Some("FILE"),
                help: "also write the trend as a chart, in one self-contained HTML file",
                set: Set::Path(|o, v| o.html = Some(v)),
            })],
        },
    ],
    notes: "",
    exit: EXIT,
    refuses: &NOT_MEASURING,
};

/// `yardstick history bisect`'s command line.
pub(crate) static BISECT: Spec<HistoryOptions> = Spec {
    command: "history bisect",
    usage: "usage: yardstick history bisect PROBE [OPTIONS]",
    about: "Finds the commit, on the first-parent line of --rev as git lists it in the
working directory, that took the figure of the row PROBE to where it is
now: of the changes `history changes` finds (PELT), the first after which
the figure stayed away from where the line began, on today's side; none
when it is back there. A commit's figure is the median of its runs'.",
    sections: &[
        Section {
            title: None,
            entries: &[FIGURE, REV],
        },
        FILTERED,
        TABLE_OR_JSON,
    ],
    notes: "",
    exit: EXIT,
    refuses: &NOT_MEASURING,
};

/// The filters, as a section of their own.
const FILTERED: Section<HistoryOptions> = Section {
    title: Some("Filters"),
    entries: FILTERS,
};

/// `bisect`'s and `changes`' output: a table or JSON, never CSV.
const TABLE_OR_JSON: Section<HistoryOptions> = Section {
    title: Some("Output"),
    entries: &[Entry::Shared(&common::FORMAT), Entry::Shared(&common::JSON)],
};

/// `--rev`: the line `bisect` and `changes` walk.
const REV: Entry<HistoryOptions> = Entry::Own(Def {
    long: "rev",
    short: None,
    value: Some("REV"),
    help: "the line to walk: REV's first parents (default HEAD)",
    set: Set::Text(|o, v, _| {
        o.rev = Some(v.to_string());
        Ok(())
    }),
});

/// `yardstick history changes`' command line.
pub(crate) static CHANGES: Spec<HistoryOptions> = Spec {
    command: "history changes",
    usage: "usage: yardstick history changes [PROBE...] [OPTIONS]",
    about: "Finds every step in the figure of each row PROBE (without one, each row of
the newest run the filters select) along the first-parent line of --rev:
PELT over the commits' figures (each the median of its runs'), with a
penalty per change of 4 ln(n) in units of the series' noise, wild runs
clipped first. For each change: the last good and first bad commit, the
size as new level over old with a 95 % interval (five commits or more on
each side), and whether the new level held (three commits or more, not
taken back), was reverted, or is too recent to tell. Counts are exact:
any step of theirs is one.",
    sections: &[
        Section {
            title: None,
            entries: &[FIGURE, REV],
        },
        FILTERED,
        TABLE_OR_JSON,
    ],
    notes: "",
    exit: EXIT,
    refuses: &NOT_MEASURING,
};

/// `yardstick history show`'s command line.
pub(crate) static SHOW: Spec<HistoryOptions> = Spec {
    command: "history show",
    usage: "usage: yardstick history show ID [OPTIONS]",
    about: "Prints a kept run as `yardstick show` prints a saved one. ID is its id as
`history list` shows it, or any prefix of at least 6 digits that only it has.
With --json the run is printed as it was added, byte for byte.",
    sections: &[
        Section {
            title: None,
            entries: &[WHERE],
        },
        OUTPUT,
    ],
    notes: "",
    exit: EXIT,
    refuses: &NOT_MEASURING,
};

fn one_of(value: &str, option: &str, all: &[&str]) -> Result<String, Error> {
    if all.contains(&value) {
        Ok(value.to_string())
    } else {
        Err(Error::usage(format!(
            "{option}: `{value}` is none of {}",
            all.join(", ")
        )))
    }
}

/// A date to compare with the runs' starts, which are RFC 3339 in UTC
/// and compare as text: `YYYY-MM-DD`, optionally with a time in UTC
/// (`T12:00`, `T12:00:00Z`). An offset would compare wrong, so it is
/// refused.
fn date(value: &str, option: &str) -> Result<String, Error> {
    let b = value.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let day = b.len() >= 10
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10);
    let time = |rest: &str| {
        let rest = rest.strip_suffix('Z').unwrap_or(rest);
        rest.bytes()
            .all(|c| c.is_ascii_digit() || c == b':' || c == b'.')
    };
    let ok = day && (b.len() == 10 || (b[10] == b'T' && time(&value[11..])));
    if ok {
        Ok(value.to_string())
    } else {
        Err(Error::usage(format!(
            "{option}: `{value}` is not a date in UTC (2026-11-30, or 2026-11-30T12:00:00Z)"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_days_or_rfc_3339_and_nothing_else() {
        for good in ["2026-11-30", "2026-11-30T12:00:00Z", "2026-11-30T12:00"] {
            assert_eq!(date(good, "--since").unwrap(), good);
        }
        for bad in [
            "",
            "yesterday",
            "2026-1-30",
            "2026-11-30 12:00",
            "2026-11-30T'",
            "2026-11-3",
        ] {
            let e = date(bad, "--since").unwrap_err().to_string();
            assert!(e.contains("--since") && e.contains("not a date"), "{e}");
        }
    }
}
