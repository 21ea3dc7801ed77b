//! The commands: each reads its options, runs the steps below it in one
//! direction (measure, summarise, judge, deliver) and returns an exit code.
//! Only this folder knows the command line. [`run_main`] (a bench target)
//! and [`main`] (the yardstick binary) route the arguments to them.

pub mod baseline;
pub mod common;
pub mod compare_builds;
pub(crate) mod flags;
#[cfg(feature = "history")]
pub mod history;
#[cfg(feature = "http")]
pub mod http;
mod interleave;
#[cfg(feature = "http")]
pub mod k6;
pub mod machine;
pub mod matrix;
pub mod micro;
mod page;
#[cfg(feature = "report")]
pub mod report;
pub mod saved;
mod shell;
pub mod testmode;
pub mod worker;

use crate::baseline::history::Bench;
use crate::error::Error;
use crate::output::stdout;
use micro::options::MicroOptions;
use std::ffi::OsString;
use std::path::Path;

use crate::probe::DEFAULT_SUITE;

const USAGE: &str = "usage: yardstick <command> [OPTIONS]

commands:
  micro           measure the probes linked into this binary: what
                  cargo bench runs in a bench binary (this one links none)
  compare         BASE RUN: judge a saved run against another (exit 1 on a
                  regression)
  compare-builds  OLD NEW: measure two bench binaries in alternating rounds
                  and test the new one for a regression (exit 1)
  matrix          [FILE.toml]: measure configurations of a bench against a
                  base, each probe a multiplier with its interval
  show            FILE: print a saved run
  report          RUN... --html=FILE: draw saved runs as one HTML page
  baseline        RUN... --output=FILE: pool saved runs of one build into a
                  baseline
  http            measure pages over HTTP
  k6              manifest | collect DIR: run an HTTP measurement as k6 pods on
                  a cluster, and merge what they wrote into one run
  history         add, list and show the runs kept in a history
  machine         print this machine's class, the key of its wall-time
                  baselines
  completions     bash|zsh|fish: print the shell's completion script
  man             print the manual page (yardstick man | man -l -)

yardstick <command> --help (or yardstick help <command>) prints a command's
options; docs/cli.md has them all. -V, --version prints the version.
Exit codes: 0 no regression, 1 a regression or a failed probe, 2 bad usage
or input, 3 inconclusive (the machine ran too slow to judge).";

/// Entry point of a bench target (`harness = false`): measures under
/// `cargo bench` (which passes `--bench`), and runs each probe once as a
/// test under `cargo test`. Returns the process exit code. `main!` writes
/// this `main` for a bench, naming the crates whose probes it links:
///
/// ```no_run
/// // benches/speed.rs, with `[[bench]] name = "speed" harness = false`
/// yardstick::probe! { name: join_words, run: || ["a", "b"].join(" ") }
///
/// fn main() {
///     std::process::exit(yardstick::run_main());
/// }
/// ```
pub fn run_main() -> i32 {
    run_suite(DEFAULT_SUITE)
}

/// [`run_main`] for the probes of `suite` (`yardstick::main!(suite: kernel,
/// ...)`): a bench runs its own suite's probes, and the `kernel` suite runs
/// in kernel mode.
pub fn run_suite(suite: &str) -> i32 {
    run_bench(suite, &[])
}

/// [`run_suite`] for a bench that declares parameters of its own
/// (`yardstick::main!(suite: kernel, params: [node: i64 = "..."], ...)`):
/// `--node=57` is then one of its options, which its probes read with
/// [`crate::param`].
pub fn run_bench(suite: &str, params: &'static [crate::probe::Param]) -> i32 {
    let args: Vec<OsString> = std::env::args_os().collect();
    if !args.iter().skip(1).any(|a| a == "--bench") {
        // libtest's arguments are text; a name that is not cannot match.
        let args = args.into_iter().skip(1).collect();
        return exit_code(utf8(args).and_then(|args| testmode::run(args, suite)));
    }
    let bench = args
        .first()
        .map(|program| Bench::for_program(Path::new(program)));
    let bench_run = BenchRun {
        bench,
        invocation: "--bench",
        suite,
        params,
    };
    exit_code(measure(args.into_iter().skip(1), bench_run))
}

/// Entry point of a yardstick binary: `micro`, `compare`,
/// `compare-builds`, `show`, `baseline`, `http`, `machine` (and `help`).
/// Returns the process exit code.
pub fn main() -> i32 {
    let mut args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.is_empty() {
        eprintln!("{USAGE}");
        return 2;
    }
    let command = args.remove(0);
    exit_code(run_command(command, args))
}

/// Runs `command` of a yardstick binary with the arguments after it.
fn run_command(command: OsString, mut args: Vec<OsString>) -> Result<i32, Error> {
    match command.to_str() {
        Some("micro") => measure(args, BenchRun::micro()),
        // A bench binary is told to measure with `--bench`; a yardstick
        // binary that links probes takes the same call, so either can be
        // one side of `compare-builds`.
        Some("--bench") => measure(args, BenchRun::default()),
        Some("compare") => saved::compare(args),
        #[cfg(feature = "http")]
        Some("http") => utf8(args).and_then(http::main),
        #[cfg(not(feature = "http"))]
        Some(c @ ("http" | "k6")) => Err(Error::usage(format!(
            "{c}: this yardstick was built without HTTP mode (build it with --features http)"
        ))),
        #[cfg(feature = "http")]
        Some("k6") => utf8(args).and_then(k6::main),
        #[cfg(feature = "history")]
        Some("history") => history::main(args),
        #[cfg(not(feature = "history"))]
        Some("history") => Err(Error::usage(
            "history: this yardstick was built without the history (build it with --features history)",
        )),
        Some("compare-builds") => compare_builds::options::PairedOptions::parse(args)
            .and_then(|o| compare_builds::main(&o)),
        Some("matrix") => matrix::run(args),
        Some("show") => saved::show(args),
        #[cfg(feature = "report")]
        Some("report") => report::main(args),
        #[cfg(not(feature = "report"))]
        Some("report") => Err(Error::usage(
            "report: this yardstick was built without the report (build it with --features report)",
        )),
        Some("machine") => machine::main(args),
        Some("completions") => shell::completions(args),
        Some("man") => shell::man(args),
        Some("baseline") => baseline::BaselineOptions::parse(args).and_then(|o| baseline::main(&o)),
        // `help COMMAND` answers as `COMMAND --help` does.
        Some("help") if !args.is_empty() => {
            let command = args.remove(0);
            // `help history add` asks a subcommand.
            args.push(OsString::from("--help"));
            run_command(command, args)
        }
        Some("-h" | "--help" | "help") => Err(Error::Help(USAGE)),
        Some("-V" | "--version") => Err(Error::Help(concat!(
            "yardstick ",
            env!("CARGO_PKG_VERSION")
        ))),
        _ => Err(Error::usage(format!(
            "unknown command `{}` (see yardstick --help)",
            command.to_string_lossy()
        ))),
    }
}

/// What a bench binary is: its kept runs' key, how it was told to
/// measure, its suite and its own parameters.
struct BenchRun<'a> {
    bench: Option<Bench>,
    invocation: &'static str,
    suite: &'a str,
    params: &'static [crate::probe::Param],
}

impl Default for BenchRun<'_> {
    /// The yardstick binary told `--bench`: no bench, the default suite.
    fn default() -> Self {
        BenchRun {
            bench: None,
            invocation: "--bench",
            suite: DEFAULT_SUITE,
            params: &[],
        }
    }
}

impl BenchRun<'_> {
    /// The yardstick binary's `micro` command.
    fn micro() -> Self {
        BenchRun {
            invocation: "micro",
            ..BenchRun::default()
        }
    }
}

/// Micro mode, or a worker of `compare-builds` when `--worker` asks for one.
fn measure(args: impl IntoIterator<Item = OsString>, b: BenchRun<'_>) -> Result<i32, Error> {
    let args: Vec<OsString> = args.into_iter().collect();
    // A process probe's child does nothing else, and its boot is timed:
    // it is routed before any option is parsed.
    if let Some(name) = process_child(&args) {
        return Ok(crate::probe::process::child_main(&name));
    }
    let options = MicroOptions::parse_for(args, b.suite, b.params)?;
    crate::probe::param::set_given(options.params.clone());
    allocation_counting()?;
    if options.worker {
        worker::main(&options)
    } else {
        micro::main(&options, b.bench, &[b.invocation])
    }
}

/// The name `--process-child=NAME` gives (micro mode's hidden option,
/// with which the harness starts a process probe's child), if any.
fn process_child(args: &[OsString]) -> Option<String> {
    args.iter().find_map(|a| {
        a.to_str()?
            .strip_prefix("--process-child=")
            .map(str::to_string)
    })
}

/// `YARDSTICK_ALLOC=off` turns the counting allocator off, so that its
/// cost can be measured against the same binary (see `crate::alloc`).
fn allocation_counting() -> Result<(), Error> {
    match std::env::var_os("YARDSTICK_ALLOC") {
        None => Ok(()),
        Some(v) if v == "on" => Ok(()),
        Some(v) if v == "off" => {
            crate::alloc::set_counting(false);
            Ok(())
        }
        Some(v) => Err(Error::usage(format!(
            "YARDSTICK_ALLOC: `{}` is neither `on` nor `off`",
            v.to_string_lossy()
        ))),
    }
}

/// The arguments as text; HTTP mode's options are URLs, headers and names.
fn utf8(args: Vec<OsString>) -> Result<Vec<String>, Error> {
    args.into_iter()
        .map(|a| {
            a.into_string().map_err(|a| {
                Error::usage(format!(
                    "argument `{}` is not valid UTF-8",
                    a.to_string_lossy()
                ))
            })
        })
        .collect()
}

/// The exit code of a command's result, printing its error (on stderr) or
/// the help it was asked for (on stdout). A command whose stdout was
/// closed before it finished exits as SIGPIPE would have ended it; help
/// exits 0 whoever reads it, as other tools' help does. A write that
/// failed otherwise (`> /dev/full`) is exit 2, said on stderr.
fn exit_code(result: Result<i32, Error>) -> i32 {
    let code = match result {
        Ok(_) if stdout::closed() => stdout::CUT_OFF,
        Ok(code) => code,
        Err(Error::Help(text)) => {
            stdout::line(text.trim_end());
            0
        }
        Err(e) => {
            eprintln!("{e}");
            return e.exit_code();
        }
    };
    // What was printed was cut short by a failed write (a full disk): no
    // verdict it carried can stand.
    match stdout::failed() {
        Some(why) => {
            eprintln!("error: stdout: {why}");
            2
        }
        None => code,
    }
}

/// The options `command` takes as written (`--repeat`, `-q`), and the
/// shared options it refuses: what its `--help` and docs/cli.md must name,
/// read from the one table its parser takes them by (tests/help.rs).
#[doc(hidden)]
pub fn options_of(command: &str) -> Option<(Vec<String>, Vec<String>)> {
    described(command).map(|d| (d.options, d.refused))
}

/// The whole-number options of `command` and their defaults, as its option
/// table defines them once (`--repeat`, 30): what docs/cli.md's default
/// column must say (tests/help.rs).
#[doc(hidden)]
pub fn defaults_of(command: &str) -> Option<Vec<(String, u64)>> {
    described(command).map(|d| d.defaults)
}

/// The help `command` prints (`history add` for a subcommand), from its
/// option table; none for a command without one.
pub(crate) fn help_of(command: &str) -> Option<&'static str> {
    described(command).map(|d| d.help)
}

/// What a command's option table says of it.
struct Described {
    options: Vec<String>,
    refused: Vec<String>,
    defaults: Vec<(String, u64)>,
    help: &'static str,
}

fn described(command: &str) -> Option<Described> {
    fn both<T>(spec: &flags::Spec<T>) -> Option<Described> {
        Some(Described {
            options: spec.options(),
            refused: spec.refused(),
            defaults: spec.defaults(),
            help: spec.help(),
        })
    }
    match command {
        "micro" => both(&micro::cli::SPEC),
        "compare-builds" => both(&compare_builds::options::SPEC),
        "matrix" => both(&matrix::options::SPEC),
        "compare" => both(&saved::COMPARE),
        "show" => both(&saved::SHOW),
        #[cfg(feature = "report")]
        "report" => both(&report::SPEC),
        #[cfg(feature = "http")]
        "http" => both(&http::cli::SPEC),
        "baseline" => both(&baseline::SPEC),
        #[cfg(feature = "history")]
        "history add" => both(&history::ADD),
        #[cfg(feature = "history")]
        "history list" => both(&history::LIST),
        #[cfg(feature = "history")]
        "history show" => both(&history::SHOW),
        #[cfg(feature = "history")]
        "history trend" => both(&history::TREND),
        #[cfg(feature = "history")]
        "history bisect" => both(&history::BISECT),
        #[cfg(feature = "history")]
        "history changes" => both(&history::CHANGES),
        "machine" => both(&machine::SPEC),
        _ => None,
    }
}
