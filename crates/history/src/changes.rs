//! The steps in a probe's figure along a line of commits
//! (`history changes`): where the change points fall (`stats::change_points`,
//! PELT), and for each the last good and first bad commit, its size with
//! an interval, and whether it held. `history bisect` rests on the same
//! changes ([`first_standing`]).

use crate::stats::bootstrap::{self, Interval};
use crate::stats::change_points::{self, Rule};
use crate::stats::median;

/// One commit's figure: the median of its runs'.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The commit.
    pub commit: String,
    /// Its figure.
    pub value: f64,
}

/// The fewest commits after a change for it to count as held: one or two
/// commits at a new level may be a spell of the machine.
pub const HELD_AFTER: usize = 3;

/// One step of the figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The index, in the steps given, of the last commit at the old level.
    pub last_good: usize,
    /// The index of the first commit at the new one.
    pub first_bad: usize,
    /// The median figure of the commits before it, back to the change
    /// before.
    pub before: f64,
    /// The median figure of the commits after it, up to the next.
    pub after: f64,
    /// after / before, with its 95 % interval (a bootstrap of the two
    /// medians); none when either side has fewer than five commits.
    pub size: Option<Interval>,
    /// Whether the new level held.
    pub held: Held,
}

/// Whether a change's new level held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// At least [`HELD_AFTER`] commits, and the next level did not go back.
    Yes,
    /// The next change took the figure back to within half the step of
    /// where it was, at the commit of this index.
    Reverted(usize),
    /// Fewer than [`HELD_AFTER`] commits since: not known yet.
    TooRecent,
}

/// The changes in `steps` (a figure per commit, oldest first): counts are
/// exact, so any step of theirs is one; wall time's must stand out of its
/// noise.
pub fn find(steps: &[Step], counted: bool) -> Vec<Change> {
    let values: Vec<f64> = steps.iter().map(|s| s.value).collect();
    let rule = if counted { Rule::COUNTS } else { Rule::TIME };
    let starts = change_points::find(&values, rule);
    let mut bounds = vec![0];
    bounds.extend(&starts);
    bounds.push(values.len());
    let levels: Vec<f64> = bounds
        .windows(2)
        .map(|w| median(&values[w[0]..w[1]]).unwrap_or(f64::NAN))
        .collect();
    (0..starts.len())
        .map(|i| {
            let (from, at, to) = (bounds[i], bounds[i + 1], bounds[i + 2]);
            let (before, after) = (levels[i], levels[i + 1]);
            let held = match levels.get(i + 2) {
                _ if to - at < HELD_AFTER => Held::TooRecent,
                Some(next) if (next - before).abs() <= (after - before).abs() / 2.0 => {
                    Held::Reverted(to)
                }
                _ => Held::Yes,
            };
            Change {
                last_good: at - 1,
                first_bad: at,
                before,
                after,
                size: bootstrap::ratio_of_medians(&values[from..at], &values[at..to]),
                held,
            }
        })
        .collect()
}

/// What `history bisect` names: the change that took the figure to where
/// it is now, and the changes before it, which did not.
#[derive(Debug, Clone, PartialEq)]
pub struct Bisected<'a> {
    /// The first change after which the figure stayed away from where the
    /// line began, on the side where it is now; none when it is back.
    pub first: Option<&'a Change>,
    /// The changes before it: spells, slowdowns fixed, steps taken back.
    pub passed_over: Vec<&'a Change>,
    /// The figure now against where the line began (the last level over
    /// the first), with its interval when both have five commits or more.
    pub net: Option<Net>,
}

/// The last level against the first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Net {
    /// last level / first level.
    pub ratio: f64,
    /// Its 95 % interval (a bootstrap of the two segments' medians).
    pub interval: Option<Interval>,
}

/// The change that moved the figure to where it is now, of `changes`
/// found in `values` (`find`'s). Not simply the first change: a step
/// taken back (a spell of the machine, a slowdown fixed) explains nothing
/// about today's figure. So the figure now is set against where the line
/// began: when it is back there (its interval holds 1, or with too few
/// commits for one, it is within a quarter of the largest step; counts,
/// exactly), no change is named. Otherwise the change named is the first
/// after which every level stayed on today's side, more than a quarter of
/// the net change away from the first level: a step taken back before it,
/// wholly or in part, is passed over, and of a creep in steps, the first
/// step is named.
pub fn first_standing<'a>(values: &[f64], changes: &'a [Change], counted: bool) -> Bisected<'a> {
    let (Some(first), Some(last)) = (changes.first(), changes.last()) else {
        return Bisected {
            first: None,
            passed_over: Vec::new(),
            net: None,
        };
    };
    let (start, now) = (first.before, last.after);
    let interval = bootstrap::ratio_of_medians(
        values.get(..first.first_bad).unwrap_or_default(),
        values.get(last.first_bad..).unwrap_or_default(),
    );
    let net = Net {
        ratio: now / start,
        interval,
    };
    let largest = changes
        .iter()
        .map(|c| (c.after - c.before).abs())
        .fold(0.0, f64::max);
    let moved = match interval {
        _ if counted => now != start,
        Some(i) => i.low > 1.0 || i.high < 1.0,
        None => (now - start).abs() > largest / 4.0,
    };
    let away = |level: f64| (level - start) * (now - start).signum() > (now - start).abs() / 4.0;
    let named = moved
        .then(|| (0..changes.len()).find(|&i| changes[i..].iter().all(|c| away(c.after))))
        .flatten();
    Bisected {
        first: named.map(|i| &changes[i]),
        passed_over: changes[..named.unwrap_or(changes.len())].iter().collect(),
        net: Some(net),
    }
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
    use test_steps as steps;

    #[test]
    fn a_step_that_held_names_its_commits_and_size() {
        let mut values = vec![1.0; 10];
        values.extend(vec![1.2; 10]);
        let found = find(&steps(&values), false);
        let [change] = found.as_slice() else {
            panic!("one change: {found:?}");
        };
        assert_eq!((change.last_good, change.first_bad), (9, 10));
        assert_eq!(change.held, Held::Yes);
        let size = change.size.expect("an interval");
        assert!((size.estimate - 1.2).abs() < 1e-9, "{size:?}");
    }

    #[test]
    fn a_step_taken_back_is_reverted_and_a_new_one_too_recent() {
        let mut values = vec![1.0; 10];
        values.extend(vec![1.3; 5]);
        values.extend(vec![1.0; 10]);
        values.extend(vec![1.5; 2]);
        let found = find(&steps(&values), true);
        let held: Vec<Held> = found.iter().map(|c| c.held).collect();
        assert_eq!(
            held,
            [Held::Reverted(15), Held::Yes, Held::TooRecent],
            "{found:?}"
        );
        // Two commits on either side give no interval, only the figures.
        assert!(found[2].size.is_none());
        assert_eq!((found[2].before, found[2].after), (1.0, 1.5));
    }

    /// The commit `history bisect` names in `values` (its first bad
    /// commit's index), and the changes it passed over.
    fn bisected(values: &[f64]) -> (Option<usize>, usize) {
        let found = find(&steps(values), true);
        let b = first_standing(values, &found, true);
        (b.first.map(|c| c.first_bad), b.passed_over.len())
    }

    fn levels(parts: &[(f64, usize)]) -> Vec<f64> {
        parts
            .iter()
            .flat_map(|&(v, n)| std::iter::repeat_n(v, n))
            .collect()
    }

    #[test]
    fn bisect_names_the_change_that_took_the_figure_where_it_is() {
        // A spell taken back, then the step that stands.
        assert_eq!(
            bisected(&levels(&[(1.0, 10), (1.3, 5), (1.0, 10), (1.5, 6)])),
            (Some(25), 2)
        );
        // A creep in two steps: the first of them.
        assert_eq!(
            bisected(&levels(&[(1.0, 8), (1.2, 8), (1.4, 8)])),
            (Some(8), 0)
        );
        // A step taken back in part still stands, and is named.
        assert_eq!(
            bisected(&levels(&[(1.0, 8), (2.0, 8), (1.5, 8)])),
            (Some(8), 0)
        );
        // A slowdown, then one more: the first.
        assert_eq!(
            bisected(&levels(&[(1.0, 8), (1.3, 8), (1.5, 8)])),
            (Some(8), 0)
        );
        // Taken back two steps later: nothing stands.
        assert_eq!(
            bisected(&levels(&[(1.0, 8), (1.3, 8), (1.5, 8), (1.0, 8)])),
            (None, 3)
        );
        // A step of one commit back is no revert yet: the step is named.
        assert_eq!(
            bisected(&levels(&[(1.0, 10), (1.3, 10), (1.32, 1)])),
            (Some(10), 0)
        );
    }

    #[test]
    fn bisect_of_a_figure_that_came_back_names_nothing() {
        assert_eq!(
            bisected(&levels(&[(1.0, 10), (1.3, 5), (1.0, 10)])),
            (None, 2)
        );
        let none = first_standing(&[], &[], false);
        assert_eq!(
            (none.first, none.passed_over.len(), none.net),
            (None, 0, None)
        );
        // Wall time back within its noise: the interval holds 1.
        let mut noisy: Vec<f64> = (0..12).map(|i| 1.0 + 0.01 * f64::from(i % 3)).collect();
        noisy.extend(levels(&[(1.4, 8)]));
        noisy.extend((0..12).map(|i| 1.005 + 0.01 * f64::from(i % 3)));
        let found = find(&steps(&noisy), false);
        assert!(!found.is_empty(), "{found:?}");
        let b = first_standing(&noisy, &found, false);
        assert_eq!(b.first, None, "{b:?}");
        assert!(b.net.and_then(|n| n.interval).is_some());
    }
}
