//! Options every measuring mode shares: output format, quiet, save, baseline,
//! threshold. Defined once here ([`SHARED`]), so that every command that
//! takes one reads it alike, and the readers of option values.

use super::flags::{Def, Options, Set, non_negative, percent};
use super::page::Html;
use crate::baseline::Asked;
use crate::baseline::history;
use crate::error::Error;
use crate::output::Format;
use crate::output::colour::When;
use crate::output::deliver::Delivery;
use crate::output::record::{Record, recorder};
use std::path::PathBuf;

/// The exit codes every measuring command shares, for its help.
pub const EXIT_CODES: &str =
    "Exit codes: 0 no regression, 1 a regression or a failed probe, 2 bad usage
or input (one line on stderr), 3 inconclusive (the machine ran too slow to
judge). docs/cli.md has every option.
";

/// Reads `--format`'s value.
pub(crate) fn format(value: &str) -> Result<Format, Error> {
    match value {
        "table" => Ok(Format::Table),
        "json" => Ok(Format::Json),
        "csv" => Ok(Format::Csv),
        other => Err(Error::usage(format!(
            "--format: unknown format `{other}` (table, json or csv)"
        ))),
    }
}

/// The shared options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Common {
    /// `--format`, `--json`, `--csv`.
    pub format: Format,
    /// `-q`: no progress on stderr.
    pub quiet: bool,
    /// `--save=FILE`.
    pub(crate) save: Option<PathBuf>,
    /// `--save-baseline=NAME`: saved where `--baseline=NAME` reads.
    pub(crate) save_baseline: Option<String>,
    /// `--export-markdown=FILE`: the run as the job summary gives it.
    pub(crate) export_markdown: Option<PathBuf>,
    /// `--baseline=FILE`.
    pub(crate) baseline: Option<PathBuf>,
    /// `--no-baseline`: compare with nothing, even in a bench.
    pub(crate) no_baseline: bool,
    /// Percent; `None` takes the mode's default.
    pub threshold: Option<f64>,
    /// Milliseconds (HTTP mode).
    pub min_delta: Option<f64>,
    /// Percent (micro mode, timed); `None` takes the default.
    pub(crate) max_machine_slowdown: Option<f64>,
    /// `--all-checks`: the table lists every check, not only regressions.
    pub(crate) all_checks: bool,
    /// Judge wall time against a baseline of another machine class.
    pub(crate) cross_machine: bool,
    /// Judge a run against a baseline made by another tool.
    pub(crate) cross_tool: bool,
    /// `--record`: add the run to the history.
    pub(crate) record: bool,
    /// `--history=FILE|URL`: which history (checked when given).
    pub history: Option<String>,
    /// `--html=FILE`: the page of the run, drawn once it is judged.
    pub(crate) html: Option<PathBuf>,
    /// `--color=WHEN`.
    pub(crate) color: When,
}

impl From<&Common> for crate::judge::Rules {
    fn from(common: &Common) -> Self {
        crate::judge::Rules {
            threshold: common.threshold,
            min_delta: common.min_delta,
            max_machine_slowdown: common.max_machine_slowdown,
            cross_machine: common.cross_machine,
            cross_tool: common.cross_tool,
        }
    }
}

impl Common {
    /// The page `--html` asks for, checked before anything is measured
    /// (and before the delivery, whose check opens a history to record
    /// in). It may replace none of the files these options name (the save,
    /// a baseline file, the history, whether named by `--history`,
    /// `YARDSTICK_HISTORY` or the default) nor the command's own `inputs`.
    pub fn page(&self, inputs: impl IntoIterator<Item = PathBuf>) -> Result<Html, Error> {
        let baseline = self.baseline.clone().filter(|p| p.is_file());
        let files: Vec<PathBuf> = [self.saved(), self.export_markdown.clone(), baseline]
            .into_iter()
            .flatten()
            .chain(self.delivery().record.history_file())
            .chain(inputs)
            .collect();
        Html::asked(self.html.as_deref(), &files)
    }

    /// Where and how the finished run goes.
    pub fn delivery(&self) -> Delivery {
        Delivery {
            format: self.format,
            paint: self.format == Format::Table && self.color.paints(),
            all_checks: self.all_checks,
            save: self.saved(),
            markdown: self.export_markdown.clone(),
            record: Record {
                asked: self.record,
                history: self.history.clone(),
            },
        }
    }

    /// Where the run is saved: `--save`, else the file of
    /// `--save-baseline`.
    fn saved(&self) -> Option<PathBuf> {
        self.save
            .clone()
            .or_else(|| self.save_baseline.as_deref().map(history::named))
    }

    /// What `--baseline` and `--no-baseline` ask for; both is an error.
    /// `--baseline=X` is read in this order: an existing file X, then
    /// `history[:N]`, then a baseline saved as X (`--save-baseline=X`).
    pub fn asked(&self) -> Result<Asked<'_>, Error> {
        if self.save.is_some() && self.save_baseline.is_some() {
            return Err(Error::usage(
                "--save names a file and --save-baseline a name: give one of them",
            ));
        }
        match (&self.baseline, self.no_baseline) {
            (Some(_), true) => Err(Error::usage(
                "--baseline and --no-baseline contradict each other",
            )),
            (Some(path), false) if path.exists() => Ok(Asked::File(path)),
            (Some(path), false) => match history_baseline(path)? {
                Some(n) => Ok(Asked::History(n, self.history.as_deref())),
                None => match path.to_str().filter(|n| history::is_name(n)) {
                    Some(name) => Ok(Asked::Named(name)),
                    None => Ok(Asked::File(path)),
                },
            },
            (None, true) => Ok(Asked::None),
            (None, false) => Ok(Asked::Default),
        }
    }
}

/// `--baseline=history` (the last 5 runs) or `history:N`: the history's
/// runs; anything else is a file (`./history` names one called so).
fn history_baseline(path: &std::path::Path) -> Result<Option<usize>, Error> {
    let Some(text) = path.to_str() else {
        return Ok(None);
    };
    let n = match text.strip_prefix("history") {
        Some("") => "5",
        Some(rest) => match rest.strip_prefix(':') {
            Some(n) => n,
            None => return Ok(None),
        },
        None => return Ok(None),
    };
    n.parse::<usize>()
        .ok()
        .filter(|n| (1..=1000).contains(n))
        .map(Some)
        .ok_or_else(|| {
            Error::usage(format!(
                "--baseline: `{text}`: history:N takes a count of runs from 1 to 1000"
            ))
        })
}

/// A command that takes only shared options (`show`, `compare`) parses
/// into them directly.
impl Options for Common {
    fn common(&mut self) -> Option<&mut Common> {
        Some(self)
    }
}

/// `--format=FORMAT`.
pub static FORMAT: Def<Common> = Def {
    long: "format",
    short: None,
    value: Some("FORMAT"),
    help: "table, json or csv (default table)",
    set: Set::Text(|c, v, _| {
        c.format = format(v)?;
        Ok(())
    }),
};
/// `--json`.
pub static JSON: Def<Common> = Def {
    long: "json",
    short: None,
    value: None,
    help: "the same as --format=json",
    set: Set::Switch(|c| c.format = Format::Json),
};
/// `--csv`.
pub static CSV: Def<Common> = Def {
    long: "csv",
    short: None,
    value: None,
    help: "the same as --format=csv",
    set: Set::Switch(|c| c.format = Format::Csv),
};
/// `-q`, `--quiet`.
pub(crate) static QUIET: Def<Common> = Def {
    long: "quiet",
    short: Some('q'),
    value: None,
    help: "no progress on stderr",
    set: Set::Switch(|c| c.quiet = true),
};
/// `--color=WHEN`.
pub(crate) static COLOR: Def<Common> = Def {
    long: "color",
    short: None,
    value: Some("WHEN"),
    help: "colour the verdicts: auto (a terminal, unless NO_COLOR is set), always or never",
    set: Set::Text(|c, v, option| {
        c.color = When::parse(v).ok_or_else(|| {
            Error::usage(format!("{option}: `{v}` is none of auto, always and never"))
        })?;
        Ok(())
    }),
};
/// `--save=FILE`.
pub static SAVE: Def<Common> = Def {
    long: "save",
    short: None,
    value: Some("FILE"),
    help: "also write the run as JSON",
    set: Set::Path(|c, p| c.save = Some(p)),
};
/// `--export-markdown=FILE`.
pub static EXPORT_MARKDOWN: Def<Common> = Def {
    long: "export-markdown",
    short: None,
    value: Some("FILE"),
    help: "also write the run as Markdown, as the GitHub job summary shows it",
    set: Set::Path(|c, p| c.export_markdown = Some(p)),
};
/// `--save-baseline=NAME`.
pub(crate) static SAVE_BASELINE: Def<Common> = Def {
    long: "save-baseline",
    short: None,
    value: Some("NAME"),
    help: "also save the run as a baseline named NAME, which --baseline=NAME reads (target/yardstick/baselines/NAME.json)",
    set: Set::Text(|c, v, option| {
        if !history::is_name(v) {
            return Err(Error::usage(format!(
                "{option}: `{v}` is no name: 1 to 64 letters, digits, `.`, `_` or `-`, not starting with `.`"
            )));
        }
        c.save_baseline = Some(v.to_string());
        Ok(())
    }),
};
/// `--baseline=FILE`.
pub static BASELINE: Def<Common> = Def {
    long: "baseline",
    short: None,
    value: Some("FILE"),
    help: "judge against this saved run",
    set: Set::Path(|c, p| c.baseline = Some(p)),
};
/// `--no-baseline`.
pub static NO_BASELINE: Def<Common> = Def {
    long: "no-baseline",
    short: None,
    value: None,
    help: "judge against nothing, and keep nothing",
    set: Set::Switch(|c| c.no_baseline = true),
};
/// `--threshold=PCT`; each command says its default.
pub static THRESHOLD: Def<Common> = Def {
    long: "threshold",
    short: None,
    value: Some("PCT"),
    help: "how much slower regresses",
    set: Set::Text(|c, v, option| {
        c.threshold = Some(percent(v, option)?);
        Ok(())
    }),
};
/// `--min-delta=MS`.
pub static MIN_DELTA: Def<Common> = Def {
    long: "min-delta",
    short: None,
    value: Some("MS"),
    help: "a slowdown must also add MS milliseconds",
    set: Set::Text(|c, v, option| {
        c.min_delta = Some(non_negative(v, option)?);
        Ok(())
    }),
};
/// `--max-machine-slowdown=PCT`.
pub static MAX_MACHINE_SLOWDOWN: Def<Common> = Def {
    long: "max-machine-slowdown",
    short: None,
    value: Some("PCT"),
    help: "judge nothing when the calibration loop ran more than PCT % slower \
           than the baseline's",
    set: Set::Text(|c, v, option| {
        c.max_machine_slowdown = Some(percent(v, option)?);
        Ok(())
    }),
};
/// `--all-checks`.
pub static ALL_CHECKS: Def<Common> = Def {
    long: "all-checks",
    short: None,
    value: None,
    help: "list every check, not only the regressions",
    set: Set::Switch(|c| c.all_checks = true),
};
/// `--cross-machine`.
pub static CROSS_MACHINE: Def<Common> = Def {
    long: "cross-machine",
    short: None,
    value: None,
    help: "judge wall time against another machine class too (expect false alarms)",
    set: Set::Switch(|c| c.cross_machine = true),
};

/// `--cross-tool`.
pub static CROSS_TOOL: Def<Common> = Def {
    long: "cross-tool",
    short: None,
    value: None,
    help: "judge against a baseline made by another tool (an imported run) too",
    set: Set::Switch(|c| c.cross_tool = true),
};

/// `--html=FILE`, on the commands that make a run.
pub static HTML: Def<Common> = Def {
    long: "html",
    short: None,
    value: Some("FILE"),
    help: "also draw the run as one self-contained HTML page (yardstick report's); a file \
           that cannot be written is refused before measuring",
    set: Set::Path(|c, p| c.html = Some(p)),
};

/// `--record`.
pub static RECORD: Def<Common> = Def {
    long: "record",
    short: None,
    value: None,
    help: "add the run to the history (always when YARDSTICK_HISTORY is set)",
    set: Set::Switch(|c| c.record = true),
};

/// `--history=FILE|URL`.
pub static HISTORY: Def<Common> = Def {
    long: "history",
    short: None,
    value: Some("FILE"),
    help: "the history to use (default: YARDSTICK_HISTORY, else \
           target/yardstick/history.sqlite)",
    set: Set::Text(|c, v, _| {
        recorder().check_location(v)?;
        c.history = Some(v.to_string());
        Ok(())
    }),
};

/// The output options, which every command that prints a run takes.
pub static OUTPUT: &[&Def<Common>] = &[&FORMAT, &JSON, &CSV, &COLOR, &QUIET];

/// Every shared option: a command takes those it lists and refuses the
/// others, saying why.
pub(crate) static SHARED: &[&Def<Common>] = &[
    &FORMAT,
    &JSON,
    &CSV,
    &COLOR,
    &QUIET,
    &SAVE,
    &SAVE_BASELINE,
    &EXPORT_MARKDOWN,
    &BASELINE,
    &NO_BASELINE,
    &THRESHOLD,
    &MIN_DELTA,
    &MAX_MACHINE_SLOWDOWN,
    &ALL_CHECKS,
    &CROSS_MACHINE,
    &CROSS_TOOL,
    &RECORD,
    &HISTORY,
];

#[cfg(test)]
mod tests {
    use super::*;

    use crate::commands::flags::{Entry, Section, Spec};
    use lexopt::Parser;

    /// A command that takes every shared option.
    static EVERY: Spec<Common> = Spec {
        command: "test",
        usage: "usage: test",
        about: "",
        sections: &[Section {
            title: None,
            entries: &[
                Entry::Shared(&FORMAT),
                Entry::Shared(&JSON),
                Entry::Shared(&CSV),
                Entry::Shared(&COLOR),
                Entry::Shared(&QUIET),
                Entry::Shared(&SAVE),
                Entry::Shared(&SAVE_BASELINE),
                Entry::Shared(&EXPORT_MARKDOWN),
                Entry::Shared(&BASELINE),
                Entry::Shared(&NO_BASELINE),
                Entry::Shared(&THRESHOLD),
                Entry::Shared(&MIN_DELTA),
                Entry::Shared(&MAX_MACHINE_SLOWDOWN),
                Entry::Shared(&ALL_CHECKS),
                Entry::Shared(&CROSS_MACHINE),
                Entry::Shared(&CROSS_TOOL),
                Entry::Shared(&RECORD),
                Entry::Shared(&HISTORY),
            ],
        }],
        notes: "",
        exit: "",
        refuses: &[],
    };

    fn parse(args: &[&str]) -> Result<(Common, Vec<String>), Error> {
        let mut parser = Parser::from_args(args.iter().copied());
        let mut common = Common::default();
        let mut rest = Vec::new();
        while let Some(flag) = EVERY.next(&mut parser, &mut common)? {
            rest.push(format!("{flag:?}"));
        }
        Ok((common, rest))
    }

    #[test]
    fn the_test_command_takes_every_shared_option() {
        assert!(EVERY.refused().is_empty(), "{:?}", EVERY.refused());
    }

    #[test]
    fn shared_options_parse() {
        let (c, rest) = parse(&[
            "--json",
            "-q",
            "--save=out/run.json",
            "--threshold=15%",
            "--all-checks",
            "--max-machine-slowdown=50",
            "--other",
        ])
        .unwrap();
        assert_eq!(c.format, Format::Json);
        assert!(c.quiet && c.all_checks);
        assert_eq!(c.save, Some(PathBuf::from("out/run.json")));
        assert_eq!(c.threshold, Some(15.0));
        assert_eq!(c.max_machine_slowdown, Some(50.0));
        assert_eq!(rest.len(), 1);
        let (c, _) = parse(&["--format", "csv", "--baseline", "b.json", "--no-baseline"]).unwrap();
        assert_eq!(c.format, Format::Csv);
        assert!(c.no_baseline && c.baseline.is_some());
    }

    #[test]
    fn history_as_a_baseline_is_the_last_runs_kept() {
        let asked = |value: &str| {
            let (c, _) = parse(&[&format!("--baseline={value}")]).unwrap();
            c.asked()
                .map(|a| format!("{a:?}"))
                .map_err(|e| e.to_string())
        };
        assert_eq!(asked("history").unwrap(), "History(5, None)");
        assert_eq!(asked("history:12").unwrap(), "History(12, None)");
        assert!(asked("./history").unwrap().starts_with("File"));
        assert!(asked("history.json").unwrap().starts_with("File"));
        // A name that is no file: the baseline saved under it.
        assert_eq!(asked("main").unwrap(), "Named(\"main\")");
        assert!(asked("dir/main").unwrap().starts_with("File"));
        for bad in ["history:0", "history:x", "history:", "history:1001"] {
            let e = asked(bad).unwrap_err();
            assert!(e.contains("history:N"), "{e}");
        }
    }

    #[test]
    fn bad_values_name_the_option() {
        let e = parse(&["--format=xml"]).unwrap_err().to_string();
        assert!(e.contains("--format") && e.contains("xml"), "{e}");
        let e = parse(&["--threshold=-3"]).unwrap_err().to_string();
        assert!(e.contains("--threshold"), "{e}");
        let e = parse(&["--threshold=0"]).unwrap_err().to_string();
        assert!(e.contains("--threshold"), "{e}");
        let e = parse(&["--max-machine-slowdown=0"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--max-machine-slowdown"), "{e}");
        let e = parse(&["--save="]).unwrap_err().to_string();
        assert!(e.contains("--save"), "{e}");
    }
}
