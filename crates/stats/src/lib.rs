//! yardstick's statistics: the summary of a sample set, bootstrap
//! intervals, the signed-rank test and change points. No I/O and no timing
//! here: the runner measures, this crate summarises, so every figure can be
//! tested with known values.

#![warn(missing_docs)]

pub mod bootstrap;
pub mod change_points;
pub mod order;
pub mod signed_rank;

use serde::{Deserialize, Serialize};

/// The summary of one set of samples (milliseconds per iteration, or per
/// request in HTTP mode).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    /// Samples summarised.
    pub n: usize,
    /// The smallest.
    pub min: f64,
    /// The mean.
    pub mean: f64,
    /// The median.
    pub median: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 95th percentile.
    pub p95: f64,
    /// The 99th percentile.
    pub p99: f64,
    /// The largest.
    pub max: f64,
    /// Sample standard deviation (n − 1 in the denominator); 0 for one sample.
    pub stddev: f64,
}

impl Summary {
    /// Summarises `samples` (in any order). `None` for no sample, and for
    /// samples that are not finite numbers, which no clock produces.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        if samples.is_empty() || samples.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let stddev = if n > 1 {
            let ss: f64 = sorted.iter().map(|x| (x - mean) * (x - mean)).sum();
            (ss / (n - 1) as f64).sqrt()
        } else {
            0.0
        };
        Some(Summary {
            n,
            min: sorted[0],
            mean,
            median: percentile_sorted(&sorted, 50.0),
            p90: percentile_sorted(&sorted, 90.0),
            p95: percentile_sorted(&sorted, 95.0),
            p99: percentile_sorted(&sorted, 99.0),
            max: sorted[n - 1],
            stddev,
        })
    }
}

/// The `p`-th percentile (0..=100) of `samples`, interpolated between the two
/// nearest ranks (Hyndman and Fan type 7, R's and numpy's default).
pub fn percentile(samples: &[f64], p: f64) -> Option<f64> {
    if samples.is_empty() || !p.is_finite() || samples.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(percentile_sorted(&sorted, p))
}

/// Type-7 percentile of an already sorted, non-empty slice.
pub(crate) fn percentile_sorted(sorted: &[f64], p: f64) -> f64 {
    let p = p.clamp(0.0, 100.0) / 100.0;
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Median of a set of values; `None` when empty.
pub fn median(samples: &[f64]) -> Option<f64> {
    percentile(samples, 50.0)
}

/// `numerators[i] / denominators[i]` over the pairs where both are finite
/// and the denominator is positive, in order.
pub fn ratios(numerators: &[f64], denominators: &[f64]) -> Vec<f64> {
    numerators
        .iter()
        .zip(denominators)
        .filter(|(n, d)| n.is_finite() && d.is_finite() && **d > 0.0)
        .map(|(n, d)| n / d)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_skip_pairs_they_cannot_divide() {
        assert_eq!(
            ratios(&[1.0, 4.0, 9.0, 5.0, f64::NAN], &[1.0, 2.0, 3.0, 0.0, 1.0]),
            [1.0, 2.0, 3.0]
        );
        assert!(ratios(&[1.0], &[0.0]).is_empty());
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn type7_percentiles_of_one_to_ten() {
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        assert!(close(percentile(&xs, 0.0).unwrap(), 1.0));
        assert!(close(percentile(&xs, 50.0).unwrap(), 5.5));
        assert!(close(percentile(&xs, 95.0).unwrap(), 9.55));
        assert!(close(percentile(&xs, 99.0).unwrap(), 9.91));
        assert!(close(percentile(&xs, 100.0).unwrap(), 10.0));
    }

    #[test]
    fn summary_of_four_unsorted_values() {
        let s = Summary::of(&[30.0, 10.0, 20.0, 40.0]).unwrap();
        assert_eq!(s.n, 4);
        assert!(close(s.mean, 25.0));
        assert!(close(s.median, 25.0));
        assert!(close(s.p95, 38.5));
        assert!((s.stddev - 12.9099).abs() < 1e-4, "{}", s.stddev);
        assert_eq!((s.min, s.max), (10.0, 40.0));
    }

    #[test]
    fn no_sample_gives_no_value_and_one_gives_itself() {
        assert!(Summary::of(&[]).is_none());
        assert!(percentile(&[], 50.0).is_none());
        let s = Summary::of(&[7.5]).unwrap();
        assert_eq!(
            (s.min, s.median, s.p99, s.max, s.mean),
            (7.5, 7.5, 7.5, 7.5, 7.5)
        );
        assert_eq!(s.stddev, 0.0);
    }

    #[test]
    fn non_finite_samples_are_refused() {
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }
}
