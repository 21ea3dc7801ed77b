//! The equivalence margin: how far a paired ratio must lie from 1 before a
//! side-by-side comparison (a group's ranking, a matrix cell) calls one
//! side faster.
//!
//! Both comparisons print a paired ratio with its 95 % interval, and both
//! decide by that interval alone: a side is faster only when the whole
//! interval lies beyond the margin. An interval that reaches inside it is
//! a tie, however far its estimate: the evidence does not exclude a
//! difference too small to matter. Why a margin at all: with 30 paired
//! rounds an interval can be a fraction of a percent wide, and a 0.7 %
//! difference (node_query's rusqlite at 0.993 [0.989, 0.997]) is real on
//! that machine and that day but no reason to prefer an implementation.
//! Why 2 %: it keeps differences of a percent or so (what the order of
//! code in a binary can move; docs/evaluation.md, "What moves a count")
//! from being called wins, while the groups' real differences (10 % and
//! more in the suite's own groups) still are. A run's interval holds
//! only its own rounds: two runs of one group can differ by more than
//! the margin (docs/evaluation.md, "Variants side by side"), so a win is a
//! claim about this run on this machine.

use crate::stats::bootstrap::Interval;

/// The margin as a fraction: a ratio within 1 ± this is "the same".
pub const MARGIN: f64 = 0.02;

/// Where an interval of `a / b` lies against the margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Wholly below `1 - margin`: `a` is faster.
    Faster,
    /// Wholly above `1 + margin`: `a` is slower.
    Slower,
    /// Reaching inside the margin: no side is called.
    Tie,
}

/// Which side the interval of a ratio lies on, given `margin`.
pub fn side(ratio: Interval, margin: f64) -> Side {
    if ratio.high < 1.0 - margin {
        Side::Faster
    } else if ratio.low > 1.0 + margin {
        Side::Slower
    } else {
        Side::Tie
    }
}

/// What a called side needs, in words, for the legends under the tables.
pub fn rule(margin: f64) -> String {
    let pct = margin * 100.0;
    format!("its whole 95 % interval lies beyond ±{pct} %")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(low: f64, estimate: f64, high: f64) -> Interval {
        Interval {
            low,
            estimate,
            high,
        }
    }

    #[test]
    fn the_issues_three_cases_decide_by_the_interval_against_the_margin() {
        // node_query: rusqlite 0.993 [0.989, 0.997], a real but small
        // difference, inside the margin.
        assert_eq!(side(interval(0.989, 0.993, 0.997), MARGIN), Side::Tie);
        // full_view: minijinja 1.052 [1.016, 1.081] reaches inside it.
        assert_eq!(side(interval(1.016, 1.052, 1.081), MARGIN), Side::Tie);
        // template_page: minijinja 1.418 [1.366, 1.477] lies beyond it.
        assert_eq!(side(interval(1.366, 1.418, 1.477), MARGIN), Side::Slower);
        assert_eq!(side(interval(0.70, 0.72, 0.75), MARGIN), Side::Faster);
    }

    #[test]
    fn the_bounds_of_the_margin_are_a_tie() {
        assert_eq!(side(interval(1.02, 1.03, 1.04), MARGIN), Side::Tie);
        assert_eq!(side(interval(0.96, 0.97, 0.98), MARGIN), Side::Tie);
        assert_eq!(rule(MARGIN), "its whole 95 % interval lies beyond ±2 %");
    }
}
