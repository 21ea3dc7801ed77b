//! A row's times counted in buckets, saved in place of its samples when
//! there are too many to keep one by one.
//!
//! An HTTP run of a million requests would otherwise save a million times,
//! about 20 MB of JSON, and hold them all while it runs. Past the most a
//! row keeps (the built-in client's `tally::KEPT`), the times go into
//! log-linear buckets of three significant digits instead, HdrHistogram's
//! layout, so a row's size no longer grows with its requests. Which of
//! its figures stay exact is the measurer's to say, as it computes them;
//! the buckets are what the report draws.

use serde::{Deserialize, Serialize};

/// Times by bucket, ascending, only the buckets that counted something.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Histogram {
    /// Every bucket is at most one part in 10^`digits` of its value wide.
    pub digits: u8,
    /// Each bucket: its highest time in milliseconds, and how many times
    /// fell in it.
    pub buckets: Vec<Bucket>,
}

/// One bucket of a [`Histogram`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Bucket {
    /// The highest time that falls in the bucket, in milliseconds.
    pub ms: f64,
    /// Times that fell in it.
    pub count: u64,
}

impl Histogram {
    /// Times counted.
    pub fn count(&self) -> u64 {
        self.buckets
            .iter()
            .fold(0u64, |sum, b| sum.saturating_add(b.count))
    }

    /// At most `most` times that stand for the whole: the times at evenly
    /// spaced ranks, in ascending order. A chart of them draws the shape of
    /// the distribution, without a sample per request. Buckets whose times
    /// are not finite numbers (no saved run of yardstick's has them) are
    /// left out.
    pub fn representatives(&self, most: usize) -> Vec<f64> {
        let buckets: Vec<&Bucket> = self
            .buckets
            .iter()
            .filter(|b| b.ms.is_finite() && b.count > 0)
            .collect();
        let total = buckets
            .iter()
            .fold(0u64, |sum, b| sum.saturating_add(b.count));
        let Ok(most_u) = u64::try_from(most) else {
            return Vec::new();
        };
        let k = total.min(most_u);
        let mut out = Vec::with_capacity(usize::try_from(k).unwrap_or(most));
        let mut buckets = buckets.into_iter();
        let mut current = buckets.next();
        let mut below = 0u64;
        for i in 0..k {
            // The rank in the middle of the i-th of k equal shares.
            let rank = ((2 * u128::from(i) + 1) * u128::from(total) / (2 * u128::from(k))) as u64;
            while let Some(b) = current {
                if rank < below.saturating_add(b.count) {
                    break;
                }
                below = below.saturating_add(b.count);
                current = buckets.next();
            }
            match current {
                Some(b) => out.push(b.ms),
                None => break,
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn histogram(buckets: &[(f64, u64)]) -> Histogram {
        Histogram {
            digits: 3,
            buckets: buckets
                .iter()
                .map(|&(ms, count)| Bucket { ms, count })
                .collect(),
        }
    }

    #[test]
    fn representatives_follow_the_counts() {
        let h = histogram(&[(1.0, 3), (2.0, 1)]);
        assert_eq!(h.count(), 4);
        assert_eq!(h.representatives(100), [1.0, 1.0, 1.0, 2.0]);
        assert_eq!(h.representatives(2), [1.0, 2.0]);
        assert_eq!(h.representatives(1), [1.0]);
        assert!(h.representatives(0).is_empty());
        assert!(Histogram::default().representatives(10).is_empty());
    }

    #[test]
    fn a_bucket_of_no_number_is_left_out() {
        let h = histogram(&[(f64::NAN, 5), (3.0, 2), (f64::INFINITY, 1)]);
        assert_eq!(h.representatives(10), [3.0, 3.0]);
    }

    proptest! {
        #[test]
        fn representatives_never_panic_and_stay_in_range(
            buckets in prop::collection::vec((-1e9f64..1e9, 0u64..u64::MAX / 4), 0..20),
            most in 0usize..5000,
        ) {
            let mut buckets = buckets;
            buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
            let h = histogram(&buckets);
            let r = h.representatives(most);
            prop_assert!(r.len() <= most);
            prop_assert!(r.windows(2).all(|w| w[0] <= w[1]));
            for v in &r {
                prop_assert!(buckets.iter().any(|b| b.0 == *v));
            }
        }
    }
}
