//! The project's targets for the verdict, held against what an evaluation
//! measured: which are met, which are missed and by how much, and which
//! this evaluation did not measure (or measured with too few runs to say).

use crate::plan::{Condition, Method};
use crate::results::{Block, Results};
use crate::stats::Rate;

/// What a target asks of one method under one condition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Goal {
    /// Suite false alarms (A/A runs with any probe flagged) at most this
    /// share.
    FalseAlarms { at_most: f64 },
    /// Share of probe runs flagged at this injected slowdown, at least.
    Power { slowdown: f64, at_least: f64 },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    pub method: Method,
    pub condition: Condition,
    pub goal: Goal,
}

/// The targets: false alarms and power of the stored baseline (judged
/// with and without confirmation) quiet and under a CPU hog, of the paired
/// comparison, and of instruction counts.
pub fn all() -> Vec<Target> {
    use Condition::*;
    use Goal::*;
    use Method::*;
    let mut out = Vec::new();
    for method in [StoredBaseline, Confirmed] {
        for condition in [Quiet, Cpu] {
            out.push(Target {
                method,
                condition,
                goal: FalseAlarms { at_most: 0.01 },
            });
            out.push(Target {
                method,
                condition,
                goal: Power {
                    slowdown: 25.0,
                    at_least: 0.95,
                },
            });
        }
    }
    for condition in [Quiet, Cpu] {
        out.push(Target {
            method: Paired,
            condition,
            goal: FalseAlarms { at_most: 0.01 },
        });
    }
    out.push(Target {
        method: Paired,
        condition: Quiet,
        goal: Power {
            slowdown: 5.0,
            at_least: 0.95,
        },
    });
    out.push(Target {
        method: Paired,
        condition: Cpu,
        goal: Power {
            slowdown: 10.0,
            at_least: 0.80,
        },
    });
    out.push(Target {
        method: Instructions,
        condition: Quiet,
        goal: FalseAlarms { at_most: 0.0 },
    });
    out.push(Target {
        method: Instructions,
        condition: Quiet,
        goal: Power {
            slowdown: 2.0,
            at_least: 1.0,
        },
    });
    out
}

/// How a target fared.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub target: Target,
    /// What was measured, when it was.
    pub measured: Option<Rate>,
    /// Met, or missed by how many percentage points; `None` when not
    /// measured.
    pub met: Option<bool>,
    pub gap_points: f64,
}

impl Target {
    pub fn describe(&self) -> String {
        match self.goal {
            Goal::FalseAlarms { at_most: 0.0 } => "no suite false alarm".to_string(),
            Goal::FalseAlarms { at_most } => {
                format!("suite false alarms ≤ {} %", at_most * 100.0)
            }
            Goal::Power {
                slowdown,
                at_least: 1.0,
            } => format!("every probe run caught at {slowdown} %"),
            Goal::Power { slowdown, at_least } => {
                format!("power ≥ {} % at {slowdown} %", at_least * 100.0)
            }
        }
    }

    /// Holds the target against `block` (of its method and condition).
    pub fn check(&self, block: Option<&Block>) -> Verdict {
        let measured = block.and_then(|b| match self.goal {
            Goal::FalseAlarms { .. } => Some(b.aa.suite),
            Goal::Power { slowdown, .. } => b
                .power
                .iter()
                .find(|p| p.slowdown == slowdown)
                .map(|p| p.pooled),
        });
        let rate = measured.and_then(|r| r.rate);
        let (met, gap) = match (rate, self.goal) {
            (None, _) => (None, 0.0),
            (Some(r), Goal::FalseAlarms { at_most }) => (Some(r <= at_most), (r - at_most) * 100.0),
            (Some(r), Goal::Power { at_least, .. }) => {
                (Some(r >= at_least), (at_least - r) * 100.0)
            }
        };
        Verdict {
            target: *self,
            measured: measured.filter(|r| r.rate.is_some()),
            met,
            gap_points: gap.max(0.0),
        }
    }
}

/// Every target against the results' blocks.
pub fn check_all(results: &Results) -> Vec<Verdict> {
    all()
        .iter()
        .map(|t| {
            t.check(
                results
                    .blocks
                    .iter()
                    .find(|b| b.method == t.method && b.condition == t.condition),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::summarise;
    use crate::results::tests::trial;
    use crate::verdict::Verdict::*;

    fn block() -> Block {
        let probes = vec!["a".to_string(), "b".to_string()];
        let mut trials = vec![trial(None, &[("a", Regressed, 20.0), ("b", Pass, 1.0)])];
        for _ in 0..99 {
            trials.push(trial(None, &[("a", Pass, 1.0), ("b", Pass, 1.0)]));
        }
        for _ in 0..10 {
            trials.push(trial(
                Some(25.0),
                &[("a", Regressed, 25.0), ("b", Regressed, 25.0)],
            ));
        }
        trials.push(trial(
            Some(25.0),
            &[("a", Regressed, 25.0), ("b", Inconclusive, 25.0)],
        ));
        summarise(
            Condition::Quiet,
            Method::StoredBaseline,
            &trials,
            &probes,
            &[25.0],
        )
    }

    #[test]
    fn targets_are_met_missed_or_not_measured() {
        let b = block();
        let fa = Target {
            method: Method::StoredBaseline,
            condition: Condition::Quiet,
            goal: Goal::FalseAlarms { at_most: 0.01 },
        };
        // 1 alarm in 100 runs is exactly 1 %.
        let v = fa.check(Some(&b));
        assert_eq!((v.met, v.gap_points), (Some(true), 0.0));
        assert_eq!(v.measured.map(|r| (r.events, r.trials)), Some((1, 100)));
        let power = Target {
            goal: Goal::Power {
                slowdown: 25.0,
                at_least: 0.99,
            },
            ..fa
        };
        // 21 of 22 probe runs: 95.45 %, 3.55 points short.
        let v = power.check(Some(&b));
        assert_eq!(v.met, Some(false));
        assert!((v.gap_points - (99.0 - 2100.0 / 22.0)).abs() < 1e-9);
        let elsewhere = Target {
            goal: Goal::Power {
                slowdown: 5.0,
                at_least: 0.95,
            },
            ..fa
        };
        assert_eq!(elsewhere.check(Some(&b)).met, None);
        assert_eq!(fa.check(None).measured, None);
    }

    #[test]
    fn the_issue_s_table_is_covered() {
        let t = all();
        for m in Method::ALL {
            assert!(t.iter().any(|x| x.method == m), "{m:?}");
        }
        let zero = t.iter().find(|x| x.method == Method::Instructions).unwrap();
        assert_eq!(zero.describe(), "no suite false alarm");
        assert_eq!(
            t.last().unwrap().describe(),
            "every probe run caught at 2 %"
        );
        assert_eq!(t[1].describe(), "power ≥ 95 % at 25 %");
    }
}
