//! Every command answers `--help` and `-h` with exit 0 and a text that names
//! each option it takes, and docs/cli.md names them in the command's
//! section. The options come from the one table each parser takes them by
//! (`yardstick_cli::commands::options_of`), so an option added without
//! documentation fails here. The shared options a command does not take
//! are refused, saying so, and left out of its help.
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

/// A command, and the heading of its section in docs/cli.md.
struct Cli {
    name: &'static str,
    section: &'static str,
}

const COMMANDS: &[Cli] = &[
    Cli {
        name: "micro",
        section: "## Micro mode",
    },
    Cli {
        name: "compare-builds",
        section: "## compare-builds",
    },
    Cli {
        name: "matrix",
        section: "## matrix",
    },
    Cli {
        name: "compare",
        section: "## compare",
    },
    Cli {
        name: "show",
        section: "## show",
    },
    Cli {
        name: "http",
        section: "## HTTP mode",
    },
    Cli {
        name: "baseline",
        section: "## baseline",
    },
    Cli {
        name: "machine",
        section: "## machine",
    },
    Cli {
        name: "history add",
        section: "## History",
    },
    Cli {
        name: "history list",
        section: "## history list",
    },
    Cli {
        name: "history show",
        section: "## history show",
    },
    Cli {
        name: "history trend",
        section: "## history trend",
    },
    Cli {
        name: "history bisect",
        section: "## history bisect",
    },
    Cli {
        name: "history changes",
        section: "## history changes",
    },
];

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// True when `text` names `option` as a whole word: `--probe` is not
/// named by `--probe-timeout`.
fn names(text: &str, option: &str) -> bool {
    let pattern = format!(r"(^|[^a-z0-9-]){}($|[^a-z0-9-])", regex::escape(option));
    Regex::new(&pattern).expect("regex").is_match(text)
}

/// The options `cli` takes, and the shared ones it refuses.
fn table(cli: &Cli) -> (BTreeSet<String>, Vec<String>) {
    let (taken, refused) = yardstick_cli::commands::options_of(cli.name)
        .unwrap_or_else(|| panic!("no option table for {}", cli.name));
    (taken.into_iter().collect(), refused)
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
    let (options, refused) = table(cli);
    if options.is_empty() {
        return Err(format!("no option in {}'s table", cli.name).into());
    }
    for flag in ["--help", "-h"] {
        let ran = run(yardstick().args(cli.name.split(' ')).arg(flag));
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
        for option in &refused {
            check(
                !names(&ran.stdout, option),
                &format!("the help leaves out {option}, which is refused"),
                &ran,
            )?;
        }
    }
    let ran = run(yardstick().arg("help").args(cli.name.split(' ')));
    check(ran.code == 0, "help COMMAND exits 0", &ran)?;
    let doc = read("docs/cli.md");
    let part = section(&doc, cli.section);
    let missing: Vec<_> = options.iter().filter(|o| !names(part, o)).collect();
    if !missing.is_empty() {
        return Err(format!("docs/cli.md, `{}`, does not name {missing:?}", cli.section).into());
    }
    // And the other way: an option the section's table documents is one
    // the command takes or refuses, so a renamed or removed option does
    // not live on in the documentation.
    let known = |o: &str| options.contains(o) || refused.iter().any(|r| r == o);
    let stale: Vec<_> = documented(part).into_iter().filter(|o| !known(o)).collect();
    if !stale.is_empty() {
        return Err(format!(
            "docs/cli.md, `{}`, documents {stale:?}, which {} does not take",
            cli.section, cli.name
        )
        .into());
    }
    // A default the help states is defined once (in the option table, or
    // the judge's constant it names), and the section's default column
    // says the same.
    let defaults = yardstick_cli::commands::defaults_of(cli.name).unwrap_or_default();
    for (option, default) in defaults {
        let said = default_column(part, &option);
        if said.as_deref() != Some(default.to_string().as_str()) {
            return Err(format!(
                "docs/cli.md, `{}`: the default of {option} is {default}, the table says {said:?}",
                cli.section
            )
            .into());
        }
    }
    Ok(())
}

/// The default column of the row that documents `option` in `section`,
/// without thousands' commas.
fn default_column(section: &str, option: &str) -> Option<String> {
    let cell = Regex::new(r"`(--?[a-z][a-z0-9-]*)").expect("regex");
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .find(|row| {
            row.split(" | ")
                .next()
                .is_some_and(|first| cell.captures_iter(first).any(|c| &c[1] == option))
        })
        .and_then(|row| row.split(" | ").nth(1))
        .map(|said| said.trim().replace(',', ""))
}

/// The options a section's tables document: the first cell of each row,
/// `` `--name=VALUE` `` or `` `-q`, `--quiet` ``.
fn documented(section: &str) -> BTreeSet<String> {
    let cell = Regex::new(r"`(--?[a-z][a-z0-9-]*)").expect("regex");
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|row| row.split(" | ").next())
        .flat_map(|first| {
            cell.captures_iter(first)
                .map(|c| c[1].to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

fn refused_options_are_refused(cli: &'static Cli) -> Result<(), Failed> {
    for option in table(cli).1 {
        // A value for the options that take one; the flags take none.
        let arg = match option.as_str() {
            "--no-baseline" | "--cross-machine" | "--all-checks" | "--json" | "--csv"
            | "--quiet" => option.clone(),
            _ => format!("{option}=1"),
        };
        let ran = run(yardstick().args(cli.name.split(' ')).arg(&arg));
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
            // A subcommand is listed by its command.
            let command = cli.name.split(' ').next().unwrap_or(cli.name);
            check(
                ran.stdout.contains(&format!("\n  {command} ")),
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
    let (micro, _) = table(&COMMANDS[0]);
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
        Trial::test("a_closed_stdout_ends_quietly", a_closed_stdout_ends_quietly),
        Trial::test(
            "completions_and_the_manual_are_made_by_the_command",
            completions_and_the_manual_are_made_by_the_command,
        ),
    ]);
    trials
}

/// `yardstick ARGS | true`, made certain: stdout is a pipe whose reader
/// is gone before the command starts, so its first write finds it closed.
fn closed_stdout(args: &[&str]) -> Result<common::Ran, Failed> {
    let (reader, writer) = std::io::pipe()?;
    drop(reader);
    let mut cmd = yardstick();
    cmd.args(args).stdout(writer);
    Ok(run(cmd))
}

/// Help into a closed pipe exits 0, as other tools' help does; a command
/// that had more to say exits as SIGPIPE would have ended it (141); and
/// neither prints a panic, or anything, on stderr.
fn a_closed_stdout_ends_quietly() -> Result<(), Failed> {
    for args in [
        &["--help"][..],
        &["micro", "--help"],
        &["history", "--help"],
        &["-V"],
    ] {
        let ran = closed_stdout(args)?;
        check(
            ran.code == 0 && ran.stderr.is_empty(),
            &format!("{args:?}"),
            &ran,
        )?;
    }
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exp-benchmark/kernel.json");
    let fixture = fixture.to_string_lossy();
    for args in [&["machine"][..], &["show", &fixture]] {
        let ran = closed_stdout(args)?;
        check(
            ran.code == 141 && ran.stderr.is_empty(),
            &format!("{args:?}"),
            &ran,
        )?;
    }
    // A write that fails otherwise (a full disk) cut the document short:
    // no success, one line.
    if Path::new("/dev/full").exists() {
        for args in [&["show", "--json", &fixture][..], &["--help"]] {
            let mut cmd = yardstick();
            cmd.args(args).stdout(std::fs::File::create("/dev/full")?);
            let ran = run(cmd);
            check(
                ran.code == 2
                    && ran.stderr.starts_with("error: stdout: ")
                    && ran.stderr.lines().count() == 1,
                &format!("{args:?} into /dev/full"),
                &ran,
            )?;
        }
    }
    Ok(())
}

/// `yardstick completions SHELL` and `yardstick man`, from the same
/// option tables as `--help`.
fn completions_and_the_manual_are_made_by_the_command() -> Result<(), Failed> {
    let bash = run(yardstick().args(["completions", "bash"]));
    check(
        bash.code == 0
            && bash
                .stdout
                .contains("complete -o default -F _yardstick yardstick")
            && bash.stdout.contains("--save-baseline"),
        "a bash script naming the options",
        &bash,
    )?;
    let man = run(yardstick().arg("man"));
    check(
        man.code == 0
            && man.stdout.starts_with(".TH YARDSTICK 1")
            && man.stdout.contains("--repeat"),
        "a manual page with the options",
        &man,
    )?;
    let bad = run(yardstick().args(["completions", "tcsh"]));
    check(
        bad.code == 2 && bad.stderr.contains("`tcsh`"),
        "an unknown shell",
        &bad,
    )?;
    Ok(())
}

fn main() {
    match std::env::var("YARDSTICK_HELP_CHILD").as_deref() {
        Ok("bench") => std::process::exit(yardstick::run_main()),
        _ => libtest_mimic::run(&Arguments::from_args(), tests()).exit(),
    }
}
