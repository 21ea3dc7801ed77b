//! An interval for the change between two sets of samples: the ratio of
//! their medians, with a percentile bootstrap around it.
//!
//! Why a bootstrap: rounds of a benchmark are not normal (a long right
//! tail, now and then two modes), and the median's sampling distribution
//! has no closed form worth trusting at 10 to 30 samples. Resampling each
//! side with replacement and taking the ratio of the two medians each time
//! makes no assumption about either shape. The generator is seeded from
//! the samples themselves, so the same two runs always give the same
//! interval: a report drawn twice does not move.

use super::median;

/// Resamples drawn: at 2,000 the 2.5th and 97.5th percentiles move by
/// well under a percent of the ratio between seeds, far below what a
/// report shows.
pub const RESAMPLES: usize = 2_000;

/// The fewest rounds a side must have for an interval.
pub const MIN_ROUNDS: usize = 5;

/// A ratio and its 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Interval {
    /// The 2.5th percentile of the resampled ratios.
    pub low: f64,
    /// The ratio of the medians themselves.
    pub estimate: f64,
    /// The 97.5th percentile.
    pub high: f64,
}

impl Interval {
    /// The interval as changes in percent (`ratio - 1`, times 100).
    pub fn as_change_pct(self) -> Interval {
        let pct = |r: f64| (r - 1.0) * 100.0;
        Interval {
            low: pct(self.low),
            estimate: pct(self.estimate),
            high: pct(self.high),
        }
    }
}

/// The ratio `median(current) / median(base)` and its 95 % percentile
/// bootstrap interval; `None` when either side is empty, holds a value
/// that is not finite, or has a median that is not positive.
pub fn ratio_of_medians(base: &[f64], current: &[f64]) -> Option<Interval> {
    // Fewer rounds resample into a few values only: an interval that
    // looks certain and is not.
    let finite = |s: &[f64]| s.len() >= MIN_ROUNDS && s.iter().all(|x| x.is_finite());
    if !finite(base) || !finite(current) {
        return None;
    }
    let (b, c) = (median(base)?, median(current)?);
    if b <= 0.0 || c < 0.0 {
        return None;
    }
    let mut rng = fastrand::Rng::with_seed(seed(base, current));
    let mut ratios = Vec::with_capacity(RESAMPLES);
    let (mut b_draw, mut c_draw) = (vec![0.0; base.len()], vec![0.0; current.len()]);
    for _ in 0..RESAMPLES {
        resample(&mut rng, base, &mut b_draw);
        resample(&mut rng, current, &mut c_draw);
        let (mb, mc) = (median(&b_draw)?, median(&c_draw)?);
        if mb > 0.0 {
            ratios.push(mc / mb);
        }
    }
    ratios.sort_by(f64::total_cmp);
    if ratios.is_empty() {
        return None;
    }
    Some(Interval {
        low: super::percentile_sorted(&ratios, 2.5),
        estimate: c / b,
        high: super::percentile_sorted(&ratios, 97.5),
    })
}

/// The median of `values` (one figure per independent piece of evidence,
/// such as a worker pair's ratio) and its 95 % percentile bootstrap
/// interval; `None` for fewer than [`MIN_ROUNDS`] values or one that is not
/// finite.
pub fn median_of(values: &[f64]) -> Option<Interval> {
    if values.len() < MIN_ROUNDS || values.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let estimate = median(values)?;
    let mut rng = fastrand::Rng::with_seed(seed(values, &[]));
    let mut draw = vec![0.0; values.len()];
    let mut medians = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        resample(&mut rng, values, &mut draw);
        medians.push(median(&draw)?);
    }
    medians.sort_by(f64::total_cmp);
    Some(Interval {
        low: super::percentile_sorted(&medians, 2.5),
        estimate,
        high: super::percentile_sorted(&medians, 97.5),
    })
}

fn resample(rng: &mut fastrand::Rng, from: &[f64], into: &mut [f64]) {
    for slot in into.iter_mut() {
        *slot = from[rng.usize(..from.len())];
    }
}

/// A seed made of the samples' bits: the same runs, the same interval.
fn seed(base: &[f64], current: &[f64]) -> u64 {
    base.iter()
        .chain([&f64::NAN])
        .chain(current)
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, x| {
            (h ^ x.to_bits()).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_clear_shift_is_outside_and_no_shift_is_inside() {
        let base: Vec<f64> = (0..30).map(|i| 10.0 + f64::from(i % 5) * 0.1).collect();
        let slower: Vec<f64> = base.iter().map(|x| x * 1.3).collect();
        let i = ratio_of_medians(&base, &slower).unwrap();
        assert!((i.estimate - 1.3).abs() < 1e-12);
        assert!(i.low > 1.2 && i.high < 1.4, "{i:?}");
        let same = ratio_of_medians(&base, &base).unwrap();
        assert!(same.low <= 1.0 && same.high >= 1.0, "{same:?}");
    }

    #[test]
    fn the_same_runs_give_the_same_interval() {
        let base = [1.0, 1.2, 0.9, 1.1, 1.05];
        let current = [1.3, 1.1, 1.25, 1.4, 1.2];
        assert!(ratio_of_medians(&base, &current).is_some());
        assert_eq!(
            ratio_of_medians(&base, &current),
            ratio_of_medians(&base, &current)
        );
    }

    #[test]
    fn the_median_of_one_set_lies_within_its_interval() {
        let ratios = [1.05, 1.06, 1.04, 1.07, 1.05, 1.06];
        let i = median_of(&ratios).unwrap();
        assert!((i.estimate - 1.055).abs() < 1e-12, "{i:?}");
        assert!(
            i.low >= 1.04 && i.high <= 1.07 && i.low <= i.estimate,
            "{i:?}"
        );
        assert_eq!(median_of(&ratios[..4]), None);
        assert_eq!(median_of(&[1.0, 1.0, 1.0, 1.0, f64::INFINITY]), None);
    }

    #[test]
    fn nothing_to_compare_is_no_interval() {
        let five = [1.0; 5];
        assert_eq!(ratio_of_medians(&[], &five), None);
        assert_eq!(ratio_of_medians(&[1.0; 4], &five), None);
        assert_eq!(
            ratio_of_medians(&five, &[1.0, 1.0, 1.0, 1.0, f64::NAN]),
            None
        );
        assert_eq!(ratio_of_medians(&[0.0; 5], &five), None);
        assert!(ratio_of_medians(&five, &five).is_some());
    }

    proptest! {
        // Each case resamples 2,000 times: a few dozen cases are plenty
        // for a property of the arithmetic, not of the data.
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn an_interval_is_ordered_and_finite(
            base in proptest::collection::vec(0.001f64..1e6, 5..40),
            current in proptest::collection::vec(0.0f64..1e6, 5..40),
        ) {
            if let Some(i) = ratio_of_medians(&base, &current) {
                prop_assert!(i.low <= i.high);
                prop_assert!(i.low.is_finite() && i.high.is_finite());
            }
        }
    }
}
