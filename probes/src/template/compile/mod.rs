//! Lowers a syntax tree to a [`Program`]: block tags become jumps and loop
//! instructions, adjacent text merges, output of constants becomes text, a
//! trailing `|wash` fuses into the print instruction, and branches on
//! constant conditions are decided here.
//!
//! Unknown function tags and operators are warnings, not errors: designs
//! carry extension code this engine does not have. An unknown block renders
//! its body as is; an unknown bodiless function renders nothing.

use std::sync::Arc;

use super::ast::{self, Args, Node, Param, Tag};
use super::error::{Span, TemplateError};
use super::lower_expr::ExprLowering;
use super::ops::Op;
use super::parser::parse;
use super::program::{CaseTest, Escape, Expr, Inst, Program, Sym, VarRef};
use super::value::Value;

mod blocks;
mod loops;

/// Parses and compiles `source`, named `file` in messages.
pub fn compile(file: &str, source: &str) -> Result<Program> {
    let template = parse(file, source)?;
    compile_ast(&template)
}

/// Compiles an already parsed template.
pub fn compile_ast(template: &ast::Template) -> Result<Program> {
    let mut c = Compiler {
        lower: ExprLowering {
            template,
            warnings: Vec::new(),
        },
        code: Vec::new(),
        positions: Vec::new(),
        barrier: 0,
        pos: (1, 1),
        loops: Vec::new(),
    };
    c.nodes(&template.nodes)?;
    Ok(Program {
        file: template.file.clone(),
        code: c.code,
        positions: c.positions,
        warnings: c.lower.warnings,
    })
}

/// Jumps to patch once a loop's labels are known.
struct LoopLabels {
    /// `{continue}`/`{skip}` jumps.
    continues: Vec<usize>,
    /// `{break}` jumps.
    breaks: Vec<usize>,
}

struct Compiler<'t> {
    lower: ExprLowering<'t>,
    code: Vec<Inst>,
    positions: Vec<(u32, u32)>,
    /// Text may merge into the previous instruction only above this index
    /// (a jump may land on anything below it).
    barrier: usize,
    /// Position of the tag being lowered.
    pos: (u32, u32),
    loops: Vec<LoopLabels>,
}

type Result<T> = std::result::Result<T, TemplateError>;

impl Compiler<'_> {
    fn t(&self) -> &ast::Template {
        self.lower.template
    }

    fn error(&self, span: Span, message: String) -> TemplateError {
        let t = self.t();
        TemplateError::at(&t.file, &t.source, &t.lines, span.start, message)
    }

    fn warn(&mut self, span: Span, message: String) {
        self.lower.warn(span, message);
    }

    fn emit(&mut self, inst: Inst) -> usize {
        self.code.push(inst);
        self.positions.push(self.pos);
        self.code.len() - 1
    }

    /// The current address, as a jump target.
    fn label(&mut self) -> u32 {
        self.barrier = self.code.len();
        self.code.len() as u32
    }

    fn emit_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if crate::faults::on(crate::faults::Fault::CompilerCopy) {
            std::hint::black_box(text.as_bytes().to_vec());
        }
        if self.code.len() > self.barrier
            && let Some(Inst::Text(prev)) = self.code.last_mut()
        {
            let mut joined = String::with_capacity(prev.len() + text.len());
            joined.push_str(prev);
            joined.push_str(text);
            *prev = Arc::from(joined);
            return;
        }
        self.emit(Inst::Text(Arc::from(text)));
    }

    /// Points the jump at `at` to `target`.
    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.code[at] {
            Inst::Jump(t) | Inst::JumpUnless(_, t) | Inst::JumpIf(_, t) => *t = target,
            Inst::Delim { skip, .. } => *skip = target,
            Inst::Show { next } => *next = target,
            Inst::LoopStart(spec) => spec.next = target,
            Inst::Switch { default, .. } => *default = target,
            Inst::RunOnce { skip } => *skip = target,
            Inst::CacheBlock { end, .. } => *end = target,
            _ => {}
        }
    }

    fn patch_here(&mut self, jumps: &[usize]) {
        let here = self.label();
        for &j in jumps {
            self.patch(j, here);
        }
    }

    fn nodes(&mut self, nodes: &[Node]) -> Result<()> {
        for node in nodes {
            self.node(node)?;
        }
        Ok(())
    }

    fn node(&mut self, node: &Node) -> Result<()> {
        match node {
            Node::Text(span) => {
                let text = self.t().slice(*span).to_string();
                self.emit_text(&text);
            }
            Node::Brace(ch) => self.emit_text(if *ch == '{' { "{" } else { "}" }),
            Node::Output(e) => {
                self.pos = self.t().position(e.span);
                let lowered = self.lower.expr(e);
                self.print(lowered);
            }
            Node::Tag(tag) => {
                self.pos = self.t().position(tag.span);
                self.tag(tag)?;
            }
        }
        Ok(())
    }

    fn print(&mut self, e: Expr) {
        match e {
            Expr::Const(v) => {
                let text = v.to_text().into_owned();
                self.emit_text(&text);
            }
            Expr::Unknown => {}
            Expr::Op {
                op: Op::Wash,
                input: Some(input),
                args,
            } if args.len() <= 1 => {
                let mode = match args.first() {
                    None => Some(Escape::Html),
                    Some(Expr::Const(Value::Str(k))) if matches!(&**k, "xhtml" | "html") => {
                        Some(Escape::Html)
                    }
                    Some(Expr::Const(Value::Str(k))) if &**k == "javascript" => {
                        Some(Escape::Javascript)
                    }
                    _ => None,
                };
                match mode {
                    Some(mode) => {
                        self.emit(Inst::PrintEscaped(*input, mode));
                    }
                    None => {
                        self.emit(Inst::Print(Expr::Op {
                            op: Op::Wash,
                            input: Some(input),
                            args,
                        }));
                    }
                }
            }
            other => {
                self.emit(Inst::Print(other));
            }
        }
    }

    fn tag(&mut self, tag: &Tag) -> Result<()> {
        if !tag.known {
            let kind = if tag.body.is_some() {
                "block"
            } else {
                "function"
            };
            self.warn(
                tag.span,
                format!(
                    "unknown function tag {{{}}}: {kind} {}",
                    tag.name,
                    match tag.body {
                        Some(_) => "renders its body as is",
                        None => "renders nothing",
                    }
                ),
            );
            if let Some(body) = &tag.body {
                self.nodes(body)?;
            }
            return Ok(());
        }
        let body = tag.body.as_deref().unwrap_or(&[]);
        match tag.name.as_str() {
            "if" => self.if_tag(tag, body),
            "switch" => self.switch_tag(tag, body),
            "foreach" | "for" => self.loop_tag(tag, body),
            "section" => self.section_tag(tag, body),
            "while" => self.while_tag(tag, body),
            "do" => self.do_tag(tag, body),
            "let" | "default" => self.let_tag(tag, body),
            "def" | "set" | "undef" => {
                self.vars_tag(tag);
                Ok(())
            }
            "include" => {
                self.include_tag(tag);
                Ok(())
            }
            "cache-block" => self.cache_block_tag(tag, body),
            "break" | "continue" | "skip" => {
                self.flow_tag(tag);
                Ok(())
            }
            "set-block" => self.set_block_tag(tag, body),
            "run-once" => self.run_once_tag(tag, body),
            "attribute_view_gui" | "node_view_gui" | "content_view_gui" => {
                self.view_gui_tag(tag);
                Ok(())
            }
            // Intermediate tags out of place: `{else}` outside `{if}` and
            // the like.
            other => {
                self.warn(
                    tag.span,
                    format!("{{{other}}} outside the block it belongs to is ignored"),
                );
                Ok(())
            }
        }
    }

    fn params<'a>(&self, tag: &'a Tag) -> &'a [Param] {
        match &tag.args {
            Args::Params(p) => p,
            Args::Foreach { params, .. } | Args::For { params, .. } => params,
            _ => &[],
        }
    }

    fn param<'a>(&self, tag: &'a Tag, name: &str) -> Option<&'a Param> {
        self.params(tag).iter().find(|p| p.name == name)
    }

    /// A parameter's value; a bare parameter means true.
    fn param_expr(&mut self, p: &Param) -> Expr {
        match &p.value {
            Some(e) => self.lower.expr(e),
            None => Expr::Const(Value::Bool(true)),
        }
    }

    fn opt_param(&mut self, tag: &Tag, name: &str) -> Option<Expr> {
        self.param(tag, name).map(|p| self.param_expr(p))
    }

    /// Warns about parameters the tag does not take.
    fn check_params(&mut self, tag: &Tag, allowed: &[&str]) {
        let unknown: Vec<(Span, String)> = self
            .params(tag)
            .iter()
            .filter(|p| !allowed.contains(&p.name.as_str()))
            .map(|p| (p.span, p.name.clone()))
            .collect();
        for (span, name) in unknown {
            self.warn(span, format!("{{{}}} ignores parameter `{name}`", tag.name));
        }
    }

    /// A namespace name given as `name=Ns`: a bare word or constant text.
    fn ns_param(&mut self, tag: &Tag) -> Option<Sym> {
        let p = self.param(tag, "name")?;
        match self.param_expr(p) {
            Expr::Const(v) if !v.to_text().is_empty() => Some(Sym::new(&v.to_text())),
            _ => {
                self.warn(p.span, "a namespace name must be a constant".into());
                None
            }
        }
    }

    /// A static flag such as `reverse`: bare, or a constant condition.
    fn flag(&mut self, tag: &Tag, name: &str) -> bool {
        let Some(p) = self.param(tag, name) else {
            return false;
        };
        match self.param_expr(p) {
            Expr::Const(v) => v.truthy(),
            _ => {
                self.warn(
                    p.span,
                    format!("`{name}` must be a constant; taken as true"),
                );
                true
            }
        }
    }

    fn if_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        let Args::Cond(cond) = &tag.args else {
            return Ok(());
        };
        // Split the body at top-level {elseif} / {else}.
        let mut branches: Vec<(Option<&ast::Expr>, Vec<&Node>)> = vec![(Some(cond), Vec::new())];
        let mut seen_else = false;
        for node in body {
            match node {
                Node::Tag(t) if t.name == "elseif" || t.name == "else" => {
                    if seen_else {
                        return Err(self.error(t.span, format!("{{{}}} after {{else}}", t.name)));
                    }
                    let cond = match &t.args {
                        Args::Cond(c) => Some(c),
                        _ => None,
                    };
                    seen_else = t.name == "else";
                    branches.push((cond, Vec::new()));
                }
                other => {
                    if let Some(last) = branches.last_mut() {
                        last.1.push(other);
                    }
                }
            }
        }
        let mut ends = Vec::new();
        for (cond, nodes) in branches {
            let Some(cond) = cond else {
                // {else}: always taken when reached.
                for n in nodes {
                    self.node(n)?;
                }
                break;
            };
            match self.lower.expr(cond) {
                Expr::Const(v) if v.truthy() => {
                    for n in nodes {
                        self.node(n)?;
                    }
                    break;
                }
                Expr::Const(_) | Expr::Unknown => continue,
                c => {
                    let skip = self.emit(Inst::JumpUnless(c, 0));
                    for n in nodes {
                        self.node(n)?;
                    }
                    ends.push(self.emit(Inst::Jump(0)));
                    self.patch_here(&[skip]);
                }
            }
        }
        self.patch_here(&ends);
        Ok(())
    }

    fn switch_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        self.check_params(tag, &["match", "name"]);
        let subject = self.opt_param(tag, "match").unwrap_or_else(|| {
            self.warn(tag.span, "{switch} without `match=`".into());
            Expr::Const(Value::Null)
        });
        let ns = self.ns_param(tag);
        let subject = match &ns {
            Some(ns) => {
                let name = Sym::new("match");
                self.emit(Inst::PushLet {
                    ns: Some(ns.clone()),
                    vars: vec![(name.clone(), subject)],
                    default_only: false,
                });
                Expr::Var(VarRef {
                    scope: ast::Scope::Local,
                    ns: Vec::new(),
                    name,
                })
            }
            None => subject,
        };
        let mut tests = Vec::new();
        let mut bodies: Vec<(Option<usize>, &[Node])> = Vec::new();
        let mut default: Option<&[Node]> = None;
        for node in body {
            match node {
                Node::Tag(t) if t.name == "case" => {
                    self.check_params(t, &["match", "in"]);
                    let case_body = t.body.as_deref().unwrap_or(&[]);
                    let test = if let Some(p) = self.param(t, "match") {
                        Some(CaseTest::Match(self.param_expr(p)))
                    } else {
                        self.param(t, "in")
                            .map(|p| CaseTest::In(self.param_expr(p)))
                    };
                    match test {
                        Some(test) => {
                            bodies.push((Some(tests.len()), case_body));
                            tests.push((test, 0));
                        }
                        None if default.is_none() => default = Some(case_body),
                        None => self.warn(t.span, "a second default {case} is ignored".into()),
                    }
                }
                Node::Text(span) => {
                    if !self.t().slice(*span).trim().is_empty() {
                        self.warn(*span, "text between cases is ignored".into());
                    }
                }
                Node::Tag(t) => {
                    self.warn(t.span, format!("{{{}}} between cases is ignored", t.name))
                }
                Node::Output(e) => self.warn(e.span, "output between cases is ignored".into()),
                Node::Brace(_) => {}
            }
        }
        let switch = self.emit(Inst::Switch {
            subject,
            cases: tests,
            default: 0,
        });
        let mut ends = Vec::new();
        for (index, nodes) in bodies {
            let start = self.label();
            if let (Some(i), Inst::Switch { cases, .. }) = (index, &mut self.code[switch]) {
                cases[i].1 = start;
            }
            self.nodes(nodes)?;
            ends.push(self.emit(Inst::Jump(0)));
        }
        let default_start = self.label();
        self.patch(switch, default_start);
        if let Some(nodes) = default {
            self.nodes(nodes)?;
        }
        self.patch_here(&ends);
        if ns.is_some() {
            self.emit(Inst::PopLet);
        }
        Ok(())
    }

    fn let_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        let ns = self.ns_param(tag);
        let vars: Vec<(Sym, Expr)> = self
            .params(tag)
            .iter()
            .filter(|p| p.name != "name")
            .map(|p| (Sym::new(&p.name), p))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|(s, p)| (s, self.param_expr(p)))
            .collect();
        self.emit(Inst::PushLet {
            ns,
            vars,
            default_only: tag.name == "default",
        });
        self.nodes(body)?;
        self.emit(Inst::PopLet);
        Ok(())
    }

    fn vars_tag(&mut self, tag: &Tag) {
        let Args::Vars(assigns) = &tag.args else {
            return;
        };
        if tag.name == "undef" && assigns.is_empty() {
            self.emit(Inst::UndefAll);
            return;
        }
        for a in assigns {
            let var = self.lower.var(&a.var);
            match (tag.name.as_str(), &a.value) {
                ("undef", value) => {
                    if value.is_some() {
                        self.warn(a.var.span, "{undef} ignores a value".into());
                    }
                    self.emit(Inst::Undef(var));
                }
                (name, Some(value)) => {
                    let value = self.lower.expr(value);
                    self.emit(if name == "def" {
                        Inst::Def(var, value)
                    } else {
                        Inst::Set(var, value)
                    });
                }
                (name, None) => {
                    self.warn(
                        a.var.span,
                        format!("{{{name}}} of `{}` without a value sets null", a.var.name),
                    );
                    let value = Expr::Const(Value::Null);
                    self.emit(if name == "def" {
                        Inst::Def(var, value)
                    } else {
                        Inst::Set(var, value)
                    });
                }
            }
        }
    }

    fn include_tag(&mut self, tag: &Tag) {
        let Some(uri) = self.opt_param(tag, "uri") else {
            self.warn(tag.span, "{include} without `uri=` is ignored".into());
            return;
        };
        let ns = self.ns_param(tag);
        let vars: Vec<(Sym, Expr)> = self
            .params(tag)
            .iter()
            .filter(|p| p.name != "uri" && p.name != "name")
            .collect::<Vec<_>>()
            .into_iter()
            .map(|p| (Sym::new(&p.name), self.param_expr(p)))
            .collect();
        self.emit(Inst::Include { uri, ns, vars });
    }
}
