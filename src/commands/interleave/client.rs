//! The parent's side: starting a worker process and asking it for samples.
//!
//! Every answer is awaited with a timeout (`--probe-timeout`): a probe that
//! hangs must stop the comparison with a message, not hang it. Anything
//! that goes wrong with the process itself (it cannot start, ends, stops
//! answering, answers nonsense) is an [`Error`] naming the binary and the
//! last line it wrote to stderr; a probe that fails is the inner `Err` of
//! [`Worker::warm`] and [`Worker::time`], and the comparison goes on.

use crate::error::Error;
use crate::worker::protocol::{Answer, Greeting, Request};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How to start a worker: which binary, with what, and how long to wait.
pub struct Spawn<'a> {
    /// The bench binary.
    pub path: &'a Path,
    /// Environment variables the worker gets beside the parent's.
    pub env: &'a [(String, String)],
    /// Arguments it gets after the worker's own: the bench's parameters.
    pub args: &'a [String],
    /// The probes it prepares (`--probe=NAME` each); all when empty.
    pub probes: &'a [String],
    /// A fixed batch it offers instead of picking one.
    pub min_batch: Option<u64>,
    /// How long one answer (set-up, or one request) may take.
    pub timeout: Duration,
}

/// The parent's handle on one worker process; dropping it ends the process.
pub struct Worker {
    path: PathBuf,
    child: Child,
    stdin: ChildStdin,
    /// The worker's stdout, line by line, read on a thread of its own so
    /// that waiting for a line can time out.
    lines: Receiver<std::io::Result<String>>,
    /// The last line the worker wrote to stderr.
    stderr: Arc<Mutex<String>>,
    timeout: Duration,
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
        cmd.args(s.args);
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
        let last = Arc::new(Mutex::new(String::new()));
        let keep = Arc::clone(&last);
        // A process short of threads fails this worker, never panics.
        let readers = std::thread::Builder::new()
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            })
            .and_then(|_| std::thread::Builder::new().spawn(move || keep_last_line(stderr, &keep)));
        if let Err(e) = readers {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Error::input(format!(
                "{}: cannot start a thread to read it: {e}",
                s.path.display()
            )));
        }
        let mut worker = Worker {
            path: s.path.to_path_buf(),
            child,
            stdin,
            lines,
            stderr: last,
            timeout: s.timeout,
        };
        let greeting = worker.greeting()?;
        Ok((worker, greeting))
    }

    /// Reads the worker's first line, its greeting.
    fn greeting(&mut self) -> Result<Greeting, Error> {
        let first = match self.lines.recv_timeout(self.timeout) {
            Ok(Ok(line)) => line,
            Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                return Err(self.failure("gave no worker greeting before it ended"));
            }
            Err(RecvTimeoutError::Timeout) => self.read()?,
        };
        Greeting::parse(&first).map_err(|e| {
            self.failure(&format!(
                "gave no worker greeting ({e}: `{}`)",
                clip(&first)
            ))
        })
    }

    /// Runs `count` untimed samples of `batch` iterations of `probe`; the
    /// inner error is why the probe failed.
    pub fn warm(
        &mut self,
        probe: &str,
        batch: u64,
        count: usize,
    ) -> Result<Result<(), String>, Error> {
        let request = Request::Warm {
            probe: probe.to_string(),
            batch,
            count,
        };
        let line = self.ask(&request)?;
        match Answer::parse(&line) {
            Some(Answer::Warmed) => Ok(Ok(())),
            Some(Answer::Error(message)) => Ok(Err(message)),
            _ => Err(self.failure(&format!("answered `{}` to warm", clip(&line)))),
        }
    }

    /// Times one sample of `batch` iterations of `probe`: milliseconds per
    /// iteration, or why the probe failed.
    pub fn time(&mut self, probe: &str, batch: u64) -> Result<Result<f64, String>, Error> {
        let request = Request::Time {
            probe: probe.to_string(),
            batch,
        };
        let line = self.ask(&request)?;
        match Answer::parse(&line) {
            Some(Answer::Time(ms)) => Ok(Ok(ms)),
            Some(Answer::Error(message)) => Ok(Err(message)),
            _ => Err(self.failure(&format!("answered `{}` to time", clip(&line)))),
        }
    }

    /// Sends one request and returns the answer line.
    fn ask(&mut self, request: &Request) -> Result<String, Error> {
        if writeln!(self.stdin, "{request}")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.failure("stopped reading requests"));
        }
        self.read()
    }

    /// The next line the worker writes, within the timeout.
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

    /// Ends the worker, and returns an error naming the binary and the last
    /// thing it wrote to stderr.
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

/// Keeps the last non-blank line of `stderr` in `last`, until it ends.
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

/// The start of a line a worker should not have written, for a message.
fn clip(text: &str) -> String {
    text.chars().take(80).collect()
}
