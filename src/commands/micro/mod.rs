//! Micro mode: calibration, every selected probe, calibration again, and the
//! Run document that records it.

pub mod options;

use crate::baseline::history::Bench;
use crate::commands::micro::options::MicroOptions;
use crate::document::environment::{self, Environment, now, repository_dir};
use crate::document::run::{CalibrationSummary, FORMAT, Metric, Mode, Row, RowKind, Run, TOOL};
use crate::error::Error;
use crate::measure::calibration::{self, Calibration};
use crate::measure::callgrind;
use crate::measure::clock::Clock;
use crate::measure::inject::{self, Injection};
use crate::measure::interleaved;
use crate::measure::sample::{Measurement, Plan};
use crate::measure::watchdog::Watchdog;
use crate::output::deliver::{self, Baseline, Resolved};
use crate::output::progress::Progress;
use crate::probe::{self, Probe};
use crate::stats;
use crate::worker;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Drift of the calibration loop (percent) above which the run warns that
/// the machine's load changed while it ran.
pub const DRIFT_WARNING_PCT: f64 = 10.0;

/// Runs micro mode and returns the exit code. `bench` is the bench target
/// `cargo bench` runs: without `--baseline` or `--no-baseline` it chooses
/// the baseline by machine class (see `history`), and it keeps every timed
/// run. `invocation` is how this binary is told to measure (`--bench` or
/// `micro`), for the child copies that count instructions.
pub fn main(
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
    let selected = select(&registered, options)?;
    let injection = Injection::from_env()?;
    let clock = Clock::from_env()?;
    if options.worker {
        let stdin = std::io::stdin();
        return worker::serve(
            &selected,
            &injection,
            &clock,
            options.min_batch,
            stdin.lock(),
            std::io::stdout().lock(),
        );
    }
    // A bad baseline must not cost a whole run: read it first. A bench
    // chooses its baseline by machine class only for a timed, calibrated
    // run.
    let timed = options.metric() == Metric::Time && options.calibrate;
    let chooser = bench.as_ref().filter(|_| timed);
    // Read only when choosing: what a process allocates before its
    // measured section moves its counts (by up to 0.3 % through the
    // allocator's state), and the CPU's description differs by machine.
    let class = chooser.and_then(|_| environment::current_class());
    let (mut baseline, mut nothing) =
        match Baseline::resolve(&options.common, chooser, class.as_deref())? {
            Resolved::Baseline(b) => (Some(*b), None),
            Resolved::NotAsked => (None, None),
            Resolved::Nothing(why) => (None, Some(why)),
        };
    let plain = options.common.baseline.is_none() && !options.common.no_baseline;
    let mut metric = options.metric();
    let mut count_note = None;
    match counts_instead(options, chooser.filter(|_| plain), baseline.as_ref()) {
        Ok(Some(counted)) => {
            metric = counted.run.metric;
            baseline = Some(counted);
            nothing = None;
        }
        Ok(None) => {}
        Err(why) => count_note = Some(why),
    }
    if let Some(b) = &baseline {
        b.suits(Mode::Micro, metric)?;
    }
    deliver::check_outputs(&options.common)?;
    if let Some(b) = baseline
        .as_ref()
        .filter(|_| !options.calibrate && metric == Metric::Time)
    {
        return Err(Error::usage(format!(
            "--no-calibration: a run without calibration cannot be compared with {} (add --no-baseline)",
            b.name
        )));
    }
    let mut run = match metric {
        Metric::Time => measure_all(&selected, options, &injection, &clock),
        Metric::Instructions | Metric::EstimatedCycles => {
            let batch = options
                .min_batch
                .or_else(|| baseline.as_ref().and_then(crate::baseline::counts::batch))
                .unwrap_or(callgrind::DEFAULT_BATCH);
            count_all(&selected, options, metric, batch, &injection, invocation)?
        }
    };
    run.warnings.extend(count_note);
    let mut run = deliver::compare_with(run, &options.common, baseline.as_ref())?;
    if options.confirm && run.metric == Metric::Time {
        confirm(&mut run, &selected, options, &injection, &clock);
    }
    // Only the developer's loop is kept, not a run told what to compare
    // with (as the evaluation's runs are).
    if let Some(bench) = chooser.filter(|_| plain) {
        keep(bench, &mut run, nothing);
    } else if let Some(why) = nothing {
        run.warnings.push(why);
    }
    deliver::deliver(run, &options.common)
}

/// The committed count baseline, where it judges instead of wall time: for
/// a bench (`chooser`) without a committed wall-time baseline of this class,
/// when no metric was asked for. `Err` says why a committed one cannot
/// judge here.
fn counts_instead(
    options: &MicroOptions,
    chooser: Option<&Bench>,
    baseline: Option<&Baseline>,
) -> Result<Option<Baseline>, String> {
    match chooser {
        Some(bench) if options.metric.is_none() && baseline.is_none_or(|b| b.informational) => {
            crate::baseline::counts::usable(bench, options.min_batch)
        }
        _ => Ok(None),
    }
}

/// Keeps a bench's run for the next one to compare with, and says where;
/// says too why this one had nothing to compare with. A run that cannot be
/// kept is still reported.
fn keep(bench: &Bench, run: &mut Run, nothing: Option<String>) {
    let kept = bench.keep(run);
    let place = match &kept {
        Ok(Some(path)) => format!("kept as {}", path.display()),
        Ok(None) => "not kept (an injected or counted run)".to_string(),
        Err(e) => format!("not kept ({e})"),
    };
    match nothing {
        Some(why) => run.warnings.push(format!("{why}; this run is {place}")),
        None if kept.is_err() => run.warnings.push(format!("this run is {place}")),
        None => {}
    }
}

/// What the watchdog does when a probe runs past `--probe-timeout`: exit 2
/// with its message, before anything is saved.
fn stop_on_timeout(message: &str) {
    eprintln!("error: {message}");
    std::process::exit(2);
}

/// The fewest rounds a confirmation takes: its median must not hinge on one
/// preempted sample.
const CONFIRMATION_ROUNDS: usize = 15;

/// Measures every probe the comparison flagged once more, interleaved with
/// the calibration loop. A slowdown that does not show again was the
/// machine's, not the code's: the probe is then inconclusive (a warning),
/// neither a silent pass nor a false failure.
fn confirm(
    run: &mut Run,
    selected: &[&'static Probe],
    options: &MicroOptions,
    injection: &Injection,
    clock: &Clock,
) {
    let Some(comparison) = run.comparison.as_mut() else {
        return;
    };
    let calibration = Calibration::new();
    let watchdog = Watchdog::start(options.probe_timeout, stop_on_timeout);
    let threshold = comparison.threshold;
    let mut notes = Vec::new();
    for check in comparison
        .checks
        .iter_mut()
        .filter(|c| c.regressed && c.metric == "median/calib")
    {
        let Some(probe) = selected.iter().find(|p| p.name == check.key) else {
            continue;
        };
        let Some(batch) = run
            .rows
            .iter()
            .find(|r| r.key == check.key)
            .and_then(|r| r.batch)
        else {
            continue;
        };
        if !options.common.quiet {
            eprintln!(
                "confirming {}: {:+.1} % against the baseline",
                check.key, check.change_pct
            );
        }
        let plan = Plan {
            warmup: 1,
            repeat: options.repeat.max(CONFIRMATION_ROUNDS),
            min_batch: Some(batch),
        };
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let measured = interleaved::on_fresh_thread(|| {
            interleaved::measure(
                &[*probe],
                &plan,
                injection,
                Some(&calibration),
                clock,
                &watchdog,
                &mut Progress::new(0, true),
            )
        });
        std::panic::set_hook(hook);
        let Some(timed) = measured.probes.first() else {
            continue;
        };
        // A confirmation that cannot be made leaves the regression standing.
        if let Some(message) = timed.measurement.error_messages.keys().next() {
            notes.push(format!(
                "{}: could not be measured again ({message}); the regression stands",
                check.key
            ));
            continue;
        }
        let Some(again) = stats::median_of_ratios(&timed.measurement.samples, &timed.loops) else {
            continue;
        };
        let change = (again / check.baseline - 1.0) * 100.0;
        check.confirmation_pct = Some(change);
        if change <= threshold {
            check.regressed = false;
            check.inconclusive = true;
            notes.push(format!(
                "inconclusive: {} measured {:+.1} % against the baseline, but {:+.1} % when measured again \
                 interleaved with the calibration loop: the machine's load moved during the run",
                check.key, check.change_pct, change
            ));
        }
    }
    comparison.regressions = comparison.checks.iter().filter(|c| c.regressed).count();
    run.warnings.extend(notes);
    run.settings.insert("confirm".into(), json!(true));
}

/// The probes to run: `--probe` names (each must exist), then the filters.
fn select(
    registered: &[&'static Probe],
    options: &MicroOptions,
) -> Result<Vec<&'static Probe>, Error> {
    for name in &options.probes {
        if !registered.iter().any(|p| p.name == name) {
            return Err(Error::usage(format!(
                "--probe: unknown probe `{name}` (see --list)"
            )));
        }
    }
    let selected: Vec<_> = registered
        .iter()
        .copied()
        .filter(|p| options.probes.is_empty() || options.probes.iter().any(|n| n == p.name))
        .filter(|p| options.matches(p.name))
        .collect();
    if selected.is_empty() {
        return Err(Error::usage(if registered.is_empty() {
            "no probe is registered in this binary".to_string()
        } else {
            format!(
                "no probe matches the filter `{}`",
                options.filters.join(" ")
            )
        }));
    }
    Ok(selected)
}

fn measure_all(
    selected: &[&'static Probe],
    options: &MicroOptions,
    injection: &Injection,
    clock: &Clock,
) -> Run {
    let started = now();
    let plan = Plan {
        warmup: options.warmup,
        repeat: options.repeat,
        min_batch: options.min_batch,
    };
    let mut progress = Progress::new(
        interleaved::steps(selected.len(), &plan),
        options.common.quiet,
    );
    let calibration = Calibration::new();
    let watchdog = Watchdog::start(options.probe_timeout, stop_on_timeout);
    // Probes that panic are reported in their row; the default hook would
    // also print each panic over the progress output.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let measured = interleaved::on_fresh_thread(|| {
        interleaved::measure(
            selected,
            &plan,
            injection,
            options.calibrate.then_some(&calibration),
            clock,
            &watchdog,
            &mut progress,
        )
    });
    std::panic::set_hook(hook);
    drop(watchdog);
    progress.finish();

    let mut warnings = Vec::new();
    let checksum = measured.checksums.first().copied().unwrap_or_default();
    if measured
        .checksums
        .iter()
        .any(|s| *s != calibration::EXPECTED_CHECKSUM)
    {
        warnings.push(format!(
            "the calibration loop's checksum {checksum} is not the expected {}: its work changed",
            calibration::EXPECTED_CHECKSUM
        ));
    }
    // Drift: the loops of the first half of the rounds against the second's
    // (one loop is both).
    let loops = &measured.calibration;
    let (before, after) = match loops.len() {
        0 | 1 => (&loops[..], &loops[..]),
        n => loops.split_at(n / 2),
    };
    let calibration = CalibrationSummary::of(before, after, checksum);
    if let Some(c) = calibration
        .as_ref()
        .filter(|c| c.drift_pct.abs() > DRIFT_WARNING_PCT)
    {
        warnings.push(format!(
            "the calibration loop's speed moved by {:+.1} % during the run: the machine's load changed",
            c.drift_pct
        ));
    }
    warnings.extend(injection.warning());
    warnings.extend(clock.warning());
    let c = calibration.as_ref().map(|c| c.median);
    let environment = Environment::current(&repository_dir(), started.clone());
    if environment.is_debug_build() {
        warnings.insert(0, "debug build: times are not representative".to_string());
    }
    Run {
        tool: TOOL.to_string(),
        format: FORMAT,
        mode: Mode::Micro,
        started,
        machine: environment.machine.clone(),
        settings: settings(options, injection, clock),
        environment,
        warnings,
        rows: selected
            .iter()
            .zip(measured.probes)
            .map(|(p, t)| row(p, t.measurement, t.loops, c))
            .collect(),
        calibration,
        comparison: None,
        pairs: None,
        metric: Default::default(),
    }
}

/// `--metric=instructions` or `--metric=estimated-cycles`: every probe
/// counted under callgrind, one child process each, `batch` iterations.
fn count_all(
    selected: &[&'static Probe],
    options: &MicroOptions,
    metric: Metric,
    batch: u64,
    injection: &Injection,
    invocation: &[&str],
) -> Result<Run, Error> {
    let valgrind = callgrind::valgrind_version(metric)?;
    // An injection the batch cannot carry is refused before anything runs.
    let iterations = selected
        .iter()
        .map(|p| inject::counted_iterations(p.name, batch, injection.percent(p.name)))
        .collect::<Result<Vec<u64>, Error>>()?;
    let started = now();
    let workdir = tempfile::tempdir()
        .map_err(|e| Error::Refused(format!("cannot create a temporary folder: {e}")))?;
    let invocation: Vec<String> = invocation.iter().map(|s| s.to_string()).collect();
    let counting = callgrind::Counting {
        invocation: &invocation,
        batch,
        cache: metric == Metric::EstimatedCycles,
        workdir: workdir.path(),
        limit: options
            .probe_timeout
            .saturating_mul(callgrind::LIMIT_FACTOR),
    };
    let mut progress = Progress::new(selected.len(), options.common.quiet);
    let mut rows = Vec::with_capacity(selected.len());
    for (p, iterations) in selected.iter().zip(iterations) {
        progress.start(&format!("{} (under callgrind)", p.name));
        let mut row = Row::with_samples(
            p.name.to_string(),
            RowKind::Probe,
            p.name.to_string(),
            Vec::new(),
        );
        row.ops = Some(p.ops);
        row.batch = Some(batch);
        row.requests = 1;
        match counting.count(p, iterations)? {
            Ok(counted) => {
                row.instructions = Some(counted.instructions);
                if let Some([l1, ll, cycles]) = counted.cache {
                    row.l1_misses = Some(l1);
                    row.ll_misses = Some(ll);
                    row.estimated_cycles = Some(cycles);
                }
                row.note = counted.note;
            }
            Err(message) => {
                progress.say(&format!("probe {}: failed: {message}", p.name));
                row.errors = 1;
                row.error_messages.insert(message.clone(), 1);
                row.note = format!("failed: {message}");
            }
        }
        rows.push(row);
        progress.advance();
    }
    progress.finish();
    let environment = Environment::current(&repository_dir(), started.clone());
    let mut warnings = Vec::new();
    if environment.is_debug_build() {
        warnings.push("debug build: counts are not representative".to_string());
    }
    warnings.extend(injection.warning());
    let mut settings = settings(options, injection, &Clock::real());
    settings.insert("metric".into(), json!(metric.as_str()));
    settings.insert("min_batch".into(), json!(batch));
    settings.insert("valgrind".into(), json!(valgrind));
    if metric == Metric::EstimatedCycles {
        settings.insert(
            "cache_sim".into(),
            json!(callgrind::costs::cache_geometry()),
        );
    }
    Ok(Run {
        tool: TOOL.to_string(),
        format: FORMAT,
        mode: Mode::Micro,
        started,
        machine: environment.machine.clone(),
        settings,
        environment,
        warnings,
        rows,
        calibration: None,
        comparison: None,
        pairs: None,
        metric,
    })
}

/// `loops` are the calibration loops timed before each sample, `calibration`
/// the run's calibration median (none without calibration).
fn row(probe: &Probe, m: Measurement, loops: Vec<f64>, calibration: Option<f64>) -> Row {
    let mut row = Row::with_samples(
        probe.name.to_string(),
        RowKind::Probe,
        probe.name.to_string(),
        m.samples,
    );
    row.batch = (m.batch > 0).then_some(m.batch);
    row.requests = row.n as u64 + m.errors;
    row.errors = m.errors;
    row.error_messages = m.error_messages;
    row.ops = Some(probe.ops);
    row.rps = row.ops_per_second();
    row.calibration_samples = loops;
    row.normalized = calibration.and_then(|c| row.normalized_median(c));
    row.note = m.note;
    row
}

fn settings(o: &MicroOptions, injection: &Injection, clock: &Clock) -> BTreeMap<String, Value> {
    let mut s = BTreeMap::new();
    if !injection.is_empty() {
        s.insert("inject".into(), json!(injection.describe()));
    }
    if let Some(script) = clock.describe() {
        s.insert("fake_clock".into(), json!(script));
    }
    s.insert("repeat".into(), json!(o.repeat));
    s.insert("warmup".into(), json!(o.warmup));
    s.insert("min_batch".into(), json!(o.min_batch));
    s.insert("probe_timeout".into(), json!(o.probe_timeout.as_secs_f64()));
    s.insert("probes".into(), json!(o.probes));
    s.insert("filters".into(), json!(o.filters));
    s.insert("exact".into(), json!(o.exact));
    if let Some(t) = o.common.threshold {
        s.insert("threshold".into(), json!(t));
    }
    s
}
