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

/// What `history bisect` names: the first change that still stands, and
/// the pairs of steps before it that cancelled out.
#[derive(Debug, Clone, PartialEq)]
pub struct Bisected<'a> {
    /// The first change neither taken back nor itself a taking back.
    pub first: Option<&'a Change>,
    /// The changes before it that were taken back, each with the change
    /// that took it back.
    pub passed_over: Vec<(&'a Change, &'a Change)>,
}

/// The change that moved the figure and left it moved: the first one that
/// was not reverted and did not revert another. A step taken back (a spell
/// of the machine, or a slowdown fixed) explains nothing about today's
/// figure, and neither does the step that took it back; a commit that moved
/// the figure again after the first standing change is the next change, as
/// `history changes` lists.
pub fn first_standing(changes: &[Change]) -> Bisected<'_> {
    let mut passed_over = Vec::new();
    let mut taking_back = None;
    for c in changes {
        if taking_back == Some(c.first_bad) {
            taking_back = None;
            continue;
        }
        if let Held::Reverted(at) = c.held
            && let Some(back) = changes.iter().find(|later| later.first_bad == at)
        {
            passed_over.push((c, back));
            taking_back = Some(at);
            continue;
        }
        return Bisected {
            first: Some(c),
            passed_over,
        };
    }
    Bisected {
        first: None,
        passed_over,
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

    #[test]
    fn bisect_names_the_first_step_that_stands() {
        // A spell taken back, then the step that stands.
        let mut values = vec![1.0; 10];
        values.extend(vec![1.3; 5]);
        values.extend(vec![1.0; 10]);
        values.extend(vec![1.5; 6]);
        let found = find(&steps(&values), true);
        assert_eq!(found.len(), 3, "{found:?}");
        let b = first_standing(&found);
        assert_eq!(b.first.map(|c| c.first_bad), Some(25));
        let pairs: Vec<(usize, usize)> = b
            .passed_over
            .iter()
            .map(|(c, back)| (c.first_bad, back.first_bad))
            .collect();
        assert_eq!(pairs, [(10, 15)]);
        // A creep in two steps: the first of them.
        let mut creep = vec![1.0; 8];
        creep.extend(vec![1.2; 8]);
        creep.extend(vec![1.4; 8]);
        let found = find(&steps(&creep), true);
        let b = first_standing(&found);
        assert_eq!(b.first.map(|c| c.first_bad), Some(8));
        assert!(b.passed_over.is_empty());
    }

    #[test]
    fn bisect_of_a_figure_that_came_back_names_nothing() {
        let mut values = vec![1.0; 10];
        values.extend(vec![1.3; 5]);
        values.extend(vec![1.0; 10]);
        let found = find(&steps(&values), true);
        let b = first_standing(&found);
        assert_eq!(b.first, None);
        assert_eq!(b.passed_over.len(), 1);
        let none = first_standing(&[]);
        assert_eq!((none.first, none.passed_over.len()), (None, 0));
    }
}
