use super::*;
use crate::document::run::{CalibrationSummary, Row, test_micro_run};
use crate::document::settings::Settings;

/// A run in which probe `p` took `figure` loops per iteration, and probe
/// `q` always 1.
fn run(figure: f64) -> Run {
    let loops = [4.0; 5];
    let row = |key: &str, ratio: f64| {
        let mut row =
            Row::with_samples(key.into(), RowKind::Probe, key.into(), vec![4.0 * ratio; 5]);
        row.calibration_samples = loops.to_vec();
        row
    };
    test_micro_run(
        vec![row("p", figure), row("q", 1.0)],
        CalibrationSummary::of(&loops, &loops, 7),
    )
}

/// `n` runs whose figures for `p` wander by about `spread` (a fraction)
/// around 1, in a fixed order.
fn runs(n: usize, spread: f64) -> Vec<(String, Run)> {
    (0..n)
        .map(|i| {
            let wobble = ((i * 7) % 11) as f64 / 10.0 - 0.5;
            (format!("run{i}"), run(1.0 + spread * wobble))
        })
        .collect()
}

#[test]
fn a_noisy_probe_gets_a_wider_threshold_than_a_quiet_one_within_the_bounds() {
    let like = run(1.0);
    let learned = learn(&like, &runs(25, 0.10));
    assert_eq!(learned.thresholds.runs, 25);
    let (p, q) = (
        learned.thresholds.of("p").expect("p learned"),
        learned.thresholds.of("q").expect("q learned"),
    );
    // q never moved: the floor. p moved by ±5 %: wider, under the default.
    assert_eq!(q, FLOOR);
    assert!(p > FLOOR && p < CEILING, "{p}");
    let wild = learn(&like, &runs(25, 3.0));
    assert_eq!(wild.thresholds.of("p"), Some(CEILING));
}

#[test]
fn a_few_wild_runs_do_not_move_the_threshold_much() {
    let like = run(1.0);
    let calm = learn(&like, &runs(30, 0.10))
        .thresholds
        .of("p")
        .expect("learned");
    let mut with_outliers = runs(30, 0.10);
    for (_, r) in with_outliers.iter_mut().take(2) {
        *r = run(3.0);
    }
    let wild = learn(&like, &with_outliers)
        .thresholds
        .of("p")
        .expect("learned");
    assert!(
        wild < calm * 1.5,
        "calm {calm}, with two runs 3 times slower {wild}"
    );
}

#[test]
fn too_few_runs_leave_the_default_with_a_note() {
    let learned = learn(&run(1.0), &runs(MIN_RUNS - 1, 0.1));
    assert!(learned.thresholds.probes.is_empty());
    assert_eq!(learned.thresholds.runs, MIN_RUNS - 1);
    assert!(
        learned
            .notes
            .iter()
            .any(|n| n.contains("fewer than the 20")),
        "{:?}",
        learned.notes
    );
    assert_eq!(threshold(&[]), None);
}

#[test]
fn runs_of_another_class_metric_or_with_an_injected_slowdown_never_feed_a_threshold() {
    let like = run(1.0);
    let mut given = runs(MIN_RUNS - 1, 0.1);
    let mut other_class = run(1.0);
    other_class.environment.machine_class = Some("other-cpu-8cpu-00000000".into());
    let mut injected = run(1.0);
    if let Settings::Micro(s) = &mut injected.settings {
        s.inject = Some("*:25".into());
    }
    let mut counted = run(1.0);
    counted.metric = Metric::Instructions;
    let mut scripted = run(1.0);
    if let Settings::Micro(s) = &mut scripted.settings {
        s.fake_clock = Some("script".into());
    }
    let mut no_class = run(1.0);
    no_class.environment.machine_class = None;
    for (i, r) in [other_class, injected, counted, scripted, no_class]
        .into_iter()
        .enumerate()
    {
        given.push((format!("odd{i}"), r));
    }
    let learned = learn(&like, &given);
    // 19 usable runs of 24: still too few, whatever the others say.
    assert_eq!(learned.thresholds.runs, MIN_RUNS - 1);
    assert!(learned.thresholds.probes.is_empty());
    let notes = learned.notes.join("\n");
    for why in [
        "another machine class",
        "an injected slowdown",
        "another metric",
        "a scripted clock",
    ] {
        assert!(notes.contains(why), "{why}: {notes}");
    }
}

#[test]
fn nan_zero_or_failed_figures_are_passed_over_never_a_threshold_of_zero() {
    let like = run(1.0);
    let mut given = runs(MIN_RUNS, 0.1);
    // Three runs' figures are no figures: p is left with too few.
    given[0].1.rows[0].samples = vec![f64::NAN; 5];
    given[1].1.rows[0].samples = vec![0.0; 5];
    given[2].1.rows[0].errors = 1;
    let learned = learn(&like, &given);
    assert_eq!(learned.thresholds.of("p"), None);
    assert_eq!(learned.thresholds.of("q"), Some(FLOOR));
    assert!(
        learned
            .notes
            .iter()
            .any(|n| n.starts_with("thresholds: p: 17 of 20")),
        "{:?}",
        learned.notes
    );
    // Figures that are all alike give the floor, never 0.
    assert_eq!(threshold(&[2.0; MIN_RUNS]), Some(FLOOR));
}
