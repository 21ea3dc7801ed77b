//! `cargo bench` and `yardstick micro`: choose what to judge by, measure
//! every selected probe, judge, confirm a timed regression, keep the run
//! for the next one, and deliver it. Each step is a call into the layer
//! that owns it; data goes one way, from the probes to the exit code.

mod choice;
pub mod cli;
mod confirm;
mod explain;
pub mod options;
mod settings;
mod stale;

use crate::baseline::{self, history::Bench};
use crate::document::builder::{FigureKind, RunBuilder};
use crate::document::environment::{Environment, now, repository_dir};
use crate::document::ranking::Member;
use crate::document::run::{Metric, Mode, Row, Run};
use crate::document::settings::{MicroSettings, Settings};
use crate::error::Error;
use crate::judge::{Rules, ranking};
use crate::measure::Meter;
use crate::measure::callgrind::{self, Callgrind};
use crate::measure::clock::Clock;
use crate::measure::inject::Injection;
use crate::measure::process::Children;
use crate::measure::sample::Sampling;
use crate::measure::timer::Timer;
use crate::output::progress::Progress;
use crate::output::stdout;
use crate::probe::{self, Probe, ProcessProbe};
use choice::Choice;
use options::MicroOptions;

/// Runs micro mode and returns the exit code. `bench` is the bench target
/// `cargo bench` runs: without `--baseline` or `--no-baseline` it chooses
/// the baseline by machine class (see `baseline::history`), and it keeps
/// every timed run. `invocation` is how this binary is told to measure
/// (`--bench` or `micro`), for the child copies that count instructions.
pub(crate) fn main(
    options: &MicroOptions,
    bench: Option<Bench>,
    invocation: &[&str],
) -> Result<i32, Error> {
    let registered = probe::registered().map_err(Error::Usage)?;
    let processes = probe::process::registered().map_err(Error::Usage)?;
    if options.list {
        list(options, &registered, &processes);
        return Ok(0);
    }
    let (selected, process_selected) = options.select_all(&registered, &processes)?;
    let injection = Injection::from_env()?;
    let clock = Clock::from_env()?;
    let name = bench
        .as_ref()
        .map_or_else(|| options.suite.clone(), |b| b.name.clone());
    let choice = Choice::make(options, bench.as_ref())?;
    explain::suits(options, choice.metric)?;
    let page = page(options, &choice)?;
    let delivery = options.common.delivery();
    delivery.check()?;
    if let Some(note) = choice.unjudged_check(options) {
        page.not_drawn("nothing was measured");
        return Ok(stale::unjudged(&note));
    }
    let timer = timer(options, &injection, &clock);
    let children = children(options, &clock, &injection, invocation)?;
    let suite = confirm::Remeasurable {
        selected: &selected,
        processes: &process_selected,
        timer: &timer,
        children: &children,
    };
    let mut run = match choice.metric {
        Metric::Time => timed(
            options,
            &suite,
            settings::timed(options, &injection, &clock),
        )?,
        counted => {
            let batch = options
                .min_batch
                .or_else(|| choice.baseline.as_ref().and_then(baseline::counts::batch));
            let mut run = count(options, batch, &injection, counted, &selected, invocation)?;
            run.warnings.extend(left_out(&process_selected));
            run
        }
    };
    run.warnings.extend(choice.count_note());
    if let Some(baseline) = &choice.baseline {
        run = baseline.judge(run, &Rules::from(&options.common))?;
        if options.confirm && run.metric == Metric::Time {
            let mut notes = Progress::new(0, options.common.quiet);
            confirm::confirm(&mut run, &baseline.run, &suite, options, &mut notes);
        }
        if options.explain {
            let b = bench.as_ref();
            run.explanation = explain::explain(&run, options, b, &injection, &selected, invocation);
        }
    }
    let stale = stale::mark(&mut run, options.count_check);
    // The verdict goes into the run before it is kept, so that the run
    // kept is, word for word, the one delivered and recorded.
    run.outcome = Some(stale::outcome(&run, stale));
    choice.keep(&mut run);
    let baseline = choice.baseline.as_ref().map(|b| &b.run);
    page.draw_then(&name, run, baseline, |run| {
        stale::deliver(run, &delivery, stale)
    })
}

/// `--list`: every probe and process probe of the suite that the filters
/// pass, in libtest's form.
fn list(options: &MicroOptions, registered: &[&Probe], processes: &[&ProcessProbe]) {
    let ours = |suite: &str| suite == options.suite;
    let names = registered.iter().filter(|p| ours(p.suite)).map(|p| p.name);
    let process_names = processes.iter().filter(|p| ours(p.suite)).map(|p| p.name);
    for name in names.chain(process_names) {
        if options.matches(name) {
            stdout::line(&format!("{name}: bench"));
        }
    }
}

/// A counted run of `selected` under callgrind, `batch` iterations a
/// count (else the default).
fn count(
    options: &MicroOptions,
    batch: Option<u64>,
    injection: &Injection,
    counted: Metric,
    selected: &[&'static Probe],
    invocation: &[&str],
) -> Result<Run, Error> {
    let batch = batch.unwrap_or(callgrind::DEFAULT_BATCH);
    let valgrind = callgrind::valgrind_version(counted)?;
    let settings = settings::counted(options, injection, counted, batch, valgrind);
    let meter = Callgrind {
        invocation: invocation.iter().map(ToString::to_string).collect(),
        batch,
        cache: counted == Metric::EstimatedCycles,
        limit: options
            .probe_timeout
            .saturating_mul(callgrind::LIMIT_FACTOR),
        injection,
    };
    let quiet = options.common.quiet;
    measure(&meter, selected, settings, (Mode::Micro, counted), quiet)
}

/// The warning of a counted run that leaves process probes out: a whole
/// process is timed, and callgrind would count the harness's start-up.
fn left_out(processes: &[&ProcessProbe]) -> Option<String> {
    let names: Vec<&str> = processes.iter().map(|p| p.name).collect();
    (!names.is_empty()).then(|| {
        format!(
            "process probes are timed, never counted: this run leaves out {}",
            names.join(", ")
        )
    })
}

/// How process probes' children are started: this binary again, told to
/// measure as it was (`invocation`).
fn children<'a>(
    options: &MicroOptions,
    clock: &'a Clock,
    injection: &'a Injection,
    invocation: &[&str],
) -> Result<Children<'a>, Error> {
    let program = std::env::current_exe().map_err(|e| {
        Error::input(format!(
            "cannot find this binary, which process probes start again: {e}"
        ))
    })?;
    Ok(Children {
        program,
        invocation: invocation.iter().map(ToString::to_string).collect(),
        repeat: options.boot_repeat,
        timeout: options.probe_timeout,
        clock,
        injection,
    })
}

/// The page `--html` asks for (see `Common::page`), which may not replace
/// the baseline file chosen by class either (a kept run is in the
/// history).
fn page(options: &MicroOptions, choice: &Choice) -> Result<super::page::Html, Error> {
    let chosen = choice
        .baseline
        .iter()
        .map(|b| std::path::PathBuf::from(&b.name));
    options.common.page(chosen.filter(|p| p.is_file()))
}

/// A timed run: the selected probes, then the process probes.
fn timed(
    options: &MicroOptions,
    suite: &confirm::Remeasurable,
    mut settings: MicroSettings,
) -> Result<Run, Error> {
    settings.boot_repeat = (!suite.processes.is_empty()).then_some(options.boot_repeat);
    let quiet = options.common.quiet;
    let (mode, selected) = ((options.mode(), Metric::Time), suite.selected);
    let mut run = measure(suite.timer, selected, settings, mode, quiet)?;
    run.rows
        .extend(measure_processes(suite.children, suite.processes, quiet));
    Ok(run)
}

/// The rows of `probes` (none selected: none at all) and of the floor
/// beside them, with progress on stderr.
fn measure_processes(children: &Children, probes: &[&ProcessProbe], quiet: bool) -> Vec<Row> {
    if probes.is_empty() {
        return Vec::new();
    }
    let mut progress = Progress::new(children.steps(probes.len()), quiet);
    let rows = children.measure(probes, &mut progress);
    progress.finish();
    rows
}

/// The wall-time meter `options` ask for.
fn timer<'a>(options: &MicroOptions, injection: &'a Injection, clock: &'a Clock) -> Timer<'a> {
    Timer {
        sampling: Sampling {
            warmup: options.warmup,
            repeat: options.repeat,
            min_batch: options.min_batch,
        },
        injection,
        clock,
        calibrate: options.calibrate,
        probe_timeout: options.probe_timeout,
        on_timeout: stop_on_timeout,
    }
}

/// What the watchdog does when a probe runs past `--probe-timeout`: exit 2
/// with its message, before anything is saved. A probe stuck in a loop
/// cannot be interrupted from outside its thread.
fn stop_on_timeout(message: &str) {
    eprintln!("error: {message}");
    std::process::exit(2);
}

/// Every probe measured by `meter`, with progress on stderr, as a run of
/// `mode` and `metric`.
fn measure(
    meter: &dyn Meter,
    selected: &[&'static Probe],
    settings: MicroSettings,
    (mode, metric): (Mode, Metric),
    quiet: bool,
) -> Result<Run, Error> {
    let started = now();
    let mut progress = Progress::new(meter.steps(selected.len()), quiet);
    let measured = meter.measure(selected, &mut progress);
    progress.finish();
    let mut measured = measured?;
    for (row, probe) in measured.rows.iter_mut().zip(selected) {
        row.variant = probe.variant.map(|v| Member {
            group: v.group.to_string(),
            variant: v.name.to_string(),
            role: v.role,
        });
    }
    let mut environment = Environment::current(&repository_dir(), started.clone());
    if measured.calibration.is_some() {
        environment = environment.with_calibration_crates(&repository_dir());
    }
    let figures = match metric {
        Metric::Time => FigureKind::Times,
        _ => FigureKind::Counts,
    };
    let mut run = RunBuilder::new(mode, started, Settings::Micro(settings))
        .metric(metric)
        .warnings(measured.warnings)
        .rows(measured.rows)
        .calibration(measured.calibration)
        .build(environment, figures);
    run.ranking = ranking::rank(&run.rows, metric);
    Ok(run)
}
