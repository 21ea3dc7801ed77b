//! Runs compiled programs.
//!
//! The renderer is a loop over the instruction list with a program counter;
//! loops, `{let}` blocks and includes keep small state stacks. It trusts
//! nothing about the program it runs (one may come from a cache file), so a
//! jump out of range ends the program and an instruction without the state
//! it expects is skipped, never a panic. Runaway loops and include cycles
//! end in an error once a configurable budget is spent.

use std::borrow::Cow;
use std::sync::Arc;

use super::engine::Engine;
use super::error::TemplateError;
use super::ops::{self, Env, Operands, escape_html_into, escape_js_into};
use super::program::{
    Access, BlockScope, CaseTest, Escape, Expr, Inst, LoopSource, LoopSpec, Program, Sym, ViewKind,
};
use super::scope::{ROOT, Scope, Slot};
use super::value::{Map, Value, loose_eq};

/// Evaluates an expression; values come borrowed from the program's
/// constants or the variables whenever possible.
pub fn eval<'a>(scope: &'a Scope, env: &'a Env<'a>, e: &'a Expr) -> Cow<'a, Value> {
    match e {
        Expr::Const(v) => Cow::Borrowed(v),
        Expr::Var(r) => scope.get(r).map_or(Cow::Owned(Value::Null), Cow::Borrowed),
        Expr::Access(base, path) => {
            let mut cur = eval(scope, env, base);
            for a in path {
                let next = match cur {
                    Cow::Borrowed(v) => match a {
                        Access::Name(n) => v.attr(n),
                        Access::Index(k) => v.index(&eval(scope, env, k)),
                    },
                    Cow::Owned(v) => match a {
                        Access::Name(n) => v.attr(n).map(|c| Cow::Owned(c.into_owned())),
                        Access::Index(k) => v
                            .index(&eval(scope, env, k))
                            .map(|c| Cow::Owned(c.into_owned())),
                    },
                };
                match next {
                    Some(v) => cur = v,
                    None => return Cow::Owned(Value::Null),
                }
            }
            cur
        }
        Expr::Op { op, input, args } => {
            let input = input.as_deref().map(|i| eval(scope, env, i));
            let arg_eval = |x: &'a Expr| eval(scope, env, x);
            Cow::Owned(ops::apply(*op, Operands::new(input, args, &arg_eval), env))
        }
        Expr::Unknown => Cow::Owned(Value::Null),
    }
}

/// What a loop walks, with offset, max and reverse already applied.
enum Items {
    List(Arc<Vec<Value>>),
    Hash(Arc<Map>),
    Range {
        from: i64,
        step: i64,
    },
    /// A section over a number: items 1..=n.
    Count,
}

struct LoopState {
    items: Items,
    /// Length of the underlying collection.
    len: usize,
    /// Position (in walking order) of the first visited item.
    first: usize,
    /// Items to visit, and visited so far.
    count: usize,
    visited: usize,
    reverse: bool,
    /// Items shown so far (filters may hide some).
    shown: usize,
    /// Whether the current item is the first one shown.
    first_shown: bool,
    excluded: bool,
    filtered: bool,
    section: bool,
    sequence: Option<Arc<Vec<Value>>>,
    /// Bindings: item, key, index, number, sequence.
    slots: [Option<Slot>; 5],
    names: [Option<Sym>; 5],
    ns: u32,
    pushed_ns: bool,
    /// The `{let}` depth at the loop's start, restored at its end (a
    /// `{break}` may leave blocks without passing their end).
    lets: usize,
}

struct LetFrame {
    slots: Vec<Slot>,
    pushed_ns: bool,
}

pub struct Renderer<'e> {
    engine: &'e Engine,
    scope: Scope,
    out: String,
    steps: u64,
    depth: u32,
    /// `{run-once}` blocks already rendered: program file and address.
    once: Vec<(String, usize)>,
}

impl<'e> Renderer<'e> {
    pub fn new(engine: &'e Engine, capacity: usize) -> Self {
        Renderer {
            engine,
            scope: Scope::default(),
            out: String::with_capacity(capacity),
            steps: 0,
            depth: 0,
            once: Vec::new(),
        }
    }

    pub fn scope_mut(&mut self) -> &mut Scope {
        &mut self.scope
    }

    pub fn finish(self) -> String {
        self.out
    }

    fn error(&self, program: &Program, pc: usize, message: String) -> TemplateError {
        let (line, column) = program.position(pc);
        TemplateError {
            file: program.file.clone(),
            line,
            column,
            message,
            excerpt: String::new(),
        }
    }

    /// Counts a loop iteration against the budget.
    fn tick(&mut self, program: &Program, pc: usize) -> Result<(), TemplateError> {
        self.steps += 1;
        if self.steps > self.engine.limits.max_steps {
            return Err(self.error(
                program,
                pc,
                format!(
                    "render stopped after {} loop iterations (limit)",
                    self.engine.limits.max_steps
                ),
            ));
        }
        Ok(())
    }

    /// Runs one template with its own set of `{def}` variables.
    pub fn run(&mut self, program: &Program) -> Result<(), TemplateError> {
        let env = self.engine.env();
        let code = &program.code;
        let mut pc = 0usize;
        let mut defs: Vec<Slot> = Vec::new();
        let mut loops: Vec<LoopState> = Vec::new();
        let mut lets: Vec<LetFrame> = Vec::new();
        // Where each open `{set-block}` capture starts in the output.
        let mut captures: Vec<usize> = Vec::new();
        let root_ns = self.scope.current();
        while let Some(inst) = code.get(pc) {
            pc += 1;
            match inst {
                Inst::Text(t) => self.out.push_str(t),
                Inst::Print(e) => eval(&self.scope, &env, e).write_text(&mut self.out),
                Inst::PrintEscaped(e, mode) => {
                    let v = eval(&self.scope, &env, e);
                    let text = v.to_text();
                    match mode {
                        Escape::Html => escape_html_into(&text, &mut self.out),
                        Escape::Javascript => escape_js_into(&text, &mut self.out),
                    }
                }
                Inst::Def(var, e) => {
                    let value = eval(&self.scope, &env, e).into_owned();
                    let ns = self.scope.target_ns(var);
                    // A second {def} of the same variable in one template
                    // overwrites it rather than stacking a shadow.
                    let existing = self
                        .scope
                        .lookup_in(ns, &var.name)
                        .filter(|&i| defs.contains(&self.scope.slot(i)));
                    match existing {
                        Some(i) => self.scope.set_index(i, value),
                        None => defs.push(self.scope.define(ns, &var.name, value)),
                    }
                }
                Inst::Set(var, e) => {
                    let value = eval(&self.scope, &env, e).into_owned();
                    match self.scope.resolve(var) {
                        Some(i) => self.scope.set_index(i, value),
                        None => {
                            let ns = self.scope.target_ns(var);
                            defs.push(self.scope.define(ns, &var.name, value));
                        }
                    }
                }
                Inst::Undef(var) => {
                    if let Some(i) = self.scope.resolve(var) {
                        let slot = self.scope.slot(i);
                        defs.retain(|&s| s != slot);
                        self.scope.remove_index(i);
                    }
                }
                Inst::UndefAll => {
                    for slot in defs.drain(..).rev() {
                        self.scope.remove_slot(slot);
                    }
                }
                Inst::Jump(t) => {
                    let t = *t as usize;
                    if t < pc {
                        self.tick(program, pc - 1)?;
                    }
                    pc = t;
                }
                Inst::JumpUnless(c, t) => {
                    if !eval(&self.scope, &env, c).truthy() {
                        pc = *t as usize;
                    }
                }
                Inst::JumpIf(c, t) => {
                    if eval(&self.scope, &env, c).truthy() {
                        self.tick(program, pc - 1)?;
                        pc = *t as usize;
                    }
                }
                Inst::Switch {
                    subject,
                    cases,
                    default,
                } => {
                    let value = eval(&self.scope, &env, subject);
                    let hit = cases.iter().find(|(test, _)| match test {
                        CaseTest::Match(e) => loose_eq(&value, &eval(&self.scope, &env, e)),
                        CaseTest::In(e) => match &*eval(&self.scope, &env, e) {
                            Value::Array(items) => items.iter().any(|v| loose_eq(&value, v)),
                            Value::Hash(map) => map.iter().any(|(_, v)| loose_eq(&value, v)),
                            _ => false,
                        },
                    });
                    pc = hit.map_or(*default, |(_, target)| *target) as usize;
                }
                Inst::LoopStart(spec) => {
                    let state = self.start_loop(spec, &env, lets.len());
                    loops.push(state);
                    pc = spec.next as usize;
                }
                Inst::LoopNext { body } => {
                    let Some(state) = loops.last_mut() else {
                        continue;
                    };
                    if state.visited >= state.count {
                        continue;
                    }
                    self.tick(program, pc - 1)?;
                    self.advance(state);
                    pc = *body as usize;
                }
                Inst::LoopEnd { empty } => {
                    let Some(state) = loops.pop() else {
                        continue;
                    };
                    while lets.len() > state.lets {
                        if let Some(frame) = lets.pop() {
                            self.pop_let(frame);
                        }
                    }
                    for slot in state.slots.iter().flatten().rev() {
                        self.scope.remove_slot(*slot);
                    }
                    if state.pushed_ns {
                        self.scope.pop_ns();
                    }
                    if let (0, Some(target)) = (state.shown, empty) {
                        pc = *target as usize;
                    }
                }
                Inst::Filter { include, cond } => {
                    let hit = eval(&self.scope, &env, cond).truthy();
                    if hit && let Some(state) = loops.last_mut() {
                        state.excluded = !include;
                    }
                }
                Inst::Show { next } => {
                    if let Some(state) = loops.last_mut() {
                        if state.excluded {
                            pc = *next as usize;
                        } else {
                            state.first_shown = state.shown == 0;
                            state.shown += 1;
                        }
                    }
                }
                Inst::Delim { skip } => {
                    if loops.last().is_none_or(|s| s.first_shown) {
                        pc = *skip as usize;
                    }
                }
                Inst::PushLet {
                    ns,
                    vars,
                    default_only,
                } => {
                    // Values are computed in order inside the block's
                    // namespace, so later ones may use earlier ones
                    // (`{let count=... half=div($:count, 2)}`).
                    if let Some(ns) = ns {
                        self.scope.push_ns(ns);
                    }
                    let cur = self.scope.current();
                    let mut slots = Vec::with_capacity(vars.len());
                    for (name, e) in vars {
                        if *default_only && self.scope.lookup_in(cur, name).is_some() {
                            continue;
                        }
                        let value = eval(&self.scope, &env, e).into_owned();
                        slots.push(self.scope.define(cur, name, value));
                    }
                    lets.push(LetFrame {
                        slots,
                        pushed_ns: ns.is_some(),
                    });
                }
                Inst::PopLet => {
                    if let Some(frame) = lets.pop() {
                        self.pop_let(frame);
                    }
                }
                Inst::Include { uri, ns, vars } => {
                    self.include(program, pc - 1, &env, uri, ns.as_ref(), vars)?;
                }
                Inst::CaptureStart => captures.push(self.out.len()),
                Inst::CaptureEnd { name, scope } => {
                    let start = captures.pop().unwrap_or(self.out.len());
                    let text = self.out.split_off(start.min(self.out.len()));
                    if name.name.is_empty() {
                        continue;
                    }
                    let ns = match scope {
                        BlockScope::Relative => self.scope.current(),
                        BlockScope::Root => root_ns,
                        BlockScope::Global => ROOT,
                    };
                    match self.scope.lookup_in(ns, name) {
                        Some(i) => self.scope.set_index(i, Value::from(text)),
                        None => {
                            let slot = self.scope.define(ns, name, Value::from(text));
                            // A global block outlives the template that
                            // set it: a page layout reads what a view set.
                            if *scope != BlockScope::Global {
                                defs.push(slot);
                            }
                        }
                    }
                }
                Inst::RunOnce { skip } => {
                    let key = (program.file.as_str(), pc - 1);
                    if self.once.iter().any(|(f, at)| (f.as_str(), *at) == key) {
                        pc = *skip as usize;
                    } else {
                        self.once.push((program.file.clone(), pc - 1));
                    }
                }
                Inst::ViewGui { kind, params } => {
                    self.view_gui(program, pc - 1, &env, *kind, params)?;
                }
            }
        }
        // A capture left open (a jump out of a cached program) keeps its
        // text in the output rather than losing it.
        drop(captures);
        // Leave the scope as the template found it.
        for state in loops.into_iter().rev() {
            for slot in state.slots.iter().flatten().rev() {
                self.scope.remove_slot(*slot);
            }
            if state.pushed_ns {
                self.scope.pop_ns();
            }
        }
        for frame in lets.into_iter().rev() {
            self.pop_let(frame);
        }
        for slot in defs.into_iter().rev() {
            self.scope.remove_slot(slot);
        }
        Ok(())
    }

    fn pop_let(&mut self, frame: LetFrame) {
        for slot in frame.slots.into_iter().rev() {
            self.scope.remove_slot(slot);
        }
        if frame.pushed_ns {
            self.scope.pop_ns();
        }
    }

    fn include(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
        uri: &Expr,
        ns: Option<&Sym>,
        vars: &[(Sym, Expr)],
    ) -> Result<(), TemplateError> {
        let uri = eval(&self.scope, env, uri).to_text().into_owned();
        if self.depth >= self.engine.limits.max_include_depth {
            return Err(self.error(
                program,
                pc,
                format!("include of `{uri}` nested too deeply (an include cycle?)"),
            ));
        }
        let included = self
            .engine
            .load(&uri)
            .map_err(|e| self.error(program, pc, format!("cannot include `{uri}`: {e}")))?;
        let values: Vec<(&Sym, Value)> = vars
            .iter()
            .map(|(name, e)| (name, eval(&self.scope, env, e).into_owned()))
            .collect();
        self.run_with(&included, ns, values)
    }

    /// Runs `program` with `values` bound in the namespace `ns` (inside
    /// the current one) or in the current namespace, then unbinds them.
    fn run_with(
        &mut self,
        program: &Program,
        ns: Option<&Sym>,
        values: Vec<(&Sym, Value)>,
    ) -> Result<(), TemplateError> {
        if let Some(ns) = ns {
            self.scope.push_ns(ns);
        }
        let cur = self.scope.current();
        let slots: Vec<Slot> = values
            .into_iter()
            .map(|(name, v)| self.scope.define(cur, name, v))
            .collect();
        self.depth += 1;
        let result = self.run(program);
        self.depth -= 1;
        for slot in slots.into_iter().rev() {
            self.scope.remove_slot(slot);
        }
        if ns.is_some() {
            self.scope.pop_ns();
        }
        result
    }

    /// A view-gui tag: the template is `node/view/<view>.tpl`,
    /// `content/view/<view>.tpl` or `content/datatype/view/<datatype>.tpl`
    /// along the design search path, rendered with every parameter of the
    /// tag and the subject under the name the CMS gives it (`$node`,
    /// `$object`, `$attribute`). A missing subject, datatype or template
    /// renders nothing, as the CMS does (it only logs the miss); a template
    /// that exists but fails is an error like any include.
    fn view_gui(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
        kind: ViewKind,
        params: &[(Sym, Expr)],
    ) -> Result<(), TemplateError> {
        let (subject_param, subject_name) = match kind {
            ViewKind::Node => ("content_node", "node"),
            ViewKind::Content => ("content_object", "object"),
            ViewKind::Attribute => ("attribute", "attribute"),
        };
        let subject_sym = Sym::new(subject_name);
        let mut values: Vec<(&Sym, Value)> = params
            .iter()
            .map(|(name, e)| (name, eval(&self.scope, env, e).into_owned()))
            .collect();
        let value_of = |name: &str| {
            values
                .iter()
                .find(|(n, _)| &*n.name == name)
                .map(|(_, v)| v.clone())
        };
        let Some(subject) = value_of(subject_param).filter(|v| !v.is_null()) else {
            return Ok(());
        };
        let uri = match kind {
            ViewKind::Attribute => {
                let datatype = subject
                    .attr("data_type_string")
                    .map(|v| v.to_text().into_owned())
                    .unwrap_or_default();
                format!("design:content/datatype/view/{datatype}.tpl")
            }
            ViewKind::Node | ViewKind::Content => {
                let dir = if kind == ViewKind::Node {
                    "node"
                } else {
                    "content"
                };
                let view = value_of("view").map(|v| v.to_text().into_owned());
                format!("design:{dir}/view/{}.tpl", view.unwrap_or_default())
            }
        };
        if uri.ends_with("/.tpl") || self.engine.resolve(&uri).is_none() {
            return Ok(());
        }
        values.push((&subject_sym, subject));
        if self.depth >= self.engine.limits.max_include_depth {
            return Err(self.error(
                program,
                pc,
                format!("view template `{uri}` nested too deeply (a view cycle?)"),
            ));
        }
        let included = self
            .engine
            .load(&uri)
            .map_err(|e| self.error(program, pc, format!("cannot render `{uri}`: {e}")))?;
        self.run_with(&included, None, values)
    }

    fn start_loop(&mut self, spec: &LoopSpec, env: &Env, lets: usize) -> LoopState {
        let (items, len) = match &spec.source {
            LoopSource::List(e) => match &*eval(&self.scope, env, e) {
                Value::Array(a) => (Items::List(Arc::clone(a)), a.len()),
                Value::Hash(h) => (Items::Hash(Arc::clone(h)), h.len()),
                Value::Int(n) if spec.section => (Items::Count, (*n).clamp(0, 1 << 40) as usize),
                Value::Float(f) if spec.section => {
                    (Items::Count, (*f as i64).clamp(0, 1 << 40) as usize)
                }
                _ => (Items::Count, 0),
            },
            LoopSource::Range(from, to) => {
                let from = eval(&self.scope, env, from).to_int();
                let to = eval(&self.scope, env, to).to_int();
                let step = if to >= from { 1 } else { -1 };
                let len = to.abs_diff(from).saturating_add(1).min(1 << 40) as usize;
                (Items::Range { from, step }, len)
            }
        };
        let offset = spec.offset.as_ref().map_or(0, |e| {
            eval(&self.scope, env, e).to_int().clamp(0, len as i64) as usize
        });
        let available = len - offset;
        let count = match &spec.max {
            Some(e) => {
                let m = eval(&self.scope, env, e).to_int();
                if m > 0 {
                    available.min(m as usize)
                } else {
                    available
                }
            }
            None => available,
        };
        let sequence = spec
            .sequence
            .as_ref()
            .and_then(|e| match &*eval(&self.scope, env, e) {
                Value::Array(a) if !a.is_empty() => Some(Arc::clone(a)),
                _ => None,
            });
        let pushed_ns = spec.ns.is_some();
        if let Some(ns) = &spec.ns {
            self.scope.push_ns(ns);
        }
        let sequence_name = sequence.as_ref().and(spec.sequence_name.clone());
        let names: [Option<Sym>; 5] = if spec.section {
            [
                // `var=Name` binds the item under its own name.
                Some(spec.item.clone().unwrap_or_else(|| Sym::new("item"))),
                Some(Sym::new("key")),
                Some(Sym::new("index")),
                Some(Sym::new("number")),
                sequence_name,
            ]
        } else {
            [
                spec.item.clone(),
                spec.key.clone(),
                None,
                None,
                sequence_name,
            ]
        };
        LoopState {
            items,
            len,
            first: offset,
            count,
            visited: 0,
            reverse: spec.reverse,
            shown: 0,
            first_shown: true,
            excluded: false,
            filtered: spec.filtered,
            section: spec.section,
            sequence,
            slots: [None; 5],
            names,
            ns: self.scope.current(),
            pushed_ns,
            lets,
        }
    }

    /// Binds the loop's next item.
    fn advance(&mut self, state: &mut LoopState) {
        let k = state.first + state.visited;
        state.visited += 1;
        let pos = if state.reverse { state.len - 1 - k } else { k };
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
            Items::Count => (Value::Int(pos as i64 + 1), Value::Int(pos as i64)),
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
        let mut values: [Option<Value>; 5] = [Some(item), Some(key), None, None, None];
        if state.section {
            values[2] = Some(Value::Int(index as i64));
            values[3] = Some(Value::Int(index as i64 + 1));
        }
        values[4] = state
            .sequence
            .as_ref()
            .and_then(|s| s.get(index % s.len().max(1)).cloned());
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
}
