//! `--metric=instructions` and `--metric=estimated-cycles`: each probe's
//! iterations counted by valgrind's callgrind instead of timed.
//!
//! Counts do not move with the machine's load or its model, so a change of
//! 1 % can be trusted where wall time needs 30 %, and a count baseline made
//! on one machine judges a run on another (when the set-ups match, see
//! `setup`). Each probe runs in a child copy of this binary under callgrind,
//! which counts only inside
//! [`yardstick_measured_section`](crate::sample::yardstick_measured_section)
//! (set-up, the check, one warm-up sample and the calibration loop are left
//! out), for one sample of a fixed batch of iterations. Estimated cycles
//! also simulate a fixed cache (see `costs`).

pub mod costs;
pub mod functions;
mod meter;
pub mod pin;

pub use meter::Callgrind;

use crate::document::functions::Functions;
use crate::document::run::{Metric, Run};
use crate::document::store;
use crate::error::Error;
use crate::probe::Probe;
use costs::Costs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The function callgrind counts inside: the root of a counted probe's
/// call tree.
pub const TOGGLE: &str = "yardstick_measured_section";
/// Iterations counted per probe unless `--min-batch` says otherwise: enough
/// to spread one-off costs (first allocations) thin.
pub const DEFAULT_BATCH: u64 = 5;
/// How many times `--probe-timeout` a probe may take under callgrind.
pub const LIMIT_FACTOR: u32 = 100;
/// The longest `--probe-timeout` a child accepts: a day.
const CHILD_TIMEOUT_MAX: f64 = 86_400.0;

/// What counting one probe gave, per iteration of the batch.
#[derive(Debug, Clone, PartialEq)]
pub struct Counted {
    /// The counts: instructions, and with a simulated cache L1 misses,
    /// last-level misses and estimated cycles.
    pub counts: crate::document::row::Counted,
    /// Where they went, function by function; none where callgrind's
    /// output could not be followed (the counts stand without it).
    pub functions: Option<Functions>,
    /// The probe's note.
    pub note: String,
    /// The fingerprint of one iteration's result, as the child saw it.
    pub checksum: Option<u64>,
}

/// A probe counted, or why it could not be.
pub type Count = Result<Counted, String>;

/// The version valgrind reports (`valgrind-3.19.0`), which a count depends
/// on; refuses the run when valgrind cannot be run.
pub fn valgrind_version(metric: Metric) -> Result<String, Error> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        }
        _ => Err(Error::Refused(format!(
            "--metric={} needs valgrind (its callgrind tool), which is not installed",
            metric.as_str()
        ))),
    }
}

/// How to count: the same for every probe of a run.
pub struct Counting<'a> {
    /// How this binary is told to measure (`--bench` for a bench target,
    /// `micro` for a yardstick binary).
    pub invocation: &'a [String],
    /// The iterations each count is divided by.
    pub batch: u64,
    /// Whether to simulate the cache (estimated cycles).
    pub cache: bool,
    /// Receives callgrind's output files.
    pub workdir: &'a Path,
    /// How long one count may take before it is given up.
    pub limit: Duration,
    /// The child's `GLIBC_TUNABLES`.
    pub pinning: &'a pin::Pinning,
}

impl Counting<'_> {
    /// Counts `iterations` iterations of `probe` (the batch, or more with an
    /// injected slowdown, see `inject`) in a child copy of this binary.
    pub fn count(&self, probe: &Probe, iterations: u64) -> Result<Count, Error> {
        let exe = std::env::current_exe()
            .map_err(|e| Error::Refused(format!("cannot find this binary to count it: {e}")))?;
        let out_file = self.workdir.join(format!("{}.callgrind", probe.name));
        let mut valgrind = self.command(&exe, &out_file, probe.name, iterations);
        // A probe under callgrind runs some fifty times slower; past a
        // hundred times its timeout, the count is given up and the row fails.
        let output = match yardstick_process::output_within(&mut valgrind, self.limit) {
            Ok(output) => output,
            Err(why) if why.starts_with("cannot run") => {
                return Err(Error::Refused(format!("valgrind: {why}")));
            }
            Err(why) => {
                return Ok(Err(format!(
                    "valgrind {why} (--probe-timeout × {LIMIT_FACTOR})"
                )));
            }
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        let child = match store::parse(&stdout) {
            Ok(run) => run,
            Err(e) => {
                let stderr = String::from_utf8_lossy(&output.stderr);
                let last = stderr
                    .lines()
                    .rev()
                    .find(|l| !l.starts_with("=="))
                    .unwrap_or("")
                    .trim();
                return Ok(Err(format!(
                    "the counting run gave no result ({e}); {last}"
                )));
            }
        };
        if let Some(message) = failure(&child) {
            return Ok(Err(message));
        }
        let text = std::fs::read_to_string(&out_file).map_err(|e| {
            Error::Refused(format!(
                "{}: cannot read callgrind's output: {e}",
                out_file.display()
            ))
        })?;
        let (note, checksum) = child
            .rows
            .first()
            .map(|r| (r.note.clone(), r.checksum))
            .unwrap_or_default();
        let Some(costs) = Costs::parse(&text).filter(|c| !self.cache || c.cache.is_some()) else {
            return Ok(Err(format!(
                "{}: no totals of the expected events in callgrind's output",
                out_file.display()
            )));
        };
        Ok(Ok(Counted {
            counts: costs.per_iteration(self.batch),
            functions: functions::functions(&text, self.batch, iterations),
            note,
            checksum,
        }))
    }

    /// valgrind running this binary's child copy that counts `iterations`
    /// iterations of probe `name` into `out_file`.
    fn command(&self, exe: &Path, out_file: &Path, name: &str, iterations: u64) -> Command {
        let mut valgrind = Command::new("valgrind");
        valgrind
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", out_file.display()))
            .arg(format!("--toggle-collect={TOGGLE}"))
            .arg("--collect-atstart=no");
        if self.cache {
            valgrind.arg("--cache-sim=yes").args(costs::CACHE);
        }
        crate::probe::param::pass_to(&mut valgrind);
        self.pinning.apply(&mut valgrind);
        valgrind
            .arg(exe)
            .args(self.invocation)
            .arg(format!("--probe={name}"))
            .args([
                "--repeat=1",
                "--warmup=0",
                "--no-calibration",
                "--no-baseline",
                "-q",
                "--format=json",
            ])
            .arg(format!("--min-batch={iterations}"))
            // The child's own watchdog gets the hundredfold time the parent
            // allows: at its default, a slow probe under callgrind (i18n_load
            // at a batch of 50 with the cache simulated, on a loaded
            // machine) was stopped by it and its row failed.
            .arg(format!(
                "--probe-timeout={}",
                self.limit.as_secs_f64().min(CHILD_TIMEOUT_MAX)
            ))
            // The parent injected extra iterations; the child must not
            // stretch its time as well.
            .env_remove(crate::inject::VARIABLE)
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove("GITHUB_ACTIONS");
        valgrind
    }
}

/// The failure note of the child's only row, if it failed.
fn failure(child: &Run) -> Option<String> {
    let row = child.rows.first()?;
    (row.figures.n == 0 && row.errors > 0)
        .then(|| row.note.trim_start_matches("failed: ").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cache: bool, limit: Duration) -> Vec<String> {
        let invocation = ["--bench".to_string()];
        let counting = Counting {
            invocation: &invocation,
            batch: 5,
            cache,
            workdir: Path::new("/w"),
            limit,
            pinning: &pin::Pinning::new(None, true),
        };
        let cmd = counting.command(Path::new("/b/micro"), Path::new("/w/p.out"), "p", 7);
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn the_child_counts_the_injected_iterations_with_the_parents_time_limit() {
        let a = args(false, Duration::from_secs(12_000));
        for expected in [
            "--toggle-collect=yardstick_measured_section",
            "--bench",
            "--probe=p",
            "--min-batch=7",
            "--probe-timeout=12000",
        ] {
            assert!(a.iter().any(|x| x == expected), "{expected} in {a:?}");
        }
        assert!(!a.iter().any(|x| x == "--cache-sim=yes"));
        // The child accepts a day at most.
        assert!(
            args(false, Duration::from_secs(10_000_000))
                .contains(&"--probe-timeout=86400".to_string())
        );
    }

    #[test]
    fn estimated_cycles_simulate_the_fixed_cache() {
        let a = args(true, Duration::from_secs(1));
        for expected in [
            "--cache-sim=yes",
            "--I1=32768,8,64",
            "--D1=32768,8,64",
            "--LL=8388608,16,64",
        ] {
            assert!(a.iter().any(|x| x == expected), "{expected} in {a:?}");
        }
    }
}
