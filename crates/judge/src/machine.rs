//! The rule every wall-time comparison obeys first: a time is judged only
//! against a baseline of the same machine class.
//!
//! Why (docs/design.md, "Why wall time is judged only within a machine
//! class"): between classes (or against a run of unknown class, such as every run saved before
//! classes were recorded) the changes are listed as information and nothing
//! is judged, unless `--cross-machine` asks for the plain rule. HTTP times
//! are this machine's only when every page was served on loopback;
//! otherwise the network decides, and the times are judged with a note.
//! Instruction counts and paired comparisons are not wall time against a
//! stored run, and are never held back.

use crate::document::comparison::{Comparison, Judged, MachineMismatch, Reason, Verdict};
use crate::document::run::{Metric, Mode, Run};
use std::net::IpAddr;

/// Records a class mismatch in `out` and, unless judged anyway, turns every
/// timed regression into an inconclusive check.
pub(super) fn hold_back_across_classes(
    baseline: &Run,
    run: &Run,
    cross_machine: bool,
    out: &mut Comparison,
) {
    let wall_time = match run.mode {
        Mode::Micro => run.metric == Metric::Time,
        Mode::Http | Mode::Kernel => true,
    };
    let (b, n) = (&baseline.environment, &run.environment);
    let same_class = b.machine_class.is_some() && b.machine_class == n.machine_class;
    if !wall_time || same_class {
        return;
    }
    let judged = if cross_machine {
        Judged::CrossMachine
    } else if run.mode == Mode::Http && !(all_on_loopback(baseline) && all_on_loopback(run)) {
        Judged::NotLoopback
    } else {
        Judged::No
    };
    out.machines = Some(MachineMismatch {
        baseline_class: b.class_name().to_string(),
        current_class: n.class_name().to_string(),
        baseline_cpu: b.cpu_name(),
        current_cpu: n.cpu_name(),
        judged,
    });
    if judged == Judged::No {
        for check in out
            .checks
            .iter_mut()
            .filter(|c| c.regressed() && c.metric.is_time())
        {
            check.verdict = Verdict::Inconclusive(Reason::Machine);
        }
    }
}

/// True when every page of an HTTP run was fetched from a loopback address
/// (by literal address or `localhost`).
fn all_on_loopback(run: &Run) -> bool {
    run.rows
        .iter()
        .all(|row| row.page.url.as_deref().is_some_and(url_on_loopback))
}

fn url_on_loopback(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host_port.split(':').next().unwrap_or(""),
    };
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::comparison::Figure;
    use crate::document::run::{CalibrationSummary, Row, RowKind, test_micro_run};
    use crate::{Rules, compare};

    /// A timed micro run of class `class` in which probe `a` took `ms`.
    fn micro(class: Option<&str>, ms: f64) -> Run {
        let row = Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![ms]);
        let mut run = test_micro_run(vec![row], CalibrationSummary::of(&[1.0], &[1.0], 1));
        run.environment.machine_class = class.map(String::from);
        run
    }

    fn judged(base: &Run, now: &Run, cross_machine: bool) -> Comparison {
        let rules = Rules {
            cross_machine,
            ..Rules::default()
        };
        compare(base, "base.json", now, &rules).unwrap()
    }

    #[test]
    fn a_baseline_of_the_same_class_judges() {
        let c = judged(
            &micro(Some("x-2cpu-00000001"), 1.0),
            &micro(Some("x-2cpu-00000001"), 2.0),
            false,
        );
        assert_eq!((c.regressions(), c.machines.is_none()), (1, true));
        assert!(c.failed() && c.machine_note().is_none());
    }

    #[test]
    fn another_class_gives_no_verdict_but_lists_the_change() {
        let c = judged(
            &micro(Some("x-2cpu-00000001"), 1.0),
            &micro(Some("y-2cpu-00000002"), 2.0),
            false,
        );
        assert_eq!(c.regressions(), 0);
        assert!(!c.failed());
        let check = &c.checks[0];
        assert!(check.inconclusive() && !check.regressed() && check.change_pct == 100.0);
        let m = c.machines.as_ref().unwrap();
        assert_eq!(
            (m.baseline_class.as_str(), m.current_class.as_str()),
            ("x-2cpu-00000001", "y-2cpu-00000002")
        );
        assert_eq!(m.judged, Judged::No);
        let note = c.machine_note().unwrap();
        assert!(
            note.contains("x-2cpu-00000001") && note.contains("--cross-machine"),
            "{note}"
        );
    }

    #[test]
    fn a_run_without_a_class_is_of_unknown_class() {
        for (base, now) in [
            (None, Some("x-2cpu-00000001")),
            (Some("x-2cpu-00000001"), None),
            (None, None),
        ] {
            let c = judged(&micro(base, 1.0), &micro(now, 2.0), false);
            assert_eq!(c.regressions(), 0, "{base:?} {now:?}");
            assert!(c.machine_note().unwrap().contains("unknown"));
        }
    }

    #[test]
    fn cross_machine_brings_back_the_plain_rule_with_a_note() {
        let c = judged(
            &micro(Some("x-2cpu-00000001"), 1.0),
            &micro(Some("y-2cpu-00000002"), 2.0),
            true,
        );
        assert_eq!(c.regressions(), 1);
        assert_eq!(c.machines.as_ref().unwrap().judged, Judged::CrossMachine);
        assert!(c.machine_note().unwrap().contains("judged anyway"));
    }

    #[test]
    fn failures_are_judged_on_any_machine() {
        let mut now = micro(Some("y-2cpu-00000002"), 1.0);
        now.rows[0].errors = 2;
        let c = judged(&micro(Some("x-2cpu-00000001"), 1.0), &now, false);
        assert!(
            c.checks
                .iter()
                .any(|k| k.metric == Figure::Errors && k.regressed())
        );
        assert!(c.failed());
    }

    #[test]
    fn http_pages_off_loopback_are_judged_with_a_note() {
        let page = |url: &str, ms: f64| {
            let mut r = Row::with_samples(url.into(), RowKind::Page, url.into(), vec![ms; 10]);
            r.page.url = Some(url.into());
            r
        };
        let http = |class: &str, url: &str, ms: f64| {
            let mut run = micro(Some(class), 1.0);
            run.mode = Mode::Http;
            run.calibration = None;
            run.rows = vec![page(url, ms)];
            run
        };
        let local = "http://127.0.0.1:8080/";
        let c = judged(
            &http("x-2cpu-00000001", local, 10.0),
            &http("y-2cpu-00000002", local, 50.0),
            false,
        );
        assert_eq!(
            (c.regressions(), c.machines.as_ref().unwrap().judged),
            (0, Judged::No)
        );
        let remote = "https://example.com/";
        let c = judged(
            &http("x-2cpu-00000001", remote, 10.0),
            &http("y-2cpu-00000002", remote, 50.0),
            false,
        );
        assert!(c.regressions() > 0);
        assert_eq!(c.machines.as_ref().unwrap().judged, Judged::NotLoopback);
    }

    #[test]
    fn loopback_is_decided_by_the_url_s_host() {
        for url in [
            "http://127.0.0.1:8080/",
            "https://localhost/x?y",
            "http://[::1]:80/",
            "http://user:pw@127.0.0.2/",
        ] {
            assert!(url_on_loopback(url), "{url}");
        }
        for url in [
            "http://example.com/",
            "http://127.0.0.1.example.com/",
            "http://10.0.0.1/",
            "127.0.0.1/",
            "http://localhost.example.com/",
        ] {
            assert!(!url_on_loopback(url), "{url}");
        }
    }
}
