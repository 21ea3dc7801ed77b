//! Where a counted probe moved: the functions whose own count changed
//! most between the baseline's row and the run's.
//!
//! Own costs, not inclusive ones: a function that got slower makes every
//! caller up the stack slower too, inclusively, while its own cost moves
//! alone. Each function's share is of the probe's whole change, so a
//! share near 100 % says "this one, and nothing else". Judged by
//! estimated cycles, the probe's change in instructions is given too: a
//! probe whose cycles moved and whose instructions did not does the same
//! work and meets the cache worse, which is a finding of its own.

use super::change_pct;
use crate::document::functions::{Attribution, Functions, INJECTED, Moved, Unkept};
use crate::document::run::{Metric, Row};
use std::collections::BTreeMap;

/// The most functions an attribution names.
pub const NAMED: usize = 10;

/// The fewest functions an attribution names, however little they moved.
const FEWEST: usize = 3;

/// The least share of the change past the [`FEWEST`] a function must have
/// to be named.
const MIN_SHARE_PCT: f64 = 1.0;

/// The share of a probe's change a function's subtree must hold to be
/// where the change lies ([`within`]): more than half, so that it is where
/// most of it lies, and the line says how much lies outside. Less than all:
/// an allocation moves the allocator's later work elsewhere too (in the
/// planted `escape_alloc`, 23 % of the change was `malloc_consolidate` and
/// the frees of other callers; docs/evaluation.md, "Where a count moved").
const HELD: f64 = 0.5;

/// The name [`Moved`] gives the functions neither row kept.
pub const OTHER: &str = "other";

/// Where `now`'s count of `metric` moved from `base`'s.
pub fn attribute(base: &Row, now: &Row, metric: Metric) -> Attribution {
    match (&base.functions, &now.functions) {
        (Some(b), Some(n)) => Attribution::Functions {
            moved: moved(b, n, metric),
            within: within(b, n, metric),
            instructions_pct: match (metric, base.counted.instructions, now.counted.instructions) {
                (Metric::EstimatedCycles, Some(b), Some(n)) => Some(change_pct(b, n)),
                _ => None,
            },
        },
        (None, Some(_)) => Attribution::Unkept {
            side: Unkept::Baseline,
        },
        (Some(_), None) => Attribution::Unkept { side: Unkept::Run },
        (None, None) => Attribution::Unkept { side: Unkept::Both },
    }
}

/// The functions whose own cost in `metric` moved most from `base` to
/// `now`, the largest move first, at most [`NAMED`]; none that did not
/// move.
fn moved(base: &Functions, now: &Functions, metric: Metric) -> Vec<Moved> {
    let figure = |c: &crate::document::row::Counted| c.of(metric).unwrap_or(0.0);
    let instructions = |c: &crate::document::row::Counted| c.instructions.unwrap_or(0.0);
    // Name → (baseline, now) own costs; `other` as one more function.
    let mut both: BTreeMap<&str, [Option<(f64, f64)>; 2]> = BTreeMap::new();
    for (side, functions) in [base, now].into_iter().enumerate() {
        for f in &functions.top {
            both.entry(f.name.as_str()).or_default()[side] =
                Some((figure(&f.own), instructions(&f.own)));
        }
    }
    // A function one row kept and the other did not cost the other at
    // most all it left out (`other`), which sums every function left out.
    // Below that, it may not have moved at all: it is left in the rest of
    // the row that kept it, so that what `other` holds is alike on both
    // sides. (The cheapest function kept is no bound: a row keeps callers
    // for their subtree alone, of no own cost.)
    let cheapest = [base, now].map(|f| figure(&f.other));
    let mut rest = [
        (figure(&base.other), instructions(&base.other)),
        (figure(&now.other), instructions(&now.other)),
    ];
    both.retain(|_, sides| match sides {
        [Some(kept), None] if kept.0 <= cheapest[1] => {
            rest[0] = (rest[0].0 + kept.0, rest[0].1 + kept.1);
            false
        }
        [None, Some(kept)] if kept.0 <= cheapest[0] => {
            rest[1] = (rest[1].0 + kept.0, rest[1].1 + kept.1);
            false
        }
        _ => true,
    });
    let mut both: BTreeMap<&str, [(f64, f64); 2]> = both
        .into_iter()
        .map(|(name, [b, n])| (name, [b.unwrap_or_default(), n.unwrap_or_default()]))
        .collect();
    both.insert(OTHER, rest);
    let total: f64 = both.values().map(|[b, n]| n.0 - b.0).sum();
    let mut moved: Vec<Moved> = both
        .into_iter()
        .filter(|(_, [b, n])| n.0 != b.0)
        .map(|(name, [b, n])| Moved {
            name: name.to_string(),
            baseline: b.0,
            current: n.0,
            share_pct: if total == 0.0 {
                0.0
            } else {
                (n.0 - b.0) / total * 100.0
            },
            instructions_change: (metric == Metric::EstimatedCycles).then_some(n.1 - b.1),
            via: via(base, now, name, metric),
        })
        .collect();
    moved.sort_by(|a, b| {
        b.change()
            .abs()
            .total_cmp(&a.change().abs())
            .then_with(|| a.name.cmp(&b.name))
    });
    // Past the first few, a function that moved less than a percent of
    // the change is noise in the list, not a lead.
    let mut kept = 0;
    moved.retain(|m| {
        kept += 1;
        kept <= FEWEST || m.share_pct.abs() >= MIN_SHARE_PCT
    });
    moved.truncate(NAMED);
    moved
}

/// Where the change lies when no one function's own count holds more than
/// [`HELD`] of it: of the functions whose inclusive cost moved by more
/// than that (the same way), the one of the smallest subtree. That is
/// where a change made through callees starts (a copy and its allocation
/// move `memcpy`, `malloc` and `free`, each a part). Only functions both
/// rows kept are compared, and never `other` or the knob's.
fn within(base: &Functions, now: &Functions, metric: Metric) -> Option<Moved> {
    let figure = |c: &crate::document::row::Counted| c.of(metric).unwrap_or(0.0);
    let total_of =
        |f: &Functions| f.top.iter().map(|x| figure(&x.own)).sum::<f64>() + figure(&f.other);
    let total = total_of(now) - total_of(base);
    if total == 0.0 {
        return None;
    }
    let before: BTreeMap<&str, (f64, f64)> = base
        .top
        .iter()
        .map(|f| (f.name.as_str(), (figure(&f.own), figure(&f.inclusive))))
        .collect();
    let held = |change: f64| change / total > HELD;
    let one_holds = now.top.iter().any(|f| {
        let own_before = before.get(f.name.as_str()).map_or(0.0, |b| b.0);
        held(figure(&f.own) - own_before)
    });
    if one_holds {
        return None;
    }
    now.top
        .iter()
        .filter(|f| f.name != INJECTED)
        .filter_map(|f| {
            let b = before.get(f.name.as_str())?.1;
            let n = figure(&f.inclusive);
            held(n - b).then_some((f, b, n))
        })
        .min_by(|x, y| x.2.total_cmp(&y.2).then_with(|| x.0.name.cmp(&y.0.name)))
        .map(|(f, b, n)| Moved {
            name: f.name.clone(),
            baseline: b,
            current: n,
            share_pct: (n - b) / total * 100.0,
            instructions_change: None,
            via: None,
        })
}

/// The caller through which `callee`'s cost moved most, among the calls
/// both rows kept or either did (a call one row lacks counts as 0 there).
fn via(base: &Functions, now: &Functions, callee: &str, metric: Metric) -> Option<String> {
    let mut by_caller: BTreeMap<&str, f64> = BTreeMap::new();
    for (sign, functions) in [(-1.0, base), (1.0, now)] {
        for call in &functions.calls {
            let (Some(from), Some(to)) = (functions.at(call.caller), functions.at(call.callee))
            else {
                continue;
            };
            if to.name == callee {
                *by_caller.entry(from.name.as_str()).or_default() +=
                    sign * call.inclusive.of(metric).unwrap_or(0.0);
            }
        }
    }
    by_caller
        .into_iter()
        .filter(|(_, change)| *change != 0.0)
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()).then_with(|| b.0.cmp(a.0)))
        .map(|(caller, _)| caller.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::functions::{Call, Function};
    use crate::document::row::{Counted, RowKind};

    fn cost(instructions: f64, cycles: f64) -> Counted {
        Counted {
            instructions: Some(instructions),
            estimated_cycles: Some(cycles),
            ..Counted::default()
        }
    }

    /// A row whose functions are `(name, instructions, cycles)`, where the
    /// first calls each of the others.
    fn row(functions: &[(&str, f64, f64)]) -> Row {
        let mut row = Row::with_samples("p".into(), RowKind::Probe, "p".into(), Vec::new());
        let top: Vec<Function> = functions
            .iter()
            .map(|(name, i, c)| Function {
                name: (*name).to_string(),
                own: cost(*i, *c),
                inclusive: cost(*i, *c),
            })
            .collect();
        let calls = (1..top.len())
            .map(|callee| Call {
                caller: 0,
                callee,
                inclusive: top[callee].own,
            })
            .collect();
        row.counted = cost(
            functions.iter().map(|f| f.1).sum::<f64>() + 10.0,
            functions.iter().map(|f| f.2).sum::<f64>() + 10.0,
        );
        row.functions = Some(Functions {
            top,
            other: cost(10.0, 10.0),
            calls,
        });
        row
    }

    #[test]
    fn the_function_that_grew_is_named_first_with_its_share_and_its_caller() {
        let base = row(&[
            ("main", 100.0, 100.0),
            ("hash", 50.0, 50.0),
            ("copy", 40.0, 40.0),
        ]);
        let now = row(&[
            ("main", 100.0, 100.0),
            ("hash", 90.0, 90.0),
            ("copy", 38.0, 38.0),
        ]);
        let Attribution::Functions {
            moved,
            instructions_pct,
            ..
        } = attribute(&base, &now, Metric::Instructions)
        else {
            panic!("both rows kept functions");
        };
        assert_eq!(instructions_pct, None);
        let names: Vec<&str> = moved.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["hash", "copy"], "main did not move");
        assert_eq!((moved[0].baseline, moved[0].current), (50.0, 90.0));
        // +40 of a +38 probe, and -2.
        assert!((moved[0].share_pct - 40.0 / 38.0 * 100.0).abs() < 1e-9);
        assert!(moved[1].share_pct < 0.0);
        assert_eq!(moved[0].via.as_deref(), Some("main"));
    }

    #[test]
    fn a_change_made_through_callees_lies_within_the_smallest_subtree_that_holds_it() {
        // `emit` copies through `memcpy` and allocates through `malloc`:
        // its own count stays, its subtree's grows, as does its caller's,
        // which is larger; no one function's own count holds the change.
        let functions = |copied: f64| {
            let f = |name: &str, own: f64, inclusive: f64| Function {
                name: name.to_string(),
                own: cost(own, own),
                inclusive: cost(inclusive, inclusive),
            };
            Functions {
                top: vec![
                    f("main", 100.0, 250.0 + copied),
                    f("emit", 10.0, 50.0 + copied),
                    f("memcpy", 40.0 + copied / 2.0, 40.0 + copied / 2.0),
                    f("malloc", 40.0 + copied / 2.0, 40.0 + copied / 2.0),
                    f("parse", 100.0, 100.0),
                ],
                other: Counted::default(),
                calls: Vec::new(),
            }
        };
        let mut base = row(&[]);
        base.functions = Some(functions(0.0));
        let mut now = row(&[]);
        now.functions = Some(functions(60.0));
        let Attribution::Functions { moved, within, .. } =
            attribute(&base, &now, Metric::Instructions)
        else {
            panic!("both rows kept functions");
        };
        let first: Vec<&str> = moved.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(first, ["malloc", "memcpy"], "by own counts, the routines");
        let within = within.expect("a subtree holds the change");
        assert_eq!(within.name, "emit", "the smallest subtree holding it");
        assert_eq!((within.change(), within.share_pct), (60.0, 100.0));
        // Nothing moved: nowhere.
        assert!(matches!(
            attribute(&base, &base, Metric::Instructions),
            Attribution::Functions { within: None, .. }
        ));
    }

    #[test]
    fn a_cache_effect_moves_cycles_and_not_instructions_and_says_so() {
        let base = row(&[("main", 100.0, 100.0), ("walk", 500.0, 600.0)]);
        let now = row(&[("main", 100.0, 100.0), ("walk", 500.0, 2_400.0)]);
        let Attribution::Functions {
            moved,
            instructions_pct,
            ..
        } = attribute(&base, &now, Metric::EstimatedCycles)
        else {
            panic!("both rows kept functions");
        };
        assert_eq!(instructions_pct, Some(0.0));
        assert_eq!(moved[0].name, "walk");
        assert_eq!(moved[0].change(), 1_800.0);
        assert_eq!(moved[0].instructions_change, Some(0.0));
    }

    #[test]
    fn a_function_one_row_did_not_keep_counts_from_zero_only_above_that_row_s_cut() {
        // The baseline kept `main` (100) and left out 10 (`other`):
        // anything it left out cost it at most 10.
        let base = row(&[("main", 100.0, 100.0)]);
        let mut now = row(&[
            ("main", 100.0, 100.0),
            ("fresh", 300.0, 300.0),
            ("small", 8.0, 8.0),
        ]);
        if let Some(f) = now.functions.as_mut() {
            f.other = cost(15.0, 15.0);
        }
        let Attribution::Functions { moved, .. } = attribute(&base, &now, Metric::Instructions)
        else {
            panic!("both rows kept functions");
        };
        // `fresh` grew by 290 at least, and is named from 0; `small` may
        // not have moved, and joins the rest, which grew by 5.
        let named: Vec<(&str, f64)> = moved
            .iter()
            .map(|m| (m.name.as_str(), m.change()))
            .collect();
        assert_eq!(named, [("fresh", 300.0), (OTHER, 13.0)]);
    }

    #[test]
    fn a_row_without_functions_is_named_and_the_verdict_stands_without_them() {
        let with = row(&[("main", 1.0, 1.0)]);
        let mut without = with.clone();
        without.functions = None;
        let side = |a: &Row, b: &Row| match attribute(a, b, Metric::Instructions) {
            Attribution::Unkept { side } => Some(side),
            Attribution::Functions { .. } => None,
        };
        assert_eq!(side(&without, &with), Some(Unkept::Baseline));
        assert_eq!(side(&with, &without), Some(Unkept::Run));
        assert_eq!(side(&without, &without), Some(Unkept::Both));
    }

    #[test]
    fn at_most_the_named_number_largest_first() {
        let many: Vec<(String, f64)> = (0..30).map(|i| (format!("f{i:02}"), i as f64)).collect();
        let as_row = |grow: f64| {
            let f: Vec<(&str, f64, f64)> = many
                .iter()
                .map(|(n, i)| (n.as_str(), 100.0 + i * grow, 0.0))
                .collect();
            row(&f)
        };
        let Attribution::Functions { moved, .. } =
            attribute(&as_row(0.0), &as_row(1.0), Metric::Instructions)
        else {
            panic!("both rows kept functions");
        };
        assert_eq!(moved.len(), NAMED);
        assert_eq!(moved[0].name, "f29");
    }
}
