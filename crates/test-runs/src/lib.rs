//! Runs built for tests: a run of every kind whose every text field is
//! given, the hostile input of the printers' and the report's property
//! tests (yardstick's `output/properties.rs`, yardstick-report's
//! `properties.rs`), defined once for both. A dev-dependency only, so no
//! bench builds it.

use std::collections::BTreeMap;
use yardstick_document::comparison::{
    CalibrationRatio, Check, Comparison, EnvironmentDifference, Figure, Judged, MachineMismatch,
    Method, Reason, Verdict,
};
use yardstick_document::environment::Environment;
use yardstick_document::matrix::{Cell, Line, Matrix};
use yardstick_document::ranking::{Entry, Group, Outcome, Ranking, Standing};
use yardstick_document::run::{
    CalibrationSummary, FORMAT, Metric, Mode, Row, RowKind, Run, ServerPair, TOOL,
};
use yardstick_document::settings::{HttpSettings, MicroSettings, Settings};
use yardstick_probe::Role;
use yardstick_stats::bootstrap::Interval;

/// A run of `mode` and its comparison, every text field taken in turn
/// from `t`, in turn and again.
pub fn hostile(mode: Mode, metric: Metric, t: &[String]) -> Run {
    let mut next = t.iter().cycle().cloned();
    let mut s = || next.next().unwrap_or_default();
    let mut rows = Vec::new();
    for failed in [false, true] {
        let mut r = Row::with_samples(s(), RowKind::Page, s(), vec![1.0, 2.0]);
        if failed {
            (r.figures.n, r.errors) = (0, 3);
        }
        r.note = s();
        r.page.target = Some(s());
        r.page.url = Some(s());
        r.page.server = Some(s());
        r.page.tool = Some(s());
        r.error_messages = BTreeMap::from([(s(), 2)]);
        r.page.status = BTreeMap::from([(s(), 1)]);
        r.page.cache = BTreeMap::from([(s(), 1)]);
        r.normalized = Some(1.5);
        (
            r.counted.instructions,
            r.counted.l1_misses,
            r.counted.ll_misses,
        ) = (Some(9.0), Some(2.0), Some(1.0));
        r.counted.estimated_cycles = Some(50.0);
        rows.push(r);
    }
    let check = |s: &mut dyn FnMut() -> String, verdict| Check {
        p_value: Some(0.01),
        ..Check::new(&s(), Figure::Other(s()), 1.0, 2.0, 100.0, verdict)
    };
    let comparison = Comparison {
        baseline: s(),
        method: Method::Normalized,
        threshold: 10.0,
        checks: vec![
            check(&mut s, Verdict::Regressed),
            check(&mut s, Verdict::Inconclusive(Reason::Machine)),
            check(&mut s, Verdict::Ok),
        ],
        missing: vec![s(), s()],
        new: vec![s()],
        environment_differences: vec![EnvironmentDifference {
            field: s(),
            baseline: s(),
            current: s(),
        }],
        setup_differences: vec![EnvironmentDifference {
            field: s(),
            baseline: s(),
            current: s(),
        }],
        calibration: Some(CalibrationRatio {
            baseline: 1.0,
            current: 2.0,
            speed: 0.5,
            max_slowdown: Some(30.0),
        }),
        machines: Some(MachineMismatch {
            baseline_class: s(),
            current_class: s(),
            baseline_cpu: s(),
            current_cpu: s(),
            judged: Judged::No,
        }),
        basis: Some(s()),
        ..Comparison::default()
    };
    let environment = Environment {
        date: s(),
        rustc: s(),
        profile: s(),
        opt_level: s(),
        git_commit: s(),
        ci: s(),
        machine_class: Some(s()),
        calibration_crates: Some(BTreeMap::from([(s(), s()), (s(), s())])),
        ..Environment::default()
    };
    let settings = if mode == Mode::Http {
        Settings::Http(HttpSettings {
            servers: vec![s()],
            pages: vec![s()],
            tool: s(),
            tools_found: vec![s(), s()],
            requests: 1,
            warmup_effective: 1,
            duration: Some(1),
            ..HttpSettings::default()
        })
    } else {
        let mut micro = MicroSettings::default();
        micro.counting.cache_sim = Some(s());
        Settings::Micro(micro)
    };
    Run {
        tool: TOOL.into(),
        format: FORMAT,
        mode,
        started: s(),
        machine: s(),
        settings,
        environment,
        warnings: vec![s()],
        rows,
        calibration: CalibrationSummary::of(&[1.0], &[1.0], 1),
        comparison: Some(comparison),
        server_pairs: Some(vec![ServerPair {
            name: s(),
            base: s(),
            other: s(),
            base_median: Some(1.0),
            other_median: Some(2.0),
            median_ratio: Some(2.0),
            base_rps: None,
            other_rps: None,
            rps_ratio: None,
        }]),
        metric,
        ranking: Some(ranking(&mut s)),
        matrix: Some(matrix(&mut s)),
        thresholds: None,
        outcome: None,
        explanation: None,
    }
}

/// A matrix whose every text comes from `s`: a base, a measured
/// configuration and a failed one (a verdict line of its own).
fn matrix(s: &mut impl FnMut() -> String) -> Matrix {
    let measured = Cell {
        median: Some(1.0),
        multiplier: Some(Interval {
            low: 0.9,
            estimate: 1.0,
            high: 1.1,
        }),
        sets: 10,
        failed: None,
    };
    let failed = Cell {
        failed: Some(s()),
        ..Cell::default()
    };
    Matrix {
        metric: Metric::Time,
        base: s(),
        configurations: vec![s(), s(), s()],
        lines: vec![Line {
            probe: s(),
            cells: vec![Cell::default(), measured.clone(), failed],
        }],
        geomean: vec![Cell::default(), measured, Cell::default()],
        margin: Some(0.02),
    }
}

/// A ranking whose every text comes from `s`: one group, a variant that
/// failed to agree (a verdict line of its own) and one tied.
fn ranking(s: &mut impl FnMut() -> String) -> Ranking {
    let interval = Interval {
        low: 0.9,
        estimate: 1.0,
        high: 1.1,
    };
    let mut entry = |role, failed: bool| Entry {
        variant: s(),
        key: s(),
        role,
        median: Some(interval),
        ratio: Some(interval),
        memory: None,
        failed: failed.then(&mut *s),
    };
    let variants = vec![entry(Role::Reference, false), entry(Role::Contender, true)];
    Ranking {
        groups: vec![Group {
            name: s(),
            reference: s(),
            outcome: Outcome::Tie(vec![variants[0].variant.clone()]),
            variants,
        }],
        standings: vec![Standing {
            variant: s(),
            groups: 1,
            wins: 0,
            ties: 1,
            failed: 1,
            geomean_ratio: Some(1.0),
        }],
        margin: Some(0.02),
    }
}
