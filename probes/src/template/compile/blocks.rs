//! Lowering of the tags that shape output rather than control flow:
//! `{set-block}` (render into a variable), `{run-once}` (render a body the
//! first time only) and the view-gui tags (render the template a view mode
//! picks).

use super::super::ast::{Node, Tag};
use super::super::program::{BlockScope, Expr, Inst, Sym, ViewKind};
use super::super::value::Value;
use super::{Compiler, Result};

impl Compiler<'_> {
    /// `{set-block scope=global variable=name}...{/set-block}`.
    pub(super) fn set_block_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        self.check_params(tag, &["variable", "scope", "name"]);
        let name = match self.opt_param(tag, "variable") {
            Some(Expr::Const(v)) if !v.to_text().is_empty() => Some(Sym::new(&v.to_text())),
            Some(_) => {
                self.warn(
                    tag.span,
                    "{set-block} `variable=` must be a constant name; its body renders nothing"
                        .into(),
                );
                None
            }
            None => {
                self.warn(
                    tag.span,
                    "{set-block} without `variable=`: its body renders nothing".into(),
                );
                None
            }
        };
        let scope = match self.opt_param(tag, "scope") {
            None => BlockScope::Relative,
            Some(Expr::Const(v)) => match &*v.to_text() {
                "relative" => BlockScope::Relative,
                "root" => BlockScope::Root,
                "global" => BlockScope::Global,
                other => {
                    self.warn(
                        tag.span,
                        format!("{{set-block}} scope `{other}` is not relative, root or global; relative is used"),
                    );
                    BlockScope::Relative
                }
            },
            Some(_) => {
                self.warn(
                    tag.span,
                    "{set-block} `scope=` must be a constant; relative is used".into(),
                );
                BlockScope::Relative
            }
        };
        // `name=Space` puts the variable in that namespace: `$Space:text`.
        let ns = self.ns_param(tag);
        // The body is captured even without a name, so that it never
        // leaks into the output.
        self.emit(Inst::CaptureStart);
        self.nodes(body)?;
        self.emit(Inst::CaptureEnd {
            name: name.unwrap_or_else(|| Sym::new("")),
            ns,
            scope,
        });
        Ok(())
    }

    /// `{run-once}...{/run-once}`.
    pub(super) fn run_once_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        self.check_params(tag, &[]);
        let at = self.emit(Inst::RunOnce { skip: 0 });
        self.nodes(body)?;
        self.patch_here(&[at]);
        Ok(())
    }

    /// `{cache-block keys=... expiry=... ignore_content_expiry}...{/cache-block}`.
    /// `subtree_expiry` is accepted and has no effect: the store has no
    /// per-subtree expiry.
    pub(super) fn cache_block_tag(&mut self, tag: &Tag, body: &[Node]) -> Result<()> {
        self.check_params(
            tag,
            &["keys", "expiry", "ignore_content_expiry", "subtree_expiry"],
        );
        let keys = self.opt_param(tag, "keys");
        let expiry = self.opt_param(tag, "expiry");
        let ignore_content_expiry = self.param(tag, "ignore_content_expiry").is_some();
        let at = self.emit(Inst::CacheBlock {
            keys,
            expiry,
            ignore_content_expiry,
            end: 0,
        });
        self.nodes(body)?;
        self.emit(Inst::CacheBlockEnd { start: at as u32 });
        self.patch_here(&[at]);
        Ok(())
    }

    /// `{node_view_gui content_node=$node view=line}` and its relatives:
    /// every parameter is handed to the picked template by its own name.
    pub(super) fn view_gui_tag(&mut self, tag: &Tag) {
        let Some(kind) = ViewKind::of_tag(&tag.name) else {
            return;
        };
        let (subject, _) = kind.subject();
        if self.param(tag, subject).is_none() {
            self.warn(
                tag.span,
                format!("{{{}}} without `{subject}=` renders nothing", tag.name),
            );
        }
        let mut params: Vec<(Sym, Expr)> = self
            .params(tag)
            .iter()
            .map(|p| (Sym::new(&p.name), self.param_expr(p)))
            .collect();
        if kind != ViewKind::Attribute && !params.iter().any(|(n, _)| &*n.name == "view") {
            params.push((Sym::new("view"), Expr::Const(Value::str("full"))));
        }
        self.emit(Inst::ViewGui { kind, params });
    }
}
