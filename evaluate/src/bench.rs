//! The bench binary under evaluation: built once by cargo, then run as a
//! plain process many times, so cargo's own start-up and file locking never
//! fall inside a measurement.

use crate::Error;
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use yardstick::inject;
use yardstick::run::Run;

/// How every run of the bench binary measures: the same for the baseline
/// and every compared run, so that only the conditions differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sampling {
    pub repeat: u32,
    pub warmup: u32,
    /// A fixed batch: with 20 iterations a sample, every slowdown of the
    /// evaluation (5 % steps) is a whole number of extra iterations.
    pub min_batch: u32,
}

/// A bench binary and how to run it.
#[derive(Debug, Clone)]
pub struct Bench {
    pub binary: PathBuf,
    /// The working directory of each run (the workspace, so the run's
    /// environment record finds the repository).
    pub dir: PathBuf,
    pub sampling: Sampling,
}

impl Bench {
    /// The arguments of every run: no baseline (the harness compares), no
    /// progress, the run as JSON on stdout.
    pub fn args(&self) -> Vec<String> {
        let s = self.sampling;
        vec![
            "--bench".into(),
            "--no-baseline".into(),
            "-q".into(),
            "--json".into(),
            format!("--repeat={}", s.repeat),
            format!("--warmup={}", s.warmup),
            format!("--min-batch={}", s.min_batch),
        ]
    }

    /// The command line of one run, as a reader would type it.
    pub fn command_line(&self, slowdown: Option<f64>) -> String {
        let mut parts = Vec::new();
        if let Some(pct) = slowdown {
            parts.push(format!("{}='*:{}'", inject::VARIABLE, pct));
        }
        parts.push(self.binary.display().to_string());
        parts.extend(self.args());
        parts.join(" ")
    }

    /// Runs the bench once (`slowdown` percent injected into every probe)
    /// and returns the run and its wall time. A probe that fails still gives
    /// a run (exit code 1); anything else that is not a run is an error.
    pub fn run(&self, slowdown: Option<f64>) -> Result<(Run, Duration), Error> {
        let mut command = Command::new(&self.binary);
        command
            .args(self.args())
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            // A run made inside CI must not annotate the job or write its
            // summary: only the harness's report speaks.
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove(inject::VARIABLE);
        if let Some(pct) = slowdown {
            command.env(inject::VARIABLE, format!("*:{pct}"));
        }
        let started = Instant::now();
        let output = command
            .output()
            .map_err(|e| Error(format!("{}: cannot start: {e}", self.binary.display())))?;
        let elapsed = started.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !matches!(output.status.code(), Some(0 | 1)) {
            return Err(Error(format!(
                "{}: {}: {}",
                self.binary.display(),
                output.status,
                stderr.trim()
            )));
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let run = yardstick::store::parse(&stdout).map_err(|m| {
            Error(format!(
                "{}: its output is not a run: {m} ({})",
                self.binary.display(),
                stderr.trim()
            ))
        })?;
        Ok((run, elapsed))
    }
}

/// Builds the bench target `bench` of the workspace at `workspace` in the
/// bench profile and returns its executable.
pub fn build(cargo: &OsString, workspace: &Path, bench: &str) -> Result<PathBuf, Error> {
    let output = Command::new(cargo)
        .args([
            "bench",
            "--bench",
            bench,
            "--no-run",
            "--message-format=json",
        ])
        .current_dir(workspace)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| Error(format!("cannot start cargo: {e}")))?;
    if !output.status.success() {
        return Err(Error(format!(
            "cargo bench --bench {bench} --no-run: {}",
            output.status
        )));
    }
    executable(&String::from_utf8_lossy(&output.stdout), bench).ok_or_else(|| {
        Error(format!(
            "cargo bench --bench {bench} --no-run named no executable for the bench target"
        ))
    })
}

/// The executable of bench target `name` among cargo's JSON messages (one
/// object a line; other lines and objects are skipped).
pub fn executable(messages: &str, name: &str) -> Option<PathBuf> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "bench"))
        })
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .next_back()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bench_executable_is_found_among_messages() {
        let messages = r#"not json
{"reason":"compiler-artifact","target":{"name":"yardstick","kind":["bin"]},"executable":"/t/release/yardstick"}
{"reason":"compiler-artifact","target":{"name":"micro","kind":["bench"]},"executable":"/t/release/deps/micro-0123"}
{"reason":"build-finished","success":true}"#;
        assert_eq!(
            executable(messages, "micro"),
            Some(PathBuf::from("/t/release/deps/micro-0123"))
        );
        assert_eq!(executable(messages, "yardstick"), None);
        assert_eq!(executable("", "micro"), None);
    }

    #[test]
    fn the_command_line_says_what_was_injected() {
        let b = Bench {
            binary: "/b/micro".into(),
            dir: ".".into(),
            sampling: Sampling {
                repeat: 3,
                warmup: 1,
                min_batch: 20,
            },
        };
        assert_eq!(
            b.command_line(Some(15.0)),
            "YARDSTICK_INJECT='*:15' /b/micro --bench --no-baseline -q --json --repeat=3 --warmup=1 --min-batch=20"
        );
        assert!(!b.command_line(None).contains("INJECT"));
    }

    #[test]
    fn a_missing_binary_is_named() {
        let b = Bench {
            binary: "/nonexistent/micro".into(),
            dir: ".".into(),
            sampling: Sampling {
                repeat: 1,
                warmup: 0,
                min_batch: 1,
            },
        };
        let e = b.run(None).unwrap_err().to_string();
        assert!(
            e.contains("/nonexistent/micro") && e.contains("cannot start"),
            "{e}"
        );
    }
}

#[cfg(test)]
mod properties {
    use super::executable;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn message_parsing_never_panics(text in ".{0,300}") {
            let _ = executable(&text, "micro");
        }
    }
}
