//! The summary figures of a row, declared once: the row saves them, the
//! load tools report them, and the range checks and CSV read them by the
//! lists the declaration makes.

use serde::{Deserialize, Serialize};
use yardstick_stats::Summary;

/// Declares [`Figures`] with one field per figure and, from the same
/// lists, [`Figures::TIMES`], [`Figures::SPREADS`] and [`Figures::of`], so
/// no second list can drift.
macro_rules! figures {
    (
        times: [$($(#[doc = $tdoc:literal])+ $time:ident,)+]
        spreads: [$($(#[doc = $sdoc:literal])+ $spread:ident,)+]
    ) => {
        /// What a row's samples come to: times in milliseconds (per
        /// iteration, or per request), each absent when nothing gave it (no
        /// sample, or a load tool that does not report it).
        #[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(test, derive(schemars::JsonSchema))]
        pub struct Figures {
            /// Timed successful samples (HTTP: answered requests).
            pub n: usize,
            $($(#[doc = $tdoc])+ pub $time: Option<f64>,)+
            $($(#[doc = $sdoc])+ pub $spread: Option<f64>,)+
        }

        impl Figures {
            /// Every time with its name, in the order a run saves them.
            pub const TIMES: &[(&'static str, fn(&Figures) -> Option<f64>)] =
                &[$((stringify!($time), |f| f.$time),)+];

            /// The spreads, saved after the times: no time, so they may be
            /// zero.
            pub const SPREADS: &[(&'static str, fn(&Figures) -> Option<f64>)] =
                &[$((stringify!($spread), |f| f.$spread),)+];

            /// The figures of a summary of samples; none without one.
            pub fn of(summary: Option<&Summary>) -> Figures {
                // Named in full, so that a figure added to `Summary` does
                // not compile until it is declared here too.
                let Some(&Summary { n, $($time,)+ $($spread,)+ }) = summary else {
                    return Figures::default();
                };
                Figures {
                    n,
                    $($time: Some($time),)+
                    $($spread: Some($spread),)+
                }
            }

            /// Every figure with its name: the times, then the spreads.
            pub fn named(&self) -> impl Iterator<Item = (&'static str, Option<f64>)> + '_ {
                Figures::TIMES
                    .iter()
                    .chain(Figures::SPREADS)
                    .map(move |(name, get)| (*name, get(self)))
            }
        }
    };
}

figures! {
    times: [
        /// The fastest sample.
        min,
        /// The mean sample.
        mean,
        /// The median sample.
        median,
        /// The 90th percentile.
        p90,
        /// The 95th percentile.
        p95,
        /// The 99th percentile.
        p99,
        /// The slowest sample.
        max,
    ]
    spreads: [
        /// Sample standard deviation (n − 1 in the denominator).
        stddev,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figures_of_samples_are_their_summary_s() {
        let summary = Summary::of(&[1.0, 2.0, 3.0, 4.0]);
        let f = Figures::of(summary.as_ref());
        assert_eq!(
            (f.n, f.min, f.max, f.median),
            (4, Some(1.0), Some(4.0), Some(2.5))
        );
        let names: Vec<&str> = Figures::TIMES.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["min", "mean", "median", "p90", "p95", "p99", "max"]);
        let named: Vec<&str> = f.named().map(|(name, _)| name).collect();
        assert_eq!(named.last(), Some(&"stddev"));
        assert!(f.named().all(|(_, value)| value.is_some()));
        assert_eq!(Figures::of(None), Figures::default());
    }
}
