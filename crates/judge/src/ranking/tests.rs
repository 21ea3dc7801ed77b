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
fn counts_are_exact_and_held_to_the_same_margin() {
    let counted = |variant: &str, role, count: f64| {
        let mut row = timed(variant, role, 1.0, 7);
        row.samples.clear();
        row.counted.instructions = Some(count);
        row
    };
    let outcome = |theirs: f64| {
        let rows = [
            counted("ours", Role::Reference, 1000.0),
            counted("theirs", Role::Contender, theirs),
        ];
        let ranking = rank(&rows, Metric::Instructions).expect("a group");
        ranking.groups[0].clone()
    };
    let g = outcome(1030.0);
    assert_eq!(g.outcome, Outcome::Winner("ours".into()));
    assert_eq!(entry(&g, "theirs").ratio.map(|r| r.high), Some(1.03));
    // 1 % more instructions is inside the margin.
    assert_eq!(
        outcome(1010.0).outcome,
        Outcome::Tie(vec!["ours".into(), "theirs".into()])
    );
    assert_eq!(
        outcome(1000.0).outcome,
        Outcome::Tie(vec!["ours".into(), "theirs".into()])
    );
}

/// Two rows of `group` whose per-round ratio `theirs / ours` is
/// `ratios[i]` in round `i`, over a base that moves round by round as a
/// machine does.
fn paired(group: &str, ratios: &[f64]) -> [Row; 2] {
    let base: Vec<f64> = (0..ratios.len())
        .map(|i| 1.0 + f64::from(u32::try_from(i % 7).unwrap_or(0)) * 0.6)
        .collect();
    let row = |variant: &str, role, samples: Vec<f64>| {
        let key = format!("{group}_{variant}");
        let mut row = Row::with_samples(key.clone(), RowKind::Probe, key, samples);
        row.checksum = Some(7);
        row.variant = Some(Member {
            group: group.into(),
            variant: variant.into(),
            role,
        });
        row
    };
    let theirs = base.iter().zip(ratios).map(|(b, r)| b * r).collect();
    let ours = row("ours", Role::Reference, base);
    let theirs = row("theirs", Role::Contender, theirs);
    [ours, theirs]
}

/// Per-round ratios spread evenly from `low` to `high` around `mid`: 31
/// rounds, so the bootstrap interval of their median lies well inside.
fn spread(low: f64, mid: f64, high: f64) -> Vec<f64> {
    (0..31)
        .map(|i| {
            let t = f64::from(i) / 30.0;
            if t < 0.5 {
                low + (mid - low) * t * 2.0
            } else {
                mid + (high - mid) * (t - 0.5) * 2.0
            }
        })
        .collect()
}

#[test]
fn the_outcome_is_decided_by_the_paired_ratio_that_the_table_prints() {
    let decide = |ratios: Vec<f64>| {
        let rows = paired("g", &ratios);
        let ranking = rank(&rows, Metric::Time).expect("a group");
        let g = ranking.groups[0].clone();
        let ratio = entry(&g, "theirs").ratio.expect("a paired ratio");
        let medians = [entry(&g, "ours").median, entry(&g, "theirs").median];
        (g.outcome, ratio, medians.map(|m| m.expect("a median")))
    };
    // Every round's ratio lies between 1.37 and 1.47 (template_page),
    // while each variant's own median interval overlaps the other's: the
    // machine moved by 90 % from round to round, and moved both alike.
    let (outcome, ratio, [ours, theirs]) = decide(spread(1.37, 1.418, 1.47));
    assert!(ours.high > theirs.low, "{ours:?} {theirs:?}");
    assert!(ratio.low > 1.02, "{ratio:?}");
    assert_eq!(outcome, Outcome::Winner("ours".into()));
    // node_query: a real 0.7 % difference, inside the margin.
    let (outcome, ratio, _) = decide(spread(0.989, 0.993, 0.997));
    assert!(ratio.high < 1.0, "{ratio:?}");
    assert!(
        matches!(&outcome, Outcome::Tie(t) if t.len() == 2),
        "{outcome:?}"
    );
    // full_view: above 1 throughout, yet reaching inside the margin.
    let (outcome, ratio, _) = decide(spread(0.92, 1.052, 1.18));
    assert!(ratio.low > 1.0 && ratio.low < 1.02, "{ratio:?}");
    assert!(
        matches!(&outcome, Outcome::Tie(t) if t.len() == 2),
        "{outcome:?}"
    );
}

#[test]
fn a_floor_never_enters_the_standings_nor_counts_a_group() {
    let rows = [
        timed("ours", Role::Reference, 1.0, 7),
        timed("scan", Role::Floor, 0.5, 99),
    ];
    let ranking = rank(&rows, Metric::Time).expect("a group");
    assert_eq!(ranking.groups[0].outcome, Outcome::Unranked);
    assert!(ranking.standings.is_empty(), "{:?}", ranking.standings);
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
