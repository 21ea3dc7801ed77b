//! The closing verdict lines and the exit code they stand for.

use crate::run::{Mode, Run};

/// Names of micro probes that failed their check, their setup, or panicked:
/// a broken probe never passes, with or without a baseline.
pub fn failed_probes(run: &Run) -> Vec<&str> {
    if run.mode != Mode::Micro {
        return Vec::new();
    }
    run.rows
        .iter()
        .filter(|r| r.n == 0 && r.errors > 0)
        .map(|r| r.name.as_str())
        .collect()
}

/// The verdict lines: one per failed probe, then PASS or FAIL against the
/// baseline when there is one.
pub fn lines(run: &Run) -> Vec<String> {
    let mut out: Vec<String> = failed_probes(run)
        .into_iter()
        .map(|name| format!("FAIL: probe {name} failed its check"))
        .collect();
    if let Some(c) = &run.comparison {
        out.push(comparison_line(c.failed()).to_string());
    }
    out
}

pub fn comparison_line(failed: bool) -> &'static str {
    if failed {
        "FAIL: slower than the baseline"
    } else {
        "PASS: no regression"
    }
}

/// 1 when a probe failed or something regressed, else 0.
pub fn exit_code(run: &Run) -> i32 {
    let regressed = run.comparison.as_ref().is_some_and(|c| c.failed());
    if regressed || !failed_probes(run).is_empty() {
        1
    } else {
        0
    }
}
