//! Paired rules: two builds measured in alternating rounds on one machine.
//!
//! Each round gives one new/old ratio per probe. The rounds run on several
//! pairs of worker processes, and a pair, not a round, is the unit of
//! evidence: two processes of the same build can differ by a few percent
//! for their whole life (where their memory landed), so every round of one
//! pair repeats the same offset, and a test that took those rounds as
//! independent would call that offset a change. Each pair's figure is the
//! median of its rounds' ratios; a probe regresses when the median of the
//! pairs' figures exceeds the threshold *and* an exact one-sided Wilcoxon
//! signed-rank test on their logs gives p < `ALPHA`; above the threshold
//! without significance it is inconclusive (a warning, never a failure).
//!
//! The vocabulary of a paired comparison lives here, where the rule needs
//! it, and the measuring (`commands::interleave`) speaks it too: `Builds`
//! holds one value for each of the two builds, a `Round` is where a figure
//! was taken, and a `Series` is what one configuration gave for one probe.

use crate::document::comparison::{
    Check, Comparison, Figure, Method, PairedRound, Reason, Verdict,
};
use crate::stats::{median, signed_rank};
use std::collections::BTreeMap;

/// Percent the median ratio may exceed 1 before a probe can regress, when
/// `--threshold` is not given. Public: the evaluation harness re-scores
/// paired trials from this default.
pub const DEFAULT_THRESHOLD: f64 = 3.0;
/// The one-sided significance level of the signed-rank test: below it the
/// pairs agree on a slowdown. Public: the evaluation harness re-scores
/// paired trials at this level and others.
pub const ALPHA: f64 = 0.01;

/// The test's one-sided p-value is significant strictly below the level
/// `alpha` ([`ALPHA`] for a verdict).
pub fn significant(p_value: f64, alpha: f64) -> bool {
    p_value < alpha
}

/// One value for each build: the two sides of a comparison are named, so
/// they cannot be swapped by an index.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Builds<T> {
    /// The old build's value.
    pub old: T,
    /// The new build's value.
    pub new: T,
}

impl<T> Builds<T> {
    /// The two values of a measurement of two configurations, the old
    /// build's first; `None` for any other number.
    pub fn from_two(values: Vec<T>) -> Option<Builds<T>> {
        let [old, new] = <[T; 2]>::try_from(values).ok()?;
        Some(Builds { old, new })
    }
}

/// Where a round's figure was taken. Only figures of the same round pair
/// up into a ratio, and the rounds of one worker pair make one piece of
/// evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Round {
    /// The worker set (a pair, in `compare-builds`) that ran the round,
    /// from 0.
    pub set: usize,
    /// The round's number in the whole comparison, from 1.
    pub number: usize,
}

/// What one build gave for one probe: every sample in the order taken (the
/// saved row's), the median of each round it measured the probe in (what
/// the rule judges), and how many of the samples asked for failed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Milliseconds per iteration, one per sample taken.
    pub samples: Vec<f64>,
    /// The median of each round's block of samples.
    pub rounds: BTreeMap<Round, f64>,
    /// Samples asked for but not taken, because the probe failed.
    pub errors: u64,
}

/// The checks of every probe both builds measured, each build's series by
/// probe name; `baseline` names the old build in the comparison.
pub fn compare(
    series: &Builds<BTreeMap<String, Series>>,
    threshold: f64,
    baseline: &str,
) -> Comparison {
    let Builds { old, new } = series;
    let mut checks = Vec::new();
    for (key, n) in new {
        let Some(o) = old.get(key) else { continue };
        checks.extend(super::more_failures(key, o.errors, n.errors));
        if let Some(check) = paired_check(key, &o.rounds, &n.rounds, threshold) {
            checks.push(check);
        }
    }
    Comparison {
        missing: old
            .keys()
            .filter(|k| !new.contains_key(*k))
            .cloned()
            .collect(),
        new: new
            .keys()
            .filter(|k| !old.contains_key(*k))
            .cloned()
            .collect(),
        checks,
        ..Comparison::new(baseline, Method::Paired, threshold)
    }
}

/// The verdict on one probe from its per-round medians: only rounds in
/// which both builds measured it pair up, and each worker pair gives one
/// figure, the median of its rounds' ratios.
fn paired_check(
    key: &str,
    old: &BTreeMap<Round, f64>,
    new: &BTreeMap<Round, f64>,
    threshold: f64,
) -> Option<Check> {
    let rounds = paired_rounds(old, new);
    let figures = pair_figures(&rounds);
    let old: Vec<f64> = old.values().copied().collect();
    let new: Vec<f64> = new.values().copied().collect();
    let ratio = median(&figures)?;
    let logs: Vec<f64> = figures.iter().map(|r| r.ln()).collect();
    let p = signed_rank::p_greater(&logs).unwrap_or(1.0);
    let change = (ratio - 1.0) * 100.0;
    let verdict = match (
        super::over_threshold(change, threshold),
        significant(p, ALPHA),
    ) {
        (false, _) => Verdict::Ok,
        (true, true) => Verdict::Regressed,
        (true, false) => Verdict::Inconclusive(Reason::PairsDisagree),
    };
    let figure = Figure::PairedMedianRatio;
    Some(Check {
        p_value: Some(p),
        rounds,
        ..Check::new(key, figure, median(&old)?, median(&new)?, change, verdict)
    })
}

/// The rounds in which both sides measured a probe, each with both
/// figures: only those pair up into a ratio.
pub(crate) fn paired_rounds(
    old: &BTreeMap<Round, f64>,
    new: &BTreeMap<Round, f64>,
) -> Vec<PairedRound> {
    let mut rounds = Vec::new();
    for (round, o) in old {
        if let Some(n) = new.get(round)
            && *o > 0.0
            && n.is_finite()
        {
            rounds.push(PairedRound {
                pair: round.set,
                round: round.number,
                baseline: *o,
                current: *n,
            });
        }
    }
    rounds
}

/// Each worker pair's figure, in the order of the pairs: the median of the
/// new/old ratios of its rounds. These, not the rounds, are what the
/// signed-rank test takes (see the module's note).
pub fn pair_figures(rounds: &[PairedRound]) -> Vec<f64> {
    set_figures(rounds).into_values().collect()
}

/// [`pair_figures`] by worker set (pair), for a rule that lines up the
/// same set across probes.
pub(crate) fn set_figures(rounds: &[PairedRound]) -> BTreeMap<usize, f64> {
    let mut by_set: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for r in rounds.iter().filter(|r| r.baseline > 0.0) {
        by_set
            .entry(r.pair)
            .or_default()
            .push(r.current / r.baseline);
    }
    by_set
        .into_iter()
        .filter_map(|(set, ratios)| Some((set, median(&ratios)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each round on a pair of workers of its own.
    fn rounds(values: &[f64]) -> BTreeMap<Round, f64> {
        grouped(values, 1)
    }

    /// `per_pair` rounds on each pair.
    fn grouped(values: &[f64], per_pair: usize) -> BTreeMap<Round, f64> {
        values
            .iter()
            .copied()
            .enumerate()
            .map(|(i, v)| {
                let round = Round {
                    set: i / per_pair,
                    number: i,
                };
                (round, v)
            })
            .collect()
    }

    #[test]
    fn two_values_are_the_old_and_the_new_build() {
        assert_eq!(
            Builds::from_two(vec![1, 2]),
            Some(Builds { old: 1, new: 2 })
        );
        assert_eq!(Builds::from_two(vec![1, 2, 3]), None);
    }

    #[test]
    fn probes_one_build_lacks_are_missing_or_new() {
        let series = |names: &[&str]| -> BTreeMap<String, Series> {
            let series = names.iter().map(|n| (n.to_string(), Series::default()));
            series.collect()
        };
        let builds = Builds {
            old: series(&["a", "b"]),
            new: series(&["b", "c"]),
        };
        let c = compare(&builds, 3.0, "old-bench");
        assert_eq!(
            (c.missing, c.new),
            (vec!["a".to_string()], vec!["c".to_string()])
        );
        // Nothing measured, nothing failed: no check.
        assert!(c.checks.is_empty(), "{:?}", c.checks);
    }

    #[test]
    fn a_consistent_slowdown_above_the_threshold_regresses() {
        let old = [1.0, 1.02, 0.99, 1.01, 1.0, 0.98, 1.01, 1.0, 1.02, 0.99];
        let new: Vec<f64> = old.iter().map(|x| x * 1.05).collect();
        let c = paired_check("p", &rounds(&old), &rounds(&new), 3.0).unwrap();
        assert!(c.regressed() && !c.inconclusive(), "{c:?}");
        assert!((c.change_pct - 5.0).abs() < 1e-9);
        assert_eq!(c.p_value, Some(1.0 / 1024.0));
    }

    #[test]
    fn a_slowdown_below_the_threshold_passes_and_noise_is_inconclusive() {
        let old = [1.0; 10];
        let small: Vec<f64> = old.iter().map(|x| x * 1.02).collect();
        let c = paired_check("p", &rounds(&old), &rounds(&small), 3.0).unwrap();
        assert!(!c.regressed() && !c.inconclusive());
        // Half the rounds 30 % slower, half 20 % faster: a large median
        // change the rounds do not agree on.
        let noisy = [1.3, 0.8, 1.3, 0.8, 1.3, 0.8, 1.3, 0.8, 1.3, 1.3];
        let c = paired_check("p", &rounds(&old), &rounds(&noisy), 3.0).unwrap();
        assert!(!c.regressed() && c.inconclusive(), "{c:?}");
    }

    #[test]
    fn faster_is_never_a_regression() {
        let old = [1.0; 8];
        let new = [0.5; 8];
        let c = paired_check("p", &rounds(&old), &rounds(&new), 3.0).unwrap();
        assert!(!c.regressed() && !c.inconclusive());
        assert!(paired_check("p", &BTreeMap::new(), &BTreeMap::new(), 3.0).is_none());
    }

    #[test]
    fn only_rounds_both_builds_measured_pair_up() {
        // The old build failed round 2: rounds 3.. must not shift onto 2.
        let old = rounds(&[1.0, 1.0, 2.0, 2.0, 2.0]);
        let mut new = old.clone();
        let third = Round { set: 2, number: 2 };
        new.insert(third, 9.0);
        let mut old = old;
        old.remove(&third);
        let c = paired_check("p", &old, &new, 3.0).unwrap();
        assert_eq!(c.change_pct, 0.0);
        // The evidence kept is those rounds, each with both figures.
        let kept: Vec<(usize, f64, f64)> = c
            .rounds
            .iter()
            .map(|r| (r.round, r.baseline, r.current))
            .collect();
        assert_eq!(kept.len(), 4);
        assert!(!kept.iter().any(|(round, ..)| *round == 2), "{kept:?}");
        assert!(kept.iter().all(|(_, o, n)| o == n), "{kept:?}");
    }

    #[test]
    fn one_pair_of_processes_is_one_piece_of_evidence() {
        // Thirty rounds, all 6 % slower, but on one pair of processes:
        // the offset of that pair, not thirty agreeing rounds.
        let old = [1.0; 30];
        let new = [1.06; 30];
        let c = paired_check("p", &grouped(&old, 30), &grouped(&new, 30), 3.0).unwrap();
        assert!(!c.regressed() && c.inconclusive(), "{c:?}");
        assert_eq!(c.p_value, Some(0.5));
        // The same on ten pairs of three rounds: ten agreeing pairs.
        let c = paired_check("p", &grouped(&old, 3), &grouped(&new, 3), 3.0).unwrap();
        assert!(c.regressed(), "{c:?}");
        assert_eq!(c.p_value, Some(1.0 / 1024.0));
        // Each pair's figure is the median of its own rounds: one wild
        // round per pair does not move it.
        let mut wild = new;
        for pair in 0..10 {
            wild[pair * 3] = 5.0;
        }
        let c = paired_check("p", &grouped(&old, 3), &grouped(&wild, 3), 3.0).unwrap();
        assert!((c.change_pct - 6.0).abs() < 1e-9, "{c:?}");
    }
}
