//! Which threshold a check is judged by: the one given on the command
//! line (`--threshold`), else the probe's own from the baseline (learned
//! from its class's runs, `baseline::thresholds`), else the method's
//! default. Every check that can have a threshold of its own records the
//! one it was judged by, so the verdict line can say where it came from.

use crate::document::check::{Basis, Threshold};
use crate::document::thresholds::Thresholds;

/// The thresholds a comparison chooses from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Choice<'a> {
    /// `--threshold`, percent.
    pub given: Option<f64>,
    /// The baseline's own thresholds, if it was made with any.
    pub baseline: Option<&'a Thresholds>,
    /// The method's default, percent.
    pub default: f64,
}

impl Choice<'_> {
    /// The threshold of the row `key`.
    pub(crate) fn of(&self, key: &str) -> Threshold {
        if let Some(percent) = self.given {
            return Threshold {
                percent,
                basis: Basis::Given,
            };
        }
        match self.baseline {
            Some(t) => match t.of(key) {
                Some(percent) => Threshold {
                    percent,
                    basis: Basis::Learned { runs: t.runs },
                },
                None => Threshold {
                    percent: self.default,
                    basis: Basis::Default { runs: Some(t.runs) },
                },
            },
            None => Threshold {
                percent: self.default,
                basis: Basis::Default { runs: None },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_wins_then_the_baseline_s_own_then_the_default() {
        let learned = Thresholds {
            runs: 41,
            probes: [("p".to_string(), 9.1)].into_iter().collect(),
        };
        let choice = |given| Choice {
            given,
            baseline: Some(&learned),
            default: 30.0,
        };
        assert_eq!(choice(Some(15.0)).of("p").to_string(), "15 % (--threshold)");
        assert_eq!(
            choice(None).of("p").to_string(),
            "9.1 % (41 runs of this class)"
        );
        assert_eq!(choice(None).of("q").to_string(), "30 % (default: 41 runs)");
        let none = Choice {
            given: None,
            baseline: None,
            default: 30.0,
        };
        assert_eq!(none.of("p").to_string(), "30 % (default)");
        let few = Thresholds {
            runs: 3,
            probes: Default::default(),
        };
        let choice = Choice {
            baseline: Some(&few),
            ..none
        };
        assert_eq!(choice.of("p").to_string(), "30 % (default: 3 runs)");
    }
}
