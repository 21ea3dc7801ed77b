//! The processes an evaluation starts: the bench binary (built once by
//! cargo, then run as a plain process many times, so cargo's own start-up
//! and file locking never fall inside a measurement) and yardstick's own
//! command for the paired comparison.

use crate::Error;
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use yardstick::document::run::Run;
use yardstick::measure::inject;

/// How every timed run of the bench binary measures: the same for the
/// baseline and every compared run, so that only the conditions differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sampling {
    pub repeat: u32,
    pub warmup: u32,
    /// A fixed batch: with 20 iterations a sample, every slowdown of the
    /// evaluation (5 % steps) is a whole number of extra iterations.
    pub min_batch: u32,
}

/// How the paired comparison measures. One round times one sample of every
/// probe on each build (two worker processes serve them); the rounds are
/// spread over `pairs` fresh pairs of workers, at least the 7 that
/// `compare-builds` needs for p < 0.01 and at most one per round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedSampling {
    pub rounds: u32,
    /// Worker pairs (results made before pairs existed had one).
    #[serde(default = "one_pair")]
    pub pairs: u32,
    pub repeat: u32,
    pub warmup: u32,
}

fn one_pair() -> u32 {
    1
}

/// How the instruction-count runs measure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountSampling {
    /// Iterations counted per probe: 2 % of it must be a whole number.
    pub batch: u32,
    /// Only these probes (all when empty): `--quick` leaves out the slow
    /// ones, which take most of a minute each under callgrind.
    pub probes: Vec<String>,
}

/// What one process printed, and the wall time it took (a trial's time,
/// and what the estimate prices trials of its kind at).
#[derive(Debug, Clone)]
pub struct TimedRun {
    pub run: Run,
    pub took: Duration,
}

/// One process to start: a program, its arguments and the slowdown set in
/// its environment (none: the variable is removed).
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub inject: Option<f64>,
}

impl Invocation {
    /// The command line as a reader would type it.
    pub fn command_line(&self) -> String {
        let mut parts = Vec::new();
        if let Some(pct) = self.inject {
            parts.push(format!("{}='*:{}'", inject::VARIABLE, pct));
        }
        parts.push(crate::shell_word(&self.program.display().to_string()));
        parts.extend(self.args.iter().map(|a| crate::shell_word(a)));
        parts.join(" ")
    }

    /// Runs the process in `dir` and reads the run it prints as JSON,
    /// with its wall time. Exit code 1 (a regression or a failed probe)
    /// still gives a run; anything else that is not a run is an error.
    pub fn run(&self, dir: &Path) -> Result<TimedRun, Error> {
        let mut command = Command::new(&self.program);
        command
            .args(&self.args)
            .current_dir(dir)
            .stdin(Stdio::null())
            // A run made inside CI must not annotate the job or write its
            // summary: only the harness's report speaks.
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove(inject::VARIABLE);
        if let Some(pct) = self.inject {
            command.env(inject::VARIABLE, format!("*:{pct}"));
        }
        let shown = self.program.display();
        let started = Instant::now();
        let output = command
            .output()
            .map_err(|e| Error(format!("{shown}: cannot start: {e}")))?;
        let elapsed = started.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        // 3: measured, and too slow against the baseline to judge: a run all
        // the same, which the harness judges by its own rules.
        if !matches!(output.status.code(), Some(0 | 1 | 3)) {
            return Err(Error(format!(
                "{shown}: {}: {}",
                output.status,
                stderr.trim()
            )));
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let run = yardstick::document::store::parse(&stdout).map_err(|m| {
            Error(format!(
                "{shown}: its output is not a run: {m} ({})",
                stderr.trim()
            ))
        })?;
        Ok(TimedRun { run, took: elapsed })
    }
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
    fn timed(&self, judge: Vec<String>, slowdown: Option<f64>) -> Invocation {
        let s = self.sampling;
        let mut args = vec!["--bench".to_string(), "-q".into(), "--json".into()];
        args.extend(judge);
        args.extend([
            format!("--repeat={}", s.repeat),
            format!("--warmup={}", s.warmup),
            format!("--min-batch={}", s.min_batch),
        ]);
        Invocation {
            program: self.binary.clone(),
            args,
            inject: slowdown,
        }
    }

    /// A run the harness compares itself (no baseline in the bench, so
    /// nothing is re-measured).
    pub fn stored(&self, slowdown: Option<f64>) -> Invocation {
        self.timed(vec!["--no-baseline".into()], slowdown)
    }

    /// A run that compares itself with `baseline` at `threshold` percent
    /// (none: each probe's own, from the baseline) and confirms what it
    /// flags.
    pub fn confirmed(
        &self,
        baseline: &Path,
        threshold: Option<f64>,
        slowdown: Option<f64>,
    ) -> Invocation {
        let mut args = vec![format!("--baseline={}", baseline.display())];
        args.extend(threshold.map(|t| format!("--threshold={t}")));
        self.timed(args, slowdown)
    }

    /// An instruction-count run, compared with `baseline` when given
    /// (yardstick's default threshold for counts).
    pub fn instructions(
        &self,
        counts: &CountSampling,
        baseline: Option<&Path>,
        slowdown: Option<f64>,
    ) -> Invocation {
        let mut args = vec![
            "--bench".to_string(),
            "-q".into(),
            "--json".into(),
            "--metric=instructions".into(),
            format!("--min-batch={}", counts.batch),
        ];
        args.push(match baseline {
            Some(b) => format!("--baseline={}", b.display()),
            None => "--no-baseline".into(),
        });
        args.extend(counts.probes.iter().map(|p| format!("--probe={p}")));
        Invocation {
            program: self.binary.clone(),
            args,
            inject: slowdown,
        }
    }

    /// `yardstick compare-builds BIN BIN`: the slowdown goes to the new
    /// side only, through `--env-new`; the batch is the timed runs' batch,
    /// so that the slowdown is resolved the same way.
    pub fn paired(
        &self,
        yardstick: &Path,
        p: PairedSampling,
        seed: u64,
        slowdown: Option<f64>,
    ) -> Invocation {
        let bin = self.binary.display().to_string();
        let mut args = vec![
            "compare-builds".to_string(),
            bin.clone(),
            bin,
            format!("--rounds={}", p.rounds),
            format!("--pairs={}", p.pairs.min(p.rounds)),
            format!("--repeat={}", p.repeat),
            format!("--warmup={}", p.warmup),
            format!("--min-batch={}", self.sampling.min_batch),
            format!("--seed={seed}"),
            "-q".into(),
            "--json".into(),
        ];
        if let Some(pct) = slowdown {
            args.push(format!("--env-new={}=*:{pct}", inject::VARIABLE));
        }
        Invocation {
            program: yardstick.to_path_buf(),
            args,
            inject: None,
        }
    }

    pub fn run(&self, invocation: &Invocation) -> Result<TimedRun, Error> {
        invocation.run(&self.dir)
    }
}

/// What cargo built: the bench target's executable and the workspace's
/// `yardstick` command, which cargo builds for every bench target of the
/// root package.
#[derive(Debug, Clone, PartialEq)]
pub struct Built {
    pub bench: PathBuf,
    pub yardstick: Option<PathBuf>,
}

/// The variables `cargo run` sets for the program it starts, which the
/// cargo started here would pass on to build scripts. ring's build script
/// reruns when `CARGO_MANIFEST_DIR` changes, so with them the bench build
/// differed from the one `cargo bench` makes in a shell, and each rebuilt
/// ring, rustls and everything above them (2.6 min on 2 cores) for the
/// other.
fn is_set_by_cargo_run(name: &str) -> bool {
    matches!(
        name,
        "CARGO_MANIFEST_DIR"
            | "CARGO_MANIFEST_PATH"
            | "CARGO_CRATE_NAME"
            | "CARGO_BIN_NAME"
            | "CARGO_PRIMARY_PACKAGE"
    ) || name.starts_with("CARGO_PKG_")
}

/// Builds the bench target `bench` of the workspace at `workspace` in the
/// bench profile (with the `yardstick` binary beside it) and returns both.
pub fn build(cargo: &OsString, workspace: &Path, bench: &str) -> Result<Built, Error> {
    let mut command = Command::new(cargo);
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(is_set_by_cargo_run) {
            command.env_remove(&name);
        }
    }
    let output = command
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
    let messages = String::from_utf8_lossy(&output.stdout);
    let bench_exe = executable(&messages, bench, "bench").ok_or_else(|| {
        Error(format!(
            "cargo bench --bench {bench} --no-run named no executable for the bench target"
        ))
    })?;
    Ok(Built {
        bench: bench_exe,
        yardstick: executable(&messages, "yardstick", "bin"),
    })
}

/// The executable of target `name` of `kind` (`bench`, `bin`) among
/// cargo's JSON messages (one object a line; other lines and objects are
/// skipped).
pub fn executable(messages: &str, name: &str, kind: &str) -> Option<PathBuf> {
    messages
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == name)
        .filter(|m| {
            m["target"]["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == kind))
        })
        .filter_map(|m| m["executable"].as_str().map(PathBuf::from))
        .next_back()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench() -> Bench {
        Bench {
            binary: "/b/micro".into(),
            dir: ".".into(),
            sampling: Sampling {
                repeat: 3,
                warmup: 1,
                min_batch: 20,
            },
        }
    }

    #[test]
    fn the_variables_of_cargo_run_are_not_passed_to_the_bench_build() {
        for name in [
            "CARGO_MANIFEST_DIR",
            "CARGO_PKG_NAME",
            "CARGO_PKG_VERSION_MAJOR",
        ] {
            assert!(is_set_by_cargo_run(name), "{name}");
        }
        // cargo finds itself through CARGO, and the user's own settings
        // (CARGO_TARGET_DIR, CARGO_HOME) must reach it.
        for name in ["CARGO", "CARGO_TARGET_DIR", "CARGO_HOME", "PATH"] {
            assert!(!is_set_by_cargo_run(name), "{name}");
        }
    }

    #[test]
    fn executables_are_found_among_messages() {
        let messages = r#"not json
{"reason":"compiler-artifact","target":{"name":"yardstick","kind":["lib"]},"executable":null}
{"reason":"compiler-artifact","target":{"name":"yardstick","kind":["bin"]},"executable":"/t/release/yardstick"}
{"reason":"compiler-artifact","target":{"name":"micro","kind":["bench"]},"executable":"/t/release/deps/micro-0123"}
{"reason":"build-finished","success":true}"#;
        assert_eq!(
            executable(messages, "micro", "bench"),
            Some(PathBuf::from("/t/release/deps/micro-0123"))
        );
        assert_eq!(
            executable(messages, "yardstick", "bin"),
            Some(PathBuf::from("/t/release/yardstick"))
        );
        assert_eq!(executable(messages, "yardstick", "bench"), None);
        assert_eq!(executable("", "micro", "bench"), None);
    }

    #[test]
    fn command_lines_say_what_was_injected_and_judged() {
        let b = bench();
        assert_eq!(
            b.stored(Some(15.0)).command_line(),
            "YARDSTICK_INJECT='*:15' /b/micro --bench -q --json --no-baseline --repeat=3 --warmup=1 --min-batch=20"
        );
        assert!(!b.stored(None).command_line().contains("INJECT"));
        assert_eq!(
            b.confirmed(Path::new("/r/baseline.json"), Some(15.0), None)
                .command_line(),
            "/b/micro --bench -q --json --baseline=/r/baseline.json --threshold=15 --repeat=3 --warmup=1 --min-batch=20"
        );
        let counts = CountSampling {
            batch: 50,
            probes: vec!["a".into(), "b".into()],
        };
        assert_eq!(
            b.instructions(&counts, Some(Path::new("/r/c.json")), Some(2.0))
                .command_line(),
            "YARDSTICK_INJECT='*:2' /b/micro --bench -q --json --metric=instructions --min-batch=50 --baseline=/r/c.json --probe=a --probe=b"
        );
        let p = PairedSampling {
            rounds: 8,
            pairs: 10,
            repeat: 1,
            warmup: 0,
        };
        let paired = b.paired(Path::new("/t/yardstick"), p, 9, Some(5.0));
        assert_eq!(paired.inject, None);
        assert_eq!(
            paired.command_line(),
            "/t/yardstick compare-builds /b/micro /b/micro --rounds=8 --pairs=8 --repeat=1 --warmup=0 --min-batch=20 --seed=9 -q --json '--env-new=YARDSTICK_INJECT=*:5'"
        );
        assert!(
            !b.paired(Path::new("/t/yardstick"), p, 9, None)
                .command_line()
                .contains("INJECT")
        );
    }

    #[test]
    fn a_missing_binary_is_named() {
        let mut b = bench();
        b.binary = "/nonexistent/micro".into();
        let e = b.run(&b.stored(None)).unwrap_err().to_string();
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
            let _ = executable(&text, "micro", "bench");
        }
    }
}
