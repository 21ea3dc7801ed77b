//! The closing verdict lines and the exit code they stand for.

use crate::document::comparison::{Comparison, Figure, Judged};
use crate::document::run::{Row, RowKind, Run};
use crate::probe::Role;
use crate::text::clean;
use std::collections::BTreeSet;

/// Names of micro probes that failed their check, their setup, or panicked:
/// a broken probe never passes, with or without a baseline.
pub(crate) fn failed_probes(run: &Run) -> Vec<&Row> {
    if !run.mode.is_probes() {
        return Vec::new();
    }
    run.rows
        .iter()
        .filter(|r| match r.kind {
            // A process probe fails on its first failing child, whatever
            // the children before it gave; its `.process` row stands for it.
            RowKind::Process => r.errors > 0 && r.key.ends_with(".process"),
            _ => r.figures.n == 0 && r.errors > 0,
        })
        .collect()
}

/// The line of a probe that failed, from its row; the name comes from the
/// run. A process probe stands as its `.process` row, and failed a child.
pub(crate) fn failed_line(row: &Row) -> String {
    let name = crate::text::clean(&row.name);
    match (row.kind, name.strip_suffix(".process")) {
        (RowKind::Process, Some(probe)) => {
            format!("FAIL: process probe {probe} failed (see its rows' notes)")
        }
        _ => format!("FAIL: probe {name} failed its check"),
    }
}

/// The lines of variants whose probe passed its own check but whose
/// result differs from their reference's, or cannot be compared with it:
/// they did other work than the workload, and a time cannot excuse that.
/// A variant whose probe failed, or whose reference failed, has its line
/// from [`failed_probes`] already.
pub(crate) fn disagreeing(run: &Run) -> Vec<String> {
    let failed: BTreeSet<&str> = failed_probes(run).iter().map(|r| r.key.as_str()).collect();
    let Some(ranking) = &run.ranking else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for g in &ranking.groups {
        let reference_failed = g
            .variants
            .iter()
            .any(|e| e.role == Role::Reference && failed.contains(e.key.as_str()));
        for e in g.variants.iter().filter(|_| !reference_failed) {
            if let Some(why) = e
                .failed
                .as_ref()
                .filter(|_| !failed.contains(e.key.as_str()))
            {
                out.push(format!(
                    "FAIL: variant {} of group {}: {}",
                    clean(&e.variant),
                    clean(&g.name),
                    clean(why)
                ));
            }
        }
    }
    out
}

/// The lines of a matrix's failed cells beside the base's own (a probe that
/// failed on the base has its line from [`failed_probes`]): a configuration
/// that did other work, failed or lost its worker is never fast.
pub(crate) fn failed_cells(run: &Run) -> Vec<String> {
    let Some(matrix) = &run.matrix else {
        return Vec::new();
    };
    matrix
        .failures()
        .filter(|(_, configuration, _)| *configuration != matrix.base)
        .map(|(probe, configuration, why)| {
            format!(
                "FAIL: configuration {} on probe {}: {}",
                clean(configuration),
                clean(probe),
                clean(why)
            )
        })
        .collect()
}

/// The verdict lines: one per failed probe and disagreeing variant, then
/// PASS or FAIL against the baseline when there is one.
pub fn lines(run: &Run) -> Vec<String> {
    let mut out: Vec<String> = failed_probes(run).into_iter().map(failed_line).collect();
    out.extend(disagreeing(run));
    out.extend(failed_cells(run));
    if let Some(c) = &run.comparison {
        out.push(comparison_line(c));
    }
    out
}

/// The line that closes a comparison. Only a verdict says PASS or FAIL:
/// across machine classes, and against the last run on this machine, the
/// changes are information.
pub(crate) fn comparison_line(c: &Comparison) -> String {
    if let Some(t) = c.tools.as_ref().filter(|t| !t.judged && !c.failed()) {
        return format!(
            "NO VERDICT: the baseline was made by {}, this run by {}; the changes are information",
            t.baseline_tool, t.current_tool
        );
    }
    verdict_line(c).to_string()
}

/// The closing line of a comparison of one tool's runs.
fn verdict_line(c: &Comparison) -> &'static str {
    let held_back = c.machines.as_ref().is_some_and(|m| m.judged == Judged::No);
    if c.failed() {
        let regressed = |allocs: bool| {
            c.checks
                .iter()
                .any(|k| k.regressed() && (k.metric == Figure::Allocs) == allocs)
        };
        match (regressed(false), regressed(true)) {
            (true, true) => "FAIL: slower than the baseline, and allocates more",
            (false, true) => "FAIL: allocates more than the baseline",
            _ => "FAIL: slower than the baseline",
        }
    } else if held_back {
        "NO VERDICT: the machine classes differ or are unknown; the changes are information"
    } else if !c.param_differences.is_empty() {
        "NO VERDICT: the probes ran with other parameters than the baseline's; the changes are \
         information"
    } else if !c.setup_differences.is_empty() {
        "NO VERDICT: the counts were made with another set-up; the changes are information"
    } else if c.informational && c.regressions() > 0 {
        "INFO: slower than the last run on this machine (information, not a verdict)"
    } else if c.informational {
        "INFO: no slowdown against the last run on this machine (information, not a verdict)"
    } else {
        "PASS: no regression"
    }
}

/// 1 when a probe failed, a variant disagreed with its reference, a
/// matrix's cell failed or something regressed, else 0.
pub fn exit_code(run: &Run) -> i32 {
    let regressed = run.comparison.as_ref().is_some_and(|c| c.failed());
    if regressed
        || !failed_probes(run).is_empty()
        || !disagreeing(run).is_empty()
        || !failed_cells(run).is_empty()
    {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::failed_line;
    use crate::document::run::{Row, RowKind};

    #[test]
    fn a_process_probe_fails_as_a_process() {
        let row = |name: &str, kind| Row::with_samples(name.into(), kind, name.into(), vec![]);
        assert_eq!(
            failed_line(&row("ini_parse", RowKind::Probe)),
            "FAIL: probe ini_parse failed its check"
        );
        assert_eq!(
            failed_line(&row("kernel.process", RowKind::Process)),
            "FAIL: process probe kernel failed (see its rows' notes)"
        );
    }
}
