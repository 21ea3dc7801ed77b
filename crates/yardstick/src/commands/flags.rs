//! Each option of each command, defined once: its name, its value, its help
//! and what it sets. The parser takes options by this table, `--help` is
//! made from it, and tests/help.rs checks docs/cli.md against it, so an
//! option cannot be taken without being listed, or listed without being
//! taken. The shared options (output, baseline, threshold, ...) are
//! defined once in [`super::common`] and named by each command that takes
//! them; a shared option a command does not take is refused with a reason.

use super::common::{self, Common};
use crate::error::Error;
use lexopt::{Arg, Parser, ValueExt};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// One option: `--long`, maybe `-s`, maybe a value, and what it sets in the
/// command's options `T`.
pub struct Def<T: 'static> {
    /// The name without its dashes.
    pub long: &'static str,
    /// The one-letter name, if any (`-q`).
    pub short: Option<char>,
    /// The value's name in the help (`N`, `FILE`); `None` for a switch.
    pub value: Option<&'static str>,
    /// One paragraph, wrapped when printed. Empty: taken but not listed
    /// (plumbing, and cargo's flags); the command's notes name it instead.
    pub help: &'static str,
    /// What the option does with its value.
    pub set: Set<T>,
}

/// What an option does with its value.
pub enum Set<T: 'static> {
    /// A switch.
    Switch(fn(&mut T)),
    /// A switch that may refuse, given the option as written (`--no-search`)
    /// for its errors and for the options that remember which was given.
    // Only HTTP mode's switches refuse.
    Flag(fn(&mut T, &str) -> Result<(), Error>),
    /// A UTF-8 value, checked by the function; the second argument is the
    /// option as written (`--repeat`), for its errors.
    Text(fn(&mut T, &str, &str) -> Result<(), Error>),
    /// A path, which need not be UTF-8; an empty one is refused.
    Path(fn(&mut T, PathBuf)),
    /// A whole number within the [`Number`]'s bounds, which the help says
    /// with its default; the third argument is the option as written, for
    /// the options that remember which was given.
    Number(Number, fn(&mut T, u64, &str)),
    /// A duration within the [`Seconds`]' bound, which the help says with
    /// its default.
    Seconds(Seconds, fn(&mut T, Duration)),
    /// Taken and ignored (cargo's and libtest's flags).
    Ignored,
}

/// A whole number an option takes: its default and its bounds, written
/// once. The parser refuses a value outside the bounds, the help says all
/// three ("(default 30; 1 to 1000000)"), and the options' `Default` reads
/// the same `default`, so no copy can drift from another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Number {
    /// The value when the option is not given.
    pub default: u64,
    /// The smallest value taken.
    pub min: u64,
    /// The largest value taken.
    pub max: u64,
}

impl Number {
    /// The default, as the options' fields hold it.
    pub const fn default_usize(&self) -> usize {
        self.default as usize
    }

    /// What the help says of the number: its default and bounds (an
    /// upper bound of `u64::MAX` is none).
    fn said(&self) -> String {
        match (self.min, self.max) {
            (0, u64::MAX) => format!("(default {})", self.default),
            (min, u64::MAX) => format!("(default {}; at least {min})", self.default),
            (min, max) => format!("(default {}; {min} to {max})", self.default),
        }
    }
}

/// A duration an option takes, in seconds (fractions allowed: `0.5`): its
/// default and its longest, written once, as a [`Number`]'s are. It is
/// always above 0: a timeout of nothing would stop everything at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seconds {
    /// The value when the option is not given, in whole seconds.
    pub default: u64,
    /// The longest taken, in whole seconds.
    pub max: u64,
}

impl Seconds {
    /// A day: the longest a timeout may be.
    pub const DAY: u64 = 86_400;

    /// The default, as the options' fields hold it.
    pub const fn default_duration(&self) -> Duration {
        Duration::from_secs(self.default)
    }

    /// What the help says of the duration: its default and bounds.
    fn said(&self) -> String {
        format!("(default {}; above 0, at most {})", self.default, self.max)
    }

    /// `text` as a duration within the bounds.
    fn parse(&self, text: &str, option: &str) -> Result<Duration, Error> {
        let v = non_negative(text, option)?;
        match Duration::try_from_secs_f64(v) {
            Ok(d) if !d.is_zero() && v <= self.max as f64 => Ok(d),
            _ => Err(Error::usage(format!(
                "{option}: must be above 0 and at most {} seconds",
                self.max
            ))),
        }
    }
}

/// A default that the judge owns (a method's threshold, the machine's
/// slowdown limit), as the help states it beside the option that
/// overrides it: the value and when it applies (empty: always, or the
/// command's main case). The value is the judge's constant itself, so the
/// help cannot drift from the rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    /// The case it applies to (`counts`), or empty.
    pub when: &'static str,
    /// The default, in the option's unit.
    pub value: f64,
}

impl Preset {
    /// The default of the command's main case.
    pub const fn always(value: f64) -> Preset {
        Preset { when: "", value }
    }

    /// The default in case `when`.
    pub const fn when(when: &'static str, value: f64) -> Preset {
        Preset { when, value }
    }

    /// How the help and docs/cli.md's default column say `presets`:
    /// `30; counts 1; kernel mode 50`.
    pub fn said(presets: &[Preset]) -> String {
        presets
            .iter()
            .map(|p| match p.when {
                "" => p.value.to_string(),
                when => format!("{when} {}", p.value),
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A line of a command's option list.
pub enum Entry<T: 'static> {
    /// An option of this command alone.
    Own(Def<T>),
    /// An option of this command alone whose default is not a number of
    /// its own (it hangs on the case): the defaults the help states.
    OwnStating(Def<T>, &'static [Preset]),
    /// A shared option, as [`super::common`] defines it.
    Shared(&'static Def<Common>),
    /// A shared option whose meaning here needs words of its own.
    SharedAs(&'static Def<Common>, &'static str),
    /// A shared option whose default the judge owns: its help here, and
    /// the defaults the help states after it.
    Stating(&'static Def<Common>, &'static str, &'static [Preset]),
    /// Shared options that go together (the output options).
    SharedGroup(&'static [&'static Def<Common>]),
    /// Positional arguments: `(NAME, help)`, listed only.
    Positional(&'static str, &'static str),
    /// Lines that commands share through a macro of their own (the
    /// sampling options of `compare-builds` and `matrix`), in place.
    Group(&'static [Entry<T>]),
}

/// One line of the table, groups taken apart.
enum Item<'a, T: 'static> {
    /// An option of this command, and the defaults it states.
    Own(&'a Def<T>, &'static [Preset]),
    /// A shared option, its help here, and the defaults it states.
    Shared(&'static Def<Common>, &'static str, &'static [Preset]),
    Positional(&'static str, &'static str),
}

impl<T> Section<T> {
    fn items(&'static self) -> impl Iterator<Item = Item<'static, T>> {
        self.entries.iter().flat_map(Entry::items)
    }
}

impl<T> Entry<T> {
    /// The lines this entry stands for, groups taken apart.
    fn items(&'static self) -> Vec<Item<'static, T>> {
        match self {
            Entry::Own(d) => vec![Item::Own(d, &[])],
            Entry::OwnStating(d, presets) => vec![Item::Own(d, presets)],
            Entry::Shared(d) => vec![Item::Shared(d, d.help, &[])],
            Entry::SharedAs(d, help) => vec![Item::Shared(d, help, &[])],
            Entry::Stating(d, help, presets) => vec![Item::Shared(d, help, presets)],
            Entry::SharedGroup(defs) => defs.iter().map(|d| Item::Shared(d, d.help, &[])).collect(),
            Entry::Positional(name, help) => vec![Item::Positional(name, help)],
            Entry::Group(entries) => entries.iter().flat_map(Entry::items).collect(),
        }
    }
}

/// A titled group of lines in the help.
pub struct Section<T: 'static> {
    /// The heading; `None` for the command's first lines.
    pub title: Option<&'static str>,
    /// The lines, in the order the help prints them.
    pub entries: &'static [Entry<T>],
}

/// A command's whole command line.
pub struct Spec<T: 'static> {
    /// As typed after `yardstick` (`compare-builds`).
    pub command: &'static str,
    /// The usage line or lines, `usage: ` included.
    pub usage: &'static str,
    /// What the command does, a paragraph or two.
    pub about: &'static str,
    /// The options, grouped under their headings.
    pub sections: &'static [Section<T>],
    /// Text after the options: notes, the environment.
    pub notes: &'static str,
    /// What the exit codes mean.
    pub exit: &'static str,
    /// Shared options this command refuses, each with the reason.
    pub refuses: &'static [(&'static str, &'static str)],
}

/// The options of a command that takes the shared ones.
pub trait Options {
    /// Where the shared options go; `None` for a command without them.
    fn common(&mut self) -> Option<&mut Common>;
}

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
    pub(crate) fn from(arg: Arg<'_>) -> Flag {
        match arg {
            Arg::Long(name) => Flag::Long(name.to_string()),
            Arg::Short(c) => Flag::Short(c),
            Arg::Value(v) => Flag::Value(v),
        }
    }

    /// True for `--help` and `-h`: the command answers with its help.
    pub(crate) fn is_help(&self) -> bool {
        matches!(self, Flag::Short('h')) || matches!(self, Flag::Long(name) if name == "help")
    }

    /// The unexpected-argument error for this flag.
    pub(crate) fn unexpected(&self) -> Error {
        match self {
            Flag::Long(name) => Error::usage(format!("unknown option --{name}")),
            Flag::Short(c) => Error::usage(format!("unknown option -{c}")),
            Flag::Value(v) => {
                Error::usage(format!("unexpected argument `{}`", v.to_string_lossy()))
            }
        }
    }
}

/// The option's value as UTF-8 text.
pub(crate) fn string(parser: &mut Parser, option: &str) -> Result<String, Error> {
    let value = parser
        .value()
        .map_err(|_| Error::usage(format!("{option}: a value is required")))?;
    value
        .string()
        .map_err(|_| Error::usage(format!("{option}: the value is not valid UTF-8")))
}

/// The option's value as a path; an empty one is refused.
pub(crate) fn path(parser: &mut Parser, option: &str) -> Result<PathBuf, Error> {
    let value = parser
        .value()
        .map_err(|_| Error::usage(format!("{option}: a value is required")))?;
    if value.is_empty() {
        return Err(Error::usage(format!("{option}: the file name is empty")));
    }
    Ok(PathBuf::from(value))
}

/// `text` as a whole number.
pub fn count(text: &str, option: &str) -> Result<u64, Error> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| Error::usage(format!("{option}: `{text}` is not a whole number")))
}

/// `text` as a whole number of at least 1.
// Only HTTP mode counts from 1.
pub fn positive(text: &str, option: &str) -> Result<u64, Error> {
    match count(text, option)? {
        0 => Err(Error::usage(format!("{option}: must be at least 1"))),
        n => Ok(n),
    }
}

/// A whole number between `min` and `max`: counts that size buffers or
/// loops get an upper bound, so a typo is a usage error, not an exhausted
/// machine.
pub fn bounded(text: &str, option: &str, min: u64, max: u64) -> Result<u64, Error> {
    match count(text, option)? {
        n if n < min => Err(Error::usage(format!("{option}: must be at least {min}"))),
        n if n > max => Err(Error::usage(format!("{option}: must be at most {max}"))),
        n => Ok(n),
    }
}

/// A finite number ≥ 0.
pub fn non_negative(text: &str, option: &str) -> Result<f64, Error> {
    match text.trim().trim_end_matches('%').parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(Error::usage(format!(
            "{option}: `{text}` is not a number of at least 0"
        ))),
    }
}

/// A percentage above 0 (a trailing `%` is allowed).
pub(crate) fn percent(text: &str, option: &str) -> Result<f64, Error> {
    let v = non_negative(text, option)?;
    if v == 0.0 {
        return Err(Error::usage(format!("{option}: must be above 0")));
    }
    Ok(v)
}

/// How wide the help is, and where an option's help starts.
const WIDTH: usize = 78;
const HELP_COLUMN: usize = 28;

impl<T: Options> Spec<T> {
    /// Takes every argument this table defines, setting it in `target`,
    /// and returns the next one it does not (a positional value, or an
    /// option for the command to take or refuse with [`Spec::unexpected`]);
    /// `None` at the end. `--help` and `-h` stop the parser where it
    /// stands with the help.
    pub fn next(&'static self, parser: &mut Parser, target: &mut T) -> Result<Option<Flag>, Error> {
        while let Some(arg) = parser.next()? {
            let flag = Flag::from(arg);
            if flag.is_help() {
                return Err(Error::Help(self.help()));
            }
            if !self.take(&flag, parser, target)? {
                return Ok(Some(flag));
            }
        }
        Ok(None)
    }

    /// Sets `flag` if this table defines it; false otherwise.
    fn take(&self, flag: &Flag, parser: &mut Parser, target: &mut T) -> Result<bool, Error> {
        for item in self.items() {
            match item {
                Item::Own(def, _) if def.is(flag) => {
                    apply(def, flag, parser, target)?;
                    return Ok(true);
                }
                Item::Shared(def, ..) if def.is(flag) => {
                    let Some(common) = target.common() else {
                        return Ok(false);
                    };
                    apply(def, flag, parser, common)?;
                    return Ok(true);
                }
                _ => {}
            }
        }
        Ok(false)
    }

    /// The error for an argument the command did not take: a shared
    /// option it refuses says why; anything else is unknown.
    pub fn unexpected(&self, flag: &Flag) -> Error {
        let command = self.command;
        if let Flag::Long(name) = flag
            && common::SHARED.iter().any(|d| d.long == name)
        {
            let why = self
                .refuses
                .iter()
                .find(|(n, _)| n == name)
                .map_or("it has no use here", |(_, why)| why);
            return Error::usage(format!("yardstick {command} does not take --{name}: {why}"));
        }
        if let Flag::Long(name) = flag
            && let Some(near) = nearest(&format!("--{name}"), &self.options())
        {
            return Error::usage(format!("unknown option --{name} (did you mean {near}?)"));
        }
        flag.unexpected()
    }
}

/// The option of `options` that `given` most likely misspells: the one
/// fewest edits away (a letter added, dropped, changed, or two swapped), if
/// that is at most one edit in four letters, and no other is as near.
fn nearest<'a>(given: &str, options: &'a [String]) -> Option<&'a str> {
    let given: Vec<char> = given.chars().collect();
    let allowed = (given.len() / 4).max(1);
    let mut by_distance: Vec<(usize, &str)> = options
        .iter()
        .filter(|o| o.starts_with("--"))
        .map(|o| (edits(&given, &o.chars().collect::<Vec<_>>()), o.as_str()))
        .filter(|(d, _)| *d <= allowed)
        .collect();
    by_distance.sort();
    match by_distance.as_slice() {
        [(d, o), (next, _), ..] if d < next => Some(o),
        [(_, o)] => Some(o),
        _ => None,
    }
}

/// The optimal string alignment distance of `a` and `b`: Levenshtein's,
/// with a swap of two neighbouring letters counted as one edit.
fn edits(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

impl<T> Spec<T> {
    fn items(&self) -> impl Iterator<Item = Item<'static, T>> {
        self.sections.iter().flat_map(Section::items)
    }

    /// Every option this command takes as written (`--repeat`, `-q`),
    /// listed or not: what its help and docs/cli.md must name.
    pub fn options(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut add = |long: &str, short: Option<char>| {
            out.push(format!("--{long}"));
            out.extend(short.map(|c| format!("-{c}")));
        };
        for item in self.items() {
            match item {
                Item::Own(d, _) => add(d.long, d.short),
                Item::Shared(d, ..) => add(d.long, d.short),
                Item::Positional(..) => {}
            }
        }
        out
    }

    /// Each whole-number option (`repeat`, without its dashes) and its
    /// number.
    pub fn numbers(&self) -> Vec<(&'static str, Number)> {
        self.items()
            .filter_map(|item| match item {
                Item::Own(d, _) => d.number().map(|n| (d.long, n)),
                Item::Shared(d, ..) => d.number().map(|n| (d.long, n)),
                Item::Positional(..) => None,
            })
            .collect()
    }

    /// Each option of a duration (`--probe-timeout`), as the table
    /// defines it.
    pub fn durations(&self) -> Vec<(&'static str, Seconds)> {
        let seconds = |d: &Def<_>| match d.set {
            Set::Seconds(s, _) => Some(s),
            _ => None,
        };
        self.items()
            .filter_map(|item| match item {
                Item::Own(d, _) => seconds(d).map(|s| (d.long, s)),
                Item::Shared(d, ..) => match d.set {
                    Set::Seconds(s, _) => Some((d.long, s)),
                    _ => None,
                },
                Item::Positional(..) => None,
            })
            .collect()
    }

    /// Each option of a stated default (`--repeat`, `--probe-timeout`,
    /// `--threshold`) and that default as docs/cli.md's default column
    /// must say it.
    pub fn defaults(&self) -> Vec<(String, String)> {
        self.items()
            .filter_map(|item| match item {
                Item::Own(d, []) => d.default().map(|n| (d.long, n.to_string())),
                Item::Shared(d, _, []) => d.default().map(|n| (d.long, n.to_string())),
                Item::Own(d, presets) => Some((d.long, Preset::said(presets))),
                Item::Shared(d, _, presets) => Some((d.long, Preset::said(presets))),
                Item::Positional(..) => None,
            })
            .map(|(long, said)| (format!("--{long}"), said))
            .collect()
    }

    /// The shared options this command refuses.
    pub fn refused(&self) -> Vec<String> {
        let taken = self.options();
        common::SHARED
            .iter()
            .map(|d| format!("--{}", d.long))
            .filter(|o| !taken.contains(o))
            .collect()
    }

    /// What `--help` prints. Made once, just before the process prints it
    /// and exits, hence leaked.
    pub fn help(&self) -> &'static str {
        let mut text = format!("{}\n\n{}\n", self.usage.trim_end(), self.about.trim());
        for section in self.sections {
            let lines: String = section
                .items()
                .map(|item| match item {
                    Item::Own(d, []) => (d.head(), d.said(d.help)),
                    Item::Own(d, presets) => (
                        d.head(),
                        format!("{} (default {})", d.help, Preset::said(presets)),
                    ),
                    Item::Shared(d, help, []) => (d.head(), d.said(help)),
                    Item::Shared(d, help, presets) => (
                        d.head(),
                        format!("{help} (default {})", Preset::said(presets)),
                    ),
                    Item::Positional(name, help) => (name.to_string(), help.to_string()),
                })
                .filter(|(_, help)| !help.is_empty())
                .map(|(head, help)| line(&head, &help))
                .collect();
            if lines.is_empty() {
                continue;
            }
            text.push('\n');
            if let Some(title) = section.title {
                text.push_str(title);
                text.push_str(":\n");
            }
            text.push_str(&lines);
        }
        for part in [self.notes, self.exit] {
            if !part.trim().is_empty() {
                text.push('\n');
                text.push_str(part.trim_start_matches('\n'));
            }
        }
        Box::leak(text.into_boxed_str())
    }
}

impl<T> Def<T> {
    /// The number this option takes, if it takes a whole number.
    fn number(&self) -> Option<Number> {
        match self.set {
            Set::Number(n, _) => Some(n),
            _ => None,
        }
    }

    /// The default of a number or a duration this option takes.
    fn default(&self) -> Option<u64> {
        match self.set {
            Set::Number(n, _) => Some(n.default),
            Set::Seconds(s, _) => Some(s.default),
            _ => None,
        }
    }

    /// `help` as `--help` prints it: with a number's or a duration's
    /// default and bounds after it. An option of no help is not listed,
    /// and stays so.
    fn said(&self, help: &str) -> String {
        match &self.set {
            Set::Number(n, _) if !help.is_empty() => format!("{help} {}", n.said()),
            Set::Seconds(s, _) if !help.is_empty() => format!("{help} {}", s.said()),
            _ => help.to_string(),
        }
    }

    /// A switch of no short form.
    pub(crate) const fn switch(long: &'static str, help: &'static str, set: fn(&mut T)) -> Def<T> {
        Def {
            long,
            short: None,
            value: None,
            help,
            set: Set::Switch(set),
        }
    }

    /// A flag of another tool's (cargo's, libtest's), taken and ignored,
    /// and named in the command's notes rather than listed.
    pub(crate) const fn ignored(long: &'static str) -> Def<T> {
        Def {
            long,
            short: None,
            value: None,
            help: "",
            set: Set::Ignored,
        }
    }

    fn is(&self, flag: &Flag) -> bool {
        match flag {
            Flag::Long(name) => name == self.long,
            Flag::Short(c) => self.short == Some(*c),
            Flag::Value(_) => false,
        }
    }

    /// `-q, --quiet` or `--repeat=N`, as the help shows it.
    fn head(&self) -> String {
        let short = self.short.map(|c| format!("-{c}, ")).unwrap_or_default();
        let value = self.value.map(|v| format!("={v}")).unwrap_or_default();
        format!("{short}--{}{value}", self.long)
    }
}

/// Reads `def`'s value, if it takes one, and sets it in `target`; errors
/// name the option as it was written (`-o` or `--output`).
fn apply<T>(def: &Def<T>, flag: &Flag, parser: &mut Parser, target: &mut T) -> Result<(), Error> {
    let option = match flag {
        Flag::Short(c) => format!("-{c}"),
        _ => format!("--{}", def.long),
    };
    match def.set {
        Set::Switch(set) => set(target),
        Set::Flag(set) => set(target, &option)?,
        Set::Text(set) => set(target, &string(parser, &option)?, &option)?,
        Set::Path(set) => set(target, path(parser, &option)?),
        Set::Number(n, set) => set(
            target,
            bounded(&string(parser, &option)?, &option, n.min, n.max)?,
            &option,
        ),
        Set::Seconds(s, set) => set(target, s.parse(&string(parser, &option)?, &option)?),
        Set::Ignored => {}
    }
    Ok(())
}

/// One option's lines: its head in a column of its own, its help wrapped
/// beside it (or below it, when the head is too wide).
pub(crate) fn line(head: &str, help: &str) -> String {
    let mut text = format!("  {head}");
    let mut column = 2 + head.len();
    if column + 1 >= HELP_COLUMN {
        text.push('\n');
        column = 0;
    }
    text.push_str(&" ".repeat(HELP_COLUMN - column));
    column = HELP_COLUMN;
    for (i, word) in help.split_whitespace().enumerate() {
        if i > 0 && column + 1 + word.len() > WIDTH {
            text.push('\n');
            text.push_str(&" ".repeat(HELP_COLUMN));
            column = HELP_COLUMN;
        } else if i > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(word);
        column += word.len();
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lines_wrap_beside_or_below_the_head() {
        assert_eq!(
            line("--repeat=N", "measured rounds"),
            "  --repeat=N                measured rounds\n"
        );
        let long = line("--max-machine-slowdown=PCT", "judge nothing");
        assert_eq!(
            long,
            "  --max-machine-slowdown=PCT\n                            judge nothing\n"
        );
        let words = "word ".repeat(30);
        for l in line("--x", &words).lines() {
            assert!(l.len() <= WIDTH, "{l:?}");
        }
    }

    #[test]
    fn a_misspelt_option_is_named_with_the_one_it_misspells() {
        let options: Vec<String> = ["--repeat", "--warmup", "--probe", "--probe-timeout", "-q"]
            .map(String::from)
            .to_vec();
        let near = |given: &str| nearest(given, &options);
        assert_eq!(near("--repaet"), Some("--repeat"));
        assert_eq!(near("--warmpu"), Some("--warmup"));
        assert_eq!(near("--prob"), Some("--probe"));
        // Too far from any, or as near to two: no guess.
        assert_eq!(near("--seed"), None);
        assert_eq!(near("--x"), None);
        let twins = ["--ab", "--ac"].map(String::from);
        assert_eq!(nearest("--aa", &twins), None);
        let e = crate::commands::micro::cli::SPEC.unexpected(&Flag::Long("repaet".into()));
        assert_eq!(
            e.to_string(),
            "error: unknown option --repaet (did you mean --repeat?)"
        );
    }

    #[test]
    fn a_number_is_taken_within_its_bounds_and_its_help_says_them() {
        #[derive(Default)]
        struct O {
            n: u64,
        }
        const N: Number = Number {
            default: 7,
            min: 2,
            max: 9,
        };
        static DEF: Def<O> = Def {
            long: "n",
            short: None,
            value: Some("N"),
            help: "how many",
            set: Set::Number(N, |o, n, _| o.n = n),
        };
        assert_eq!(DEF.said(DEF.help), "how many (default 7; 2 to 9)");
        // An option kept out of the help stays out.
        assert_eq!(DEF.said(""), "");
        let take = |value: &str| {
            let mut o = O::default();
            let mut parser = Parser::from_args([format!("--n={value}")]);
            let flag = match parser.next() {
                Ok(Some(lexopt::Arg::Long(name))) => Flag::Long(name.to_string()),
                other => panic!("{other:?}"),
            };
            apply(&DEF, &flag, &mut parser, &mut o).map(|()| o.n)
        };
        assert_eq!(take("9"), Ok(9));
        assert_eq!(
            take("1").map_err(|e| e.to_string()),
            Err("error: --n: must be at least 2".to_string())
        );
        assert_eq!(
            take("10").map_err(|e| e.to_string()),
            Err("error: --n: must be at most 9".to_string())
        );
    }

    #[test]
    fn a_duration_is_taken_above_0_within_its_bound_and_its_help_says_them() {
        #[derive(Default)]
        struct O {
            d: Duration,
        }
        static DEF: Def<O> = Def {
            long: "wait",
            short: None,
            value: Some("SECONDS"),
            help: "how long",
            set: Set::Seconds(
                Seconds {
                    default: 30,
                    max: 60,
                },
                |o, d| o.d = d,
            ),
        };
        assert_eq!(
            DEF.said(DEF.help),
            "how long (default 30; above 0, at most 60)"
        );
        assert_eq!(DEF.default(), Some(30));
        let take = |value: &str| {
            let mut o = O::default();
            let mut parser = Parser::from_args([format!("--wait={value}")]);
            let flag = match parser.next() {
                Ok(Some(lexopt::Arg::Long(name))) => Flag::Long(name.to_string()),
                other => panic!("{other:?}"),
            };
            apply(&DEF, &flag, &mut parser, &mut o)
                .map(|()| o.d)
                .map_err(|e| e.to_string())
        };
        assert_eq!(take("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(take("60"), Ok(Duration::from_secs(60)));
        for refused in ["0", "60.5", "-1", "x", "inf"] {
            assert!(take(refused).is_err(), "{refused}");
        }
        assert_eq!(
            take("61"),
            Err("error: --wait: must be above 0 and at most 60 seconds".to_string())
        );
    }
}
