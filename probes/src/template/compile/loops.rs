//! Lowering of the loop tags: `{foreach}`, `{for}`, the legacy
//! `{section}` with its filters and else branch, `{while}` and `{do}`, and
//! the `{break}`/`{continue}`/`{skip}` jumps out of them.

use super::super::ast::{Args, Node, Tag};
use super::super::program::{Expr, Inst, LoopSource, LoopSpec, Sym};
use super::super::value::Value;
use super::{Compiler, LoopLabels, Result};

/// A loop's `{delimiter}`: its body and parameters.
struct Delimiter<'a> {
    body: &'a [Node],
    modulo: Option<Expr>,
    cond: Option<Expr>,
}

impl Compiler<'_> {
    /// Splits out the first `{delimiter}` block of a loop body, with its
    /// `modulo=` and (`section` only, as in the CMS) `match=` parameters.
    fn take_delimiter<'a>(
        &mut self,
        body: impl IntoIterator<Item = &'a Node>,
        section: bool,
    ) -> (Vec<&'a Node>, Option<Delimiter<'a>>) {
        let mut rest = Vec::new();
        let mut delim = None;
        for node in body {
            match node {
                Node::Tag(t) if t.name == "delimiter" && t.known => {
                    if delim.is_some() {
                        self.warn(t.span, "a second {delimiter} is ignored".into());
                        continue;
                    }
                    self.check_params(
                        t,
                        if section {
                            &["modulo", "match"]
                        } else {
                            &["modulo"]
                        },
                    );
                    delim = Some(Delimiter {
                        body: t.body.as_deref().unwrap_or(&[]),
                        modulo: self.opt_param(t, "modulo"),
                        cond: if section {
                            self.opt_param(t, "match")
                        } else {
                            None
                        },
                    });
                }
                other => rest.push(other),
            }
        }
        (rest, delim)
    }

    /// Emits a loop's body with its delimiter and filters, and the loop's
    /// next/end instructions. `start` is the `LoopStart` instruction.
    fn loop_body(
        &mut self,
        start: usize,
        body: &[&Node],
        delim: Option<Delimiter>,
        filters: &[(bool, Expr)],
    ) -> Result<()> {
        self.loops.push(LoopLabels {
            continues: Vec::new(),
            breaks: Vec::new(),
        });
        let body_pc = self.label();
        let mut show = None;
        if !filters.is_empty() {
            for (include, cond) in filters {
                self.emit(Inst::Filter {
                    include: *include,
                    cond: cond.clone(),
                });
            }
            show = Some(self.emit(Inst::Show { next: 0 }));
        }
        if let Some(delim) = delim {
            let d = self.emit(Inst::Delim {
                skip: 0,
                modulo: delim.modulo,
                cond: delim.cond,
            });
            self.nodes(delim.body)?;
            self.patch_here(&[d]);
        }
        for n in body {
            self.node(n)?;
        }
        let labels = self.loops.pop().unwrap_or(LoopLabels {
            continues: Vec::new(),
            breaks: Vec::new(),
        });
        let next_pc = self.label();
        self.patch(start, next_pc);
        if let Some(show) = show {
            self.patch(show, next_pc);
        }
        for &c in &labels.continues {
            self.patch(c, next_pc);
        }
        self.emit(Inst::LoopNext { body: body_pc });
        let end_pc = self.label();
        for &b in &labels.breaks {
            self.patch(b, end_pc);
        }
        self.emit(Inst::LoopEnd);
        Ok(())
    }

    pub(super) fn loop_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        self.check_params(tag, &["max", "offset", "reverse"]);
        let (source, item, key, sequence) = match &tag.args {
            Args::Foreach {
                list,
                key,
                value,
                sequence,
                ..
            } => {
                let list = self.lower.expr(list);
                let sequence = sequence
                    .as_ref()
                    .map(|(values, var)| (self.lower.expr(values), Sym::new(&var.name)));
                (
                    LoopSource::List(list),
                    Sym::new(&value.name),
                    key.as_ref().map(|k| Sym::new(&k.name)),
                    sequence,
                )
            }
            Args::For { from, to, var, .. } => {
                let from = self.lower.expr(from);
                let to = self.lower.expr(to);
                (LoopSource::Range(from, to), Sym::new(&var.name), None, None)
            }
            _ => return Ok(()),
        };
        let (sequence, sequence_name) = sequence.unzip();
        let spec = LoopSpec {
            source,
            section: false,
            ns: None,
            item: Some(item),
            var: None,
            key,
            offset: self.opt_param(tag, "offset"),
            max: self.opt_param(tag, "max"),
            reverse: self.flag(tag, "reverse"),
            sequence,
            sequence_name,
            filtered: false,
            next: 0,
        };
        let start = self.emit(Inst::LoopStart(Box::new(spec)));
        let (rest, delim) = self.take_delimiter(body, false);
        self.loop_body(start, &rest, delim, &[])
    }

    pub(super) fn section_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        self.check_params(
            tag,
            &[
                "loop", "name", "var", "show", "offset", "max", "reverse", "sequence",
            ],
        );
        // Split at {section-else}; collect filters from the main part.
        let mut main = Vec::new();
        let mut else_nodes = Vec::new();
        let mut filters = Vec::new();
        let mut in_else = false;
        for node in body {
            match node {
                Node::Tag(t) if t.name == "section-else" => in_else = true,
                Node::Tag(t)
                    if !in_else && (t.name == "section-exclude" || t.name == "section-include") =>
                {
                    self.check_params(t, &["match"]);
                    let cond = self
                        .opt_param(t, "match")
                        .unwrap_or(Expr::Const(Value::Bool(false)));
                    filters.push((t.name == "section-include", cond));
                }
                other if in_else => else_nodes.push(other),
                other => main.push(other),
            }
        }
        let ns = self.ns_param(tag);
        // As in the CMS, `{section-else}` renders only when `show=` is
        // given and false; an empty or undefined `loop=` shows nothing.
        let show_skip = match self.opt_param(tag, "show") {
            Some(Expr::Const(v)) if !v.truthy() => {
                return self.in_ns(ns, &else_nodes);
            }
            Some(Expr::Const(_)) | None => None,
            Some(cond) => Some(self.emit(Inst::JumpUnless(cond, 0))),
        };
        match self.opt_param(tag, "loop") {
            // {section show=...} without a loop: a conditional block.
            None => self.in_ns(ns.clone(), &main)?,
            Some(list) => {
                let sequence = self.opt_param(tag, "sequence");
                let spec = LoopSpec {
                    source: LoopSource::List(list),
                    section: true,
                    ns: ns.clone(),
                    item: None,
                    var: self.opt_param(tag, "var"),
                    key: None,
                    offset: self.opt_param(tag, "offset"),
                    max: self.opt_param(tag, "max"),
                    reverse: self.flag(tag, "reverse"),
                    sequence_name: sequence.as_ref().map(|_| Sym::new("sequence")),
                    sequence,
                    filtered: !filters.is_empty(),
                    next: 0,
                };
                let start = self.emit(Inst::LoopStart(Box::new(spec)));
                let (rest, delim) = self.take_delimiter(main, true);
                self.loop_body(start, &rest, delim, &filters)?;
            }
        }
        if let Some(skip) = show_skip {
            let end = self.emit(Inst::Jump(0));
            self.patch_here(&[skip]);
            self.in_ns(ns, &else_nodes)?;
            self.patch_here(&[end]);
        }
        Ok(())
    }

    /// Nodes run in the namespace `ns` (inside the current one) if given.
    fn in_ns(&mut self, ns: Option<Sym>, nodes: &[&Node]) -> Result<()> {
        let pushed = ns.is_some();
        if pushed {
            self.emit(Inst::PushLet {
                ns,
                vars: Vec::new(),
                default_only: false,
            });
        }
        for n in nodes {
            self.node(n)?;
        }
        if pushed {
            self.emit(Inst::PopLet);
        }
        Ok(())
    }

    pub(super) fn while_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        let Args::Cond(cond) = &tag.args else {
            return Ok(());
        };
        let cond = self.lower.expr(cond);
        let top = self.label();
        let exit = self.emit(Inst::JumpUnless(cond, 0));
        self.flow_block(body, top, &[exit])
    }

    pub(super) fn do_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        let cond = tag
            .close_args
            .iter()
            .find(|p| p.name == "while")
            .and_then(|p| p.value.as_ref())
            .map(|e| self.lower.expr(e));
        let Some(cond) = cond else {
            self.warn(
                tag.span,
                "{do} without `while=` on its close tag runs once".into(),
            );
            return self.nodes(body);
        };
        let top = self.label();
        self.loops.push(LoopLabels {
            continues: Vec::new(),
            breaks: Vec::new(),
        });
        self.nodes(body)?;
        let labels = self.loops.pop().unwrap_or(LoopLabels {
            continues: Vec::new(),
            breaks: Vec::new(),
        });
        self.patch_here(&labels.continues);
        self.emit(Inst::JumpIf(cond, top));
        self.patch_here(&labels.breaks);
        Ok(())
    }

    /// A `{while}` body: continues go back to `top`, breaks to the exit.
    fn flow_block(&mut self, body: &[Node], top: u32, exits: &[usize]) -> Result<()> {
        self.loops.push(LoopLabels {
            continues: Vec::new(),
            breaks: Vec::new(),
        });
        self.nodes(body)?;
        let labels = self.loops.pop().unwrap_or(LoopLabels {
            continues: Vec::new(),
            breaks: Vec::new(),
        });
        for &c in &labels.continues {
            self.patch(c, top);
        }
        self.emit(Inst::Jump(top));
        self.patch_here(exits);
        self.patch_here(&labels.breaks);
        Ok(())
    }

    pub(super) fn flow_tag(&mut self, tag: &Tag) {
        if self.loops.is_empty() {
            self.warn(
                tag.span,
                format!("{{{}}} outside a loop is ignored", tag.name),
            );
            return;
        }
        let j = self.emit(Inst::Jump(0));
        if let Some(labels) = self.loops.last_mut() {
            if tag.name == "break" {
                labels.breaks.push(j);
            } else {
                labels.continues.push(j);
            }
        }
    }
}
