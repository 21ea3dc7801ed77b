//! Every command answers `--help` and `-h` with exit 0 and a text that names
//! each option its parser takes, and docs/cli.md names them in the
//! command's section. The options are read from the parsers' source, so an
//! option added without help or documentation fails here.
//!
//! This test binary is also a bench target without probes: started with
//! `YARDSTICK_HELP_CHILD=bench` it is what `cargo bench` runs, so
//! `cargo bench -- --help` is tested on `yardstick::run_main` itself.

mod common;

use common::{check, run, yardstick};
use libtest_mimic::{Arguments, Failed, Trial};
use regex::Regex;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// A command, where its options are parsed, and the shared options it
/// refuses (each must be refused by the binary, and is left out of its
/// help).
struct Cli {
    name: &'static str,
    sources: &'static [&'static str],
    refused: &'static [&'static str],
    /// The heading of its section in docs/cli.md.
    section: &'static str,
}

const COMMON: &str = "src/commands/common.rs";

const COMMANDS: &[Cli] = &[
    Cli {
        name: "micro",
        sources: &[COMMON, "src/commands/micro/options.rs"],
        refused: &[],
        section: "## Micro mode",
    },
    Cli {
        name: "compare-builds",
        sources: &[COMMON, "src/commands/compare_builds/options.rs"],
        refused: &[
            "baseline",
            "no-baseline",
            "cross-machine",
            "max-machine-slowdown",
            "min-delta",
        ],
        section: "## compare-builds",
    },
    Cli {
        name: "compare",
        sources: &[COMMON],
        refused: &["save", "baseline", "no-baseline"],
        section: "## compare",
    },
    Cli {
        name: "show",
        sources: &[COMMON],
        refused: &[
            "save",
            "baseline",
            "no-baseline",
            "threshold",
            "min-delta",
            "all-checks",
            "max-machine-slowdown",
            "cross-machine",
        ],
        section: "## show",
    },
    Cli {
        name: "http",
        sources: &[COMMON, "src/commands/http/options.rs"],
        refused: &["max-machine-slowdown"],
        section: "## HTTP mode",
    },
    Cli {
        name: "baseline",
        sources: &["src/commands/baseline.rs"],
        refused: &[],
        section: "## baseline",
    },
    Cli {
        name: "machine",
        sources: &["src/commands/machine.rs"],
        refused: &[],
        section: "## machine",
    },
];

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The options a parser's source takes: the arms of its `accept` match
/// (`"name" =>`, `"a" | "b" =>`), `name == "x"` guards, `Arg::Long("x")`,
/// and short flags (`Flag::Short('q')`), as `--name` and `-q`. `--help` and
/// `-h` are every command's and are left out.
fn options_in(source: &str) -> BTreeSet<String> {
    let code = source.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    let arm = Regex::new(r#"(?m)^\s*("[a-z][a-z0-9-]*"(?:\s*\|\s*"[a-z][a-z0-9-]*")*)\s*=>"#)
        .expect("regex");
    let word = Regex::new(r#""([a-z][a-z0-9-]*)""#).expect("regex");
    for (at, _) in code.match_indices("fn accept(") {
        // The arms sit in the function's match: up to its closing brace.
        let body = &code[at..];
        let end = body.find("\n    }\n").unwrap_or(body.len());
        for arms in arm.captures_iter(&body[..end]) {
            for w in word.captures_iter(&arms[1]) {
                found.insert(format!("--{}", &w[1]));
            }
        }
    }
    let guard = Regex::new(r#"(?:name == |Arg::Long\()"([a-z][a-z0-9-]*)""#).expect("regex");
    for g in guard.captures_iter(code) {
        found.insert(format!("--{}", &g[1]));
    }
    let short = Regex::new(r"(?:Flag|Arg)::Short\('([a-z])'\)").expect("regex");
    for s in short.captures_iter(code) {
        found.insert(format!("-{}", &s[1]));
    }
    found.remove("--help");
    found.remove("-h");
    found
}

/// True when `text` names `option` as a whole word: `--probe` is not
/// named by `--probe-timeout`.
fn names(text: &str, option: &str) -> bool {
    let pattern = format!(r"(^|[^a-z0-9-]){}($|[^a-z0-9-])", regex::escape(option));
    Regex::new(&pattern).expect("regex").is_match(text)
}

/// The options `cli` takes.
fn taken(cli: &Cli) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for source in cli.sources {
        all.extend(options_in(&read(source)));
    }
    for refused in cli.refused {
        all.remove(&format!("--{refused}"));
    }
    all
}

/// The section of docs/cli.md under `heading`, up to the next `## `.
fn section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let start = doc
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/cli.md has no section `{heading}`"));
    let rest = &doc[start + heading.len() + 2..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

fn help_names_every_option(cli: &'static Cli) -> Result<(), Failed> {
    let options = taken(cli);
    if options.is_empty() {
        return Err(format!("no option found in {:?}", cli.sources).into());
    }
    for flag in ["--help", "-h"] {
        let ran = run(yardstick().args([cli.name, flag]));
        check(ran.code == 0, &format!("{} {flag} exits 0", cli.name), &ran)?;
        check(ran.stderr.is_empty(), "nothing on stderr", &ran)?;
        let usage = ran.stdout.starts_with("usage: ")
            && ran.stdout.contains(&format!("yardstick {} ", cli.name));
        check(usage, "a usage line", &ran)?;
        for option in &options {
            check(
                names(&ran.stdout, option),
                &format!("the help names {option}"),
                &ran,
            )?;
        }
        for refused in cli.refused {
            let option = format!("--{refused}");
            check(
                !names(&ran.stdout, &option),
                &format!("the help leaves out {option}, which is refused"),
                &ran,
            )?;
        }
    }
    let ran = run(yardstick().args(["help", cli.name]));
    check(ran.code == 0, "help COMMAND exits 0", &ran)?;
    let doc = read("docs/cli.md");
    let part = section(&doc, cli.section);
    let missing: Vec<_> = options.iter().filter(|o| !names(part, o)).collect();
    if !missing.is_empty() {
        return Err(format!("docs/cli.md, `{}`, does not name {missing:?}", cli.section).into());
    }
    Ok(())
}

fn refused_options_are_refused(cli: &'static Cli) -> Result<(), Failed> {
    for refused in cli.refused {
        let option = format!("--{refused}");
        // A value for the options that take one; the flags take none.
        let arg = match *refused {
            "no-baseline" | "cross-machine" | "all-checks" => option.clone(),
            _ => format!("{option}=1"),
        };
        let ran = run(yardstick().args([cli.name, &arg]));
        check(ran.code == 2, &format!("{} {arg} exits 2", cli.name), &ran)?;
        check(
            ran.stderr.contains("does not take") && names(&ran.stderr, &option),
            &format!("{} refuses {option}", cli.name),
            &ran,
        )?;
    }
    Ok(())
}

fn top_level_help_lists_every_command() -> Result<(), Failed> {
    for args in [vec!["--help"], vec!["-h"], vec!["help"]] {
        let ran = run(yardstick().args(&args));
        check(ran.code == 0, &format!("{args:?} exits 0"), &ran)?;
        for cli in COMMANDS {
            check(
                ran.stdout.contains(&format!("\n  {} ", cli.name)),
                &format!("lists {}", cli.name),
                &ran,
            )?;
        }
    }
    let ran = run(yardstick());
    check(ran.code == 2, "no command exits 2", &ran)?;
    let ran = run(yardstick().args(["help", "frobnicate"]));
    check(ran.code == 2, "help of an unknown command exits 2", &ran)?;
    Ok(())
}

/// `cargo bench -- --help`: this binary as a bench target (cargo adds
/// `--bench`, before or after the user's arguments).
fn cargo_bench_answers_help() -> Result<(), Failed> {
    let micro = taken(&COMMANDS[0]);
    for args in [["--help", "--bench"], ["--bench", "-h"]] {
        let mut bench = Command::new(std::env::current_exe()?);
        bench.env("YARDSTICK_HELP_CHILD", "bench").args(args);
        let ran = run(bench);
        check(ran.code == 0, &format!("{args:?} exits 0"), &ran)?;
        check(ran.stdout.starts_with("usage: cargo bench"), "usage", &ran)?;
        for option in &micro {
            check(names(&ran.stdout, option), &format!("names {option}"), &ran)?;
        }
    }
    Ok(())
}

/// `--help` answers even where the command's arguments are wrong or
/// missing: it stops the parser where it stands.
fn help_wins_over_missing_arguments() -> Result<(), Failed> {
    for args in [
        vec!["compare-builds", "--help"],
        vec!["baseline", "--help"],
        vec!["compare", "only-one.json", "--help"],
        vec!["micro", "--repeat=5", "-h"],
    ] {
        let ran = run(yardstick().args(&args));
        check(ran.code == 0, &format!("{args:?} exits 0"), &ran)?;
    }
    Ok(())
}

/// A guard on the scan itself: it must see what it is meant to, and no
/// option's value.
fn the_source_scan_finds_the_options() -> Result<(), Failed> {
    let micro = options_in(&read("src/commands/micro/options.rs"));
    let common = options_in(&read(COMMON));
    let baseline = options_in(&read("src/commands/baseline.rs"));
    for (set, option) in [
        (&micro, "--repeat"),
        (&micro, "--probe-timeout"),
        (&common, "--format"),
        (&common, "-q"),
        (&baseline, "-o"),
        (&baseline, "--output"),
    ] {
        if !set.contains(option) {
            return Err(format!("the scan missed {option}: {set:?}").into());
        }
    }
    if common.contains("--table") {
        return Err("the scan took a value of --format for an option".into());
    }
    Ok(())
}

fn tests() -> Vec<Trial> {
    let mut trials = Vec::new();
    for cli in COMMANDS {
        trials.push(Trial::test(
            format!("{}_help_names_every_option", cli.name),
            || help_names_every_option(cli),
        ));
        trials.push(Trial::test(
            format!("{}_refuses_what_it_leaves_out", cli.name),
            || refused_options_are_refused(cli),
        ));
    }
    trials.extend([
        Trial::test(
            "the_top_level_help_lists_every_command",
            top_level_help_lists_every_command,
        ),
        Trial::test("cargo_bench_answers_help", cargo_bench_answers_help),
        Trial::test(
            "help_wins_over_missing_arguments",
            help_wins_over_missing_arguments,
        ),
        Trial::test(
            "the_source_scan_finds_the_options",
            the_source_scan_finds_the_options,
        ),
    ]);
    trials
}

fn main() {
    match std::env::var("YARDSTICK_HELP_CHILD").as_deref() {
        Ok("bench") => std::process::exit(yardstick::run_main()),
        _ => libtest_mimic::run(&Arguments::from_args(), tests()).exit(),
    }
}
