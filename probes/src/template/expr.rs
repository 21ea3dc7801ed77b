//! Parses the expressions and parameter lists inside tags.
//!
//! A cursor walks a byte range of the template source, so every node gets
//! an absolute span and errors point at the exact character. There are no
//! infix operators: an expression is a value followed by `|operator(...)`
//! pipes, which keeps the grammar small and the parser a plain
//! recursive descent with a depth limit (hostile nesting gives an error,
//! not a stack overflow). The limit counts the depth of the tree built,
//! not of the calls made: a chain of pipes is parsed in a loop but nests
//! one node per pipe, and every later pass (lowering, folding, dropping)
//! walks that tree recursively.

use super::ast::{Access, Args, Assign, Expr, ExprKind, Param, Scope, VarName};
use super::error::Span;
use super::lexer::{LexError, is_ident_byte};

/// Deeper nesting than any design needs; guards the recursion.
pub const MAX_DEPTH: u32 = 64;

pub struct Cursor<'s> {
    src: &'s str,
    pos: usize,
    end: usize,
    depth: u32,
}

type Result<T> = std::result::Result<T, LexError>;

fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T> {
    Err(LexError {
        offset,
        message: message.into(),
    })
}

impl<'s> Cursor<'s> {
    /// A cursor over `span` of `src`.
    pub fn new(src: &'s str, span: Span) -> Cursor<'s> {
        Cursor {
            src,
            pos: span.start as usize,
            end: (span.end as usize).min(src.len()),
            depth: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        (self.pos < self.end).then(|| self.src.as_bytes()[self.pos])
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        (self.pos + n < self.end).then(|| self.src.as_bytes()[self.pos + n])
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    pub fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.end
    }

    fn ident(&mut self) -> Option<(String, Span)> {
        let start = self.pos;
        while self.peek().is_some_and(is_ident_byte) {
            self.pos += 1;
        }
        (self.pos > start).then(|| {
            (
                self.src[start..self.pos].to_string(),
                Span::new(start, self.pos),
            )
        })
    }

    /// The character at the cursor, for messages.
    fn here(&self) -> String {
        match self.src[self.pos.min(self.end)..self.end].chars().next() {
            Some(c) => format!("`{c}`"),
            None => "the end of the tag".to_string(),
        }
    }

    /// Fails unless the whole range was consumed.
    pub fn expect_end(&mut self, what: &str) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            fail(self.pos, format!("unexpected {} after {what}", self.here()))
        }
    }

    /// One level deeper in the tree being built.
    fn descend(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return fail(
                self.pos,
                format!(
                    "expression nested too deeply (more than {MAX_DEPTH} levels, pipes included)"
                ),
            );
        }
        Ok(())
    }

    /// `primary (| name (args)?)*`
    pub fn expr(&mut self) -> Result<Expr> {
        let entry = self.depth;
        self.descend()?;
        let mut value = self.primary()?;
        loop {
            let save = self.pos;
            self.skip_ws();
            if self.peek() != Some(b'|') {
                self.pos = save;
                break;
            }
            self.pos += 1;
            // Each pipe wraps everything before it: one level more, for
            // the pipe and for its arguments.
            self.descend()?;
            self.skip_ws();
            let Some((name, name_span)) = self.ident() else {
                return fail(
                    self.pos,
                    format!("expected an operator name after `|`, found {}", self.here()),
                );
            };
            let args = if self.peek() == Some(b'(') {
                self.args()?
            } else {
                Vec::new()
            };
            let span = Span::new(value.span.start as usize, self.pos);
            value = Expr {
                kind: ExprKind::Pipe {
                    input: Box::new(value),
                    name,
                    name_span,
                    args,
                },
                span,
            };
            // `$path|explode('/').1`, `$lang|locale().intl_language_name`:
            // attribute and index access may follow a pipe.
            value = self.access_chain(value)?;
        }
        self.depth = entry;
        Ok(value)
    }

    fn primary(&mut self) -> Result<Expr> {
        self.skip_ws();
        let start = self.pos;
        let base = match self.peek() {
            Some(b'$') => {
                let var = self.var()?;
                Expr {
                    span: var.span,
                    kind: ExprKind::Var(var),
                }
            }
            Some(q @ (b'\'' | b'"')) => self.string(q)?,
            Some(b) if b.is_ascii_digit() => self.number()?,
            Some(b'-') if self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) => self.number()?,
            Some(b'(') => {
                self.pos += 1;
                let inner = self.expr()?;
                self.skip_ws();
                if self.peek() != Some(b')') {
                    return fail(self.pos, format!("expected `)`, found {}", self.here()));
                }
                self.pos += 1;
                inner
            }
            Some(b) if is_ident_byte(b) => {
                let (name, name_span) = self.ident().unwrap_or_default();
                if self.peek() == Some(b'(') {
                    let args = self.args()?;
                    Expr {
                        kind: ExprKind::Call {
                            name,
                            name_span,
                            args,
                        },
                        span: Span::new(start, self.pos),
                    }
                } else {
                    Expr {
                        kind: ExprKind::Word(name),
                        span: name_span,
                    }
                }
            }
            _ => {
                return fail(
                    self.pos,
                    format!("expected an expression, found {}", self.here()),
                );
            }
        };
        self.access_chain(base)
    }

    /// `.name` and `[expr]` after a variable, a call or a pipe.
    fn access_chain(&mut self, base: Expr) -> Result<Expr> {
        if !matches!(
            base.kind,
            ExprKind::Var(_) | ExprKind::Call { .. } | ExprKind::Pipe { .. }
        ) {
            return Ok(base);
        }
        let mut path = Vec::new();
        loop {
            match self.peek() {
                Some(b'.') if self.peek_at(1).is_some_and(is_ident_byte) => {
                    self.pos += 1;
                    let (name, _) = self.ident().unwrap_or_default();
                    path.push(Access::Name(name));
                }
                Some(b'.') if self.peek_at(1) == Some(b'$') => {
                    self.pos += 1;
                    let var = self.var()?;
                    path.push(Access::Index(Expr {
                        span: var.span,
                        kind: ExprKind::Var(var),
                    }));
                }
                Some(b'.') => {
                    return fail(
                        self.pos + 1,
                        "expected an attribute name after `.`".to_string(),
                    );
                }
                Some(b'[') => {
                    self.pos += 1;
                    let index = self.expr()?;
                    self.skip_ws();
                    if self.peek() != Some(b']') {
                        return fail(self.pos, format!("expected `]`, found {}", self.here()));
                    }
                    self.pos += 1;
                    path.push(Access::Index(index));
                }
                _ => break,
            }
        }
        if path.is_empty() {
            return Ok(base);
        }
        self.descend()?;
        let span = Span::new(base.span.start as usize, self.pos);
        Ok(Expr {
            kind: ExprKind::Access {
                base: Box::new(base),
                path,
            },
            span,
        })
    }

    /// `$name`, `$ns:name`, `$:name`, `$#name`.
    fn var(&mut self) -> Result<VarName> {
        let start = self.pos;
        self.pos += 1; // '$'
        let scope = match self.peek() {
            Some(b'#') => {
                self.pos += 1;
                Scope::Global
            }
            Some(b':') => {
                self.pos += 1;
                Scope::Local
            }
            _ => Scope::Relative,
        };
        let mut parts = Vec::new();
        loop {
            let Some((part, _)) = self.ident() else {
                return fail(
                    self.pos,
                    format!("expected a variable name, found {}", self.here()),
                );
            };
            parts.push(part);
            if self.peek() == Some(b':') && self.peek_at(1).is_some_and(is_ident_byte) {
                self.pos += 1;
            } else {
                break;
            }
        }
        let name = parts.pop().unwrap_or_default();
        Ok(VarName {
            scope,
            ns: parts,
            name,
            span: Span::new(start, self.pos),
        })
    }

    fn string(&mut self, quote: u8) -> Result<Expr> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            let Some(b) = self.peek() else {
                return fail(start, "unterminated string");
            };
            if b == quote {
                out.push_str(&self.src[run..self.pos]);
                self.pos += 1;
                break;
            }
            if b == b'\\' {
                out.push_str(&self.src[run..self.pos]);
                let escaped = match self.peek_at(1) {
                    Some(b'n') => Some('\n'),
                    Some(b'r') => Some('\r'),
                    Some(b't') => Some('\t'),
                    Some(b'\'') => Some('\''),
                    Some(b'"') => Some('"'),
                    Some(b'\\') => Some('\\'),
                    // `\}` is the tag-level escape for a brace.
                    Some(b'}') => Some('}'),
                    _ => None,
                };
                match escaped {
                    Some(c) => {
                        out.push(c);
                        self.pos += 2;
                    }
                    None => {
                        out.push('\\');
                        self.pos += 1;
                    }
                }
                run = self.pos;
                continue;
            }
            self.pos += 1;
        }
        Ok(Expr {
            kind: ExprKind::Str(out),
            span: Span::new(start, self.pos),
        })
    }

    /// `-? digits (. digits)?`; integers too large for 64 bits become floats.
    fn number(&mut self) -> Result<Expr> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let digits = |c: &mut Cursor| {
            while c.peek().is_some_and(|b| b.is_ascii_digit()) {
                c.pos += 1;
            }
        };
        digits(self);
        let mut float = false;
        if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            float = true;
            self.pos += 1;
            digits(self);
        }
        let text = &self.src[start..self.pos];
        let span = Span::new(start, self.pos);
        let kind = match (float, text.parse::<i64>()) {
            (false, Ok(i)) => ExprKind::Int(i),
            _ => match text.parse::<f64>() {
                Ok(f) => ExprKind::Float(f),
                Err(_) => return fail(start, format!("bad number `{text}`")),
            },
        };
        if self
            .peek()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        {
            return fail(
                self.pos,
                format!("unexpected {} after a number", self.here()),
            );
        }
        Ok(Expr { kind, span })
    }

    /// `( arg, arg, ... )` where an empty argument is null.
    fn args(&mut self) -> Result<Vec<Option<Expr>>> {
        let open = self.pos;
        self.pos += 1;
        let mut args = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(args);
        }
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b',') | Some(b')') => args.push(None),
                None => return fail(open, "unclosed `(`: no `)` follows"),
                _ => args.push(Some(self.expr()?)),
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b')') => {
                    self.pos += 1;
                    return Ok(args);
                }
                None => return fail(open, "unclosed `(`: no `)` follows"),
                _ => {
                    return fail(
                        self.pos,
                        format!("expected `,` or `)`, found {}", self.here()),
                    );
                }
            }
        }
    }

    /// `name=expr` and bare `name` items up to the end of the range.
    pub fn params(&mut self) -> Result<Vec<Param>> {
        self.params_with(false)
    }

    /// Parameters whose names may carry a leading `$`, as `{let $a=1}` and
    /// `{default $a=1}` are written in real designs; the `$` is dropped.
    pub fn var_params(&mut self) -> Result<Vec<Param>> {
        self.params_with(true)
    }

    fn params_with(&mut self, dollar: bool) -> Result<Vec<Param>> {
        let mut params = Vec::new();
        while !self.at_end() {
            params.push(self.param(dollar)?);
        }
        Ok(params)
    }

    /// One `name=expr` or bare `name` (with an optional leading `$` when
    /// `dollar`).
    fn param(&mut self, dollar: bool) -> Result<Param> {
        if dollar && self.peek() == Some(b'$') && self.peek_at(1).is_some_and(is_ident_byte) {
            self.pos += 1;
        }
        let Some((name, span)) = self.ident() else {
            return fail(
                self.pos,
                format!("expected a parameter name, found {}", self.here()),
            );
        };
        let value = self.assigned_value()?;
        Ok(Param { name, span, value })
    }

    /// `= expr` after a parameter or variable name, if present.
    fn assigned_value(&mut self) -> Result<Option<Expr>> {
        let save = self.pos;
        self.skip_ws();
        if self.peek() == Some(b'=') && self.peek_at(1) != Some(b'>') {
            self.pos += 1;
            Ok(Some(self.expr()?))
        } else {
            self.pos = save;
            if self.pos < self.end && !self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
                return fail(
                    self.pos,
                    format!("expected `=` or a space, found {}", self.here()),
                );
            }
            Ok(None)
        }
    }

    /// `$a=expr $b=expr` (def/set), `$a $b` (undef). The legacy spelling
    /// without `$` is accepted too.
    pub fn assigns(&mut self) -> Result<Vec<Assign>> {
        let mut out = Vec::new();
        while !self.at_end() {
            let var = self.var_or_word()?;
            let value = self.assigned_value()?;
            out.push(Assign { var, value });
        }
        Ok(out)
    }

    fn var_or_word(&mut self) -> Result<VarName> {
        if self.peek() == Some(b'$') {
            return self.var();
        }
        match self.ident() {
            Some((name, span)) => Ok(VarName {
                scope: Scope::Relative,
                ns: Vec::new(),
                name,
                span,
            }),
            None => fail(
                self.pos,
                format!("expected a variable, found {}", self.here()),
            ),
        }
    }

    fn keyword(&mut self, word: &str) -> Result<()> {
        self.skip_ws();
        let start = self.pos;
        match self.ident() {
            Some((w, _)) if w == word => Ok(()),
            _ => fail(
                start,
                format!("expected `{word}`, found {}", {
                    self.pos = start;
                    self.here()
                }),
            ),
        }
    }

    fn loop_var(&mut self) -> Result<VarName> {
        self.skip_ws();
        if self.peek() != Some(b'$') {
            return fail(
                self.pos,
                format!("expected a loop variable, found {}", self.here()),
            );
        }
        self.var()
    }

    /// `$list as $value` or `$hash as $key => $value`, then parameters,
    /// among which `sequence array(...) as $style` (no `=`: it binds a
    /// variable of its own, like the loop does).
    pub fn foreach(&mut self) -> Result<Args> {
        let list = self.expr()?;
        self.keyword("as")?;
        let first = self.loop_var()?;
        self.skip_ws();
        let (key, value) = if self.peek() == Some(b'=') && self.peek_at(1) == Some(b'>') {
            self.pos += 2;
            (Some(first), self.loop_var()?)
        } else {
            (None, first)
        };
        let mut params = Vec::new();
        let mut sequence = None;
        while !self.at_end() {
            let start = self.pos;
            // A byte check first, so ordinary parameters cost no extra
            // allocation.
            let word = self.src.as_bytes()[start..self.end]
                .strip_prefix(b"sequence")
                .is_some_and(|rest| rest.first().is_none_or(|&b| !is_ident_byte(b)));
            if word {
                self.pos += "sequence".len();
                self.skip_ws();
                if self.peek() != Some(b'=') && !self.at_end() {
                    if sequence.is_some() {
                        return fail(start, "a second `sequence` in one {foreach}");
                    }
                    let values = self.expr()?;
                    self.keyword("as")?;
                    sequence = Some((values, self.loop_var()?));
                    continue;
                }
                self.pos = start;
            }
            params.push(self.param(false)?);
        }
        Ok(Args::Foreach {
            list,
            key,
            value,
            params,
            sequence,
        })
    }

    /// `from to to as $var`, then parameters.
    pub fn for_range(&mut self) -> Result<Args> {
        let from = self.expr()?;
        self.keyword("to")?;
        let to = self.expr()?;
        self.keyword("as")?;
        let var = self.loop_var()?;
        let params = self.params()?;
        Ok(Args::For {
            from,
            to,
            var,
            params,
        })
    }

    pub fn pos(&self) -> usize {
        self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Expr> {
        let mut c = Cursor::new(src, Span::new(0, src.len()));
        let e = c.expr()?;
        c.expect_end("the expression")?;
        Ok(e)
    }

    /// A compact rendering of the tree.
    fn show(e: &Expr) -> String {
        let args = |a: &[Option<Expr>]| {
            a.iter()
                .map(|x| x.as_ref().map_or("_".to_string(), show))
                .collect::<Vec<_>>()
                .join(",")
        };
        match &e.kind {
            ExprKind::Str(s) => format!("{s:?}"),
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Float(f) => format!("{f:?}"),
            ExprKind::Word(w) => format!("w:{w}"),
            ExprKind::Var(v) => format!("${:?}{}:{}", v.scope, v.ns.join(":"), v.name),
            ExprKind::Call { name, args: a, .. } => format!("{name}({})", args(a)),
            ExprKind::Access { base, path } => {
                let mut s = show(base);
                for p in path {
                    match p {
                        Access::Name(n) => s += &format!(".{n}"),
                        Access::Index(i) => s += &format!("[{}]", show(i)),
                    }
                }
                s
            }
            ExprKind::Pipe {
                input,
                name,
                args: a,
                ..
            } => format!("{}|{name}({})", show(input), args(a)),
        }
    }

    fn ok(src: &str) -> String {
        show(&parse(src).unwrap())
    }

    #[test]
    fn variables_with_scopes_and_paths() {
        assert_eq!(ok("$a"), "$Relative:a");
        assert_eq!(ok("$ns:a"), "$Relativens:a");
        assert_eq!(ok("$:a"), "$Local:a");
        assert_eq!(ok("$#a"), "$Global:a");
        assert_eq!(
            ok("$node.object.data_map[$k].content"),
            "$Relative:node.object.data_map[$Relative:k].content"
        );
        assert_eq!(ok("$a[0]"), "$Relative:a[0]");
    }

    #[test]
    fn literals_and_escapes() {
        assert_eq!(ok(r#"'it\'s\n\x'"#), r#""it's\n\\x""#);
        assert_eq!(ok(r#""a\"b\\""#), r#""a\"b\\""#);
        assert_eq!(ok(r"'a\}'"), r#""a}""#);
        assert_eq!(ok("-12"), "-12");
        assert_eq!(ok("3.25"), "3.25");
        assert_eq!(ok("99999999999999999999"), "1e20");
    }

    #[test]
    fn pipes_calls_and_empty_arguments() {
        assert_eq!(ok("$x|wash|shorten(30)"), "$Relative:x|wash()|shorten(30)");
        assert_eq!(
            ok("i18n('t',,array(1, $b))"),
            "i18n(\"t\",_,array(1,$Relative:b))"
        );
        assert_eq!(
            ok("concat($a, '/')|ezurl"),
            "concat($Relative:a,\"/\")|ezurl()"
        );
        assert_eq!(ok("attribute(show)"), "attribute(w:show)");
        assert_eq!(ok("f()"), "f()");
        assert_eq!(ok("f(1,)"), "f(1,_)");
        assert_eq!(ok("$a | wash"), "$Relative:a|wash()");
    }

    #[test]
    fn errors_point_at_the_culprit() {
        let at = |s: &str| parse(s).unwrap_err().offset;
        assert_eq!(at("'abc"), 0);
        assert_eq!(at("$a|"), 3);
        assert_eq!(at("$"), 1);
        assert_eq!(at("f(1, 2"), 1);
        assert_eq!(at("f(1 2)"), 4);
        assert_eq!(at("$a."), 3);
        assert_eq!(at("1.2.3"), 3);
        assert_eq!(at("$a b"), 3);
        assert_eq!(at("12ab"), 2);
        let deep = "f(".repeat(100) + &")".repeat(100);
        assert!(parse(&deep).unwrap_err().message.contains("too deeply"));
    }

    #[test]
    fn parameters_and_loops() {
        let src = "loop=$list name=Item reverse max = 3";
        let mut c = Cursor::new(src, Span::new(0, src.len()));
        let p = c.params().unwrap();
        let names: Vec<_> = p
            .iter()
            .map(|p| (p.name.as_str(), p.value.is_some()))
            .collect();
        assert_eq!(
            names,
            [
                ("loop", true),
                ("name", true),
                ("reverse", false),
                ("max", true)
            ]
        );
        let src = "$h as $k => $v offset=1";
        let mut c = Cursor::new(src, Span::new(0, src.len()));
        match c.foreach().unwrap() {
            Args::Foreach {
                key, value, params, ..
            } => {
                assert_eq!(key.unwrap().name, "k");
                assert_eq!(value.name, "v");
                assert_eq!(params.len(), 1);
            }
            other => panic!("{other:?}"),
        }
        let src = "0 to $n as";
        let mut c = Cursor::new(src, Span::new(0, src.len()));
        assert_eq!(c.for_range().unwrap_err().offset, 10);
    }
}
