//! `--metric=instructions`: each probe's iterations counted by valgrind's
//! callgrind instead of timed.
//!
//! Instruction counts do not move with the machine's load, so a change of
//! 1 % can be trusted where wall time needs 15 %. Each probe runs in a child
//! copy of this binary under callgrind, which counts only inside
//! [`yardstick_measured_section`](crate::measure::yardstick_measured_section)
//! (set-up, the check, one warm-up sample and the calibration loop are left
//! out), for one sample of a fixed batch of iterations.

use crate::error::Error;
use crate::probe::Probe;
use crate::run::Run;
use crate::store;
use std::path::Path;
use std::process::Command;

/// The function callgrind counts inside.
pub const TOGGLE: &str = "yardstick_measured_section";
/// Iterations counted per probe unless `--min-batch` says otherwise: enough
/// to spread one-off costs (first allocations) thin.
pub const DEFAULT_BATCH: u64 = 5;

/// What counting one probe gave: instructions per iteration and the probe's
/// note, or why it could not be counted.
pub type Count = Result<(f64, String), String>;

/// How many times `--probe-timeout` a probe may take under callgrind.
pub const LIMIT_FACTOR: u32 = 100;

/// Checks that valgrind can be run, before any probe is counted.
pub fn require_valgrind() -> Result<(), Error> {
    match Command::new("valgrind").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        _ => Err(Error::Refused(
            "--metric=instructions needs valgrind (its callgrind tool), which is not installed"
                .to_string(),
        )),
    }
}

/// Counts `probe` in a child copy of this binary. `invocation` is how the
/// binary is told to measure (`--bench` for a bench target, `micro` for a
/// yardstick binary); `workdir` receives callgrind's output.
pub fn count(
    probe: &Probe,
    invocation: &[String],
    batch: u64,
    workdir: &Path,
    limit: std::time::Duration,
) -> Result<Count, Error> {
    let exe = std::env::current_exe()
        .map_err(|e| Error::Refused(format!("cannot find this binary to count it: {e}")))?;
    let out_file = workdir.join(format!("{}.callgrind", probe.name));
    let mut valgrind = Command::new("valgrind");
    valgrind
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(format!("--toggle-collect={TOGGLE}"))
        .arg("--collect-atstart=no")
        .arg(&exe)
        .args(invocation)
        .arg(format!("--probe={}", probe.name))
        .args([
            "--repeat=1",
            "--warmup=0",
            "--no-calibration",
            "--no-baseline",
            "-q",
            "--format=json",
        ])
        .arg(format!("--min-batch={batch}"))
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_ACTIONS");
    // A probe under callgrind runs some fifty times slower; past a hundred
    // times its timeout, the count is given up and the row fails.
    let output = match crate::process::output_within(&mut valgrind, limit) {
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
    let note = child
        .rows
        .first()
        .map(|r| r.note.clone())
        .unwrap_or_default();
    match totals(&text) {
        Some(total) => Ok(Ok((total as f64 / batch as f64, note))),
        None => Ok(Err(format!(
            "{}: no totals line in callgrind's output",
            out_file.display()
        ))),
    }
}

/// The failure note of the child's only row, if it failed.
fn failure(child: &Run) -> Option<String> {
    let row = child.rows.first()?;
    (row.n == 0 && row.errors > 0).then(|| row.note.trim_start_matches("failed: ").to_string())
}

/// The instruction total of a callgrind output file: the `totals:` line (or
/// `summary:`), first event (Ir).
pub fn totals(text: &str) -> Option<u64> {
    let line = text
        .lines()
        .find(|l| l.starts_with("totals:"))
        .or_else(|| text.lines().find(|l| l.starts_with("summary:")))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::totals;

    #[test]
    fn totals_line_is_read() {
        let text = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 1234\n\nfn=(1) main\n3 10\ntotals: 1234\n";
        assert_eq!(totals(text), Some(1234));
        assert_eq!(totals("events: Ir\nsummary: 77\n"), Some(77));
        assert_eq!(totals("events: Ir\n"), None);
        assert_eq!(totals("totals: many\n"), None);
    }
}
