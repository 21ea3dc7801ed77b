//! The verdict-quality evaluation of yardstick: how often its verdict
//! flags identical code (false alarms) and how often it catches a known,
//! injected slowdown (power), under a quiet machine and under load.
//!
//! Data flows one way: a [`plan`] of runs → the [`baselines`], a pilot of
//! each method and the [`estimate`] → [`jobs`] of [`bench`](mod@bench) processes
//! ([`runner`]) judged by each [`plan::Method`] ([`method`], [`verdict`])
//! while a [`hog`] loads the other CPU → [`results`] summarised with
//! [`stats`] → the [`folder`]: [`report`] (held against the project's
//! [`targets`]) and [`plots`]. [`combine`] makes one report of several
//! evaluations; [`rescore`] judges stored trials again at other settings;
//! [`changes`] scores the change-point rule on synthetic series.
//! The verdicts always come from yardstick's own comparison or rules; the
//! harness only counts them.

pub mod baselines;
pub mod bench;
pub mod changes;
pub mod combine;
pub mod estimate;
pub mod evaluate;
pub mod folder;
pub mod hog;
pub mod jobs;
pub mod machine;
pub mod method;
pub mod options;
pub mod plan;
pub mod plots;
pub mod report;
pub mod rescore;
pub mod results;
pub mod runner;
pub mod stats;
pub mod targets;
pub mod verdict;

use std::fmt;

/// An error that stops the evaluation, as one line naming what failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// Entry point of the `evaluate` binary; returns the exit code.
pub fn main(args: Vec<String>) -> i32 {
    let result = match args.get(1).map(String::as_str) {
        Some(hog::SUBCOMMAND) => hog::main(&args[2..]).map(|()| 0),
        Some(changes::SUBCOMMAND) => changes::main(&args[2..]).map(|text| {
            print!("{text}");
            0
        }),
        Some(rescore::SUBCOMMAND) => rescore::main(&args[2..]).map(|text| {
            print!("{text}");
            0
        }),
        Some(combine::SUBCOMMAND) => combine::main(&args[2..], command_line(&args)).map(|out| {
            println!("{}", out.join("report.md").display());
            0
        }),
        _ => options::Options::parse(args.iter().skip(1)).and_then(|o| {
            if o.help {
                println!("{}", options::USAGE);
                return Ok(0);
            }
            let out = evaluate::run(&o, command_line(&args))?;
            if !o.estimate_only {
                println!("{}", out.join("report.md").display());
            }
            Ok(0)
        }),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("evaluate: error: {e}");
            2
        }
    }
}

/// The command as it can be typed again: arguments with characters a shell
/// would interpret are single-quoted.
pub fn command_line(args: &[String]) -> String {
    let mut parts = vec!["cargo run --release -p evaluate".to_string()];
    if args.len() > 1 {
        parts.push("--".to_string());
    }
    parts.extend(args.iter().skip(1).map(|a| shell_word(a)));
    parts.join(" ")
}

/// `word` as a shell reads it back: single-quoted when it holds anything a
/// shell would interpret.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:+@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_can_be_typed_again() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            command_line(&args(&["evaluate", "--quick", "--out", "my dir", "it's"])),
            r"cargo run --release -p evaluate -- --quick --out 'my dir' 'it'\''s'"
        );
        assert_eq!(
            command_line(&args(&["evaluate"])),
            "cargo run --release -p evaluate"
        );
    }
}
