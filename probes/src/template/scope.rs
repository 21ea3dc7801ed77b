//! Template variables and their namespaces.
//!
//! Legacy constructs (`{section name=...}`, `{let name=...}`, includes with
//! `name=`) put variables into named namespaces nested in the current one.
//! Bindings live in one vector searched from the newest end, which makes
//! shadowing and restoring (a loop variable hiding an outer one until the
//! loop ends) free. Removed bindings become tombstones so that indices held
//! by loops stay valid; a serial number tells a reused slot from the one a
//! loop bound.
//!
//! Lookup rules: `$name` and `$ns:name` search the current namespace, then
//! each enclosing one out to the global namespace; `$:name` searches only
//! the current namespace; `$#name` only the global one.

use std::sync::Arc;

use super::ast::Scope as Kind;
use super::program::{Sym, VarRef};
use super::value::Value;

/// The global namespace.
pub const ROOT: u32 = 0;

/// A handle on a binding that survives other bindings coming and going.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    index: usize,
    serial: u64,
}

#[derive(Debug)]
struct Binding {
    ns: u32,
    hash: u64,
    name: Arc<str>,
    value: Value,
    serial: u64,
}

const DEAD_NS: u32 = u32::MAX;

#[derive(Debug)]
struct Namespace {
    parent: u32,
    hash: u64,
    name: Arc<str>,
}

#[derive(Debug)]
pub struct Scope {
    bindings: Vec<Binding>,
    namespaces: Vec<Namespace>,
    /// The namespace stack; the last entry is the current namespace.
    stack: Vec<u32>,
    serial: u64,
}

impl Default for Scope {
    fn default() -> Self {
        Scope {
            bindings: Vec::with_capacity(32),
            namespaces: vec![Namespace {
                parent: ROOT,
                hash: 0,
                name: Arc::from(""),
            }],
            stack: vec![ROOT],
            serial: 0,
        }
    }
}

impl Scope {
    pub fn current(&self) -> u32 {
        self.stack.last().copied().unwrap_or(ROOT)
    }

    /// Enters the namespace `name` inside the current one.
    pub fn push_ns(&mut self, name: &Sym) {
        let ns = self.child(self.current(), name);
        self.stack.push(ns);
    }

    /// Leaves the namespace entered last (the global one is never left).
    pub fn pop_ns(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    fn find_child(&self, parent: u32, name: &Sym) -> Option<u32> {
        self.namespaces
            .iter()
            .position(|n| n.parent == parent && n.hash == name.hash && n.name == name.name)
            .filter(|&i| i != ROOT as usize)
            .map(|i| i as u32)
    }

    /// The namespace `name` inside `parent`, created if needed.
    pub fn child(&mut self, parent: u32, name: &Sym) -> u32 {
        if let Some(ns) = self.find_child(parent, name) {
            return ns;
        }
        self.namespaces.push(Namespace {
            parent,
            hash: name.hash,
            name: Arc::clone(&name.name),
        });
        (self.namespaces.len() - 1) as u32
    }

    /// Follows `path` down from `from`, without creating namespaces.
    fn descend(&self, from: u32, path: &[Sym]) -> Option<u32> {
        path.iter()
            .try_fold(from, |ns, seg| self.find_child(ns, seg))
    }

    fn find(&self, ns: u32, name: &Sym) -> Option<usize> {
        self.bindings
            .iter()
            .rposition(|b| b.hash == name.hash && b.ns == ns && b.name == name.name)
    }

    /// The binding a read of `var` sees.
    pub fn resolve(&self, var: &VarRef) -> Option<usize> {
        if crate::faults::on(crate::faults::Fault::ScopeHash) {
            crate::faults::hash(var.name.name.as_bytes(), 4);
        }
        match var.scope {
            Kind::Global => self.find(self.descend(ROOT, &var.ns)?, &var.name),
            Kind::Local => self.find(self.descend(self.current(), &var.ns)?, &var.name),
            Kind::Relative => {
                let mut base = self.current();
                loop {
                    if let Some(ns) = self.descend(base, &var.ns)
                        && let Some(i) = self.find(ns, &var.name)
                    {
                        return Some(i);
                    }
                    if base == ROOT {
                        return None;
                    }
                    base = self.namespaces[base as usize].parent;
                }
            }
        }
    }

    pub fn get(&self, var: &VarRef) -> Option<&Value> {
        self.resolve(var).map(|i| &self.bindings[i].value)
    }

    /// The namespace a definition of `var` goes into (created if needed).
    pub fn target_ns(&mut self, var: &VarRef) -> u32 {
        let base = match var.scope {
            Kind::Global => ROOT,
            _ => self.current(),
        };
        var.ns.iter().fold(base, |ns, seg| self.child(ns, seg))
    }

    /// The binding of exactly `name` in `ns`, if any.
    pub fn lookup_in(&self, ns: u32, name: &Sym) -> Option<usize> {
        self.find(ns, name)
    }

    /// Adds a binding, shadowing any older one of the same name.
    pub fn define(&mut self, ns: u32, name: &Sym, value: Value) -> Slot {
        self.serial += 1;
        self.bindings.push(Binding {
            ns,
            hash: name.hash,
            name: Arc::clone(&name.name),
            value,
            serial: self.serial,
        });
        Slot {
            index: self.bindings.len() - 1,
            serial: self.serial,
        }
    }

    /// The slot of binding `index`.
    pub fn slot(&self, index: usize) -> Slot {
        Slot {
            index,
            serial: self.bindings[index].serial,
        }
    }

    pub fn set_index(&mut self, index: usize, value: Value) {
        if let Some(b) = self.bindings.get_mut(index) {
            b.value = value;
        }
    }

    /// Overwrites a slot; false when it has been removed meanwhile.
    pub fn set_slot(&mut self, slot: Slot, value: Value) -> bool {
        match self.bindings.get_mut(slot.index) {
            Some(b) if b.serial == slot.serial && b.ns != DEAD_NS => {
                b.value = value;
                true
            }
            _ => false,
        }
    }

    pub fn slot_ns_and_live(&self, slot: Slot) -> Option<u32> {
        self.bindings
            .get(slot.index)
            .filter(|b| b.serial == slot.serial && b.ns != DEAD_NS)
            .map(|b| b.ns)
    }

    /// Removes the binding at `index`.
    pub fn remove_index(&mut self, index: usize) {
        if let Some(b) = self.bindings.get_mut(index) {
            b.ns = DEAD_NS;
            b.hash = 0;
            b.value = Value::Null;
        }
        while self.bindings.last().is_some_and(|b| b.ns == DEAD_NS) {
            self.bindings.pop();
        }
    }

    /// Removes a slot's binding unless it is already gone.
    pub fn remove_slot(&mut self, slot: Slot) {
        if self.slot_ns_and_live(slot).is_some() {
            self.remove_index(slot.index);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(kind: Kind, ns: &[&str], name: &str) -> VarRef {
        VarRef {
            scope: kind,
            ns: ns.iter().map(|s| Sym::new(s)).collect(),
            name: Sym::new(name),
        }
    }

    #[test]
    fn namespaces_and_lookup_rules() {
        let mut s = Scope::default();
        s.define(ROOT, &Sym::new("a"), Value::Int(1));
        s.push_ns(&Sym::new("Outer"));
        let outer = s.current();
        s.define(outer, &Sym::new("item"), Value::Int(2));
        s.push_ns(&Sym::new("Inner"));
        let inner = s.current();
        s.define(inner, &Sym::new("item"), Value::Int(3));
        let get = |s: &Scope, v: VarRef| s.get(&v).cloned();
        // relative: current first, then outwards
        assert_eq!(
            get(&s, var(Kind::Relative, &[], "item")),
            Some(Value::Int(3))
        );
        assert_eq!(get(&s, var(Kind::Relative, &[], "a")), Some(Value::Int(1)));
        assert_eq!(
            get(&s, var(Kind::Relative, &["Outer"], "item")),
            Some(Value::Int(2))
        );
        assert_eq!(
            get(&s, var(Kind::Relative, &["Inner"], "item")),
            Some(Value::Int(3))
        );
        // local: current only
        assert_eq!(get(&s, var(Kind::Local, &[], "a")), None);
        // global: root only
        assert_eq!(get(&s, var(Kind::Global, &[], "item")), None);
        assert_eq!(
            get(&s, var(Kind::Global, &["Outer"], "item")),
            Some(Value::Int(2))
        );
        s.pop_ns();
        assert_eq!(
            get(&s, var(Kind::Relative, &[], "item")),
            Some(Value::Int(2))
        );
        s.pop_ns();
        s.pop_ns(); // never leaves the root
        assert_eq!(s.current(), ROOT);
    }

    #[test]
    fn shadowing_removal_and_stale_slots() {
        let mut s = Scope::default();
        let x = Sym::new("x");
        let first = s.define(ROOT, &x, Value::Int(1));
        let second = s.define(ROOT, &x, Value::Int(2));
        let v = var(Kind::Relative, &[], "x");
        assert_eq!(s.get(&v), Some(&Value::Int(2)));
        s.remove_slot(second);
        assert_eq!(s.get(&v), Some(&Value::Int(1)));
        // the freed slot is reused: the old handle must not touch it
        let third = s.define(ROOT, &Sym::new("y"), Value::Int(3));
        assert!(!s.set_slot(second, Value::Int(9)));
        assert!(s.set_slot(third, Value::Int(4)));
        s.remove_slot(first);
        assert_eq!(s.get(&v), None);
    }
}
