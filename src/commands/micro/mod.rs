//! `cargo bench` and `yardstick micro`: choose what to judge by, measure
//! every selected probe, judge, confirm a timed regression, keep the run
//! for the next one, and deliver it. Each step is a call into the layer
//! that owns it; data goes one way, from the probes to the exit code.

mod choice;
mod confirm;
pub mod options;
mod settings;

use crate::baseline::{self, history::Bench};
use crate::document::builder::{Figures, RunBuilder};
use crate::document::environment::{Environment, now, repository_dir};
use crate::document::run::{Metric, Mode, Run};
use crate::error::Error;
use crate::judge::Rules;
use crate::measure::Meter;
use crate::measure::callgrind::{self, Callgrind};
use crate::measure::clock::Clock;
use crate::measure::inject::Injection;
use crate::measure::sample::Sampling;
use crate::measure::timer::Timer;
use crate::output::deliver;
use crate::output::progress::Progress;
use crate::probe::{self, Probe};
use choice::Choice;
use options::MicroOptions;
use settings::MicroSettings;

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
    if options.list {
        for p in registered.iter().filter(|p| options.matches(p.name)) {
            println!("{}: bench", p.name);
        }
        return Ok(0);
    }
    let selected = options.select(&registered)?;
    let injection = Injection::from_env()?;
    let clock = Clock::from_env()?;
    let choice = Choice::make(options, bench.as_ref())?;
    let delivery = options.common.delivery();
    delivery.check()?;
    let timer = timer(options, &injection, &clock);
    let quiet = options.common.quiet;
    let mut run = match choice.metric {
        Metric::Time => {
            let settings = MicroSettings::timed(options, &injection, &clock);
            measure(&timer, &selected, &settings, Metric::Time, quiet)?
        }
        counted => {
            let batch = options
                .min_batch
                .or_else(|| choice.baseline.as_ref().and_then(baseline::counts::batch))
                .unwrap_or(callgrind::DEFAULT_BATCH);
            let valgrind = callgrind::valgrind_version(counted)?;
            let settings = MicroSettings::counted(options, &injection, counted, batch, valgrind);
            let meter = Callgrind {
                invocation: invocation.iter().map(ToString::to_string).collect(),
                batch,
                cache: counted == Metric::EstimatedCycles,
                limit: options
                    .probe_timeout
                    .saturating_mul(callgrind::LIMIT_FACTOR),
                injection: &injection,
            };
            measure(&meter, &selected, &settings, counted, quiet)?
        }
    };
    run.warnings.extend(choice.count_note());
    if let Some(baseline) = &choice.baseline {
        run = baseline.judge(run, &Rules::from(&options.common))?;
    }
    if options.confirm && run.metric == Metric::Time {
        let mut notes = Progress::new(0, quiet);
        confirm::confirm(&mut run, &selected, &timer, options, &mut notes);
    }
    choice.keep(&mut run);
    deliver::deliver(run, &delivery)
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

/// Every probe measured by `meter`, with progress on stderr, as a run.
fn measure(
    meter: &dyn Meter,
    selected: &[&'static Probe],
    settings: &MicroSettings,
    metric: Metric,
    quiet: bool,
) -> Result<Run, Error> {
    let started = now();
    let mut progress = Progress::new(meter.steps(selected.len()), quiet);
    let measured = meter.measure(selected, &mut progress);
    progress.finish();
    let measured = measured?;
    let environment = Environment::current(&repository_dir(), started.clone());
    let figures = match metric {
        Metric::Time => Figures::Times,
        _ => Figures::Counts,
    };
    Ok(RunBuilder::new(Mode::Micro, started)
        .metric(metric)
        .settings(settings)
        .warnings(measured.warnings)
        .rows(measured.rows)
        .calibration(measured.calibration)
        .build(environment, figures))
}
