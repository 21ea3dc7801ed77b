//! A bench binary as a worker that times single samples on request, so that
//! `compare-builds` can put a sample of the old build and one of the new
//! build milliseconds apart.
//!
//! On this kind of machine the speed of the CPU available to a process moves
//! by tens of percent over seconds (another tenant's work on the same core),
//! and not by the same factor for every kind of work. Whole runs of each
//! build, however well alternated, each land in a different spell; two
//! samples taken back to back land in the same one, and their ratio cancels
//! it. So both builds run as long-lived workers (`--bench --worker`) and the
//! parent asks each in turn for one sample.
//!
//! The protocol is lines of text over the worker's stdin and stdout. The
//! worker prepares and verifies its probes, then writes one JSON line, a
//! [`Greeting`]. Then, per request line, one answer line:
//!
//! - `warm NAME BATCH COUNT` runs COUNT untimed samples: `ok`;
//! - `time NAME BATCH` times one sample: milliseconds per iteration;
//!
//! or `error MESSAGE` (the probe failed its set-up or check, or panicked,
//! and stays failed). End of input ends the worker.

use crate::error::Error;
use crate::measure::clock::Clock;
use crate::measure::inject::Injection;
use crate::measure::sample::{self, guarded};
use crate::probe::{Instance, Probe};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a worker offers: every selected probe, ready or failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Greeting {
    pub probes: Vec<Offer>,
}

/// One probe of a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    pub name: String,
    pub ops: u64,
    pub note: String,
    /// The batch the worker would pick (a sample of about a millisecond);
    /// absent when the probe failed.
    pub batch: Option<u64>,
    /// Why the probe cannot be timed, if it cannot.
    pub error: Option<String>,
}

/// A probe on the worker's side: ready, or failed for good.
type Slot = Result<Box<dyn Instance>, String>;

/// Serves requests until end of input. `min_batch` overrides the batch the
/// worker offers, as it does for a run.
pub fn serve(
    selected: &[&'static Probe],
    injection: &Injection,
    clock: &Clock,
    min_batch: Option<u64>,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<i32, Error> {
    let mut slots: BTreeMap<&str, Slot> = BTreeMap::new();
    let mut offers = Vec::new();
    for probe in selected {
        let (mut slot, note) = prepare(probe);
        let batch = match &mut slot {
            Ok(_) if min_batch.is_some() => min_batch,
            Ok(instance) => {
                match guarded(|| sample::pick_batch(clock, probe.name, instance.as_mut())) {
                    Ok(b) => Some(b),
                    Err(message) => {
                        slot = Err(message);
                        None
                    }
                }
            }
            Err(_) => None,
        };
        offers.push(Offer {
            name: probe.name.to_string(),
            ops: probe.ops,
            note,
            batch,
            error: slot.as_ref().err().cloned(),
        });
        slots.insert(probe.name, slot);
    }
    let greeting = serde_json::to_string(&Greeting { probes: offers })
        .map_err(|e| Error::input(format!("worker greeting: {e}")))?;
    let io = |e: std::io::Error| Error::input(format!("worker: cannot answer: {e}"));
    writeln!(output, "{greeting}").map_err(io)?;
    output.flush().map_err(io)?;
    for line in input.lines() {
        let line = line.map_err(|e| Error::input(format!("worker: cannot read a request: {e}")))?;
        let answer = answer(&line, &mut slots, injection, clock);
        writeln!(output, "{answer}").map_err(io)?;
        output.flush().map_err(io)?;
    }
    Ok(0)
}

/// Sets up and verifies one probe; a failure is kept as the probe's state.
fn prepare(probe: &Probe) -> (Slot, String) {
    match sample::verified(probe) {
        Ok(ready) => (Ok(ready.instance), ready.note),
        Err(message) => (Err(message), String::new()),
    }
}

fn answer(
    line: &str,
    slots: &mut BTreeMap<&str, Slot>,
    injection: &Injection,
    clock: &Clock,
) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (name, batch, count) = match words.as_slice() {
        ["time", name, batch] => (*name, batch.parse::<u64>().ok(), Some(1)),
        ["warm", name, batch, count] => (*name, batch.parse::<u64>().ok(), count.parse().ok()),
        _ => return format!("error unknown request `{line}`"),
    };
    let (Some(batch), Some(count)) = (batch.filter(|b| *b > 0), count) else {
        return format!("error bad numbers in `{line}`");
    };
    let Some(slot) = slots.get_mut(name) else {
        return format!("error no probe `{name}` here");
    };
    let instance = match slot {
        Ok(instance) => instance,
        Err(message) => return format!("error {message}"),
    };
    let stretch = injection.stretch(name);
    let warm = words[0] == "warm";
    let result = guarded(|| {
        if warm {
            for _ in 0..count {
                std::hint::black_box(instance.run(batch));
            }
            None
        } else {
            let (ms, sum) = sample::sample(clock, name, instance.as_mut(), batch, stretch);
            std::hint::black_box(sum);
            Some(ms)
        }
    });
    match result {
        Ok(None) => "ok".to_string(),
        Ok(Some(ms)) => format!("{ms:e}"),
        Err(message) => {
            // A probe that panicked mid-run may hold broken state.
            *slot = Err(message.clone());
            format!("error {message}")
        }
    }
}

/// The parent's handle on one worker process.
pub struct Worker {
    path: PathBuf,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<String>>,
    timeout: Duration,
}

/// How to start a worker.
pub struct Spawn<'a> {
    pub path: &'a Path,
    pub env: &'a [(String, String)],
    pub probes: &'a [String],
    pub min_batch: Option<u64>,
    /// How long one answer (set-up, or one request) may take.
    pub timeout: Duration,
}

impl Worker {
    /// Starts a worker and reads its greeting.
    pub fn spawn(s: &Spawn) -> Result<(Worker, Greeting), Error> {
        let mut cmd = Command::new(s.path);
        cmd.args(["--bench", "--worker", "-q", "--no-baseline"])
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(k) = s.min_batch {
            cmd.arg(format!("--min-batch={k}"));
        }
        for p in s.probes {
            cmd.arg(format!("--probe={p}"));
        }
        for (k, v) in s.env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Error::input(format!("{}: cannot run: {e}", s.path.display())))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(Error::input(format!("{}: no pipes", s.path.display())));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let last = Arc::new(Mutex::new(String::new()));
        let keep = Arc::clone(&last);
        std::thread::spawn(move || keep_last_line(stderr, &keep));
        let mut worker = Worker {
            path: s.path.to_path_buf(),
            child,
            stdin,
            lines,
            stderr: last,
            timeout: s.timeout,
        };
        let first = match worker.lines.recv_timeout(worker.timeout) {
            Ok(Ok(line)) => line,
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                return Err(worker.failure("gave no worker greeting before it ended"));
            }
            Err(RecvTimeoutError::Timeout) => worker.read()?,
        };
        let greeting = serde_json::from_str(&first).map_err(|e| {
            worker.failure(&format!(
                "gave no worker greeting ({e}: `{}`)",
                clip(&first)
            ))
        })?;
        Ok((worker, greeting))
    }

    /// Runs `count` untimed samples.
    pub fn warm(
        &mut self,
        probe: &str,
        batch: u64,
        count: usize,
    ) -> Result<Result<(), String>, Error> {
        match self.ask(&format!("warm {probe} {batch} {count}"))? {
            Ok(text) if text == "ok" => Ok(Ok(())),
            Ok(text) => Err(self.failure(&format!("answered `{}` to warm", clip(&text)))),
            Err(message) => Ok(Err(message)),
        }
    }

    /// Times one sample: milliseconds per iteration, or why the probe failed.
    pub fn time(&mut self, probe: &str, batch: u64) -> Result<Result<f64, String>, Error> {
        match self.ask(&format!("time {probe} {batch}"))? {
            Ok(text) => match text.parse::<f64>() {
                Ok(ms) if ms.is_finite() && ms >= 0.0 => Ok(Ok(ms)),
                _ => Err(self.failure(&format!("answered `{}` to time", clip(&text)))),
            },
            Err(message) => Ok(Err(message)),
        }
    }

    /// Sends one request; the outer error is the worker failing, the inner
    /// one the probe.
    fn ask(&mut self, request: &str) -> Result<Result<String, String>, Error> {
        if writeln!(self.stdin, "{request}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.failure("stopped reading requests"));
        }
        let line = self.read()?;
        Ok(match line.strip_prefix("error ") {
            Some(message) => Err(message.to_string()),
            None => Ok(line),
        })
    }

    fn read(&mut self) -> Result<String, Error> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(self.failure(&format!("unreadable answer: {e}"))),
            Err(RecvTimeoutError::Disconnected) => Err(self.failure("stopped answering")),
            Err(RecvTimeoutError::Timeout) => Err(self.failure(&format!(
                "gave no answer within {} s (--probe-timeout)",
                self.timeout.as_secs_f64()
            ))),
        }
    }

    /// An error naming the binary and the last thing it wrote to stderr.
    fn failure(&mut self, what: &str) -> Error {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The stderr reader ends when the process does; give it a moment.
        std::thread::sleep(Duration::from_millis(20));
        let said = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        let said = if said.is_empty() {
            String::new()
        } else {
            format!("; it said: {said}")
        };
        Error::input(format!("{}: {what}{said}", self.path.display()))
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn keep_last_line(stderr: impl Read, last: &Mutex<String>) {
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        if !line.trim().is_empty()
            && let Ok(mut l) = last.lock()
        {
            *l = line.trim().to_string();
        }
    }
}

fn clip(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting() -> Result<Box<dyn Instance>, String> {
        struct Count;
        impl Instance for Count {
            fn note(&self) -> String {
                "counts".into()
            }
            fn verify(&mut self) -> Result<(), String> {
                Ok(())
            }
            fn run(&mut self, iterations: u64) -> u64 {
                (0..iterations).map(std::hint::black_box).sum()
            }
        }
        Ok(Box::new(Count))
    }

    fn broken() -> Result<Box<dyn Instance>, String> {
        Err("no input".into())
    }

    static COUNTING: Probe = Probe {
        name: "counting",
        ops: 3,
        file: file!(),
        line: line!(),
        prepare: counting,
    };
    static BROKEN: Probe = Probe {
        name: "broken",
        ops: 1,
        file: file!(),
        line: line!(),
        prepare: broken,
    };

    fn served(requests: &str, min_batch: Option<u64>) -> Vec<String> {
        let mut out = Vec::new();
        let injection = Injection::default();
        // A microsecond an iteration, whatever the machine's load.
        let clock = Clock::scripted("counting=0.001").unwrap();
        let code = serve(
            &[&COUNTING, &BROKEN],
            &injection,
            &clock,
            min_batch,
            requests.as_bytes(),
            &mut out,
        );
        assert!(matches!(code, Ok(0)));
        String::from_utf8_lossy(&out)
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn greeting_lists_ready_and_failed_probes() {
        let lines = served("", Some(20));
        let greeting: Greeting =
            serde_json::from_str(&lines[0]).unwrap_or_else(|e| panic!("{e}: {}", lines[0]));
        assert_eq!(greeting.probes.len(), 2);
        let counting = &greeting.probes[0];
        assert_eq!(
            (
                counting.name.as_str(),
                counting.ops,
                counting.batch,
                &counting.error
            ),
            ("counting", 3, Some(20), &None)
        );
        assert_eq!(greeting.probes[1].batch, None);
        assert_eq!(greeting.probes[1].error.as_deref(), Some("no input"));
    }

    #[test]
    fn without_min_batch_the_worker_picks_one() {
        let lines = served("", None);
        let greeting: Greeting =
            serde_json::from_str(&lines[0]).unwrap_or_else(|e| panic!("{e}: {}", lines[0]));
        // 1, 16, 256 iterations take less than a millisecond; 1,200 take
        // the 1.2 ms aimed at.
        assert_eq!(greeting.probes[0].batch, Some(1200));
    }

    #[test]
    fn every_request_gets_one_answer() {
        let lines = served(
            "warm counting 10 2\ntime counting 10\ntime broken 10\ntime nothing 1\ntime counting 0\nsing\n",
            Some(10),
        );
        assert_eq!(lines.len(), 7, "{lines:?}");
        assert_eq!(lines[1], "ok");
        let ms: f64 = lines[2]
            .parse()
            .unwrap_or_else(|e| panic!("{e}: {}", lines[2]));
        assert_eq!(ms, 0.001);
        assert_eq!(lines[3], "error no input");
        assert_eq!(lines[4], "error no probe `nothing` here");
        assert!(lines[5].starts_with("error bad numbers"), "{}", lines[5]);
        assert!(
            lines[6].starts_with("error unknown request"),
            "{}",
            lines[6]
        );
    }
}
