//! The commands a bench binary runs: micro mode, a worker of
//! `compare-builds` or `matrix`, and test mode under `cargo test`. Each
//! reads its options, runs the steps below it in one direction (measure,
//! summarise, judge, deliver) and returns an exit code. Only this folder
//! knows a bench's command line; [`run_main`] routes the arguments. The
//! `yardstick` command's other commands are the crate `yardstick-cli`,
//! which reads its options through the same table ([`flags`], [`common`]).

#[doc(hidden)]
pub mod common;
#[doc(hidden)]
pub mod flags;
#[doc(hidden)]
pub mod micro;
#[doc(hidden)]
pub mod page;
pub(crate) mod testmode;
pub(crate) mod worker;

use crate::baseline::history::Bench;
use crate::error::Error;
use crate::output::stdout;
use micro::options::MicroOptions;
use std::ffi::OsString;
use std::path::Path;

use crate::probe::DEFAULT_SUITE;

/// Entry point of a bench target (`harness = false`): measures under
/// `cargo bench` (which passes `--bench`), and runs each probe once as a
/// test under `cargo test`. Returns the process exit code. `main!` writes
/// this `main` for a bench, naming the crates whose probes it links:
///
/// ```
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
///
/// ```
/// yardstick::probe! {
///     name: sort_three,
///     suite: kernel,
///     run: || {
///         let mut v = vec![3, 1, 2];
///         v.sort();
///         v
///     },
/// }
///
/// fn main() {
///     std::process::exit(yardstick::run_suite("kernel"));
/// }
/// ```
pub fn run_suite(suite: &str) -> i32 {
    run_bench(suite, &[])
}

/// [`run_suite`] for a bench that declares parameters of its own
/// (`yardstick::main!(suite: kernel, params: [node: i64 = "..."], ...)`):
/// `--node=57` is then one of its options, which its probes read with
/// [`crate::param`].
///
/// ```
/// static PARAMS: &[yardstick::Param] = &[yardstick::Param {
///     name: "size",
///     kind: "usize",
///     help: "items per pass",
///     check: yardstick::probe::param::check_as::<usize>,
/// }];
///
/// fn size() -> usize {
///     yardstick::param("size").and_then(|s| s.parse().ok()).unwrap_or(100)
/// }
///
/// yardstick::probe! { name: sum_items, run: || (0..size()).sum::<usize>() }
///
/// fn main() {
///     std::process::exit(yardstick::run_bench("micro", PARAMS));
/// }
/// ```
pub fn run_bench(suite: &str, params: &'static [crate::probe::Param]) -> i32 {
    if let Err(e) = linked_once() {
        return exit_code(Err(e));
    }
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

/// Runs a bench binary's measuring command with the arguments after it:
/// `micro` (the yardstick binary's), or `--bench` (what cargo passes), so
/// that the yardstick binary, when it links probes, can be one side of
/// `compare-builds` as a bench binary is. The yardstick command has
/// checked [`linked_once`] before it routes here.
#[doc(hidden)]
pub fn measure_command(micro: bool, args: Vec<OsString>) -> Result<i32, Error> {
    let bench_run = if micro {
        BenchRun::micro()
    } else {
        BenchRun::default()
    };
    measure(args, bench_run)
}

/// Refuses a binary with two keepers, recorders or drawers linked (each
/// is found through `inventory`, and the order of linking would choose),
/// before it reads an option.
#[doc(hidden)]
pub fn linked_once() -> Result<(), Error> {
    crate::baseline::keeper::linked_once()?;
    crate::output::record::linked_once()?;
    page::linked_once()
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
#[doc(hidden)]
pub fn utf8(args: Vec<OsString>) -> Result<Vec<String>, Error> {
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
#[doc(hidden)]
pub fn exit_code(result: Result<i32, Error>) -> i32 {
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
