//! Lowers expressions: operator names become [`Op`]s, variables become
//! hashed symbols, and calls of pure operators on constants are computed
//! once here instead of on every render.

use std::borrow::Cow;

use super::ast::{self, ExprKind, VarName};
use super::budget::Budget;
use super::engine::Limits;
use super::error::{Span, Warning};
use super::ops::{self, Env, Locale, Op, Operands, Site};
use super::program::{Access, Expr, Sym, VarRef};
use super::value::Value;

/// Collects warnings while lowering; knows the template for positions.
pub struct ExprLowering<'t> {
    pub template: &'t ast::Template,
    pub warnings: Vec<Warning>,
}

impl ExprLowering<'_> {
    pub fn warn(&mut self, span: Span, message: String) {
        let (line, column) = self.template.position(span);
        self.warnings.push(Warning {
            file: self.template.file.clone(),
            line,
            column,
            message,
        });
    }

    pub fn var(&self, v: &VarName) -> VarRef {
        VarRef {
            scope: v.scope,
            ns: v.ns.iter().map(|s| Sym::new(s)).collect(),
            name: Sym::new(&v.name),
        }
    }

    pub fn expr(&mut self, e: &ast::Expr) -> Expr {
        match &e.kind {
            ExprKind::Str(s) => Expr::Const(Value::str(s)),
            ExprKind::Int(i) => Expr::Const(Value::Int(*i)),
            ExprKind::Float(f) => Expr::Const(Value::Float(*f)),
            ExprKind::Word(w) => Expr::Const(Value::str(w)),
            ExprKind::Var(v) => Expr::Var(self.var(v)),
            ExprKind::Call {
                name,
                name_span,
                args,
            } => self.op(name, *name_span, None, args),
            ExprKind::Pipe {
                input,
                name,
                name_span,
                args,
            } => {
                let input = self.expr(input);
                self.op(name, *name_span, Some(input), args)
            }
            ExprKind::Access { base, path } => {
                let base = self.expr(base);
                let path: Vec<Access> = path
                    .iter()
                    .map(|a| match a {
                        ast::Access::Name(n) => Access::Name(n.as_str().into()),
                        ast::Access::Index(i) => Access::Index(self.expr(i)),
                    })
                    .collect();
                fold_access(base, path)
            }
        }
    }

    fn op(
        &mut self,
        name: &str,
        name_span: Span,
        input: Option<Expr>,
        args: &[Option<ast::Expr>],
    ) -> Expr {
        let Some(op) = Op::from_name(name) else {
            self.warn(
                name_span,
                format!("unknown operator `{name}`: it renders nothing"),
            );
            return Expr::Unknown;
        };
        let args: Vec<Expr> = args
            .iter()
            .map(|a| match a {
                Some(e) => self.expr(e),
                None => Expr::Const(Value::Null),
            })
            .collect();
        if op == Op::Fetch && input.is_none() {
            let constant = |i: usize| match args.get(i) {
                Some(Expr::Const(v)) => Some(v),
                _ => None,
            };
            if let Some(message) = ops::check_fetch(constant(0), constant(1), constant(2)) {
                self.warn(name_span, message);
            }
        }
        fold_op(op, input, args)
    }
}

fn is_const(e: &Expr) -> bool {
    matches!(e, Expr::Const(_))
}

/// Computes a pure operator on constant operands; anything else is kept.
pub fn fold_op(op: Op, input: Option<Expr>, args: Vec<Expr>) -> Expr {
    let foldable = op.is_pure() && input.as_ref().is_none_or(is_const) && args.iter().all(is_const);
    if !foldable {
        return Expr::Op {
            op,
            input: input.map(Box::new),
            args,
        };
    }
    let eval = const_value;
    let operand = match &input {
        Some(Expr::Const(v)) => Some(Cow::Borrowed(v)),
        _ => None,
    };
    // Pure operators never read these; they exist to satisfy the signature.
    let site = Site::default();
    let locale = Locale::default();
    // What a render may make at most; a fold that would make more is left
    // for the render, which stops there with a positioned error.
    let budget = Budget::new(Limits::default().max_bytes);
    let env = Env {
        budget: &budget,
        translator: None,
        settings: None,
        site: &site,
        locale: &locale,
        designs: &[],
        clock: ops::Clock::System,
        content: None,
    };
    let value = ops::apply(op, Operands::new(operand, &args, &eval), &env);
    if budget.overspent().is_some() {
        return Expr::Op {
            op,
            input: input.map(Box::new),
            args,
        };
    }
    Expr::Const(value)
}

/// The value of a constant operand (the only kind folding sees).
pub fn const_value(e: &Expr) -> Cow<'_, Value> {
    match e {
        Expr::Const(v) => Cow::Borrowed(v),
        _ => Cow::Owned(Value::Null),
    }
}

/// `array(1, 2).1` and the like, on constants.
fn fold_access(base: Expr, path: Vec<Access>) -> Expr {
    let all_const = is_const(&base)
        && path.iter().all(|a| match a {
            Access::Name(_) => true,
            Access::Index(i) => is_const(i),
        });
    let Expr::Const(mut value) = base else {
        return Expr::Access(Box::new(base), path);
    };
    if !all_const {
        return Expr::Access(Box::new(Expr::Const(value)), path);
    }
    for a in &path {
        let next = match a {
            Access::Name(n) => value.attr(n).map(Cow::into_owned),
            Access::Index(Expr::Const(k)) => value.index(k).map(Cow::into_owned),
            Access::Index(_) => None,
        };
        value = next.unwrap_or_default();
    }
    Expr::Const(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::expr::Cursor;
    use crate::template::parser::parse;

    fn lower(src: &str) -> (Expr, Vec<Warning>) {
        let t = parse("x.tpl", "").unwrap();
        let mut c = Cursor::new(src, Span::new(0, src.len()));
        let e = c.expr().unwrap();
        let mut l = ExprLowering {
            template: &ast::Template {
                source: src.to_string(),
                lines: crate::template::error::LineIndex::new(src),
                ..t
            },
            warnings: Vec::new(),
        };
        let out = l.expr(&e);
        (out, l.warnings)
    }

    #[test]
    fn pure_constant_calls_fold() {
        assert_eq!(lower("sum(1, mul(2, 3))").0, Expr::Const(Value::Int(7)));
        assert_eq!(
            lower("'a'|upcase|concat('b')").0,
            Expr::Const(Value::str("Ab"))
        );
        assert_eq!(lower("array(4, 5).1").0, Expr::Const(Value::Int(5)));
        assert_eq!(lower("hash('k', 'v')['k']").0, Expr::Const(Value::str("v")));
    }

    #[test]
    fn impure_or_variable_operands_stay() {
        assert!(matches!(
            lower("'Search'|i18n('ctx')").0,
            Expr::Op { op: Op::I18n, .. }
        ));
        assert!(matches!(
            lower("sum($a, 1)").0,
            Expr::Op { op: Op::Sum, .. }
        ));
        assert!(matches!(
            lower("'/a'|ezurl").0,
            Expr::Op { op: Op::EzUrl, .. }
        ));
    }

    #[test]
    fn unknown_operator_warns_with_position() {
        let (e, w) = lower("$x|wash|fancy_filter(1)");
        assert_eq!(e, Expr::Unknown);
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].line, w[0].column), (1, 9));
        assert!(w[0].message.contains("unknown operator `fancy_filter`"));
        assert_eq!(
            w[0].to_string(),
            "x.tpl:1:9: warning: unknown operator `fancy_filter`: it renders nothing"
        );
    }
}
