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
//! signed-rank test on their logs gives p < [`ALPHA`]; above the threshold
//! without significance it is inconclusive (a warning, never a failure).

use crate::document::comparison::{Check, Comparison, Figure, Method, Reason, Verdict};
use crate::stats::{median, signed_rank};
use std::collections::BTreeMap;

/// Percent the median ratio may exceed 1 before a probe can regress.
pub const DEFAULT_THRESHOLD: f64 = 3.0;
/// The one-sided significance level of the signed-rank test.
pub const ALPHA: f64 = 0.01;

/// What one build gave for one probe: its median in each round it measured
/// the probe, keyed by (worker pair, round), and how many samples failed.
#[derive(Debug, Clone, Default)]
pub struct Side {
    pub rounds: BTreeMap<(usize, usize), f64>,
    pub errors: u64,
}

/// The checks of every probe both builds measured.
pub fn compare(
    old: &BTreeMap<String, Side>,
    new: &BTreeMap<String, Side>,
    threshold: f64,
    baseline: &str,
) -> Comparison {
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
    old: &BTreeMap<(usize, usize), f64>,
    new: &BTreeMap<(usize, usize), f64>,
    threshold: f64,
) -> Option<Check> {
    let mut by_pair: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for ((pair, round), o) in old {
        if let Some(n) = new.get(&(*pair, *round))
            && *o > 0.0
            && n.is_finite()
        {
            by_pair.entry(*pair).or_default().push(n / o);
        }
    }
    let figures: Vec<f64> = by_pair.values().filter_map(|r| median(r)).collect();
    let old: Vec<f64> = old.values().copied().collect();
    let new: Vec<f64> = new.values().copied().collect();
    let ratio = median(&figures)?;
    let logs: Vec<f64> = figures.iter().map(|r| r.ln()).collect();
    let p = signed_rank::p_greater(&logs).unwrap_or(1.0);
    let change = (ratio - 1.0) * 100.0;
    let verdict = match (change > threshold, p < ALPHA) {
        (false, _) => Verdict::Ok,
        (true, true) => Verdict::Regressed,
        (true, false) => Verdict::Inconclusive(Reason::PairsDisagree),
    };
    let figure = Figure::PairedMedianRatio;
    Some(Check {
        p_value: Some(p),
        ..Check::new(key, figure, median(&old)?, median(&new)?, change, verdict)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each round on a pair of workers of its own.
    fn rounds(values: &[f64]) -> BTreeMap<(usize, usize), f64> {
        values
            .iter()
            .copied()
            .enumerate()
            .map(|(i, v)| ((i, i), v))
            .collect()
    }

    /// `per_pair` rounds on each pair.
    fn grouped(values: &[f64], per_pair: usize) -> BTreeMap<(usize, usize), f64> {
        values
            .iter()
            .copied()
            .enumerate()
            .map(|(i, v)| ((i / per_pair, i), v))
            .collect()
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
        new.insert((2, 2), 9.0);
        let mut old = old;
        old.remove(&(2, 2));
        let c = paired_check("p", &old, &new, 3.0).unwrap();
        assert_eq!(c.change_pct, 0.0);
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
