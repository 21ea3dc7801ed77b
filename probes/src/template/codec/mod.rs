//! The binary form of a [`Program`], as stored in the compiled-template
//! cache. Little-endian fixed-width integers, length-prefixed UTF-8 text,
//! one tag byte per variant. The decoder treats its input as hostile:
//! every length is checked against the bytes left, nesting is bounded, and
//! any inconsistency is an error value.

use super::ast::Scope;
use super::ops::Op;
use super::program::{
    Access, BlockScope, CaseTest, Escape, Expr, Inst, LoopSource, Program, Sym, VarRef, ViewKind,
};
use super::value::Value;

/// Bumped whenever the encoding or the instruction set changes, so that
/// caches written by another build are recompiled.
pub const FORMAT_VERSION: u16 = 4;

mod read;

pub use read::decode;

pub fn encode(p: &Program) -> Vec<u8> {
    let mut w = Writer(Vec::with_capacity(4096));
    w.str(&p.file);
    w.len(p.code.len());
    for inst in &p.code {
        w.inst(inst);
    }
    w.len(p.positions.len());
    for &(l, c) in &p.positions {
        w.u32(l);
        w.u32(c);
    }
    w.len(p.warnings.len());
    for wn in &p.warnings {
        w.str(&wn.file);
        w.u32(wn.line);
        w.u32(wn.column);
        w.str(&wn.message);
    }
    w.0
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, b: u8) {
        self.0.push(b);
    }
    fn u32(&mut self, n: u32) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    fn str(&mut self, s: &str) {
        self.len(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
    fn bool(&mut self, b: bool) {
        self.u8(u8::from(b));
    }

    fn value(&mut self, v: &Value) {
        match v {
            // Objects never occur in constants (only literals fold).
            Value::Null | Value::Object(_) => self.u8(0),
            Value::Bool(b) => {
                self.u8(1);
                self.bool(*b);
            }
            Value::Int(i) => {
                self.u8(2);
                self.0.extend_from_slice(&i.to_le_bytes());
            }
            Value::Float(f) => {
                self.u8(3);
                self.0.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Value::Str(s) => {
                self.u8(4);
                self.str(s);
            }
            Value::Array(a) => {
                self.u8(5);
                self.len(a.len());
                a.iter().for_each(|x| self.value(x));
            }
            Value::Hash(h) => {
                self.u8(6);
                self.len(h.len());
                for (k, x) in h.iter() {
                    self.str(k);
                    self.value(x);
                }
            }
        }
    }

    fn sym(&mut self, s: &Sym) {
        self.str(&s.name);
    }

    fn opt_sym(&mut self, s: &Option<Sym>) {
        self.bool(s.is_some());
        if let Some(s) = s {
            self.sym(s);
        }
    }

    fn var(&mut self, v: &VarRef) {
        self.u8(match v.scope {
            Scope::Relative => 0,
            Scope::Local => 1,
            Scope::Global => 2,
        });
        self.len(v.ns.len());
        v.ns.iter().for_each(|s| self.sym(s));
        self.sym(&v.name);
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Const(v) => {
                self.u8(0);
                self.value(v);
            }
            Expr::Var(v) => {
                self.u8(1);
                self.var(v);
            }
            Expr::Access(base, path) => {
                self.u8(2);
                self.expr(base);
                self.len(path.len());
                for a in path {
                    match a {
                        Access::Name(n) => {
                            self.u8(0);
                            self.str(n);
                        }
                        Access::Index(i) => {
                            self.u8(1);
                            self.expr(i);
                        }
                    }
                }
            }
            Expr::Op { op, input, args } => {
                self.u8(3);
                let index = Op::ALL.iter().position(|o| o == op).unwrap_or(0);
                self.u8(index as u8);
                self.opt_expr(input.as_deref());
                self.exprs(args);
            }
            Expr::Unknown => self.u8(4),
        }
    }

    fn opt_expr(&mut self, e: Option<&Expr>) {
        self.bool(e.is_some());
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn exprs(&mut self, es: &[Expr]) {
        self.len(es.len());
        es.iter().for_each(|e| self.expr(e));
    }

    fn named(&mut self, vars: &[(Sym, Expr)]) {
        self.len(vars.len());
        for (s, e) in vars {
            self.sym(s);
            self.expr(e);
        }
    }

    fn inst(&mut self, inst: &Inst) {
        match inst {
            Inst::Text(t) => {
                self.u8(0);
                self.str(t);
            }
            Inst::Print(e) => {
                self.u8(1);
                self.expr(e);
            }
            Inst::PrintEscaped(e, mode) => {
                self.u8(2);
                self.expr(e);
                self.bool(*mode == Escape::Javascript);
            }
            Inst::Def(v, e) | Inst::Set(v, e) => {
                self.u8(if matches!(inst, Inst::Def(..)) { 3 } else { 4 });
                self.var(v);
                self.expr(e);
            }
            Inst::Undef(v) => {
                self.u8(5);
                self.var(v);
            }
            Inst::UndefAll => self.u8(6),
            Inst::Jump(t) => {
                self.u8(7);
                self.u32(*t);
            }
            Inst::JumpUnless(e, t) | Inst::JumpIf(e, t) => {
                self.u8(if matches!(inst, Inst::JumpUnless(..)) {
                    8
                } else {
                    9
                });
                self.expr(e);
                self.u32(*t);
            }
            Inst::Switch {
                subject,
                cases,
                default,
            } => {
                self.u8(10);
                self.expr(subject);
                self.len(cases.len());
                for (test, target) in cases {
                    match test {
                        CaseTest::Match(e) => {
                            self.u8(0);
                            self.expr(e);
                        }
                        CaseTest::In(e) => {
                            self.u8(1);
                            self.expr(e);
                        }
                    }
                    self.u32(*target);
                }
                self.u32(*default);
            }
            Inst::LoopStart(spec) => {
                self.u8(11);
                match &spec.source {
                    LoopSource::List(e) => {
                        self.u8(0);
                        self.expr(e);
                    }
                    LoopSource::Range(a, b) => {
                        self.u8(1);
                        self.expr(a);
                        self.expr(b);
                    }
                }
                self.bool(spec.section);
                self.opt_sym(&spec.ns);
                self.opt_sym(&spec.item);
                self.opt_expr(spec.var.as_ref());
                self.opt_sym(&spec.key);
                self.opt_expr(spec.offset.as_ref());
                self.opt_expr(spec.max.as_ref());
                self.bool(spec.reverse);
                self.opt_expr(spec.sequence.as_ref());
                self.opt_sym(&spec.sequence_name);
                self.bool(spec.filtered);
                self.u32(spec.next);
            }
            Inst::LoopNext { body } => {
                self.u8(12);
                self.u32(*body);
            }
            Inst::LoopEnd => self.u8(13),
            Inst::Filter { include, cond } => {
                self.u8(14);
                self.bool(*include);
                self.expr(cond);
            }
            Inst::Show { next } => {
                self.u8(15);
                self.u32(*next);
            }
            Inst::Delim { skip, modulo, cond } => {
                self.u8(16);
                self.u32(*skip);
                self.opt_expr(modulo.as_ref());
                self.opt_expr(cond.as_ref());
            }
            Inst::PushLet {
                ns,
                vars,
                default_only,
            } => {
                self.u8(17);
                self.opt_sym(ns);
                self.named(vars);
                self.bool(*default_only);
            }
            Inst::PopLet => self.u8(18),
            Inst::Include { uri, ns, vars } => {
                self.u8(19);
                self.expr(uri);
                self.opt_sym(ns);
                self.named(vars);
            }
            Inst::CaptureStart => self.u8(20),
            Inst::CaptureEnd { name, ns, scope } => {
                self.u8(21);
                self.sym(name);
                self.opt_sym(ns);
                self.u8(match scope {
                    BlockScope::Relative => 0,
                    BlockScope::Root => 1,
                    BlockScope::Global => 2,
                });
            }
            Inst::RunOnce { skip } => {
                self.u8(22);
                self.u32(*skip);
            }
            Inst::CacheBlock {
                keys,
                expiry,
                ignore_content_expiry,
                end,
            } => {
                self.u8(24);
                self.opt_expr(keys.as_ref());
                self.opt_expr(expiry.as_ref());
                self.bool(*ignore_content_expiry);
                self.u32(*end);
            }
            Inst::CacheBlockEnd { start } => {
                self.u8(25);
                self.u32(*start);
            }
            Inst::ViewGui { kind, params } => {
                self.u8(23);
                self.u8(match kind {
                    ViewKind::Node => 0,
                    ViewKind::Content => 1,
                    ViewKind::Attribute => 2,
                });
                self.named(params);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template::compile::compile;
    use proptest::prelude::*;

    const SAMPLE: &str = "{def $n=sum($a, 1) $l=array(1, 'x', hash('k', 2.5))}\
        {foreach $items as $k => $v max=2 offset=1 reverse}{delimiter},{/delimiter}{$v.name|wash}{/foreach}\
        {section loop=$l name=S sequence=array('a','b')}{section-exclude match=$:index|eq(1)}{$S:item}{section-else}none{/section}\
        {switch match=$n}{case match=1}one{/case}{case in=array(2,3)}few{/case}{case}many{/case}{/switch}\
        {let name=L x=1}{$L:x}{/let}{default y=2}{$y}{/default}{while $n|lt(3)}{set $n=inc($n)}{/while}\
        {do}{break}{/do while=false()}{for 1 to 3 as $i}{continue}{/for}{include uri='design:x.tpl' name=I v=1}\
        {$x|wash('javascript')}{$y.a[$z]}{$q|unknown_op}{undef $n}{undef}\
        {foreach $l as $e sequence array('odd','even') as $s}{$s}{/foreach}{section var=v loop=2}{$v}{/section}\
        {set-block scope=global variable=b}x{/set-block}{run-once}y{/run-once}\
        {node_view_gui content_node=$n view=line}{content_view_gui content_object=$o}{attribute_view_gui attribute=$a}";

    #[test]
    fn round_trip_preserves_every_instruction() {
        let p = compile("sample.tpl", SAMPLE).unwrap();
        let bytes = encode(&p);
        let back = decode(&bytes).unwrap();
        assert_eq!(back, p);
        assert!(!p.warnings.is_empty());
    }

    #[test]
    fn truncations_and_bad_tags_are_errors() {
        let p = compile("sample.tpl", SAMPLE).unwrap();
        let bytes = encode(&p);
        for cut in [0, 1, 5, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(decode(&extra).unwrap_err().contains("trailing"));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn decoding_garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = decode(&bytes);
        }

        #[test]
        fn flipping_bytes_never_panics(pos in 0usize..4096, byte in any::<u8>()) {
            let p = compile("sample.tpl", SAMPLE).unwrap();
            let mut bytes = encode(&p);
            let i = pos % bytes.len();
            bytes[i] = byte;
            let _ = decode(&bytes);
        }
    }
}
