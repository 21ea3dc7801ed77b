//! Runs read from other tools are judged by the same rules as
//! yardstick's own (the readers live in `document::import`; these tests
//! need the judge, which sits above them).

use crate::document::import::{criterion, exp_benchmark};
use crate::document::row::RowKind;
use crate::document::run::Mode;
use crate::{Rules, compare, fixtures};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(name)).unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The fixtures of every criterion version whose layout is read.
fn criterion_fixtures() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(fixtures().join("criterion"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    found.sort();
    assert!(found.len() >= 2, "{found:?}");
    found
}

#[test]
fn the_slowed_bench_s_change_agrees_with_criterion_s_own_estimate() {
    for dir in criterion_fixtures() {
        let (fast, _) = criterion::read(&dir, "fast").unwrap();
        let (slow, _) = criterion::read(&dir, criterion::NEW).unwrap();
        let rules = Rules {
            cross_machine: true,
            threshold: Some(20.0),
            ..Rules::default()
        };
        let c = compare(&fast, "fast", &slow, &rules).unwrap();
        let xor = c.checks.iter().find(|k| k.key == "tiny/xor").unwrap();
        // criterion's estimate of the same change: a ratio less one.
        let change = json(&dir.join("tiny/xor/change/estimates.json"));
        let median = &change["median"];
        let point = median["point_estimate"].as_f64().unwrap() * 100.0;
        let interval = &median["confidence_interval"];
        let lower = interval["lower_bound"].as_f64().unwrap() * 100.0;
        let upper = interval["upper_bound"].as_f64().unwrap() * 100.0;
        assert!(point > 0.0 && xor.change_pct > 0.0, "{point} {xor:?}");
        assert!(
            (lower..=upper).contains(&xor.change_pct),
            "{}: {} not in [{lower}, {upper}]",
            dir.display(),
            xor.change_pct
        );
        // The same figure: the medians of the same per-iteration times.
        assert!((xor.change_pct - point).abs() < 1e-6, "{point} {xor:?}");
        assert_eq!(xor.regressed(), point > 20.0, "{xor:?}");
    }
}

#[test]
fn kernel_rows_are_probes_judged_by_absolute_medians() {
    let run = exp_benchmark::read(&fixture("exp-benchmark/kernel.json")).unwrap();
    assert_eq!(run.mode, Mode::Kernel);
    let keys: Vec<&str> = run.rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["content_fetch", "full_view"]);
    let row = &run.rows[0];
    assert_eq!(
        (row.kind, row.figures.median, row.rps),
        (RowKind::Probe, Some(2.25), Some(432.9))
    );
    assert_eq!(
        crate::method(&run),
        crate::document::comparison::Method::Absolute
    );
    let mut slower = run.clone();
    slower.rows[1].figures.median = Some(18.0);
    let c = crate::compare(&run, "base", &slower, &Default::default()).unwrap();
    let regressed: Vec<&str> = c
        .checks
        .iter()
        .filter(|k| k.regressed())
        .map(|k| k.key.as_str())
        .collect();
    assert_eq!(regressed, ["full_view"]);
}
