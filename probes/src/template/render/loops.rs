//! Loop state: what a `{foreach}`, `{for}` or `{section}` walks, which
//! item comes next, and the variables each item is bound to.
//!
//! A `{section}` follows the CMS: without `var=` it binds `item`, `key`,
//! `index`, `number` (and `sequence`) in its namespace; with `var=Name` it
//! binds `$Name` alone, to an iterator object whose `item`, `key`,
//! `index`, `number` and `sequence` attributes describe the item and whose
//! other attributes are the item's own.

use std::borrow::Cow;
use std::sync::Arc;

use super::super::ops::Env;
use super::super::program::{LoopSource, LoopSpec, Sym};
use super::super::scope::Slot;
use super::super::value::{List, Map, Object, Value};
use super::{Renderer, eval};

/// What a loop walks, with offset, max and reverse already applied.
enum Items {
    List(Arc<List>),
    Hash(Arc<Map>),
    Range {
        from: i64,
        step: i64,
    },
    /// A section over a number: items 1..=n, or -1..=-n for a negative n.
    Count {
        negative: bool,
    },
}

pub(super) struct LoopState {
    items: Items,
    /// Length of the underlying collection.
    len: usize,
    /// Position (in walking order) of the first visited item.
    first: usize,
    /// Items to visit, and visited so far.
    count: usize,
    visited: usize,
    /// A section's `max=`: items to show at most (filters may hide some).
    max: Option<usize>,
    reverse: bool,
    /// Items shown so far (filters may hide some).
    pub(super) shown: usize,
    /// Whether the current item is the first one shown.
    pub(super) first_shown: bool,
    /// The current item's position in the collection.
    pos: usize,
    pub(super) excluded: bool,
    filtered: bool,
    pub(super) section: bool,
    sequence: Option<Arc<List>>,
    /// A section's `var=`: one iterator object instead of the five names.
    iterator: bool,
    /// Bindings: item, key, index, number, sequence.
    slots: [Option<Slot>; 5],
    names: [Option<Sym>; 5],
    ns: u32,
    pushed_ns: bool,
    /// The `{let}` depth at the loop's start, restored at its end (a
    /// `{break}` may leave blocks without passing their end).
    pub(super) lets: usize,
    /// The open `{set-block}` captures at the loop's start, for the same
    /// reason.
    pub(super) captures: usize,
}

impl LoopState {
    /// Whether another item is to be visited.
    pub(super) fn has_next(&self) -> bool {
        self.visited < self.count && self.max.is_none_or(|m| self.shown < m)
    }

    /// The index the delimiter's `modulo=` counts: items shown before this
    /// one in a section, the item's position in a foreach (as the CMS
    /// does).
    pub(super) fn delimiter_index(&self) -> usize {
        if self.section {
            self.shown.saturating_sub(1)
        } else {
            self.pos
        }
    }
}

/// The `{section var=Name}` iterator (the CMS's section iterator): used
/// whole it is its item, `.item`, `.key`, `.index`, `.number` and
/// `.sequence` describe the iteration, any other attribute is the item's.
#[derive(Debug)]
struct SectionIterator {
    item: Value,
    key: Value,
    index: i64,
    sequence: Value,
}

impl Object for SectionIterator {
    fn attribute(&self, name: &str) -> Option<Value> {
        match name {
            "item" => Some(self.item.clone()),
            "key" => Some(self.key.clone()),
            "index" => Some(Value::Int(self.index)),
            "number" => Some(Value::Int(self.index + 1)),
            "sequence" => Some(self.sequence.clone()),
            other => self.item.attr(other).map(Cow::into_owned),
        }
    }

    fn attribute_names(&self) -> Vec<String> {
        ["item", "key", "index", "number", "sequence"]
            .map(String::from)
            .to_vec()
    }

    fn class_name(&self) -> String {
        "eztemplatesectioniterator".into()
    }

    fn to_text(&self) -> String {
        self.item.to_text().into_owned()
    }

    fn proxy(&self) -> Option<&Value> {
        Some(&self.item)
    }
}

/// A count for a section's `loop=`, `max=`: numbers and numeric strings
/// are numbers, arrays and hashes count their elements.
fn count_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        Value::Float(f) => Some(*f as i64),
        Value::Str(s) => s.trim().parse::<f64>().ok().map(|f| f as i64),
        Value::Array(_) | Value::Hash(_) => Some(v.count()),
        _ => None,
    }
}

impl Renderer<'_> {
    pub(super) fn start_loop(
        &mut self,
        spec: &LoopSpec,
        env: &Env,
        lets: usize,
        captures: usize,
    ) -> LoopState {
        const MAX_LEN: i64 = 1 << 40;
        let (items, len) = match &spec.source {
            LoopSource::List(e) => match &*eval(&self.scope, env, e) {
                Value::Array(a) => (Items::List(Arc::clone(a)), a.len()),
                Value::Hash(h) => (Items::Hash(Arc::clone(h)), h.len()),
                v if spec.section => {
                    let n = count_of(v).unwrap_or(0);
                    let len = n.unsigned_abs().min(MAX_LEN as u64) as usize;
                    (Items::Count { negative: n < 0 }, len)
                }
                _ => (Items::Count { negative: false }, 0),
            },
            LoopSource::Range(from, to) => {
                let from = eval(&self.scope, env, from).to_int();
                let to = eval(&self.scope, env, to).to_int();
                let step = if to >= from { 1 } else { -1 };
                let len = to.abs_diff(from).saturating_add(1).min(MAX_LEN as u64) as usize;
                (Items::Range { from, step }, len)
            }
        };
        let offset = spec.offset.as_ref().map_or(0, |e| {
            eval(&self.scope, env, e).to_int().clamp(0, len as i64) as usize
        });
        let available = len - offset;
        let max = spec.max.as_ref().map(|e| {
            let v = eval(&self.scope, env, e);
            if spec.section {
                count_of(&v).unwrap_or(0)
            } else {
                v.to_int()
            }
        });
        // A section shows at most `max` items (none for 0 or less); a
        // foreach visits at most `max` items, all of them for a negative
        // one, as the CMS does.
        let (count, max) = match max {
            Some(m) if spec.section => (available, Some(m.clamp(0, MAX_LEN) as usize)),
            Some(m) if m >= 0 => (available.min(m.min(MAX_LEN) as usize), None),
            _ => (available, None),
        };
        let sequence = spec
            .sequence
            .as_ref()
            .and_then(|e| match &*eval(&self.scope, env, e) {
                Value::Array(a) if !a.is_empty() => Some(Arc::clone(a)),
                // A hash hands out its values in order.
                Value::Hash(h) if !h.is_empty() => {
                    Some(Arc::new(h.iter().map(|(_, v)| v.clone()).collect()))
                }
                _ => None,
            });
        // `var=$v` names the variable by `$v`'s value, as the CMS does.
        let var = spec
            .var
            .as_ref()
            .map(|e| eval(&self.scope, env, e).to_text().into_owned())
            .filter(|name| !name.is_empty());
        let pushed_ns = spec.ns.is_some();
        if let Some(ns) = &spec.ns {
            self.scope.push_ns(ns);
        }
        let sequence_name = sequence.as_ref().and(spec.sequence_name.clone());
        let iterator = var.is_some();
        let names: [Option<Sym>; 5] = match var {
            Some(var) => [Some(Sym::new(&var)), None, None, None, None],
            None if spec.section => [
                Some(Sym::new("item")),
                Some(Sym::new("key")),
                Some(Sym::new("index")),
                Some(Sym::new("number")),
                sequence_name,
            ],
            None => [
                spec.item.clone(),
                spec.key.clone(),
                None,
                None,
                sequence_name,
            ],
        };
        LoopState {
            items,
            len,
            first: offset,
            count,
            visited: 0,
            max,
            reverse: spec.reverse,
            shown: 0,
            first_shown: true,
            pos: 0,
            excluded: false,
            filtered: spec.filtered,
            section: spec.section,
            sequence,
            iterator,
            slots: [None; 5],
            names,
            ns: self.scope.current(),
            pushed_ns,
            lets,
            captures,
        }
    }

    /// Binds the loop's next item.
    pub(super) fn advance(&mut self, state: &mut LoopState) {
        let k = state.first + state.visited;
        state.visited += 1;
        let pos = if state.reverse { state.len - 1 - k } else { k };
        state.pos = pos;
        let (item, key) = match &state.items {
            Items::List(a) => (
                a.get(pos).cloned().unwrap_or_default(),
                Value::Int(pos as i64),
            ),
            Items::Hash(h) => match h.entry_at(pos) {
                Some((k, v)) => (v.clone(), Value::Str(Arc::clone(k))),
                None => (Value::Null, Value::Null),
            },
            Items::Range { from, step } => {
                let n = from.saturating_add(step.saturating_mul(pos as i64));
                (Value::Int(n), Value::Int(pos as i64))
            }
            Items::Count { negative } => {
                let n = pos as i64 + 1;
                (
                    Value::Int(if *negative { -n } else { n }),
                    Value::Int(n - 1),
                )
            }
        };
        state.excluded = false;
        if !state.filtered {
            state.first_shown = state.shown == 0;
            state.shown += 1;
        }
        let index = if state.filtered {
            state.shown
        } else {
            state.shown - 1
        };
        let sequence = state
            .sequence
            .as_ref()
            .and_then(|s| s.get(index % s.len().max(1)).cloned());
        let mut values: [Option<Value>; 5] = if state.iterator {
            let it = SectionIterator {
                item,
                key,
                index: index as i64,
                sequence: sequence.unwrap_or_default(),
            };
            [Some(Value::Object(Arc::new(it))), None, None, None, None]
        } else if state.section {
            [
                Some(item),
                Some(key),
                Some(Value::Int(index as i64)),
                Some(Value::Int(index as i64 + 1)),
                sequence,
            ]
        } else {
            [Some(item), Some(key), None, None, sequence]
        };
        for (i, value) in values.iter_mut().enumerate() {
            let (Some(name), Some(value)) = (&state.names[i], value.take()) else {
                continue;
            };
            let updated = match state.slots[i] {
                Some(slot) => self.scope.set_slot(slot, value.clone()),
                None => false,
            };
            if !updated {
                state.slots[i] = Some(self.scope.define(state.ns, name, value));
            }
        }
    }

    /// Unbinds a finished loop's variables and leaves its namespace.
    pub(super) fn end_loop(&mut self, state: &LoopState) {
        for slot in state.slots.iter().flatten().rev() {
            self.scope.remove_slot(*slot);
        }
        if state.pushed_ns {
            self.scope.pop_ns();
        }
    }
}
