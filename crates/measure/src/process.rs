//! The parent of process probes: each probe's children started one after
//! another, each timed from just before its start to the ready line it
//! writes (`boot`) and to its exit (`process`), with the times it reports
//! about itself and the peak resident set it reports (`VmHWM`, on Linux).
//!
//! The first child that fails stops its probe (the rest would fail alike,
//! and a child that hangs would cost the timeout again and again); the
//! probe's rows keep the children that passed and say why it failed. The
//! other probes still run. Beside the probes, the empty child (the floor)
//! is measured the same way: what a boot costs before the probe's own
//! work.

use super::Observer;
use super::clock::Clock;
use super::inject::Injection;
use crate::document::row::{Row, RowKind};
use crate::probe::process::{EMPTY_PROBE, Line, ProcessProbe};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long a killed child may take to be reaped before the parent gives
/// up waiting for it.
const REAP_GRACE: Duration = Duration::from_secs(10);

/// How the children of process probes are started and timed.
pub struct Children<'a> {
    /// The bench binary: this process's own executable.
    pub program: PathBuf,
    /// How it is told to measure (`--bench`, or `micro`), before
    /// `--process-child=NAME`.
    pub invocation: Vec<String>,
    /// Children per probe (`--boot-repeat`).
    pub repeat: usize,
    /// How long one child may run (`--probe-timeout`).
    pub timeout: Duration,
    /// Where the rows' durations come from (a script, in tests).
    pub clock: &'a Clock,
    /// The slowdown knob: a rule for `P.boot` (or `P`, or `*`) stretches
    /// that figure of every child by its percent, as measured. A child's
    /// boot is timed by this process from outside, so it cannot spin inside
    /// the timer the way an in-process sample does (`Injection::stretch`);
    /// stretching the measured figure scales its noise alike.
    pub injection: &'a Injection,
}

/// What one child gave.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildRun {
    /// From just before its start to its ready line.
    pub boot: Duration,
    /// From just before its start to its exit.
    pub process: Duration,
    /// The times it reported about itself, by label.
    pub reports: BTreeMap<String, Duration>,
    /// Its own peak resident set in bytes, as it reported it (where the
    /// platform gives it).
    pub peak_rss: Option<u64>,
    /// What it said it used (`Child::note`), if anything.
    pub note: Option<String>,
}

impl Children<'_> {
    /// How many steps [`Children::measure`] reports: one per child, the
    /// floor's included.
    pub fn steps(&self, probes: usize) -> usize {
        (probes + 1) * self.repeat
    }

    /// The rows of the floor, then of every probe in order.
    pub fn measure(&self, probes: &[&ProcessProbe], observer: &mut dyn Observer) -> Vec<Row> {
        std::iter::once(&EMPTY_PROBE)
            .chain(probes.iter().copied())
            .flat_map(|p| self.probe(p, observer))
            .collect()
    }

    /// The rows of `probe` alone (the floor too, when it is asked for), for
    /// a confirmation that measures one flagged probe again.
    pub fn measure_one(&self, probe: &ProcessProbe, observer: &mut dyn Observer) -> Vec<Row> {
        self.probe(probe, observer)
    }

    /// One probe's children, one after another, and its rows.
    fn probe(&self, probe: &ProcessProbe, observer: &mut dyn Observer) -> Vec<Row> {
        let mut runs = Vec::new();
        // The set-up the children share (a database made once), untimed.
        let mut failure = probe
            .setup
            .and_then(|setup| setup().err())
            .map(|e| format!("set-up failed: {e}"));
        if let Some(why) = &failure {
            observer.say(&format!("process probe {}: failed: {why}", probe.name));
        }
        for k in 0..self.repeat {
            if failure.is_some() {
                observer.advance();
                continue;
            }
            observer.start(&format!(
                "process: {} ({} of {})",
                probe.name,
                k + 1,
                self.repeat
            ));
            let mut command = Command::new(&self.program);
            command
                .args(&self.invocation)
                .arg(format!("--process-child={}", probe.name));
            crate::probe::param::pass_to(&mut command);
            match run_child(command, self.timeout) {
                Ok(run) => runs.push(run),
                Err(why) => {
                    observer.say(&format!("process probe {}: failed: {why}", probe.name));
                    failure = Some(why);
                }
            }
            observer.advance();
        }
        self.rows(probe, &runs, failure.as_deref())
    }

    /// The slowdown the knob injects into `probe`'s figure `key`: a rule
    /// for the figure, else for the probe; the floor only by name.
    fn percent(&self, probe: &ProcessProbe, key: &str) -> Option<f64> {
        if probe.name == EMPTY_PROBE.name {
            let named = self.injection.percent_named(key);
            return named.or_else(|| self.injection.percent_named(probe.name));
        }
        let percent = self.injection.percent(key);
        percent.or_else(|| self.injection.percent(probe.name))
    }

    /// `NAME.boot`, `NAME.process` and one row per reported label.
    fn rows(&self, probe: &ProcessProbe, runs: &[ChildRun], failure: Option<&str>) -> Vec<Row> {
        let mut figures: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        let mut take = |label: &str, measured: Duration| {
            let key = format!("{}.{label}", probe.name);
            let stretch = 1.0 + self.percent(probe, &key).unwrap_or(0.0) / 100.0;
            let ms = self.clock.stand_in(&key, measured).as_secs_f64() * 1e3 * stretch;
            figures.entry(key).or_default().push(ms);
        };
        for run in runs {
            take("boot", run.boot);
            take("process", run.process);
            for (label, elapsed) in &run.reports {
                take(label, *elapsed);
            }
        }
        let own = ["boot", "process"].map(|l| format!("{}.{l}", probe.name));
        let mut keys: Vec<String> = own.to_vec();
        keys.extend(figures.keys().filter(|k| !own.contains(k)).cloned());
        let errors = (self.repeat - runs.len()) as u64;
        keys.into_iter()
            .map(|key| {
                let samples = figures.remove(&key).unwrap_or_default();
                let mut row = Row::with_samples(key.clone(), RowKind::Process, key, samples);
                row.requests = self.repeat as u64;
                row.errors = errors;
                row.note = match runs.iter().rev().find_map(|r| r.note.as_deref()) {
                    Some(used) => format!("{} ({used})", probe.note),
                    None => probe.note.to_string(),
                };
                if let Some(why) = failure {
                    row.note = format!("failed: {why}");
                    row.error_messages.insert(why.to_string(), errors);
                }
                row
            })
            .map(|mut row| {
                if row.key == own[1] {
                    row.peak_rss = median(runs.iter().filter_map(|r| r.peak_rss).collect());
                }
                row
            })
            .collect()
    }
}

/// The median of `values`, none of none.
fn median(mut values: Vec<u64>) -> Option<u64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some(values[n / 2 - 1] / 2 + values[n / 2] / 2),
    }
}

/// What the parent learns about a child, in the order it learns it.
enum Event {
    /// A protocol line (or why it is not one), when it was read.
    Line(Result<Line, String>, Instant),
    /// The child's stdout reached its end.
    Closed,
    /// The child ended.
    Exited(Exit),
}

/// How a child ended.
struct Exit {
    at: Instant,
    /// Why it failed, or `None` for exit code 0.
    failure: Option<String>,
}

/// What one child has told so far.
#[derive(Default)]
struct Told {
    ready: Option<Instant>,
    reports: BTreeMap<String, Duration>,
    note: Option<String>,
    peak: Option<u64>,
    malformed: Option<String>,
    closed: bool,
    exit: Option<Exit>,
}

impl Told {
    fn take(&mut self, event: Event) {
        match event {
            Event::Line(Ok(Line::Ready), at) if self.ready.is_none() => self.ready = Some(at),
            Event::Line(Ok(Line::Ready), _) => self.malformed("ready twice".to_string()),
            Event::Line(Ok(Line::Report { label, elapsed }), _) => {
                if self.reports.insert(label.clone(), elapsed).is_some() {
                    self.malformed(format!("label `{label}` reported twice"));
                }
            }
            Event::Line(Ok(Line::Note(text)), _) => self.note = Some(text),
            Event::Line(Ok(Line::Peak(bytes)), _) => self.peak = Some(bytes),
            Event::Line(Err(why), _) => self.malformed(why),
            Event::Closed => self.closed = true,
            Event::Exited(exit) => self.exit = Some(exit),
        }
    }

    fn malformed(&mut self, why: String) {
        self.malformed.get_or_insert(why);
    }
}

/// Starts `command` as a process probe's child and times it, or says why
/// it failed, in one line. The child is killed and reaped when it runs past
/// `timeout`.
pub fn run_child(mut command: Command, timeout: Duration) -> Result<ChildRun, String> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn().map_err(|e| {
        format!(
            "cannot start {}: {e}",
            Path::new(command.get_program()).display()
        )
    })?;
    let (tx, events) = mpsc::channel();
    let stderr = last_line(child.stderr.take());
    read_lines(child.stdout.take(), tx.clone());
    let kill = reaper::start(child, tx);
    let told = gather(&events, started + timeout, &kill);
    let told = told.map_err(|why| match why {
        Stuck::Running => format!(
            "ran past --probe-timeout ({} s), killed",
            timeout.as_secs_f64()
        ),
        Stuck::OpenOutput => "exited, but its stdout stayed open past --probe-timeout \
                              (a process it started?)"
            .to_string(),
    })?;
    // The child has ended, so its stderr ends soon too (unless a process
    // it started holds it open).
    let last = stderr.recv_timeout(REAP_GRACE).unwrap_or_default();
    outcome(told, started, &last)
}

/// Why gathering a child's events stopped short.
enum Stuck {
    Running,
    OpenOutput,
}

/// Every event until the child has ended and closed its stdout, or the
/// deadline, when the child is killed and reaped.
fn gather(events: &Receiver<Event>, deadline: Instant, kill: &dyn Fn()) -> Result<Told, Stuck> {
    let mut told = Told::default();
    while told.exit.is_none() || !told.closed {
        let wait = deadline.saturating_duration_since(Instant::now());
        match events.recv_timeout(wait) {
            Ok(event) => told.take(event),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) if told.exit.is_some() => return Err(Stuck::OpenOutput),
            Err(RecvTimeoutError::Timeout) => {
                kill();
                let reaped = Instant::now() + REAP_GRACE;
                while let Ok(event) =
                    events.recv_timeout(reaped.saturating_duration_since(Instant::now()))
                {
                    if matches!(event, Event::Exited(_)) {
                        break;
                    }
                }
                return Err(Stuck::Running);
            }
        }
    }
    Ok(told)
}

/// The child's figures, or the first reason it failed: how it ended, then
/// a malformed line, then a missing ready line.
fn outcome(told: Told, started: Instant, stderr: &str) -> Result<ChildRun, String> {
    let Some(exit) = told.exit else {
        return Err("its end could not be awaited".to_string());
    };
    if let Some(why) = exit.failure {
        return Err(match stderr.trim() {
            "" => why,
            said => format!("{why}: {said}"),
        });
    }
    if let Some(why) = told.malformed {
        return Err(why);
    }
    let ready = told
        .ready
        .ok_or_else(|| "exited without signalling ready".to_string())?;
    Ok(ChildRun {
        boot: ready.saturating_duration_since(started),
        process: exit.at.saturating_duration_since(started),
        reports: told.reports,
        peak_rss: told.peak,
        note: told.note,
    })
}

/// Reads the child's stdout line by line on a thread of its own, stamping
/// each protocol line when it arrives; the child's own lines are passed
/// over. Bytes that are not UTF-8 are read lossily: they are never
/// protocol.
fn read_lines(stdout: Option<impl Read + Send + 'static>, tx: Sender<Event>) {
    std::thread::spawn(move || {
        each_line(stdout, |text| {
            let at = Instant::now();
            if let Some(line) = Line::parse(text) {
                let _ = tx.send(Event::Line(line, at));
            }
        });
        let _ = tx.send(Event::Closed);
    });
}

/// The longest piece of a line read at once: a child that writes without
/// newlines cannot make the parent hold all of it.
const MAX_LINE: u64 = 64 * 1024;

/// Calls `f` with each line of `pipe` until its end, whatever the bytes
/// (read lossily; a child whose pipe is left unread would block on its
/// next write), a line longer than [`MAX_LINE`] in pieces.
fn each_line(pipe: Option<impl Read>, mut f: impl FnMut(&str)) {
    let Some(pipe) = pipe else { return };
    let mut reader = BufReader::new(pipe);
    let mut bytes = Vec::new();
    while matches!((&mut reader).take(MAX_LINE).read_until(b'\n', &mut bytes), Ok(n) if n > 0) {
        f(&String::from_utf8_lossy(&bytes));
        bytes.clear();
    }
}

/// Reads the child's stderr to its end on a thread of its own, and sends
/// its last line that is not blank (at most 300 characters, cleaned), for
/// the message of a child that fails.
fn last_line(stderr: Option<impl Read + Send + 'static>) -> Receiver<String> {
    let (tx, last) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = String::new();
        each_line(stderr, |line| {
            if !line.trim().is_empty() {
                kept = crate::text::cleaned(line.trim_end())
                    .chars()
                    .take(300)
                    .collect();
            }
        });
        let _ = tx.send(kept);
    });
    last
}

#[cfg(unix)]
#[path = "process/reaper_unix.rs"]
mod reaper;
#[cfg(not(unix))]
#[path = "process/reaper_other.rs"]
mod reaper;

#[cfg(test)]
mod tests;
