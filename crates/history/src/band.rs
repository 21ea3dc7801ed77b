//! The rule `history bisect` applies: the first commit whose figure left
//! the band of the runs before it.
//!
//! Counts are exact: the same code gives the same count, so the band is
//! the range of the N figures before, and any figure outside it moved.
//! Wall time is not: a new figure falls outside the range of N earlier
//! ones by chance 2/(N+1) of the time, so its band is their median ± 4 ×
//! their spread (the median absolute deviation scaled to a standard
//! deviation, 1.4826 × MAD), and never narrower than ± `floor` of the
//! median, since a run of quiet figures can have a spread of almost
//! nothing.

use crate::stats::Summary;

/// How wide the band is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Band {
    /// Counts: the range of the figures before.
    Exact,
    /// Wall time: median ± 4 scaled MADs, at least ± `floor` × median.
    Spread {
        /// The narrowest half-width, as a fraction of the median.
        floor: f64,
    },
}

/// One commit's figure: the median of its runs'.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The commit.
    pub commit: String,
    /// Its figure.
    pub value: f64,
}

/// Where the figure first left the band.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Its index in the steps given.
    pub at: usize,
    /// The band of the `window` steps before it.
    pub low: f64,
    /// Its upper edge.
    pub high: f64,
}

/// How many scaled MADs the wall-time band reaches either way.
pub const SPREADS: f64 = 4.0;

impl Band {
    /// The band of `values`; `None` without any.
    pub fn of(self, values: &[f64]) -> Option<(f64, f64)> {
        let s = Summary::of(values)?;
        match self {
            Band::Exact => Some((s.min, s.max)),
            Band::Spread { floor } => {
                let deviations: Vec<f64> = values.iter().map(|v| (v - s.median).abs()).collect();
                let mad = Summary::of(&deviations)?.median * 1.4826;
                let half = (SPREADS * mad).max(floor * s.median.abs());
                Some((s.median - half, s.median + half))
            }
        }
    }
}

/// The first step, after `window` steps, whose figure lies outside the
/// band of the `window` steps just before it.
pub fn first_outside(steps: &[Step], window: usize, band: Band) -> Option<Finding> {
    (window.max(1)..steps.len()).find_map(|at| {
        let before: Vec<f64> = steps[at - window.max(1)..at]
            .iter()
            .map(|s| s.value)
            .collect();
        let (low, high) = band.of(&before)?;
        let value = steps[at].value;
        (value < low || value > high).then_some(Finding { at, low, high })
    })
}

/// A step per value, at commits `c0`, `c1`, ...: the series the tests of
/// the history's rules walk.
#[cfg(test)]
pub(crate) fn test_steps(values: &[f64]) -> Vec<Step> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| Step {
            commit: format!("c{i}"),
            value: *v,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(values: &[f64]) -> Vec<Step> {
        test_steps(values)
    }

    #[test]
    fn a_count_that_moves_at_all_leaves_its_band() {
        let s = steps(&[100.0, 100.0, 101.0, 100.0, 100.0, 102.0, 102.0]);
        let found = first_outside(&s, 3, Band::Exact).unwrap();
        assert_eq!((found.at, found.low, found.high), (5, 100.0, 101.0));
        assert_eq!(first_outside(&s[..5], 3, Band::Exact), None);
    }

    #[test]
    fn wall_time_leaves_its_band_only_beyond_its_spread() {
        let noisy = [10.0, 10.4, 9.7, 10.2, 9.9, 10.3, 9.8, 10.5, 10.1, 9.6];
        assert_eq!(
            first_outside(&steps(&noisy), 5, Band::Spread { floor: 0.02 }),
            None
        );
        let mut slowed = noisy.to_vec();
        slowed.extend([13.0, 13.1]);
        let found = first_outside(&steps(&slowed), 5, Band::Spread { floor: 0.02 }).unwrap();
        assert_eq!(found.at, 10);
        // Quiet figures: the floor keeps the band from closing.
        let quiet = steps(&[5.0, 5.0, 5.0, 5.0, 5.05]);
        assert_eq!(first_outside(&quiet, 4, Band::Spread { floor: 0.02 }), None);
        assert!(first_outside(&quiet, 4, Band::Exact).is_some());
    }

    #[test]
    fn too_few_steps_find_nothing() {
        assert_eq!(first_outside(&steps(&[1.0, 9.0]), 5, Band::Exact), None);
        assert_eq!(first_outside(&[], 0, Band::Exact), None);
    }
}
