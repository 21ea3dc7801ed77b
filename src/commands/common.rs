//! Options every measuring mode shares: output format, quiet, save, baseline,
//! threshold. Parsed in one place so micro and HTTP mode read them alike.

use crate::baseline::Asked;
use crate::error::Error;
use crate::output::Format;
use crate::output::deliver::Delivery;
use lexopt::{Arg, Parser, ValueExt};
use std::ffi::OsString;
use std::path::PathBuf;

/// A parsed argument that does not borrow the parser, so an option's handler
/// can go on reading values from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flag {
    /// `--name`, without its dashes.
    Long(String),
    /// `-c`.
    Short(char),
    /// A positional argument.
    Value(OsString),
}

impl Flag {
    /// The flag of lexopt's argument.
    pub fn from(arg: Arg<'_>) -> Flag {
        match arg {
            Arg::Long(name) => Flag::Long(name.to_string()),
            Arg::Short(c) => Flag::Short(c),
            Arg::Value(v) => Flag::Value(v),
        }
    }

    /// True for `--help` and `-h`: the command answers with its help.
    pub fn is_help(&self) -> bool {
        matches!(self, Flag::Short('h')) || matches!(self, Flag::Long(name) if name == "help")
    }

    /// The unexpected-argument error for this flag.
    pub fn unexpected(&self) -> Error {
        match self {
            Flag::Long(name) => Error::usage(format!("unknown option --{name}")),
            Flag::Short(c) => Error::usage(format!("unknown option -{c}")),
            Flag::Value(v) => {
                Error::usage(format!("unexpected argument `{}`", v.to_string_lossy()))
            }
        }
    }
}

/// The help lines of the output options, for a command's help text
/// (`concat!` takes a macro, not a constant).
macro_rules! output_help {
    () => {
        "  --format=FORMAT           table, json or csv (default table); --json and
                            --csv are short for the last two
  -q, --quiet               no progress on stderr
"
    };
}
pub(crate) use output_help;

/// The help line of the exit codes every command shares.
macro_rules! exit_help {
    () => {
        "
Exit codes: 0 no regression, 1 a regression or a failed probe, 2 bad usage
or input (one line on stderr). docs/cli.md has every option.
"
    };
}
pub(crate) use exit_help;

/// Reads `--format`'s value.
pub fn format(value: &str) -> Result<Format, Error> {
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
    pub save: Option<PathBuf>,
    /// `--baseline=FILE`.
    pub baseline: Option<PathBuf>,
    /// `--no-baseline`: compare with nothing, even in a bench.
    pub no_baseline: bool,
    /// Percent; `None` takes the mode's default.
    pub threshold: Option<f64>,
    /// Milliseconds (HTTP mode).
    pub min_delta: Option<f64>,
    /// Percent (micro mode, timed); `None` takes the default.
    pub max_machine_slowdown: Option<f64>,
    /// `--all-checks`: the table lists every check, not only regressions.
    pub all_checks: bool,
    /// Judge wall time against a baseline of another machine class.
    pub cross_machine: bool,
}

impl From<&Common> for crate::judge::Rules {
    fn from(common: &Common) -> Self {
        crate::judge::Rules {
            threshold: common.threshold,
            min_delta: common.min_delta,
            max_machine_slowdown: common.max_machine_slowdown,
            cross_machine: common.cross_machine,
        }
    }
}

impl Common {
    /// Where and how the finished run goes.
    pub(crate) fn delivery(&self) -> Delivery {
        Delivery {
            format: self.format,
            all_checks: self.all_checks,
            save: self.save.clone(),
        }
    }

    /// What `--baseline` and `--no-baseline` ask for; both is an error.
    pub(crate) fn asked(&self) -> Result<Asked<'_>, Error> {
        match (&self.baseline, self.no_baseline) {
            (Some(_), true) => Err(Error::usage(
                "--baseline and --no-baseline contradict each other",
            )),
            (Some(path), false) => Ok(Asked::File(path)),
            (None, true) => Ok(Asked::None),
            (None, false) => Ok(Asked::Default),
        }
    }

    /// The next argument that is the command's own: the shared options are
    /// taken on the way, and `--help`/`-h` answers with `help`. `None` at
    /// the end of the arguments.
    pub fn next_own(
        &mut self,
        parser: &mut Parser,
        help: &'static str,
    ) -> Result<Option<Flag>, Error> {
        while let Some(arg) = parser.next()? {
            let flag = Flag::from(arg);
            if flag.is_help() {
                return Err(Error::Help(help));
            }
            if !self.accept(&flag, parser)? {
                return Ok(Some(flag));
            }
        }
        Ok(None)
    }

    /// Takes `arg` if it is a shared option (reading its value from
    /// `parser`); returns false for anything else, for the caller to handle.
    pub fn accept(&mut self, flag: &Flag, parser: &mut Parser) -> Result<bool, Error> {
        let name = match flag {
            Flag::Long(name) => name.as_str(),
            Flag::Short('q') => "quiet",
            _ => return Ok(false),
        };
        match name {
            "format" => self.format = format(&string(parser, "--format")?)?,
            "json" => self.format = Format::Json,
            "csv" => self.format = Format::Csv,
            "quiet" => self.quiet = true,
            "save" => self.save = Some(path(parser, "--save")?),
            "baseline" => self.baseline = Some(path(parser, "--baseline")?),
            "no-baseline" => self.no_baseline = true,
            "threshold" => self.threshold = Some(percent(parser, "--threshold")?),
            "min-delta" => self.min_delta = Some(non_negative(parser, "--min-delta")?),
            "max-machine-slowdown" => {
                self.max_machine_slowdown = Some(percent(parser, "--max-machine-slowdown")?)
            }
            "all-checks" => self.all_checks = true,
            "cross-machine" => self.cross_machine = true,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// The option's value as UTF-8 text.
pub fn string(parser: &mut Parser, option: &str) -> Result<String, Error> {
    let value = parser
        .value()
        .map_err(|_| Error::usage(format!("{option}: a value is required")))?;
    value
        .string()
        .map_err(|_| Error::usage(format!("{option}: the value is not valid UTF-8")))
}

/// The option's value as a path; an empty one is refused.
pub fn path(parser: &mut Parser, option: &str) -> Result<PathBuf, Error> {
    let value = parser
        .value()
        .map_err(|_| Error::usage(format!("{option}: a value is required")))?;
    if value.is_empty() {
        return Err(Error::usage(format!("{option}: the file name is empty")));
    }
    Ok(PathBuf::from(value))
}

/// The option's value as a whole number.
pub fn count(parser: &mut Parser, option: &str) -> Result<u64, Error> {
    let text = string(parser, option)?;
    text.trim()
        .parse::<u64>()
        .map_err(|_| Error::usage(format!("{option}: `{text}` is not a whole number")))
}

/// The option's value as a whole number of at least 1.
pub fn positive(parser: &mut Parser, option: &str) -> Result<u64, Error> {
    match count(parser, option)? {
        0 => Err(Error::usage(format!("{option}: must be at least 1"))),
        n => Ok(n),
    }
}

/// A whole number between `min` and `max`: counts that size buffers or
/// loops get an upper bound, so a typo is a usage error, not an exhausted
/// machine.
pub fn bounded(parser: &mut Parser, option: &str, min: u64, max: u64) -> Result<u64, Error> {
    match count(parser, option)? {
        n if n < min => Err(Error::usage(format!("{option}: must be at least {min}"))),
        n if n > max => Err(Error::usage(format!("{option}: must be at most {max}"))),
        n => Ok(n),
    }
}

/// A duration in seconds, above 0 and at most a day (fractions allowed:
/// `0.5`).
pub fn seconds(parser: &mut Parser, option: &str) -> Result<std::time::Duration, Error> {
    let v = non_negative(parser, option)?;
    match std::time::Duration::try_from_secs_f64(v) {
        Ok(d) if !d.is_zero() && v <= 86_400.0 => Ok(d),
        _ => Err(Error::usage(format!(
            "{option}: must be above 0 and at most a day, in seconds"
        ))),
    }
}

/// A finite number ≥ 0.
pub(crate) fn non_negative(parser: &mut Parser, option: &str) -> Result<f64, Error> {
    let text = string(parser, option)?;
    match text.trim().trim_end_matches('%').parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(Error::usage(format!(
            "{option}: `{text}` is not a number of at least 0"
        ))),
    }
}

/// A percentage above 0 (a trailing `%` is allowed).
pub fn percent(parser: &mut Parser, option: &str) -> Result<f64, Error> {
    let v = non_negative(parser, option)?;
    if v == 0.0 {
        return Err(Error::usage(format!("{option}: must be above 0")));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<(Common, Vec<String>), Error> {
        let mut parser = Parser::from_args(args.iter().copied());
        let mut common = Common::default();
        let mut rest = Vec::new();
        while let Some(arg) = parser.next()? {
            let flag = Flag::from(arg);
            if !common.accept(&flag, &mut parser)? {
                rest.push(format!("{flag:?}"));
            }
        }
        Ok((common, rest))
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
