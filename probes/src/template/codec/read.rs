//! Reading the binary form back. Every length is checked against the
//! bytes left before anything is allocated, nesting is bounded, and any
//! inconsistency is an error value, never a panic.

use std::sync::Arc;

use super::super::ast::Scope;
use super::super::error::Warning;
use super::super::ops::Op;
use super::super::program::{
    Access, BlockScope, CaseTest, Escape, Expr, Inst, LoopSource, LoopSpec, Program, Sym, VarRef,
    ViewKind,
};
use super::super::value::{Map, Value};

/// Deeper nesting than the compiler produces.
const MAX_DEPTH: u32 = 256;

pub fn decode(bytes: &[u8]) -> Result<Program, String> {
    let mut r = Reader {
        buf: bytes,
        pos: 0,
        depth: 0,
    };
    let file = r.str()?;
    let n = r.len(1)?;
    let mut code = Vec::with_capacity(n);
    for _ in 0..n {
        code.push(r.inst()?);
    }
    let n = r.len(8)?;
    let mut positions = Vec::with_capacity(n);
    for _ in 0..n {
        positions.push((r.u32()?, r.u32()?));
    }
    let n = r.len(16)?;
    let mut warnings = Vec::with_capacity(n);
    for _ in 0..n {
        warnings.push(Warning {
            file: r.str()?,
            line: r.u32()?,
            column: r.u32()?,
            message: r.str()?,
        });
    }
    if r.pos != bytes.len() {
        return Err(format!("{} trailing bytes", bytes.len() - r.pos));
    }
    Ok(Program {
        file,
        code,
        positions,
        warnings,
    })
}

struct Reader<'b> {
    buf: &'b [u8],
    pos: usize,
    depth: u32,
}

type R<T> = Result<T, String>;

impl Reader<'_> {
    fn take(&mut self, n: usize) -> R<&[u8]> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.buf.len());
        match end {
            Some(end) => {
                let s = &self.buf[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(format!("truncated at byte {}", self.pos)),
        }
    }
    fn u8(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> R<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> R<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    /// A count of items each at least `min_size` bytes long; refuses
    /// counts the remaining input cannot hold.
    fn len(&mut self, min_size: usize) -> R<usize> {
        let n = self.u32()? as usize;
        if n.saturating_mul(min_size.max(1)) > self.buf.len() - self.pos {
            return Err(format!("count {n} exceeds the data at byte {}", self.pos));
        }
        Ok(n)
    }
    fn bool(&mut self) -> R<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(format!("bad flag {b} at byte {}", self.pos - 1)),
        }
    }
    fn str(&mut self) -> R<String> {
        let n = self.len(1)?;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| format!("bad UTF-8 before byte {}", self.pos))
    }
    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("nesting too deep".into());
        }
        Ok(())
    }

    fn value(&mut self) -> R<Value> {
        self.enter()?;
        let v = match self.u8()? {
            0 => Value::Null,
            1 => Value::Bool(self.bool()?),
            2 => Value::Int(self.u64()? as i64),
            3 => Value::Float(f64::from_bits(self.u64()?)),
            4 => Value::from(self.str()?),
            5 => {
                let n = self.len(1)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value()?);
                }
                Value::from(items)
            }
            6 => {
                let n = self.len(5)?;
                let mut map = Map::with_capacity(n);
                for _ in 0..n {
                    let k = self.str()?;
                    map.insert(k, self.value()?);
                }
                Value::from(map)
            }
            t => return Err(format!("bad value tag {t} at byte {}", self.pos - 1)),
        };
        self.depth -= 1;
        Ok(v)
    }

    fn sym(&mut self) -> R<Sym> {
        Ok(Sym::new(&self.str()?))
    }

    fn opt_sym(&mut self) -> R<Option<Sym>> {
        Ok(if self.bool()? {
            Some(self.sym()?)
        } else {
            None
        })
    }

    fn var(&mut self) -> R<VarRef> {
        let scope = match self.u8()? {
            0 => Scope::Relative,
            1 => Scope::Local,
            2 => Scope::Global,
            t => return Err(format!("bad scope {t}")),
        };
        let n = self.len(4)?;
        let mut ns = Vec::with_capacity(n);
        for _ in 0..n {
            ns.push(self.sym()?);
        }
        Ok(VarRef {
            scope,
            ns,
            name: self.sym()?,
        })
    }

    fn expr(&mut self) -> R<Expr> {
        self.enter()?;
        let e = match self.u8()? {
            0 => Expr::Const(self.value()?),
            1 => Expr::Var(self.var()?),
            2 => {
                let base = self.expr()?;
                let n = self.len(2)?;
                let mut path = Vec::with_capacity(n);
                for _ in 0..n {
                    path.push(match self.u8()? {
                        0 => Access::Name(Arc::from(self.str()?)),
                        1 => Access::Index(self.expr()?),
                        t => return Err(format!("bad access tag {t}")),
                    });
                }
                Expr::Access(Box::new(base), path)
            }
            3 => {
                let i = self.u8()? as usize;
                let op = *Op::ALL.get(i).ok_or(format!("bad operator {i}"))?;
                let input = self.opt_expr()?.map(Box::new);
                let args = self.exprs()?;
                Expr::Op { op, input, args }
            }
            4 => Expr::Unknown,
            t => return Err(format!("bad expression tag {t} at byte {}", self.pos - 1)),
        };
        self.depth -= 1;
        Ok(e)
    }

    fn opt_expr(&mut self) -> R<Option<Expr>> {
        Ok(if self.bool()? {
            Some(self.expr()?)
        } else {
            None
        })
    }

    fn exprs(&mut self) -> R<Vec<Expr>> {
        let n = self.len(1)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn named(&mut self) -> R<Vec<(Sym, Expr)>> {
        let n = self.len(5)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push((self.sym()?, self.expr()?));
        }
        Ok(v)
    }

    fn inst(&mut self) -> R<Inst> {
        Ok(match self.u8()? {
            0 => Inst::Text(Arc::from(self.str()?)),
            1 => Inst::Print(self.expr()?),
            2 => {
                let e = self.expr()?;
                let js = self.bool()?;
                Inst::PrintEscaped(e, if js { Escape::Javascript } else { Escape::Html })
            }
            3 => Inst::Def(self.var()?, self.expr()?),
            4 => Inst::Set(self.var()?, self.expr()?),
            5 => Inst::Undef(self.var()?),
            6 => Inst::UndefAll,
            7 => Inst::Jump(self.u32()?),
            8 => Inst::JumpUnless(self.expr()?, self.u32()?),
            9 => Inst::JumpIf(self.expr()?, self.u32()?),
            10 => {
                let subject = self.expr()?;
                let n = self.len(6)?;
                let mut cases = Vec::with_capacity(n);
                for _ in 0..n {
                    let test = match self.u8()? {
                        0 => CaseTest::Match(self.expr()?),
                        1 => CaseTest::In(self.expr()?),
                        t => return Err(format!("bad case tag {t}")),
                    };
                    cases.push((test, self.u32()?));
                }
                Inst::Switch {
                    subject,
                    cases,
                    default: self.u32()?,
                }
            }
            11 => {
                let source = match self.u8()? {
                    0 => LoopSource::List(self.expr()?),
                    1 => LoopSource::Range(self.expr()?, self.expr()?),
                    t => return Err(format!("bad loop source {t}")),
                };
                Inst::LoopStart(Box::new(LoopSpec {
                    source,
                    section: self.bool()?,
                    ns: self.opt_sym()?,
                    item: self.opt_sym()?,
                    var: self.opt_expr()?,
                    key: self.opt_sym()?,
                    offset: self.opt_expr()?,
                    max: self.opt_expr()?,
                    reverse: self.bool()?,
                    sequence: self.opt_expr()?,
                    sequence_name: self.opt_sym()?,
                    filtered: self.bool()?,
                    next: self.u32()?,
                }))
            }
            12 => Inst::LoopNext { body: self.u32()? },
            13 => Inst::LoopEnd,
            14 => Inst::Filter {
                include: self.bool()?,
                cond: self.expr()?,
            },
            15 => Inst::Show { next: self.u32()? },
            16 => Inst::Delim {
                skip: self.u32()?,
                modulo: self.opt_expr()?,
                cond: self.opt_expr()?,
            },
            17 => Inst::PushLet {
                ns: self.opt_sym()?,
                vars: self.named()?,
                default_only: self.bool()?,
            },
            18 => Inst::PopLet,
            19 => Inst::Include {
                uri: self.expr()?,
                ns: self.opt_sym()?,
                vars: self.named()?,
            },
            20 => Inst::CaptureStart,
            21 => Inst::CaptureEnd {
                name: self.sym()?,
                ns: self.opt_sym()?,
                scope: match self.u8()? {
                    0 => BlockScope::Relative,
                    1 => BlockScope::Root,
                    2 => BlockScope::Global,
                    t => return Err(format!("bad block scope {t}")),
                },
            },
            22 => Inst::RunOnce { skip: self.u32()? },
            23 => Inst::ViewGui {
                kind: match self.u8()? {
                    0 => ViewKind::Node,
                    1 => ViewKind::Content,
                    2 => ViewKind::Attribute,
                    t => return Err(format!("bad view kind {t}")),
                },
                params: self.named()?,
            },
            24 => Inst::CacheBlock {
                keys: self.opt_expr()?,
                expiry: self.opt_expr()?,
                ignore_content_expiry: self.bool()?,
                end: self.u32()?,
            },
            25 => Inst::CacheBlockEnd { start: self.u32()? },
            t => return Err(format!("bad instruction tag {t} at byte {}", self.pos - 1)),
        })
    }
}
