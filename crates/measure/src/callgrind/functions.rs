//! The functions of one callgrind output: each function's own cost and the
//! costs of its calls, read from the file callgrind writes anyway, so
//! keeping them costs no second run.
//!
//! The format (valgrind's "Callgrind Format Specification"): `fn=` starts
//! a function, and each cost line after it (positions, then one count per
//! event of the `events:` line) is that function's own cost, except the
//! line right after a `calls=` line, which is the cost of that call
//! (`cfn=` names the callee), its callees included. Names are compressed:
//! `(12) name` defines id 12, a later `(12)` refers to it. Anything this
//! reader does not know is passed over; a line it cannot read makes it
//! give up, and the row keeps no functions rather than wrong ones.

use super::costs::Costs;
use crate::document::functions::{
    COVERED, Call, Function, Functions, INCLUSIVE_SHARE, INJECTED, MAX_CALLS, MAX_FUNCTIONS,
};
use crate::document::row::Counted;
use std::collections::HashMap;

/// One function's costs, summed over the whole output: one count per event.
#[derive(Debug, Default)]
struct Costed {
    own: Vec<u64>,
    /// Callee → the cost of the calls to it from here.
    calls: HashMap<String, Vec<u64>>,
}

/// What a callgrind output holds, function by function.
#[derive(Debug, Default)]
struct Output {
    events: Vec<String>,
    functions: HashMap<String, Costed>,
}

/// The functions of callgrind output `text`, per iteration of a `batch`,
/// bounded as [`Functions`] says; `None` when the text is not a callgrind
/// output this reader can follow.
///
/// The count ran `iterations`: more than the batch when the slowdown knob
/// injected some (see `inject`). Each function is then kept per iteration
/// actually run, and what the extra ones add to the row's count is one
/// function of its own, [`INJECTED`]: the functions of the probe stay
/// where they were, and the knob is named as what moved.
pub(crate) fn functions(text: &str, batch: u64, iterations: u64) -> Option<Functions> {
    let output = Output::read(text)?;
    Some(output.kept(batch.max(1), iterations.max(batch).max(1)))
}

impl Output {
    fn read(text: &str) -> Option<Output> {
        let mut out = Output::default();
        // Position columns before the costs: `line` by default, `instr
        // line` with --dump-instr.
        let mut positions = 1;
        let mut names: HashMap<String, String> = HashMap::new();
        let mut current: Option<String> = None;
        let mut callee: Option<String> = None;
        let mut call_cost_next = false;
        for line in text.lines() {
            let line = line.trim_end();
            let Some(first) = line.chars().next() else {
                continue;
            };
            if first.is_ascii_digit() || matches!(first, '+' | '-' | '*') {
                let costs = costs(line, positions, out.events.len())?;
                let function = out.functions.entry(current.clone()?).or_default();
                if std::mem::take(&mut call_cost_next) {
                    let to = callee.clone().or_else(|| current.clone())?;
                    add(function.calls.entry(to).or_default(), &costs);
                } else {
                    add(&mut function.own, &costs);
                }
            } else if let Some(spec) = line.strip_prefix("fn=") {
                current = Some(name(spec, &mut names)?);
                callee = None;
            } else if let Some(spec) = line.strip_prefix("cfn=") {
                callee = Some(name(spec, &mut names)?);
            } else if line.starts_with("calls=") {
                call_cost_next = true;
            } else if let Some(events) = line.strip_prefix("events:") {
                out.events = events.split_whitespace().map(str::to_string).collect();
            } else if let Some(columns) = line.strip_prefix("positions:") {
                positions = columns.split_whitespace().count().max(1);
            }
            // Files, objects, jumps, comments and the other headers carry
            // no function's cost.
        }
        (!out.events.is_empty()).then_some(out)
    }

    /// The functions kept for a row: the costliest by their own cost, until
    /// they cover [`COVERED`] of it, then those of an inclusive cost of
    /// [`INCLUSIVE_SHARE`] or more (at most [`MAX_FUNCTIONS`] in all), and
    /// the costliest calls between them.
    fn kept(&self, batch: u64, iterations: u64) -> Functions {
        let per = |values: &[u64]| counted(&self.events, values, iterations);
        let mut all: Vec<Function> = self
            .functions
            .iter()
            .map(|(name, costed)| {
                let mut inclusive = costed.own.clone();
                for (to, cost) in &costed.calls {
                    if to != name {
                        add(&mut inclusive, cost);
                    }
                }
                Function {
                    name: name.clone(),
                    own: per(&costed.own),
                    inclusive: per(&inclusive),
                }
            })
            .collect();
        if iterations > batch {
            let mut total = Vec::new();
            for costed in self.functions.values() {
                add(&mut total, &costed.own);
            }
            let injected = difference(
                &counted(&self.events, &total, batch),
                &counted(&self.events, &total, iterations),
            );
            all.push(Function {
                name: INJECTED.to_string(),
                own: injected,
                inclusive: injected,
            });
        }
        let cycles = all.iter().any(|f| f.own.estimated_cycles.is_some());
        let figure = |c: &Counted| {
            if cycles {
                c.estimated_cycles.unwrap_or(0.0)
            } else {
                c.instructions.unwrap_or(0.0)
            }
        };
        // The costliest first, ties by name, so the same output keeps the
        // same functions in the same order.
        all.sort_by(|a, b| {
            figure(&b.own)
                .total_cmp(&figure(&a.own))
                .then_with(|| a.name.cmp(&b.name))
        });
        let total: f64 = all.iter().map(|f| figure(&f.own)).sum();
        let mut covered = 0.0;
        let mut keep = 0;
        for f in &all {
            if keep == MAX_FUNCTIONS || (keep > 0 && covered >= COVERED * total) {
                break;
            }
            covered += figure(&f.own);
            keep += 1;
        }
        let mut rest = all.split_off(keep);
        // The spine: callers whose own cost is small but whose subtree is
        // not, the costliest subtree first, kept after the others.
        rest.sort_by(|a, b| {
            figure(&b.inclusive)
                .total_cmp(&figure(&a.inclusive))
                .then_with(|| a.name.cmp(&b.name))
        });
        let spine = rest
            .iter()
            .take_while(|f| figure(&f.inclusive) >= INCLUSIVE_SHARE * total)
            .count()
            .min(MAX_FUNCTIONS - keep);
        let left_out = rest.split_off(spine);
        all.extend(rest);
        let rest = left_out;
        let mut other = Counted::default();
        for f in &rest {
            sum_into(&mut other, &f.own);
        }
        let index: HashMap<&str, usize> = all
            .iter()
            .enumerate()
            .map(|(i, f)| (f.name.as_str(), i))
            .collect();
        let mut calls: Vec<Call> = Vec::new();
        for (name, costed) in &self.functions {
            let Some(&caller) = index.get(name.as_str()) else {
                continue;
            };
            for (to, cost) in &costed.calls {
                match index.get(to.as_str()) {
                    Some(&callee) if callee != caller => calls.push(Call {
                        caller,
                        callee,
                        inclusive: per(cost),
                    }),
                    _ => {}
                }
            }
        }
        calls.sort_by(|a, b| {
            figure(&b.inclusive)
                .total_cmp(&figure(&a.inclusive))
                .then_with(|| (a.caller, a.callee).cmp(&(b.caller, b.callee)))
        });
        calls.truncate(MAX_CALLS);
        Functions {
            top: all,
            other,
            calls,
        }
    }
}

/// The name a `fn=` or `cfn=` line gives, its compression resolved and its
/// recursion level (`f'2`) folded into `f`.
fn name(spec: &str, names: &mut HashMap<String, String>) -> Option<String> {
    let spec = spec.trim();
    let named = match spec.strip_prefix('(') {
        Some(rest) => {
            let (id, given) = rest.split_once(')')?;
            let given = given.trim();
            if given.is_empty() {
                names.get(id)?.clone()
            } else {
                names.insert(id.to_string(), given.to_string());
                given.to_string()
            }
        }
        None => spec.to_string(),
    };
    Some(folded(&named).to_string())
}

/// `name` without callgrind's recursion mark: `f'2` is `f` called from
/// within itself.
fn folded(name: &str) -> &str {
    match name.rsplit_once('\'') {
        Some((base, level))
            if !base.is_empty()
                && !level.is_empty()
                && level.bytes().all(|b| b.is_ascii_digit()) =>
        {
            base
        }
        _ => name,
    }
}

/// The costs of a cost line, after its `positions` columns; the trailing
/// zeros callgrind leaves out are filled in.
fn costs(line: &str, positions: usize, events: usize) -> Option<Vec<u64>> {
    let mut values: Vec<u64> = line
        .split_whitespace()
        .skip(positions)
        .map(|v| v.parse().ok())
        .collect::<Option<_>>()?;
    if values.len() > events {
        return None;
    }
    values.resize(events, 0);
    Some(values)
}

fn add(into: &mut Vec<u64>, costs: &[u64]) {
    if into.len() < costs.len() {
        into.resize(costs.len(), 0);
    }
    for (a, b) in into.iter_mut().zip(costs) {
        *a = a.saturating_add(*b);
    }
}

/// `values` (one per event) as a row's counts, per iteration.
fn counted(events: &[String], values: &[u64], batch: u64) -> Counted {
    let names: Vec<&str> = events.iter().map(String::as_str).collect();
    Costs::of_events(&names, values)
        .map(|costs| costs.per_iteration(batch))
        .unwrap_or_default()
}

/// `a - b`, count by count.
fn difference(a: &Counted, b: &Counted) -> Counted {
    let minus = |a: Option<f64>, b: Option<f64>| Some(a? - b.unwrap_or(0.0));
    Counted {
        instructions: minus(a.instructions, b.instructions),
        l1_misses: minus(a.l1_misses, b.l1_misses),
        ll_misses: minus(a.ll_misses, b.ll_misses),
        estimated_cycles: minus(a.estimated_cycles, b.estimated_cycles),
    }
}

fn sum_into(into: &mut Counted, c: &Counted) {
    let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    };
    into.instructions = sum(into.instructions, c.instructions);
    into.l1_misses = sum(into.l1_misses, c.l1_misses);
    into.ll_misses = sum(into.ll_misses, c.ll_misses);
    into.estimated_cycles = sum(into.estimated_cycles, c.estimated_cycles);
}

#[cfg(test)]
mod tests;
