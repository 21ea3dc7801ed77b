use super::*;
use crate::paired::Round;

/// A timed probe: `per_set` rounds on each of `sets` worker sets, every
/// round's figure `f(set, round)`.
fn timed(sets: usize, per_set: usize, f: impl Fn(usize, usize) -> f64) -> Observed {
    let mut series = Series::default();
    for set in 0..sets {
        for r in 0..per_set {
            let number = set * per_set + r + 1;
            series.rounds.insert(Round { set, number }, f(set, r));
        }
    }
    Observed {
        evidence: Evidence::Rounds(series),
        checksum: Some(7),
        failure: None,
    }
}

fn given(name: &str, probes: Vec<(&str, Observed)>) -> Given {
    Given {
        name: name.to_string(),
        probes: probes
            .into_iter()
            .map(|(p, o)| (p.to_string(), o))
            .collect(),
        lost: None,
    }
}

#[test]
fn a_configuration_twice_as_slow_is_two_with_an_interval_around_it() {
    // The base drifts from set to set; each set's ratio is what counts.
    let base = given(
        "base",
        vec![("a", timed(10, 3, |s, _| 1.0 + s as f64 * 0.1))],
    );
    let slow = given(
        "slow",
        vec![(
            "a",
            timed(10, 3, |s, r| {
                (1.0 + s as f64 * 0.1) * (2.0 + (s + r) as f64 * 0.01)
            }),
        )],
    );
    let m = judge(&[base, slow], Metric::Time);
    assert_eq!(m.base, "base");
    assert_eq!(m.configurations, ["base", "slow"]);
    let cells = &m.lines[0].cells;
    assert!(cells[0].multiplier.is_none() && cells[0].median.is_some());
    let x = cells[1].multiplier.unwrap();
    assert_eq!(cells[1].sets, 10);
    // Set s's figure is 2 + (s + 1) / 100, the median of its three rounds.
    assert!((x.estimate - 2.055).abs() < 1e-9, "{x:?}");
    assert!(
        (x.low - 2.02).abs() < 1e-9 && (x.high - 2.09).abs() < 1e-9,
        "{x:?}"
    );
    let g = m.geomean[1].multiplier.unwrap();
    assert!((g.estimate - 2.055).abs() < 1e-9, "{g:?}");
    assert!(m.geomean[0].multiplier.is_none());
    assert_eq!(m.failures().count(), 0);
}

#[test]
fn a_different_result_a_failure_or_a_lost_worker_is_failed_never_fast() {
    let fast = |checksum| Observed {
        checksum: Some(checksum),
        ..timed(10, 1, |_, _| 0.1)
    };
    let base = given(
        "base",
        vec![
            ("a", timed(10, 1, |_, _| 1.0)),
            ("b", timed(10, 1, |_, _| 1.0)),
        ],
    );
    let skips = given("skips", vec![("a", fast(8)), ("b", fast(7))]);
    let broken = given(
        "broken",
        vec![(
            "a",
            Observed {
                failure: Some("check failed".into()),
                ..fast(7)
            },
        )],
    );
    let mut lost = given("lost", vec![]);
    lost.lost = Some("worker lost: it ended".into());
    let m = judge(&[base, skips, broken, lost], Metric::Time);
    let failures: Vec<(&str, &str, &str)> = m.failures().collect();
    assert_eq!(failures.len(), 5, "{failures:?}");
    let why = |probe: &str, c: &str| {
        failures
            .iter()
            .find(|f| f.0 == probe && f.1 == c)
            .map(|f| f.2.to_string())
    };
    assert!(
        why("a", "skips")
            .unwrap()
            .contains("result differs from base")
    );
    assert_eq!(why("b", "skips"), None);
    assert_eq!(why("a", "broken").as_deref(), Some("check failed"));
    assert!(why("b", "broken").unwrap().contains("not offered"));
    assert!(why("a", "lost").unwrap().contains("worker lost"));
    for line in &m.lines {
        for (cell, name) in line.cells.iter().zip(&m.configurations) {
            if cell.failed.is_some() {
                assert!(cell.multiplier.is_none() && cell.median.is_none(), "{name}");
            }
        }
    }
    // One side without a fingerprint cannot be shown to agree.
    let mut unprinted = fast(7);
    unprinted.checksum = None;
    let m2 = judge(
        &[
            given("base", vec![("a", timed(10, 1, |_, _| 1.0))]),
            given("bare", vec![("a", unprinted)]),
        ],
        Metric::Time,
    );
    assert!(
        m2.lines[0].cells[1]
            .failed
            .as_deref()
            .unwrap()
            .contains("no fingerprint")
    );
    // The geometric mean stands only on cells that did not fail.
    let g = m.geomean[1].multiplier.unwrap();
    assert!((g.estimate - 0.1).abs() < 1e-9, "{g:?}");
    assert!(m.geomean[2].multiplier.is_none());
}

#[test]
fn a_base_that_gave_nothing_is_named() {
    let mut base = given("base", vec![]);
    base.lost = Some("valgrind: not found".into());
    let why = base_gave_nothing(&[base, given("other", vec![])]).unwrap();
    assert!(
        why.contains("base configuration base gave nothing: valgrind"),
        "{why}"
    );
    assert_eq!(
        base_gave_nothing(&[given("base", vec![("a", timed(6, 1, |_, _| 1.0))])]),
        None
    );
}

#[test]
fn the_geometric_mean_and_its_interval_are_one_statistic() {
    // Two probes that move in opposite directions set by set: every set's
    // geometric mean is 10, whatever each probe's median.
    let flip = |up: bool| timed(6, 1, move |s, _| if (s < 3) == up { 1.0 } else { 100.0 });
    let m = judge(
        &[
            given(
                "base",
                vec![
                    ("a", timed(6, 1, |_, _| 1.0)),
                    ("b", timed(6, 1, |_, _| 1.0)),
                ],
            ),
            given("other", vec![("a", flip(true)), ("b", flip(false))]),
        ],
        Metric::Time,
    );
    let g = m.geomean[1].multiplier.unwrap();
    assert!(
        (g.estimate - 10.0).abs() < 1e-9 && g.low <= g.estimate && g.estimate <= g.high,
        "{g:?}"
    );
    assert_eq!(m.geomean[1].sets, 6);
}

#[test]
fn a_probe_failed_on_the_base_has_nothing_to_compare() {
    let base = given(
        "base",
        vec![(
            "a",
            Observed {
                failure: Some("panicked".into()),
                ..timed(10, 1, |_, _| 1.0)
            },
        )],
    );
    let other = given("other", vec![("a", timed(10, 1, |_, _| 1.0))]);
    let m = judge(&[base, other], Metric::Time);
    assert_eq!(m.lines[0].cells[0].failed.as_deref(), Some("panicked"));
    assert!(
        m.lines[0].cells[1]
            .failed
            .as_deref()
            .unwrap()
            .contains("failed on base")
    );
}

#[test]
fn counts_are_exact_and_too_few_sets_give_no_interval() {
    let count = |n: f64| Observed {
        evidence: Evidence::Count(Some(n)),
        checksum: None,
        failure: None,
    };
    let m = judge(
        &[
            given("base", vec![("a", count(1000.0)), ("b", count(10.0))]),
            given("more", vec![("a", count(1100.0)), ("b", count(40.0))]),
        ],
        Metric::Instructions,
    );
    let a = m.lines[0].cells[1].multiplier.unwrap();
    assert_eq!((a.low, a.estimate, a.high), (1.1, 1.1, 1.1));
    let g = m.geomean[1].multiplier.unwrap();
    // √(1.1 × 4)
    assert!(
        (g.estimate - 4.4f64.sqrt()).abs() < 1e-12 && g.low == g.high,
        "{g:?}"
    );
    // Five sets allow no 95 % interval: a figure, but no multiplier.
    let m = judge(
        &[
            given("base", vec![("a", timed(5, 2, |_, _| 1.0))]),
            given("other", vec![("a", timed(5, 2, |_, _| 1.5))]),
        ],
        Metric::Time,
    );
    let cell = &m.lines[0].cells[1];
    assert_eq!(
        (cell.multiplier, cell.sets, cell.failed.as_deref()),
        (None, 5, None)
    );
    assert_eq!(cell.median, Some(1.5));
}
