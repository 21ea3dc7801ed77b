//! Rates with exact binomial intervals, and percentiles of |change|.
//!
//! A false-alarm rate measured over a few hundred runs is only meaningful
//! with its uncertainty: 0 alarms in 300 runs still allows a true rate of
//! about 1.2 %. Clopper-Pearson intervals are used because they never claim
//! more certainty than the data gives, even at 0 or n events, where the
//! normal approximation collapses to a width of zero.

use serde::{Deserialize, Serialize};
use statrs::distribution::{Beta, ContinuousCDF};

/// The confidence level of every interval in the report.
pub const CONFIDENCE: f64 = 0.95;

/// `events` out of `trials`, with its 95 % Clopper-Pearson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub events: u64,
    pub trials: u64,
    /// events / trials; `None` when there was no trial.
    pub rate: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Rate {
    pub fn new(events: u64, trials: u64) -> Rate {
        let events = events.min(trials);
        let interval = clopper_pearson(events, trials, CONFIDENCE);
        Rate {
            events,
            trials,
            rate: (trials > 0).then(|| events as f64 / trials as f64),
            low: interval.map(|i| i.0),
            high: interval.map(|i| i.1),
        }
    }

    /// Counts the `true`s among `outcomes`.
    pub fn of(outcomes: impl IntoIterator<Item = bool>) -> Rate {
        let (mut events, mut trials) = (0, 0);
        for hit in outcomes {
            trials += 1;
            events += u64::from(hit);
        }
        Rate::new(events, trials)
    }
}

/// The exact (Clopper-Pearson) interval for a binomial proportion: the
/// bounds are quantiles of Beta distributions, and the bound at 0 or at
/// `trials` events is exactly 0 or 1. `None` for no trial or a level that is
/// not strictly between 0 and 1.
pub fn clopper_pearson(events: u64, trials: u64, level: f64) -> Option<(f64, f64)> {
    if trials == 0 || events > trials || !(level > 0.0 && level < 1.0) {
        return None;
    }
    let alpha = 1.0 - level;
    let (x, n) = (events as f64, trials as f64);
    let low = if events == 0 {
        0.0
    } else {
        Beta::new(x, n - x + 1.0).ok()?.inverse_cdf(alpha / 2.0)
    };
    let high = if events == trials {
        1.0
    } else {
        Beta::new(x + 1.0, n - x)
            .ok()?
            .inverse_cdf(1.0 - alpha / 2.0)
    };
    Some((low.clamp(0.0, 1.0), high.clamp(0.0, 1.0)))
}

/// p50, p95, p99 and max of a set of |change| figures, in percent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub n: usize,
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of the absolute values of `changes`; non-finite figures
    /// are left out, and `None` is returned when nothing is left.
    pub fn of_abs(changes: &[f64]) -> Option<Spread> {
        let abs: Vec<f64> = changes
            .iter()
            .filter(|c| c.is_finite())
            .map(|c| c.abs())
            .collect();
        let s = yardstick::stats::Summary::of(&abs)?;
        Some(Spread {
            n: s.n,
            p50: s.median,
            p95: s.p95,
            p99: s.p99,
            max: s.max,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn known_intervals() {
        // Reference values found independently, by solving the binomial
        // tail equations P(X >= x | lo) = P(X <= x | hi) = 0.025 with
        // exact sums and bisection.
        let (lo, hi) = clopper_pearson(0, 300, 0.95).unwrap();
        assert_eq!(lo, 0.0);
        assert!(near(hi, 0.012_220_975, 1e-8), "{hi}");
        let (lo, hi) = clopper_pearson(3, 300, 0.95).unwrap();
        assert!(near(lo, 0.002_067_007, 1e-8), "{lo}");
        assert!(near(hi, 0.028_944_511, 1e-8), "{hi}");
        let (lo, hi) = clopper_pearson(5, 10, 0.95).unwrap();
        assert!(near(lo, 0.187_086_028, 1e-8), "{lo}");
        assert!(near(hi, 0.812_913_972, 1e-8), "{hi}");
        let (lo, hi) = clopper_pearson(1, 1, 0.95).unwrap();
        assert!(near(lo, 0.025, 1e-6) && hi == 1.0, "{lo} {hi}");
    }

    #[test]
    fn zero_events_upper_bound_is_closed_form() {
        // With no event the upper bound solves (1 - p)^n = alpha / 2.
        for n in [5u64, 37, 300, 1000] {
            let (_, hi) = clopper_pearson(0, n, 0.95).unwrap();
            let exact = 1.0 - 0.025f64.powf(1.0 / n as f64);
            assert!(near(hi, exact, 1e-7), "n={n}: {hi} vs {exact}");
        }
    }

    #[test]
    fn interval_is_symmetric_in_events_and_misses() {
        let (lo, hi) = clopper_pearson(7, 40, 0.95).unwrap();
        let (lo2, hi2) = clopper_pearson(33, 40, 0.95).unwrap();
        assert!(near(lo, 1.0 - hi2, 1e-9) && near(hi, 1.0 - lo2, 1e-9));
    }

    #[test]
    fn refusals() {
        assert!(clopper_pearson(0, 0, 0.95).is_none());
        assert!(clopper_pearson(4, 3, 0.95).is_none());
        assert!(clopper_pearson(1, 3, 1.0).is_none());
        assert!(clopper_pearson(1, 3, f64::NAN).is_none());
    }

    #[test]
    fn rates_count_hits() {
        let r = Rate::of([true, false, false, true]);
        assert_eq!((r.events, r.trials, r.rate), (2, 4, Some(0.5)));
        assert!(r.low.unwrap() < 0.5 && r.high.unwrap() > 0.5);
        let none = Rate::of([]);
        assert_eq!((none.rate, none.low, none.high), (None, None, None));
    }

    #[test]
    fn spread_of_absolute_changes() {
        let changes: Vec<f64> = (1..=10)
            .map(|i| if i % 2 == 0 { -i } else { i } as f64)
            .collect();
        let s = Spread::of_abs(&changes).unwrap();
        assert_eq!(s.n, 10);
        assert!(near(s.p50, 5.5, 1e-12));
        assert!(near(s.p95, 9.55, 1e-12));
        assert!(near(s.p99, 9.91, 1e-12));
        assert_eq!(s.max, 10.0);
        assert!(Spread::of_abs(&[f64::NAN]).is_none());
        assert_eq!(Spread::of_abs(&[f64::NAN, -2.0]).unwrap().max, 2.0);
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn interval_contains_the_estimate(trials in 1u64..2000, share in 0.0f64..=1.0) {
            let events = (share * trials as f64).round() as u64;
            let (lo, hi) = clopper_pearson(events, trials, 0.95).unwrap();
            let p = events as f64 / trials as f64;
            prop_assert!(lo <= p + 1e-12 && p <= hi + 1e-12, "{lo} {p} {hi}");
            prop_assert!((0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi));
        }
    }
}
