//! One maximal run of each kind yardstick writes, and every value of the
//! enums a run holds. Each list of values is followed by a `match` without
//! a wildcard, so that a value added to an enum does not compile here until
//! it is listed, and then the schema is asked whether it allows it.

use super::maximal::{check, comparison, http_settings, micro_settings, paired_settings, row, run};
use crate::comparison::{Check, Figure, Judged, Method, Reason, Verdict};
use crate::run::{Metric, Mode, Row, RowKind, Run};
use crate::settings::{ConfigurationSettings, MatrixSettings, SamplingSettings, Settings};

/// One maximal run of each kind, with its name.
pub(super) fn runs() -> Vec<(&'static str, Run)> {
    vec![
        ("timed micro", timed_micro()),
        ("counted", counted()),
        ("kernel", kernel()),
        ("http", http()),
        ("compare-builds", compare_builds()),
        ("matrix", matrix()),
    ]
}

fn probe(key: &str) -> Row {
    row(key, RowKind::Probe)
}

fn timed_micro() -> Run {
    let judged = comparison(
        Method::Normalized,
        Judged::No,
        checks(
            "fine_sum",
            &[Figure::MedianPerCalibration, Figure::Errors, Figure::Allocs],
        ),
    );
    let rows = vec![probe("fine_sum"), probe("render")];
    run((Mode::Micro, Metric::Time), micro_settings(), rows, judged)
}

fn counted() -> Run {
    let judged = comparison(
        Method::EstimatedCycles,
        Judged::No,
        checks("fine_sum", &[Figure::Instructions, Figure::EstimatedCycles]),
    );
    run(
        (Mode::Micro, Metric::EstimatedCycles),
        micro_settings(),
        vec![probe("fine_sum")],
        judged,
    )
}

/// In-process probes and a process probe's rows, the floor's among them.
fn kernel() -> Run {
    let judged = comparison(
        Method::Absolute,
        Judged::CrossMachine,
        checks("kernel.boot", &[Figure::MedianPerFloor, Figure::Median]),
    );
    let mut rows = vec![probe("cache_get")];
    for key in [
        "kernel.boot",
        "kernel.process",
        "kernel.render",
        "empty.boot",
    ] {
        rows.push(row(key, RowKind::Process));
    }
    run((Mode::Kernel, Metric::Time), micro_settings(), rows, judged)
}

/// One page on two servers.
fn http() -> Run {
    let judged = comparison(
        Method::Http,
        Judged::NotLoopback,
        checks(
            "a /page",
            &[Figure::Median, Figure::P95, Figure::Rps, Figure::ErrorRate],
        ),
    );
    let rows = vec![row("a /page", RowKind::Page), row("b /page", RowKind::Page)];
    run((Mode::Http, Metric::Time), http_settings(), rows, judged)
}

fn compare_builds() -> Run {
    let judged = comparison(
        Method::Paired,
        Judged::No,
        checks("fine_sum", &[Figure::PairedMedianRatio]),
    );
    run(
        (Mode::Micro, Metric::Time),
        paired_settings(),
        vec![probe("fine_sum")],
        judged,
    )
}

/// A matrix's run: the base's rows, and no comparison to judge.
fn matrix() -> Run {
    let mut run = run(
        (Mode::Micro, Metric::Time),
        matrix_settings(),
        vec![probe("fine_sum")],
        comparison(Method::Paired, Judged::No, Vec::new()),
    );
    run.comparison = None;
    run
}

/// The settings of a matrix.
fn matrix_settings() -> Settings {
    Settings::Matrix(MatrixSettings {
        configurations: vec![ConfigurationSettings {
            name: "base".to_string(),
            bench: "target/release/deps/micro".to_string(),
            env: vec!["A=1".to_string()],
            args: vec!["--node=57".to_string()],
        }],
        metric: Metric::Time,
        rounds: 30,
        sets: 10,
        sampling: SamplingSettings {
            repeat: 1,
            round_ms: 20,
            fake_clock: Some("fine_sum=1".to_string()),
            samples_per_round: [("fine_sum".to_string(), 25)].into(),
            warmup: 3,
            min_batch: Some(5),
            probes: vec!["fine_sum".to_string()],
            seed: 1,
            cpu: Some(1),
        },
        other: super::no_unknown_keys(),
    })
}

/// A check of each of `figures` with each verdict.
fn checks(key: &str, figures: &[Figure]) -> Vec<Check> {
    figures
        .iter()
        .flat_map(|figure| verdicts().map(|verdict| check(key, figure.clone(), verdict)))
        .collect()
}

fn verdicts() -> [Verdict; 5] {
    let all = [
        Verdict::Ok,
        Verdict::Regressed,
        Verdict::Inconclusive(Reason::Unconfirmed),
        Verdict::Inconclusive(Reason::PairsDisagree),
        Verdict::Inconclusive(Reason::Machine),
    ];
    for verdict in all {
        match verdict {
            Verdict::Ok
            | Verdict::Regressed
            | Verdict::Inconclusive(
                Reason::Unconfirmed | Reason::PairsDisagree | Reason::Machine,
            ) => {}
        }
    }
    all
}

pub(super) fn modes() -> [Mode; 3] {
    let all = [Mode::Micro, Mode::Http, Mode::Kernel];
    for mode in all {
        match mode {
            Mode::Micro | Mode::Http | Mode::Kernel => {}
        }
    }
    all
}

pub(super) fn metrics() -> [Metric; 3] {
    let all = [Metric::Time, Metric::Instructions, Metric::EstimatedCycles];
    for metric in all {
        match metric {
            Metric::Time | Metric::Instructions | Metric::EstimatedCycles => {}
        }
    }
    all
}

pub(super) fn row_kinds() -> [RowKind; 3] {
    let all = [RowKind::Probe, RowKind::Page, RowKind::Process];
    for kind in all {
        match kind {
            RowKind::Probe | RowKind::Page | RowKind::Process => {}
        }
    }
    all
}

pub(super) fn methods() -> [Method; 6] {
    let all = [
        Method::Normalized,
        Method::Instructions,
        Method::EstimatedCycles,
        Method::Paired,
        Method::Http,
        Method::Absolute,
    ];
    for method in &all {
        match method {
            Method::Normalized
            | Method::Instructions
            | Method::EstimatedCycles
            | Method::Paired
            | Method::Http
            | Method::Absolute => {}
        }
    }
    all
}

pub(super) fn judgements() -> [Judged; 3] {
    let all = [Judged::No, Judged::CrossMachine, Judged::NotLoopback];
    for judged in all {
        match judged {
            Judged::No | Judged::CrossMachine | Judged::NotLoopback => {}
        }
    }
    all
}

pub(super) fn figures() -> Vec<Figure> {
    let all = vec![
        Figure::MedianPerCalibration,
        Figure::Errors,
        Figure::Instructions,
        Figure::EstimatedCycles,
        Figure::PairedMedianRatio,
        Figure::Median,
        Figure::P95,
        Figure::Rps,
        Figure::ErrorRate,
        Figure::Allocs,
        Figure::MedianPerFloor,
        Figure::Other("a figure of a newer version".to_string()),
    ];
    for figure in &all {
        match figure {
            Figure::MedianPerCalibration
            | Figure::Errors
            | Figure::Instructions
            | Figure::EstimatedCycles
            | Figure::PairedMedianRatio
            | Figure::Median
            | Figure::P95
            | Figure::Rps
            | Figure::ErrorRate
            | Figure::Allocs
            | Figure::MedianPerFloor
            | Figure::Other(_) => {}
        }
    }
    all
}
