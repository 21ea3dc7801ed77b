//! Templates run from inside another: `{include}` and the view-gui tags
//! share one path that loads, checks the nesting budget and binds the
//! handed-over variables.

use super::super::budget::{INCLUDE_FUEL, Overspent};
use super::super::error::TemplateError;
use super::super::ops::Env;
use super::super::program::{Expr, Program, Sym, ViewKind};
use super::super::scope::Slot;
use super::super::value::Value;
use super::{Renderer, eval};

impl Renderer<'_> {
    pub(super) fn include(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
        uri: &Expr,
        ns: Option<&Sym>,
        vars: &[(Sym, Expr)],
    ) -> Result<(), TemplateError> {
        let uri = eval(&self.scope, env, uri).to_text().into_owned();
        let values = self.values(env, vars);
        self.run_template(program, pc, &uri, true, ns, values)
    }

    /// Evaluates a tag's `name=expr` parameters.
    fn values<'s>(&self, env: &Env, vars: &'s [(Sym, Expr)]) -> Vec<(&'s Sym, Value)> {
        vars.iter()
            .map(|(name, e)| (name, eval(&self.scope, env, e).into_owned()))
            .collect()
    }

    /// Runs the template `uri` with `values` bound in the namespace `ns`
    /// (inside the current one) or in the current namespace, then unbinds
    /// them. A missing template is an error when `required`, else renders
    /// nothing; errors are placed at the tag (`program`, `pc`).
    fn run_template(
        &mut self,
        program: &Program,
        pc: usize,
        uri: &str,
        required: bool,
        ns: Option<&Sym>,
        values: Vec<(&Sym, Value)>,
    ) -> Result<(), TemplateError> {
        let included = match self.engine.find(uri) {
            Some(loaded) => loaded,
            None if !required => return Ok(()),
            None => self.engine.load(uri),
        };
        if self.depth >= self.engine.limits.max_include_depth {
            return Err(self.error(
                program,
                pc,
                format!("`{uri}` nested too deeply (an include cycle?)"),
            ));
        }
        let included = included
            .map_err(|e| self.error(program, pc, format!("cannot include `{uri}`: {e}")))?;
        let fuel = INCLUDE_FUEL.saturating_add(included.code.len() as u64);
        if !self.budget.burn(fuel) {
            return Err(self.error(program, pc, Overspent::message_of(self.budget)));
        }
        if let Some(ns) = ns {
            self.scope.push_ns(ns);
        }
        let cur = self.scope.current();
        let slots: Vec<Slot> = values
            .into_iter()
            .map(|(name, v)| self.scope.define(cur, name, v))
            .collect();
        self.depth += 1;
        let result = self.run(&included);
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
    pub(super) fn view_gui(
        &mut self,
        program: &Program,
        pc: usize,
        env: &Env,
        kind: ViewKind,
        params: &[(Sym, Expr)],
    ) -> Result<(), TemplateError> {
        let (subject_param, subject_name) = kind.subject();
        let subject_sym = Sym::new(subject_name);
        let mut values = self.values(env, params);
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
        if uri.ends_with("/.tpl") {
            return Ok(());
        }
        values.push((&subject_sym, subject));
        self.run_template(program, pc, &uri, false, None, values)
    }
}
