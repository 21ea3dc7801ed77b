//! Process probes: work that only a whole process shows, such as the time a
//! fresh process takes until it is ready, or a first render inside it with
//! every cache cold.
//!
//! A process probe is registered with
//! [`process_probe!`](macro@crate::process_probe) and runs as a child: the
//! harness starts the bench binary again as `--bench --process-child=NAME`,
//! and the child runs the probe's closure with a [`Child`] handle. What the
//! child tells the parent travels as lines on its stdout that begin with
//! [`PREFIX`]; any other line is the child's own and the parent passes over
//! it. Stdout, not a pipe of its own: std passes no extra descriptor to a
//! child without `unsafe` code, and every platform has stdout. So a probe
//! may print whatever it likes, except a line beginning with the prefix.
//!
//! This file is the light library's half (the registry, the handle, the
//! child's side and the lines' format); the parent that starts and times
//! the children is `measure::process`.

use std::io::Write;
use std::time::Duration;

/// What begins every line a child writes for its parent. Unlikely in a
/// program's own output; a line that begins with it and is not one of the
/// protocol's fails the probe, so a mistake cannot pass unseen.
pub const PREFIX: &str = "#yardstick-process#";

/// The name of the built-in empty process probe, which signals ready at
/// once and exits: the floor every process probe is measured beside.
pub const EMPTY: &str = "empty";

/// Labels a probe may not report: its own rows use them.
const RESERVED: &[&str] = &["boot", "process"];

/// One registered process probe. Built by
/// [`process_probe!`](macro@crate::process_probe); read by the harness.
pub struct ProcessProbe {
    /// Unique snake_case name: the rows are `NAME.boot`, `NAME.process` and
    /// `NAME.<label>`.
    pub name: &'static str,
    /// What the probe stands for, shown in the table.
    pub note: &'static str,
    /// The bench target that runs it (see [`Probe::suite`](super::Probe)).
    pub suite: &'static str,
    /// Source file of the registration, to name both sides of a duplicate.
    pub file: &'static str,
    /// Source line of the registration.
    pub line: u32,
    /// Runs in the child process; an `Err` fails the probe with its text.
    pub child: fn(&mut Child) -> Result<(), String>,
    /// Runs once in the parent before the first child, untimed: what every
    /// child needs ready (a database made, a cache filled). An `Err` fails
    /// the probe.
    pub setup: Option<fn() -> Result<(), String>>,
}

inventory::collect!(ProcessProbe);

/// The floor: a child that signals ready and returns.
pub static EMPTY_PROBE: ProcessProbe = ProcessProbe {
    name: EMPTY,
    note: "the floor: a child that signals ready at once and exits",
    // Measured beside the process probes of whichever suite runs.
    suite: super::DEFAULT_SUITE,
    file: file!(),
    line: line!(),
    child: |child| {
        child.ready();
        Ok(())
    },
    setup: None,
};

/// Every registered process probe, by name.
///
/// Refuses a name given twice, among process probes or shared with an
/// in-process probe, naming both registrations (a saved run keys its rows
/// by name), and the floor's name.
pub fn registered() -> Result<Vec<&'static ProcessProbe>, String> {
    let mut probes: Vec<&'static ProcessProbe> =
        inventory::iter::<ProcessProbe>.into_iter().collect();
    probes.sort_by(|a, b| (a.name, a.file, a.line).cmp(&(b.name, b.file, b.line)));
    if let Some(p) = probes.iter().find(|p| p.name == EMPTY) {
        return Err(format!(
            "process probe name `{EMPTY}` at {}:{} is taken: the empty child every process \
             probe is measured beside has it",
            p.file, p.line
        ));
    }
    let mut all: Vec<(&str, &str, u32)> = probes.iter().map(|p| (p.name, p.file, p.line)).collect();
    all.extend(
        inventory::iter::<super::Probe>
            .into_iter()
            .map(|p| (p.name, p.file, p.line)),
    );
    all.sort();
    super::check_unique(&all)?;
    Ok(probes)
}

/// The handle a process probe's closure gets in the child: it tells the
/// parent when the process is ready and what it timed about itself.
pub struct Child {
    out: Box<dyn Write>,
    ready: bool,
    /// The first misuse (a bad label), which fails the probe once the
    /// closure returns.
    misuse: Option<String>,
}

impl Child {
    /// A handle that writes to `out`.
    fn new(out: Box<dyn Write>) -> Child {
        Child {
            out,
            ready: false,
            misuse: None,
        }
    }

    /// Tells the parent the process is ready: its `boot` time ends now.
    /// Only the first call counts.
    pub fn ready(&mut self) {
        if !std::mem::replace(&mut self.ready, true) {
            self.send(&Line::Ready);
        }
    }

    /// Reports a time the child measured about itself, such as the first
    /// render in a fresh process; it becomes the row `NAME.<label>`.
    /// `label` is snake_case and neither `boot` nor `process`; a bad label
    /// fails the probe when the closure returns.
    pub fn report(&mut self, label: &str, elapsed: Duration) {
        match check_label(label) {
            Ok(()) => self.send(&Line::Report {
                label: label.to_string(),
                elapsed,
            }),
            Err(why) => {
                self.misuse.get_or_insert(why);
            }
        }
    }

    /// Says what this child used (the node it rendered, the file it
    /// read), so that the rows' notes name it as an in-process probe's
    /// note does; the last child's note is shown after the probe's own.
    /// Kept to one line of at most 200 characters.
    pub fn note(&mut self, text: &str) {
        let one_line: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(MAX_NOTE)
            .collect();
        self.send(&Line::Note(one_line.trim().to_string()));
    }

    /// One protocol line, on a line of its own even after a print that
    /// did not end its line, flushed at once so the parent's clock reads
    /// it when it is written.
    fn send(&mut self, line: &Line) {
        let _ = write!(self.out, "\n{line}\n");
        let _ = self.out.flush();
    }
}

/// A label a probe may report: snake_case, not reserved.
fn check_label(label: &str) -> Result<(), String> {
    let snake = label.starts_with(|c: char| c.is_ascii_lowercase())
        && label
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !snake {
        return Err(format!(
            "report: label `{}` is not snake_case (a-z, 0-9 and _, starting with a letter)",
            label.escape_debug()
        ));
    }
    if RESERVED.contains(&label) {
        return Err(format!(
            "report: label `{label}` is taken by the probe's own row"
        ));
    }
    Ok(())
}

/// `--process-child=NAME`: runs the process probe `name` in this process
/// and returns the exit code: 0 when its closure returned `Ok`, 1 with the
/// message on stderr when it failed, 2 when there is no such probe.
pub fn child_main(name: &str) -> i32 {
    let probe = std::iter::once(&EMPTY_PROBE)
        .chain(inventory::iter::<ProcessProbe>)
        .find(|p| p.name == name);
    let Some(probe) = probe else {
        eprintln!("error: --process-child: no process probe `{name}`");
        return 2;
    };
    let mut child = Child::new(Box::new(std::io::stdout()));
    let result = (probe.child)(&mut child);
    match result.and(child.misuse.take().map_or(Ok(()), Err)) {
        Ok(()) => {
            if let Some(bytes) = own_peak() {
                child.send(&Line::Peak(bytes));
            }
            0
        }
        Err(message) => {
            // One line: the parent shows the last line of stderr.
            eprintln!("{}", message.replace(['\n', '\r'], " "));
            1
        }
    }
}

/// A protocol line: what the child writes and the parent reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// The process is ready.
    Ready,
    /// A time the child measured about itself.
    Report {
        /// The row's label, snake_case.
        label: String,
        /// The time measured.
        elapsed: Duration,
    },
    /// What the child used, for the rows' notes.
    Note(String),
    /// The child's own peak resident set in bytes, sent once its closure
    /// has returned.
    Peak(u64),
}

/// This process's peak resident set in bytes (`VmHWM`, Linux only).
///
/// The child measures itself because the parent cannot: `wait4`'s
/// `ru_maxrss` keeps the high-water mark of the address space the child
/// had before its exec, which is the parent's (a spawned child shares or
/// copies it), so every child would report at least the parent's peak.
/// `VmHWM` belongs to the address space the exec made.
fn own_peak() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    peak_of_status(&status)
}

/// `VmHWM` of a `/proc/PID/status` text, in bytes.
fn peak_of_status(status: &str) -> Option<u64> {
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    let kib = line.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()?;
    kib.checked_mul(1024)
}

/// The longest note a child sends, in characters.
const MAX_NOTE: usize = 200;

impl std::fmt::Display for Line {
    /// `PREFIX ready`, `PREFIX report LABEL NANOSECONDS` (whole
    /// nanoseconds, so that nothing is lost or rounded on the way),
    /// `PREFIX note TEXT` or `PREFIX peak BYTES`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Ready => write!(f, "{PREFIX} ready"),
            Line::Report { label, elapsed } => {
                write!(f, "{PREFIX} report {label} {}", elapsed.as_nanos())
            }
            Line::Note(text) => write!(f, "{PREFIX} note {text}"),
            Line::Peak(bytes) => write!(f, "{PREFIX} peak {bytes}"),
        }
    }
}

impl Line {
    /// Reads one line of a child's stdout: `None` for a line of the
    /// child's own (without the prefix), else the protocol line or why it
    /// is not one.
    pub fn parse(text: &str) -> Option<Result<Line, String>> {
        let rest = text.trim_end_matches(['\r', '\n']).strip_prefix(PREFIX)?;
        if let Some(note) = rest.strip_prefix(" note ") {
            return Some(Ok(Line::Note(note.chars().take(MAX_NOTE).collect())));
        }
        let words: Vec<&str> = rest.split(' ').filter(|w| !w.is_empty()).collect();
        Some(match words.as_slice() {
            ["ready"] => Ok(Line::Ready),
            ["peak", bytes] => bytes.parse::<u64>().map(Line::Peak).map_err(|_| {
                format!(
                    "peak: `{}` is not whole bytes",
                    shorten(bytes).escape_debug()
                )
            }),
            ["report", label, nanos] => match (check_label(label), nanos.parse::<u64>()) {
                (Ok(()), Ok(n)) => Ok(Line::Report {
                    label: (*label).to_string(),
                    elapsed: Duration::from_nanos(n),
                }),
                (Err(why), _) => Err(why),
                (_, Err(_)) => Err(format!(
                    "report {label}: `{}` is not whole nanoseconds",
                    nanos.escape_debug()
                )),
            },
            _ => Err(format!(
                "malformed protocol line `{}`",
                shorten(text.trim_end()).escape_debug()
            )),
        })
    }
}

/// At most 80 characters of `text`, for a message.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn lines_read_back_as_written() {
        for line in [
            Line::Ready,
            Line::Report {
                label: "render_cold".into(),
                elapsed: Duration::from_nanos(1_234_567),
            },
            Line::Note("node 2, content.db".into()),
            Line::Peak(5_242_880),
        ] {
            assert_eq!(Line::parse(&format!("{line}\n")), Some(Ok(line)));
        }
    }

    #[test]
    fn the_childs_own_lines_are_not_protocol() {
        for own in ["", "hello", " #yardstick-process# ready", "ready"] {
            assert_eq!(Line::parse(own), None, "{own}");
        }
    }

    #[test]
    fn malformed_lines_say_why() {
        for (bad, needle) in [
            ("#yardstick-process# readyy", "malformed"),
            ("#yardstick-process#", "malformed"),
            ("#yardstick-process# report x", "malformed"),
            ("#yardstick-process# report Bad 5", "snake_case"),
            ("#yardstick-process# report boot 5", "taken"),
            ("#yardstick-process# report x -5", "nanoseconds"),
            ("#yardstick-process# report x 1.5", "nanoseconds"),
            ("#yardstick-process# peak -1", "whole bytes"),
            ("#yardstick-process# peak", "malformed"),
        ] {
            match Line::parse(bad) {
                Some(Err(why)) => assert!(why.contains(needle), "{bad}: {why}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_peak_is_read_from_vmhwm_in_bytes() {
        let status = "Name:\tbench\nVmPeak:\t  90000 kB\nVmHWM:\t    5120 kB\nVmRSS:\t 4000 kB\n";
        assert_eq!(peak_of_status(status), Some(5120 * 1024));
        for bad in [
            "",
            "VmHWM:\t5120",
            "VmHWM: x kB",
            "VmHWM: 99999999999999999999 kB",
        ] {
            assert_eq!(peak_of_status(bad), None, "{bad}");
        }
        assert_eq!(own_peak().is_some(), cfg!(target_os = "linux"));
    }

    #[test]
    fn labels_are_snake_case_and_not_reserved() {
        assert!(check_label("render_cold2").is_ok());
        for bad in ["", "Render", "2x", "a-b", "a b", "process", "boot", "é"] {
            assert!(check_label(bad).is_err(), "{bad}");
        }
    }

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::ErrorKind::Other)?
                .write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_handle_writes_lines_the_parser_reads() {
        let out = Shared::default();
        let mut child = Child::new(Box::new(out.clone()));
        child.ready();
        child.ready();
        child.report("render_cold", Duration::from_millis(3));
        child.report("Bad", Duration::from_millis(3));
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<Line> = text.lines().filter_map(Line::parse).flatten().collect();
        assert_eq!(
            lines,
            [
                Line::Ready,
                Line::Report {
                    label: "render_cold".into(),
                    elapsed: Duration::from_millis(3)
                }
            ]
        );
        assert!(child.misuse.is_some_and(|m| m.contains("`Bad`")));
    }

    #[test]
    fn the_floor_signals_ready() {
        let out = Shared::default();
        let mut child = Child::new(Box::new(out.clone()));
        assert_eq!((EMPTY_PROBE.child)(&mut child), Ok(()));
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains(&Line::Ready.to_string()));
    }
}

#[cfg(test)]
mod properties {
    use super::Line;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parsing_never_panics(text in "\\PC*", tail in "(ready|report [a-z_]{0,6} [0-9-]{0,24}|.{0,20})") {
            let _ = Line::parse(&text);
            let _ = Line::parse(&format!("{} {tail}", super::PREFIX));
        }
    }
}
