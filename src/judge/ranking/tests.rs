use super::*;
use crate::document::row::RowKind;

/// A timed row of `variant` in group `load`, whose samples are `base`
/// stretched by `factor`, with the fingerprint `checksum`.
fn timed(variant: &str, role: Role, factor: f64, checksum: u64) -> Row {
    let samples = (0..20)
        .map(|i| (1.0 + f64::from(i % 5) * 0.01) * factor)
        .collect();
    let key = format!("load_{variant}");
    let mut row = Row::with_samples(key.clone(), RowKind::Probe, key, samples);
    row.checksum = Some(checksum);
    row.variant = Some(Member {
        group: "load".into(),
        variant: variant.into(),
        role,
    });
    row
}

fn failed(variant: &str, role: Role) -> Row {
    let mut row = timed(variant, role, 1.0, 7);
    row.samples.clear();
    row.figures = Default::default();
    row.note = "failed: boom".into();
    row.checksum = None;
    row
}

fn the_group(rows: &[Row]) -> Group {
    let ranking = rank(rows, Metric::Time).expect("a group");
    assert_eq!(ranking.groups.len(), 1);
    ranking.groups[0].clone()
}

fn entry<'a>(g: &'a Group, variant: &str) -> &'a Entry {
    g.variants
        .iter()
        .find(|e| e.variant == variant)
        .expect("the variant")
}

#[test]
fn a_clearly_faster_variant_wins_with_its_paired_ratio() {
    let g = the_group(&[
        timed("ours", Role::Reference, 1.0, 7),
        timed("theirs", Role::Contender, 2.0, 7),
    ]);
    assert_eq!(g.reference, "ours");
    assert_eq!(g.outcome, Outcome::Winner("ours".into()));
    let ratio = entry(&g, "theirs").ratio.expect("a ratio");
    // Every round's ratio is 2: the paired interval is a point.
    assert_eq!((ratio.low, ratio.estimate, ratio.high), (2.0, 2.0, 2.0));
    assert!(entry(&g, "ours").ratio.is_none());
}

#[test]
fn overlapping_intervals_tie_and_a_floor_never_wins() {
    let g = the_group(&[
        timed("ours", Role::Reference, 1.0, 7),
        timed("theirs", Role::Contender, 1.01, 7),
        timed("scan", Role::Floor, 0.1, 99),
    ]);
    assert_eq!(
        g.outcome,
        Outcome::Tie(vec!["ours".into(), "theirs".into()])
    );
    let floor = entry(&g, "scan");
    assert!(floor.failed.is_none(), "a floor need not agree");
    assert!(floor.ratio.is_some_and(|r| r.estimate < 0.2));
}

#[test]
fn a_variant_that_gives_another_result_fails_and_is_never_ranked() {
    let g = the_group(&[
        timed("ours", Role::Reference, 1.0, 7),
        timed("fast_and_wrong", Role::Contender, 0.1, 8),
    ]);
    let wrong = entry(&g, "fast_and_wrong");
    assert_eq!(wrong.failed.as_deref(), Some("result differs from ours"));
    assert!(wrong.median.is_none() && wrong.ratio.is_none());
    assert_eq!(g.outcome, Outcome::Unranked);
}

#[test]
fn a_failed_reference_leaves_nothing_to_agree_with() {
    let g = the_group(&[
        failed("ours", Role::Reference),
        timed("theirs", Role::Contender, 1.0, 7),
    ]);
    assert_eq!(entry(&g, "ours").failed.as_deref(), Some("boom"));
    let theirs = entry(&g, "theirs").failed.as_deref().unwrap_or_default();
    assert!(theirs.contains("reference ours failed"), "{theirs}");
}

#[test]
fn counts_are_exact_and_only_equal_counts_tie() {
    let counted = |variant: &str, role, count: f64| {
        let mut row = timed(variant, role, 1.0, 7);
        row.samples.clear();
        row.counted.instructions = Some(count);
        row
    };
    let rows = [
        counted("ours", Role::Reference, 1000.0),
        counted("theirs", Role::Contender, 1001.0),
    ];
    let ranking = rank(&rows, Metric::Instructions).expect("a group");
    let g = &ranking.groups[0];
    assert_eq!(g.outcome, Outcome::Winner("ours".into()));
    assert_eq!(entry(g, "theirs").ratio.map(|r| r.high), Some(1.001));
    let even = [
        counted("ours", Role::Reference, 1000.0),
        counted("theirs", Role::Contender, 1000.0),
    ];
    let ranking = rank(&even, Metric::Instructions).expect("a group");
    assert!(matches!(ranking.groups[0].outcome, Outcome::Tie(_)));
}

#[test]
fn standings_count_wins_across_groups_with_the_geometric_mean() {
    let in_group = |group: &str, mut row: Row| {
        row.key = format!("{group}_{}", row.key);
        if let Some(m) = &mut row.variant {
            m.group = group.into();
        }
        row
    };
    let rows = [
        in_group("a", timed("ours", Role::Reference, 1.0, 7)),
        in_group("a", timed("theirs", Role::Contender, 2.0, 7)),
        in_group("b", timed("ours", Role::Reference, 1.0, 7)),
        in_group("b", timed("theirs", Role::Contender, 0.5, 7)),
        in_group("c", timed("ours", Role::Reference, 1.0, 7)),
        in_group("c", timed("theirs", Role::Contender, 0.25, 7)),
    ];
    let ranking = rank(&rows, Metric::Time).expect("groups");
    assert_eq!(ranking.groups.len(), 3);
    let theirs = &ranking.standings[0];
    assert_eq!(
        (theirs.variant.as_str(), theirs.wins, theirs.groups),
        ("theirs", 2, 3)
    );
    // (2 × 0.5 × 0.25)^(1/3) = 0.25^(1/3).
    let geomean = theirs.geomean_ratio.expect("a mean");
    assert!(
        (geomean - 0.25f64.powf(1.0 / 3.0)).abs() < 1e-12,
        "{geomean}"
    );
    assert_eq!(ranking.standings[1].geomean_ratio, Some(1.0));
}

#[test]
fn a_run_without_groups_or_references_has_no_ranking() {
    let mut row = timed("ours", Role::Reference, 1.0, 7);
    row.variant = None;
    assert_eq!(rank(&[row], Metric::Time), None);
    // `--probe=` chose a contender without its reference.
    let alone = timed("theirs", Role::Contender, 1.0, 7);
    assert_eq!(rank(&[alone], Metric::Time), None);
}
