//! libtest's face for the probes under `cargo test`: its command line (the
//! filters, `--exact`, `--skip`, `--list`, `--format`, `--test-threads`, and
//! the flags cargo, IDEs and cargo-nextest pass) and its output, so that a
//! bench with `test = true` runs, lists and filters like any test target.
//!
//! Written here rather than taken from libtest-mimic, whose command line
//! brings clap and thirteen more crates into every user's bench build: a
//! quarter of its crates, for the few options below (docs/evaluation.md,
//! "A light library").

use crate::commands::common::Common;
use crate::commands::flags::{self, Def, Entry, Flag, Options, Section, Set, Spec};
use crate::error::Error;
use lexopt::Parser;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// One test: a name, and the work that passes or says why it failed.
pub(crate) struct Trial {
    pub(crate) name: &'static str,
    pub(crate) run: Box<dyn Fn() -> Result<(), String> + Send + Sync>,
}

/// What libtest's command line asked.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Args {
    filters: Vec<String>,
    skip: Vec<String>,
    exact: bool,
    list: bool,
    terse: bool,
    /// `--ignored`: only the ignored tests, and no probe is.
    ignored_only: bool,
    threads: Option<usize>,
}

impl Options for Args {
    fn common(&mut self) -> Option<&mut Common> {
        None
    }
}

const fn switch(long: &'static str, help: &'static str, set: fn(&mut Args)) -> Entry<Args> {
    Entry::Own(Def::switch(long, help, set))
}

const fn ignored(long: &'static str) -> Entry<Args> {
    Entry::Own(Def::ignored(long))
}

/// The command line of a bench target under `cargo test`.
pub(crate) static SPEC: Spec<Args> = Spec {
    command: "test",
    usage: "usage: cargo test [--bench NAME] -- [OPTIONS] [FILTER...]",
    about: "Runs each probe once with its check, as one test each (what cargo test
does with a bench target of test = true).",
    sections: &[Section {
        title: None,
        entries: &[
            Entry::Positional("FILTER...", "probes whose name contains a FILTER"),
            switch("exact", "a FILTER must equal the name", |a| a.exact = true),
            Entry::Own(Def {
                long: "skip",
                short: None,
                value: Some("FILTER"),
                help: "leave out probes whose name contains FILTER (repeatable)",
                set: Set::Text(|a, v, _| {
                    a.skip.push(v.to_string());
                    Ok(())
                }),
            }),
            switch("list", "list the tests and exit", |a| a.list = true),
            Entry::Own(Def {
                long: "format",
                short: None,
                value: Some("pretty|terse"),
                help: "a line per test, or a character (default pretty)",
                set: Set::Text(|a, v, option| {
                    a.terse = match v {
                        "pretty" => false,
                        "terse" => true,
                        other => {
                            return Err(Error::usage(format!(
                                "{option}: `{other}` is not pretty or terse"
                            )));
                        }
                    };
                    Ok(())
                }),
            }),
            Entry::Own(Def {
                long: "quiet",
                short: Some('q'),
                value: None,
                help: "the same as --format=terse",
                set: Set::Switch(|a| a.terse = true),
            }),
            switch("ignored", "run only the ignored tests (no probe is)", |a| {
                a.ignored_only = true
            }),
            switch("include-ignored", "run the ignored tests too", |_| {}),
            Entry::Own(Def {
                long: "test-threads",
                short: None,
                value: Some("N"),
                help: "tests run at once (default: the CPUs, or RUST_TEST_THREADS)",
                set: Set::Text(|a, v, option| {
                    a.threads = Some(flags::bounded(v, option, 1, 1024)? as usize);
                    Ok(())
                }),
            }),
            Entry::Own(Def {
                long: "color",
                short: None,
                value: Some("auto|always|never"),
                help: "accepted; the output has no colour",
                set: Set::Text(|_, _, _| Ok(())),
            }),
            ignored("nocapture"),
            ignored("show-output"),
            ignored("test"),
            ignored("report-time"),
            ignored("shuffle"),
        ],
    }],
    notes: "--nocapture, --show-output, --test, --report-time and --shuffle are
accepted and ignored: a probe's output is never captured, and the probes run
in their order.
",
    exit: "Exit codes: 0 every test passed, 101 a test failed, 2 bad usage.\n",
    refuses: &[],
};

impl Args {
    /// Reads libtest's arguments (without the program's name).
    pub(crate) fn parse(args: Vec<String>) -> Result<Args, Error> {
        let mut a = Args::default();
        let mut parser = Parser::from_args(args);
        while let Some(flag) = SPEC.next(&mut parser, &mut a)? {
            match flag {
                Flag::Value(v) => a.filters.push(v.to_string_lossy().into_owned()),
                other => return Err(SPEC.unexpected(&other)),
            }
        }
        Ok(a)
    }

    fn wants(&self, name: &str) -> bool {
        let matches = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        !self.ignored_only
            && (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skip.iter().any(|s| name.contains(s.as_str()))
    }

    fn threads(&self) -> usize {
        self.threads
            .or_else(|| std::env::var("RUST_TEST_THREADS").ok()?.parse().ok())
            .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
            .unwrap_or(1)
            .max(1)
    }
}

/// Lists or runs `trials` as `args` asks, printing as libtest does;
/// returns true when every test that ran passed.
pub(crate) fn run(args: &Args, trials: Vec<Trial>) -> bool {
    let total = trials.len();
    let chosen: Vec<Trial> = trials.into_iter().filter(|t| args.wants(t.name)).collect();
    let filtered = total - chosen.len();
    let mut out = std::io::stdout().lock();
    if args.list {
        for t in &chosen {
            let _ = writeln!(out, "{}: test", t.name);
        }
        if !args.terse {
            let _ = writeln!(out, "\n{} tests, 0 benchmarks", chosen.len());
        }
        return true;
    }
    let _ = writeln!(out, "\nrunning {} tests", chosen.len());
    drop(out);
    let started = Instant::now();
    let failures = run_all(&chosen, args);
    let mut out = std::io::stdout().lock();
    if args.terse {
        let _ = writeln!(out);
    }
    if !failures.is_empty() {
        let _ = writeln!(out, "\nfailures:\n");
        for (name, why) in &failures {
            let _ = writeln!(out, "---- {name} stdout ----\n{why}\n");
        }
        let _ = writeln!(out, "\nfailures:");
        for (name, _) in &failures {
            let _ = writeln!(out, "    {name}");
        }
    }
    let _ = writeln!(
        out,
        "\ntest result: {}. {} passed; {} failed; 0 ignored; 0 measured; {filtered} filtered out; finished in {:.2}s\n",
        if failures.is_empty() { "ok" } else { "FAILED" },
        chosen.len() - failures.len(),
        failures.len(),
        started.elapsed().as_secs_f64(),
    );
    failures.is_empty()
}

/// Runs the trials on `args.threads()` threads, each printing its line as
/// it ends; returns the failures, in the trials' order.
fn run_all(trials: &[Trial], args: &Args) -> Vec<(&'static str, String)> {
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let threads = args.threads().min(trials.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(t) = trials.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = match catch_unwind(AssertUnwindSafe(|| (t.run)())) {
                        Ok(outcome) => outcome,
                        Err(_) => Err("test panicked".to_string()),
                    };
                    report(t.name, outcome.is_ok(), args.terse);
                    if let Err(why) = outcome {
                        let mut f = failures.lock().unwrap_or_else(|p| p.into_inner());
                        f.push((t.name, why));
                    }
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    failures.sort_by_key(|(name, _)| trials.iter().position(|t| t.name == *name));
    failures
}

fn report(name: &str, passed: bool, terse: bool) {
    let mut out = std::io::stdout().lock();
    let _ = match (terse, passed) {
        (true, true) => write!(out, "."),
        (true, false) => write!(out, "F"),
        (false, true) => writeln!(out, "test {name} ... ok"),
        (false, false) => writeln!(out, "test {name} ... FAILED"),
    };
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, Error> {
        Args::parse(args.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn filters_exact_and_skip_choose_the_tests() {
        let a = parse(&["ini", "uri"]).unwrap();
        assert!(a.wants("ini_parse") && a.wants("uri_parse") && !a.wants("i18n_load"));
        let a = parse(&["--exact", "ini"]).unwrap();
        assert!(!a.wants("ini_parse") && a.wants("ini"));
        let a = parse(&["--skip", "load", "--skip=lookup"]).unwrap();
        assert!(a.wants("ini_parse") && !a.wants("i18n_load") && !a.wants("i18n_lookup"));
        assert!(!parse(&["--ignored"]).unwrap().wants("ini_parse"));
    }

    #[test]
    fn what_cargo_and_nextest_pass_is_taken() {
        let a = parse(&["--list", "--format", "terse"]).unwrap();
        assert!(a.list && a.terse);
        let a = parse(&["--exact", "x", "--nocapture", "--test-threads=1", "-q"]).unwrap();
        assert_eq!((a.threads, a.terse), (Some(1), true));
        assert!(parse(&["--color=never", "--include-ignored", "--show-output"]).is_ok());
    }

    #[test]
    fn bad_options_are_named() {
        for (args, needle) in [
            (vec!["--frobnicate"], "--frobnicate"),
            (vec!["--format=json"], "--format"),
            (vec!["--test-threads=0"], "--test-threads"),
            (vec!["--skip"], "--skip"),
        ] {
            let e = parse(&args).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
    }

    #[test]
    fn failures_are_counted_and_a_panic_is_a_failure() {
        let trials = vec![
            Trial {
                name: "passes",
                run: Box::new(|| Ok(())),
            },
            Trial {
                name: "fails",
                run: Box::new(|| Err("check failed: 3 != 4".into())),
            },
            Trial {
                name: "panics",
                run: Box::new(|| panic!("on purpose")),
            },
        ];
        let args = parse(&["--test-threads=2", "-q"]).unwrap();
        let failures = run_all(&trials, &args);
        assert_eq!(
            failures,
            [
                ("fails", "check failed: 3 != 4".to_string()),
                ("panics", "test panicked".to_string())
            ]
        );
    }
}
