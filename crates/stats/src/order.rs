//! A distribution-free interval for a median: two order statistics of the
//! values themselves.
//!
//! Why not the bootstrap here: the values are few independent pieces of
//! evidence (a matrix's worker sets, ten by default), and the bootstrap of
//! a median of ten values takes only a handful of distinct values, its
//! percentiles falling on the same order statistics while claiming a level
//! they do not have. For independent values from any continuous
//! distribution, the count of values below the true median is Binomial(n,
//! 1/2), so the interval between the k-th smallest and the k-th largest
//! covers it with a probability known exactly: at least 95 % for the
//! largest k the binomial allows. With ten values that is the 2nd and 9th
//! (97.9 %); fewer than six values allow no 95 % interval at all.

use super::bootstrap::Interval;
use super::median;

/// The fewest values with a 95 % interval: with five, even the smallest
/// and the largest miss the median one time in sixteen.
pub const MIN_VALUES: usize = 6;

/// The median of `values` and its distribution-free 95 % interval (see
/// the module's note); `None` for fewer than [`MIN_VALUES`] values or one
/// that is not finite.
pub fn median_interval(values: &[f64]) -> Option<Interval> {
    if values.len() < MIN_VALUES || values.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let k = outer_rank(sorted.len())?;
    Some(Interval {
        low: sorted[k - 1],
        estimate: median(&sorted)?,
        high: sorted[sorted.len() - k],
    })
}

/// The largest k (from 1) such that P(Binomial(n, 1/2) < k) ≤ 2.5 %: the
/// interval from the k-th smallest to the k-th largest of n values then
/// misses the median at most 5 % of the time. `None` when even k = 1 does
/// not reach it.
fn outer_rank(n: usize) -> Option<usize> {
    // P(B = j) by the recurrence C(n, j + 1) = C(n, j) (n - j) / (j + 1),
    // in logarithms: 2^-n itself underflows beyond a thousand values.
    let mut ln_term = -(n as f64) * std::f64::consts::LN_2;
    let mut below = 0.0;
    let mut k = 0;
    for j in 0..n {
        below += ln_term.exp();
        if below > 0.025 {
            break;
        }
        k = j + 1;
        ln_term += ((n - j) as f64).ln() - ((j + 1) as f64).ln();
    }
    (k > 0).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_ranks_are_the_binomials() {
        // n = 6: P(B = 0) = 1/64 ≤ 2.5 %, P(B ≤ 1) = 7/64 is not.
        assert_eq!(outer_rank(5), None);
        assert_eq!(outer_rank(6), Some(1));
        assert_eq!(outer_rank(8), Some(1));
        // n = 9: P(B ≤ 1) = 10/512 ≤ 2.5 %.
        assert_eq!(outer_rank(9), Some(2));
        assert_eq!(outer_rank(10), Some(2));
        // n = 20: P(B ≤ 5) = 2.07 %, P(B ≤ 6) = 5.77 %.
        assert_eq!(outer_rank(20), Some(6));
        // Far beyond where 2^-n underflows: about n/2 - 1.96 √n / 2.
        let k = outer_rank(100_000).unwrap();
        assert!((49_680..=49_700).contains(&k), "{k}");
    }

    #[test]
    fn ten_values_give_the_second_and_ninth() {
        let values = [1.09, 1.01, 1.05, 1.02, 1.08, 1.03, 1.07, 1.04, 1.06, 1.10];
        let i = median_interval(&values).unwrap();
        assert_eq!((i.low, i.high), (1.02, 1.09));
        assert!((i.estimate - 1.055).abs() < 1e-12);
        assert_eq!(median_interval(&values[..5]), None);
        assert_eq!(median_interval(&[1.0, 1.0, 1.0, 1.0, 1.0, f64::NAN]), None);
    }

    proptest! {
        #[test]
        fn the_interval_holds_its_median(
            values in proptest::collection::vec(-1e9f64..1e9, 0..2000),
        ) {
            match median_interval(&values) {
                Some(i) => prop_assert!(i.low <= i.estimate && i.estimate <= i.high),
                None => prop_assert!(values.len() < MIN_VALUES),
            }
        }
    }
}
