//! `--count-check`'s other direction, and its note when nothing judges.
//!
//! A committed count baseline is exact, so a count that moved past the
//! threshold *down* means the file no longer describes the code: landed
//! that way, a later regression of the same size would pass unseen
//! (uri_parse's count once moved −7.6 % without a refresh). The check
//! fails on it, asking for the file to be refreshed in the same commit.

use crate::document::check::Figure;
use crate::document::outcome::RunOutcome;
use crate::document::run::Run;
use crate::error::Error;
use crate::judge::over_threshold;
use crate::output::deliver::{self, Delivery};
use crate::output::{github, stdout, verdict};

/// Delivers `run` as `deliver` does and fails it (exit 1) when `stale`
/// counts moved past the threshold the other way (see [`mark`]), saying so
/// on stderr.
pub(crate) fn deliver(run: Run, delivery: &Delivery, stale: usize) -> Result<i32, Error> {
    // The outcome the run was kept with, set just before (see micro's
    // `main`); made again only if it is missing.
    let outcome = run.outcome.clone().unwrap_or_else(|| outcome(&run, stale));
    let code = deliver::deliver_as(run, outcome, delivery)?;
    if stale == 0 {
        return Ok(code);
    }
    eprintln!("{}", failed_line(stale));
    Ok(code.max(1))
}

/// The line of a run whose `stale` counts moved past the threshold the
/// other way.
fn failed_line(stale: usize) -> String {
    format!(
        "FAIL: {stale} count(s) moved past the threshold the other way: refresh the committed \
         count baseline"
    )
}

/// The verdict `run` is delivered with when `stale` of its counts moved
/// the other way (see [`mark`]): a failure, with its line.
pub(crate) fn outcome(run: &Run, stale: usize) -> RunOutcome {
    let mut outcome = verdict::outcome(run);
    if stale > 0 {
        outcome.exit_code = outcome.exit_code.max(1);
        outcome.lines.push(failed_line(stale));
    }
    outcome
}

/// With `check` (`--count-check`), adds a warning to `run` for each count
/// that moved past the threshold the other way, before the run is drawn or
/// delivered; returns how many.
pub(crate) fn mark(run: &mut Run, check: bool) -> usize {
    let stale = if check { lines(run) } else { Vec::new() };
    run.warnings.extend(stale.iter().cloned());
    stale.len()
}

/// `--count-check` where no committed file can judge: `note` says why, as
/// a warning (and a `::warning` in GitHub Actions, so that a C library
/// update that retires the file is seen), and the exit code is 0.
pub(crate) fn unjudged(note: &str) -> i32 {
    stdout::line(&format!("warning: {note}"));
    if github::is_actions() {
        stdout::line(&github::warning("Counts not checked", note).to_string());
    }
    0
}

/// One line per count of `run` that moved down past its comparison's
/// threshold; none without a verdict (another set-up gives information).
pub(crate) fn lines(run: &Run) -> Vec<String> {
    let Some(c) = &run.comparison else {
        return Vec::new();
    };
    if c.informational {
        return Vec::new();
    }
    c.checks
        .iter()
        .filter(|k| matches!(k.metric, Figure::Instructions | Figure::EstimatedCycles))
        // The judge's rule, the other way: strictly past the threshold.
        .filter(|k| over_threshold(-k.change_pct, c.threshold))
        .map(|k| {
            format!(
                "{} {} moved {:+.2} %, past the {} % threshold the other way: the committed \
                 count baseline is stale; refresh it in the same commit (docs/baselines.md, \
                 \"Count baselines\")",
                k.key, k.metric, k.change_pct, c.threshold
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::check::{Check, Verdict};
    use crate::document::comparison::{Comparison, Method};
    use crate::document::run::test_micro_run;

    fn judged(changes: &[f64], informational: bool) -> Run {
        let mut run = test_micro_run(Vec::new(), None);
        let mut c = Comparison::new("counts.json", Method::EstimatedCycles, 1.0);
        c.informational = informational;
        for (i, change) in changes.iter().enumerate() {
            c.checks.push(Check::new(
                &format!("p{i}"),
                Figure::EstimatedCycles,
                100.0,
                100.0 + change,
                *change,
                Verdict::of(*change > 1.0),
            ));
        }
        run.comparison = Some(c);
        run
    }

    #[test]
    fn a_count_that_fell_past_the_threshold_is_stale() {
        let lines = lines(&judged(&[-7.6, -1.0, 0.5, 3.0], false));
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("p0 estimated-cycles moved -7.60 %"),
            "{}",
            lines[0]
        );
        // Exactly at the threshold is within it, as for regressions.
        assert!(super::lines(&judged(&[-1.0], false)).is_empty());
        // Another set-up judges nothing, this rule included.
        assert!(super::lines(&judged(&[-7.6], true)).is_empty());
    }
}
