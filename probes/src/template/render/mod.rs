//! Runs compiled programs.
//!
//! The renderer is a loop over the instruction list with a program counter;
//! loops, `{let}` blocks and includes keep small state stacks. It trusts
//! nothing about the program it runs (one may come from a cache file), so a
//! jump out of range ends the program and an instruction without the state
//! it expects is skipped, never a panic. Runaway loops and include cycles
//! end in an error once a configurable budget is spent.

mod block;
mod include;
mod loops;

use std::borrow::Cow;

use super::budget::{Budget, Overspent};
use super::engine::Engine;
use super::error::TemplateError;
use super::ops::{self, Env, Operands, escape_html_into, escape_js_into, escaped_len};
use super::program::{Access, BlockScope, CaseTest, Escape, Expr, Inst, Program};
use super::scope::{ROOT, Scope, Slot};
use super::value::{MAX_VISITS, Value, loose_eq_within};
use loops::LoopState;

/// Evaluates an expression; values come borrowed from the program's
/// constants or the variables whenever possible.
pub fn eval<'a>(scope: &'a Scope, env: &'a Env<'a>, e: &'a Expr) -> Cow<'a, Value> {
    match e {
        Expr::Const(v) => Cow::Borrowed(v),
        // A proxy (a `{section var=}` iterator) used whole is its item...
        Expr::Var(r) => scope
            .get(r)
            .map_or(Cow::Owned(Value::Null), |v| Cow::Borrowed(v.proxied())),
        Expr::Access(base, path) => {
            // ...but its attributes are its own.
            let mut cur = match &**base {
                Expr::Var(r) => scope.get(r).map_or(Cow::Owned(Value::Null), Cow::Borrowed),
                other => eval(scope, env, other),
            };
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

/// Output written but not yet charged that a print may leave for the next
/// charge.
const SLACK: usize = 64 * 1024;

struct LetFrame {
    slots: Vec<Slot>,
    pushed_ns: bool,
}

pub struct Renderer<'e> {
    engine: &'e Engine,
    scope: Scope,
    out: String,
    steps: u64,
    /// Shared with every `Env` this renderer hands to operators, across
    /// includes: one render, one budget.
    budget: &'e Budget,
    /// How much of `out` the budget has been charged for.
    out_charged: usize,
    depth: u32,
    /// `{run-once}` blocks already rendered: program file and address.
    once: Vec<(String, usize)>,
}

impl<'e> Renderer<'e> {
    pub fn new(engine: &'e Engine, budget: &'e Budget, capacity: usize) -> Self {
        Renderer {
            engine,
            scope: Scope::default(),
            out: String::with_capacity(capacity),
            steps: 0,
            budget,
            out_charged: 0,
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

    /// Charges the budget for what was written since the last charge, and
    /// stops the render once the budget is overspent. Called where output
    /// may have grown without bound (a print past [`SLACK`], a loop's turn,
    /// a capture, the end): straight-line text is bounded by the template,
    /// and once overspent every operator makes nothing.
    fn spend(&mut self, program: &Program, pc: usize) -> Result<(), TemplateError> {
        let len = self.out.len();
        if len > self.out_charged {
            self.budget.take(len - self.out_charged);
        }
        self.out_charged = len;
        match self.budget.overspent() {
            Some(over) => Err(self.error(program, pc, over.message())),
            None => Ok(()),
        }
    }

    /// [`Renderer::spend`] once a print has left more than [`SLACK`]
    /// uncharged: an ordinary page pays one comparison a print.
    #[inline]
    fn spend_past_slack(&mut self, program: &Program, pc: usize) -> Result<(), TemplateError> {
        if self.out.len() > self.out_charged + SLACK {
            self.spend(program, pc)?;
        }
        Ok(())
    }

    /// Counts a loop iteration against the budgets.
    fn tick(&mut self, program: &Program, pc: usize) -> Result<(), TemplateError> {
        self.spend(program, pc)?;
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
        let budget = self.budget;
        let env = self.engine.env(budget);
        let code = &program.code;
        let mut pc = 0usize;
        let mut defs: Vec<Slot> = Vec::new();
        let mut loops: Vec<LoopState> = Vec::new();
        let mut lets: Vec<LetFrame> = Vec::new();
        // Where each open `{set-block}` capture starts in the output.
        let mut captures: Vec<usize> = Vec::new();
        let mut blocks: Vec<block::OpenBlock> = Vec::new();
        let root_ns = self.scope.current();
        while let Some(inst) = code.get(pc) {
            pc += 1;
            match inst {
                Inst::Text(t) => self.out.push_str(t),
                Inst::Print(e) => {
                    eval(&self.scope, &env, e).write_text(&mut self.out);
                    self.spend_past_slack(program, pc - 1)?;
                }
                Inst::PrintEscaped(e, mode) => {
                    let v = eval(&self.scope, &env, e);
                    let text = v.to_text();
                    // An escape is six bytes at most.
                    if !budget.fits_within(text.len().saturating_mul(6), || escaped_len(&text)) {
                        return Err(self.error(program, pc - 1, Overspent::message_of(budget)));
                    }
                    match mode {
                        Escape::Html => escape_html_into(&text, &mut self.out),
                        Escape::Javascript => escape_js_into(&text, &mut self.out),
                    }
                    self.spend_past_slack(program, pc - 1)?;
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
                    // One allowance for the whole switch (see `MAX_VISITS`).
                    let mut visits = MAX_VISITS;
                    let mut eq = |a: &Value, b: &Value| loose_eq_within(a, b, &mut visits);
                    let hit = cases.iter().find(|(test, _)| match test {
                        CaseTest::Match(e) => eq(&value, &eval(&self.scope, &env, e)),
                        CaseTest::In(e) => match &*eval(&self.scope, &env, e) {
                            Value::Array(items) => items.iter().any(|v| eq(&value, v)),
                            Value::Hash(map) => map.iter().any(|(_, v)| eq(&value, v)),
                            _ => false,
                        },
                    });
                    pc = hit.map_or(*default, |(_, target)| *target) as usize;
                }
                Inst::LoopStart(spec) => {
                    let state = self.start_loop(spec, &env, lets.len(), captures.len());
                    loops.push(state);
                    pc = spec.next as usize;
                }
                Inst::LoopNext { body } => {
                    let Some(state) = loops.last_mut() else {
                        continue;
                    };
                    // A `{continue}` may have left blocks of the body open.
                    self.close_blocks(&mut lets, &mut captures, state.lets, state.captures);
                    if !state.has_next() {
                        continue;
                    }
                    self.tick(program, pc - 1)?;
                    self.advance(state);
                    pc = *body as usize;
                }
                Inst::LoopEnd => {
                    let Some(state) = loops.pop() else {
                        continue;
                    };
                    // So may a `{break}`.
                    self.close_blocks(&mut lets, &mut captures, state.lets, state.captures);
                    self.end_loop(&state);
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
                Inst::Delim { skip, modulo, cond } => {
                    let shown = loops.last().is_some_and(|s| {
                        !s.first_shown
                            && cond
                                .as_ref()
                                .is_none_or(|c| eval(&self.scope, &env, c).truthy())
                            && modulo.as_ref().is_none_or(|m| {
                                // A modulo that is not a number is ignored;
                                // zero shows no delimiter (PHP fails there).
                                let m = eval(&self.scope, &env, m);
                                match m.to_text().trim().parse::<f64>() {
                                    Ok(m) => {
                                        let m = m as i64;
                                        m != 0 && (s.delimiter_index() as i64) % m == 0
                                    }
                                    Err(_) => true,
                                }
                            })
                    });
                    if !shown {
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
                Inst::CaptureEnd {
                    name,
                    ns: block_ns,
                    scope,
                } => {
                    // The captured text lives on in a variable: charged
                    // now, and the mark lowered to where the output ends.
                    self.spend(program, pc - 1)?;
                    let start = captures.pop().unwrap_or(self.out.len());
                    let text = self.out.split_off(start.min(self.out.len()));
                    self.out_charged = self.out.len();
                    if name.name.is_empty() {
                        continue;
                    }
                    let ns = match scope {
                        BlockScope::Relative => self.scope.current(),
                        BlockScope::Root => root_ns,
                        BlockScope::Global => ROOT,
                    };
                    let ns = match block_ns {
                        Some(child) => self.scope.child(ns, child),
                        None => ns,
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
                Inst::CacheBlock {
                    keys,
                    expiry,
                    ignore_content_expiry,
                    end,
                } => {
                    let (keys, expiry) = (keys.as_ref(), expiry.as_ref());
                    let found = self.cache_block(
                        program,
                        pc - 1,
                        &env,
                        keys,
                        expiry,
                        *ignore_content_expiry,
                    );
                    match found {
                        block::Found::Hit(text) => {
                            self.out.push_str(&text);
                            pc = *end as usize;
                        }
                        block::Found::Render(open) => blocks.push(open),
                    }
                }
                Inst::CacheBlockEnd { start } => {
                    // A block left by a jump (a `{break}` inside it) is
                    // dropped unstored on the way to its own end.
                    while let Some(open) = blocks.pop() {
                        if open.at == *start as usize {
                            self.close_cache_block(open);
                            break;
                        }
                    }
                }
            }
        }
        self.spend(program, code.len().saturating_sub(1))?;
        // A capture left open (a jump out of a cached program) keeps its
        // text in the output rather than losing it.
        drop(captures);
        // Leave the scope as the template found it.
        for state in loops.into_iter().rev() {
            self.end_loop(&state);
        }
        for frame in lets.into_iter().rev() {
            self.pop_let(frame);
        }
        for slot in defs.into_iter().rev() {
            self.scope.remove_slot(slot);
        }
        Ok(())
    }

    /// Closes the `{let}` blocks and `{set-block}` captures opened after
    /// a loop's start that a jump left open; a capture cut short that way
    /// stores nothing and its text is dropped.
    fn close_blocks(
        &mut self,
        lets: &mut Vec<LetFrame>,
        captures: &mut Vec<usize>,
        let_depth: usize,
        capture_depth: usize,
    ) {
        while lets.len() > let_depth {
            if let Some(frame) = lets.pop() {
                self.pop_let(frame);
            }
        }
        if let Some(&start) = captures.get(capture_depth) {
            self.out.truncate(start.min(self.out.len()));
            captures.truncate(capture_depth);
        }
    }

    fn pop_let(&mut self, frame: LetFrame) {
        for slot in frame.slots.into_iter().rev() {
            self.scope.remove_slot(slot);
        }
        if frame.pushed_ns {
            self.scope.pop_ns();
        }
    }
}
