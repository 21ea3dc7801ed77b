//! The closing verdict lines and the exit code they stand for.

use crate::document::comparison::{Comparison, Figure, Judged};
use crate::document::failures;
use crate::document::outcome::RunOutcome;
use crate::document::run::{Metric, Row, RowKind, Run};
use crate::probe::Role;
use crate::text::{clean, cleaned};
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
            _ => (r.figures.n == 0 && r.errors > 0) || no_figure(run, r),
        })
        .collect()
}

/// Whether probe row `r` lacks the figure its run is judged by: a probe
/// that failed where it was measured (another tool's format marks it so,
/// with no error count) is a failure, never a row quietly left out.
fn no_figure(run: &Run, r: &Row) -> bool {
    match run.metric {
        Metric::Time => r.figures.median.is_none(),
        Metric::Instructions => r.counted.instructions.is_none(),
        Metric::EstimatedCycles => r.counted.estimated_cycles.is_none(),
    }
}

/// The line of a probe that failed, from its row; the name comes from the
/// run. A process probe stands as its `.process` row, and failed a child.
pub(crate) fn failed_line(row: &Row) -> String {
    let name = crate::text::clean(&row.name);
    match (row.kind, name.strip_suffix(".process")) {
        (RowKind::Process, Some(probe)) => {
            format!("FAIL: process probe {probe} failed (see its rows' notes)")
        }
        _ if row.errors == 0 => {
            format!("FAIL: probe {name} has no figure (it failed where it was measured)")
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

/// The lines of an HTTP run that failed more of its requests than its
/// settings' `max_failures` allows, or made none: a dead server is no
/// pass, with or without a baseline. A page marked overloaded has a line
/// of its own, saying what the server sustained; a run whose pages carry
/// no mark (made before pages were marked) is judged by its whole share.
/// Whatever the cap, a page that got no answer has a line: it was not
/// measured. Runs without the cap (older ones, imports; a run judged
/// against a baseline's error rates) have no such line.
pub(crate) fn failed_requests(run: &Run) -> Vec<String> {
    let Some(cap) = run.settings.http().and_then(|s| s.max_failures) else {
        return Vec::new();
    };
    let pages: Vec<&Row> = run
        .rows
        .iter()
        .filter(|r| r.kind == RowKind::Page)
        .collect();
    let (failed, all) = pages.iter().fold((0u64, 0u64), |(f, a), r| {
        (f.saturating_add(r.errors), a.saturating_add(r.requests))
    });
    if all == 0 {
        return vec!["FAIL: no request was made, so nothing was measured".to_string()];
    }
    let overloaded: Vec<String> = pages
        .iter()
        .filter(|r| r.page.overloaded)
        .map(|r| overloaded_line(r, cap))
        .collect();
    if !overloaded.is_empty() {
        return overloaded;
    }
    let share = failures::share(failed, all);
    if share > cap {
        return vec![format!(
            "FAIL: {failed} of {all} requests failed ({share:.1} %, more than --max-failures={cap} %)"
        )];
    }
    // No cap makes a run in which every request failed a pass: it
    // measured nothing. Nor a page of it: its row has no time.
    if failed >= all {
        return vec![format!(
            "FAIL: all {all} requests failed, so nothing was measured (whatever --max-failures allows)"
        )];
    }
    pages
        .iter()
        .filter(|r| r.errors >= r.requests)
        .map(|r| unmeasured_line(r))
        .collect()
}

/// `FAIL: server /login: all 100 requests failed (connect 100), so it was
/// not measured (whatever --max-failures allows)`, or for a page that made
/// no request at all (a k6 run whose iterations were all dropped), `FAIL:
/// server /login: no request was made, so it was not measured`.
fn unmeasured_line(r: &Row) -> String {
    let target = r.page.target.as_deref().unwrap_or("");
    if r.requests == 0 {
        return cleaned(&format!(
            "FAIL: {target} {}: no request was made, so it was not measured",
            r.name
        ));
    }
    let kinds = said_kinds(r).map(|k| format!(" ({k})")).unwrap_or_default();
    cleaned(&format!(
        "FAIL: {target} {}: all {} requests failed{kinds}, so it was not measured (whatever \
         --max-failures allows)",
        r.name, r.requests
    ))
}

/// A page's failures by kind, `closed 29000, timeout 64`, when it counted
/// any.
fn said_kinds(r: &Row) -> Option<String> {
    r.page
        .failures
        .filter(|f| f.total() > 0)
        .map(|f| f.to_string())
}

/// `FAIL: server / overloaded: 29064 of 30000 requests failed (96.9 %:
/// closed 29064), more than --max-failures=0 %; it sustained 574 req/s`.
fn overloaded_line(r: &Row, cap: f64) -> String {
    let share = failures::share(r.errors, r.requests);
    let kinds = said_kinds(r).map(|k| format!(": {k}")).unwrap_or_default();
    let sustained = r
        .rps
        .map(|rps| format!("; it sustained {} req/s", crate::http_table::rate(rps)))
        .unwrap_or_default();
    cleaned(&format!(
        "FAIL: {} {} overloaded: {} of {} requests failed ({share:.1} %{kinds}), more than \
         --max-failures={cap} %{sustained}",
        r.page.target.as_deref().unwrap_or(""),
        r.name,
        r.errors,
        r.requests
    ))
}

/// The verdict lines: one per failed probe and disagreeing variant, then
/// PASS or FAIL against the baseline when there is one.
pub fn lines(run: &Run) -> Vec<String> {
    let mut out: Vec<String> = failed_probes(run).into_iter().map(failed_line).collect();
    out.extend(disagreeing(run));
    out.extend(failed_cells(run));
    out.extend(failed_requests(run));
    if let Some(c) = &run.comparison {
        out.extend(closing_after(c, !out.is_empty()));
    }
    out
}

/// The closing line of `c` after the FAIL lines of a run that failed
/// otherwise (`broken`), if it still says something: "PASS: no regression"
/// or "no slowdown against the last run" there would read as an
/// all-clear.
pub(crate) fn closing_after(c: &Comparison, broken: bool) -> Option<String> {
    let (closing, line) = closing(c);
    let all_clear = closing == Closing::Pass || (c.informational && c.regressions() == 0);
    (!broken || !all_clear).then_some(line)
}

/// What a comparison comes to, as its closing line's first word says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closing {
    /// Something regressed.
    Fail,
    /// The changes are information: other machine classes, tools,
    /// parameters or count set-ups, or the last run on this machine.
    Information,
    /// Same class, but the machine ran too slow to judge a probe over the
    /// threshold, and nothing else failed.
    Inconclusive,
    /// Judged, and nothing regressed.
    Pass,
}

/// How a comparison closes, and its line. Only a verdict says PASS or
/// FAIL: across machine classes, and against the last run on this
/// machine, the changes are information.
pub(crate) fn closing(c: &Comparison) -> (Closing, String) {
    if let Some(t) = c.tools.as_ref().filter(|t| !t.judged && !c.failed()) {
        return (
            Closing::Information,
            format!(
                "NO VERDICT: the baseline was made by {}, this run by {}; the changes are information",
                t.baseline_tool, t.current_tool
            ),
        );
    }
    let (closing, line) = verdict_line(c);
    (closing, line.to_string())
}

/// The closing line of a comparison of one tool's runs.
fn verdict_line(c: &Comparison) -> (Closing, &'static str) {
    let held_back = c.machines.as_ref().is_some_and(|m| m.judged == Judged::No);
    let information = |line| (Closing::Information, line);
    if c.failed() {
        let regressed = |allocs: bool| {
            c.checks
                .iter()
                .any(|k| k.regressed() && (k.metric == Figure::Allocs) == allocs)
        };
        let line = match (regressed(false), regressed(true)) {
            (true, true) => "FAIL: slower than the baseline, and allocates more",
            (false, true) => "FAIL: allocates more than the baseline",
            _ => "FAIL: slower than the baseline",
        };
        (Closing::Fail, line)
    } else if held_back {
        information(
            "NO VERDICT: the machine classes differ or are unknown; the changes are information",
        )
    } else if !c.param_differences.is_empty() {
        information(
            "NO VERDICT: the probes ran with other parameters than the baseline's; the changes \
             are information",
        )
    } else if !c.setup_differences.is_empty() {
        information(
            "NO VERDICT: the counts were made with another set-up; the changes are information",
        )
    } else if c.informational && c.regressions() > 0 {
        information("INFO: slower than the last run on this machine (information, not a verdict)")
    } else if c.informational {
        information(
            "INFO: no slowdown against the last run on this machine (information, not a verdict)",
        )
    } else if !c.too_slow_to_judge().is_empty() {
        (
            Closing::Inconclusive,
            "INCONCLUSIVE: the machine ran too slow against the baseline to judge the probes \
             over the threshold (exit code 3)",
        )
    } else {
        (Closing::Pass, "PASS: no regression")
    }
}

/// The exit code of a run that was measured but could not be judged: not
/// a failure, and not a pass either, so that CI can tell it apart
/// (`cargo bench || test $? = 3` accepts it).
pub const INCONCLUSIVE: i32 = 3;

/// 1 when a probe failed, a variant disagreed with its reference, a
/// matrix's cell failed, too many requests failed or something regressed;
/// else [`INCONCLUSIVE`] when the machine ran too slow to judge, else 0.
pub fn exit_code(run: &Run) -> i32 {
    code(run.comparison.as_ref(), broken(run))
}

/// Whether something in `run` failed outright, which no machine excuses.
fn broken(run: &Run) -> bool {
    !failed_probes(run).is_empty()
        || !disagreeing(run).is_empty()
        || !failed_cells(run).is_empty()
        || !failed_requests(run).is_empty()
}

/// The verdict `run` is delivered with, to be kept in it: its exit code,
/// whether it is broken, and its lines.
pub fn outcome(run: &Run) -> RunOutcome {
    RunOutcome {
        exit_code: exit_code(run),
        broken: broken(run),
        lines: lines(run),
    }
}

/// The exit code of comparison `c` (if any) of a run in which something
/// failed outright or not (`broken`).
pub(crate) fn code(c: Option<&Comparison>, broken: bool) -> i32 {
    match c.map(|c| closing(c).0) {
        _ if broken => 1,
        Some(Closing::Fail) => 1,
        Some(Closing::Inconclusive) => INCONCLUSIVE,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::{INCONCLUSIVE, exit_code, failed_line, lines};
    use crate::document::run::{CalibrationSummary, Mode, Row, RowKind, Run, test_micro_run};
    use crate::document::settings::{HttpSettings, Settings};
    use crate::judge::{Rules, compare};

    /// An HTTP run of one page, `errors` of its `requests` failed, judged
    /// by `cap` (the settings' `max_failures`).
    fn http_run(requests: u64, errors: u64, cap: Option<f64>) -> Run {
        let mut row = Row::with_samples("a /".into(), RowKind::Page, "/".into(), vec![1.0]);
        (row.requests, row.errors) = (requests, errors);
        Run {
            mode: Mode::Http,
            settings: Settings::Http(HttpSettings {
                max_failures: cap,
                ..HttpSettings::default()
            }),
            ..test_micro_run(vec![row], None)
        }
    }

    #[test]
    fn an_overloaded_page_fails_the_run_saying_what_the_server_sustained() {
        let mut run = http_run(30_000, 29_064, Some(5.0));
        let row = &mut run.rows[0];
        row.page.target = Some("nginx".into());
        row.page.overloaded = true;
        row.rps = Some(574.2);
        row.page.failures = Some(crate::document::failures::Failures {
            closed: 29_000,
            timeout: 64,
            ..Default::default()
        });
        assert_eq!(
            lines(&run),
            [
                "FAIL: nginx / overloaded: 29064 of 30000 requests failed (96.9 %: closed 29000, \
                 timeout 64), more than --max-failures=5 %; it sustained 574 req/s"
            ]
        );
        assert_eq!(exit_code(&run), 1);
    }

    #[test]
    fn a_run_whose_requests_failed_fails_without_a_baseline() {
        let dead = http_run(100, 100, Some(0.0));
        assert_eq!(
            lines(&dead),
            ["FAIL: 100 of 100 requests failed (100.0 %, more than --max-failures=0 %)"]
        );
        assert_eq!(exit_code(&dead), 1);
        // One failure in 100 passes a cap of 1 %, and fails one of 0.5 %.
        assert_eq!(exit_code(&http_run(100, 1, Some(1.0))), 0);
        assert_eq!(exit_code(&http_run(100, 1, Some(0.5))), 1);
        // Every request failed: no cap allows it.
        assert_eq!(exit_code(&http_run(100, 100, Some(100.0))), 1);
        assert!(
            lines(&http_run(100, 100, Some(100.0)))[0].starts_with("FAIL: all 100 requests failed")
        );
        // No request at all measured nothing.
        let none = http_run(0, 0, Some(100.0));
        assert_eq!(exit_code(&none), 1);
        assert!(lines(&none)[0].starts_with("FAIL: no request was made"));
        // A run without the cap (older, or imported) is judged as before.
        assert_eq!(exit_code(&http_run(100, 100, None)), 0);
    }

    #[test]
    fn a_page_none_of_whose_requests_succeeded_fails_whatever_the_cap() {
        let mut run = http_run(100, 0, Some(100.0));
        let mut dead = run.rows[0].clone();
        (dead.key, dead.name) = ("a /login".into(), "/login".into());
        (dead.requests, dead.errors) = (40, 40);
        dead.page.target = Some("site".into());
        dead.page.failures = Some(crate::document::failures::Failures {
            connect: 40,
            ..Default::default()
        });
        run.rows.push(dead);
        assert_eq!(
            lines(&run),
            [
                "FAIL: site /login: all 40 requests failed (connect 40), so it was not measured \
                 (whatever --max-failures allows)"
            ]
        );
        assert_eq!(exit_code(&run), 1);
        // One answer is a measurement: the cap decides.
        run.rows[1].errors = 39;
        assert_eq!(exit_code(&run), 0);
        // A page that made no request measured nothing either.
        (run.rows[1].requests, run.rows[1].errors) = (0, 0);
        assert_eq!(
            lines(&run),
            ["FAIL: site /login: no request was made, so it was not measured"]
        );
    }

    #[test]
    fn a_machine_too_slow_to_judge_is_inconclusive_not_a_pass() {
        let calibration = |ms: f64| CalibrationSummary::of(&[ms; 5], &[ms; 5], 1);
        let probe = |ms: f64| Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![ms]);
        let base = test_micro_run(vec![probe(1.0)], calibration(10.0));
        // The loop 40 % slower (past the default 30 %), the probe 50 %
        // slower against it: over the threshold, and not judged.
        let judged = |loop_ms: f64, probe_ms: f64| {
            let mut now = test_micro_run(vec![probe(probe_ms)], calibration(loop_ms));
            now.comparison = Some(compare(&base, "b", &now, &Rules::default()).unwrap());
            now
        };
        let unjudged = judged(14.0, 2.1);
        assert_eq!(exit_code(&unjudged), INCONCLUSIVE);
        assert!(
            lines(&unjudged)[0].starts_with("INCONCLUSIVE: "),
            "{:?}",
            lines(&unjudged)
        );
        // Too slow, but nothing over the threshold: judged, and a pass.
        let passed = judged(14.0, 1.4);
        assert_eq!(
            (exit_code(&passed), lines(&passed)),
            (0, vec!["PASS: no regression".into()])
        );
        // A failed probe beside it fails the run.
        let mut broken = judged(14.0, 2.1);
        broken.rows.push(Row::with_samples(
            "b".into(),
            RowKind::Probe,
            "b".into(),
            vec![],
        ));
        broken.rows[1].errors = 1;
        assert_eq!(exit_code(&broken), 1);
    }

    #[test]
    fn a_probe_without_its_figure_fails_even_without_an_error_count() {
        // exp:benchmark marks a failed probe by a null median alone.
        let mut empty = Row::with_samples("b".into(), RowKind::Probe, "b".into(), vec![]);
        empty.errors = 0;
        let fine = Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![1.0]);
        let run = test_micro_run(vec![fine, empty], None);
        assert_eq!(
            lines(&run),
            ["FAIL: probe b has no figure (it failed where it was measured)"]
        );
        assert_eq!(exit_code(&run), 1);
    }

    #[test]
    fn a_process_probe_fails_as_a_process() {
        let row = |name: &str, kind| {
            let mut r = Row::with_samples(name.into(), kind, name.into(), vec![]);
            r.errors = 3;
            r
        };
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
