//! The syntax tree of a template, as written, with a source span on every
//! node so that the compiler's warnings and the renderer's errors can point
//! back into the file.

use super::error::{LineIndex, Span};

/// A parsed template.
#[derive(Clone, Debug)]
pub struct Template {
    pub file: String,
    pub source: String,
    pub lines: LineIndex,
    pub nodes: Vec<Node>,
}

impl Template {
    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        self.source
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// Line and column of a span's start.
    pub fn position(&self, span: Span) -> (u32, u32) {
        self.lines.position(&self.source, span.start)
    }
}

#[derive(Clone, Debug)]
pub enum Node {
    /// Literal text (a source range, already trimmed by the whitespace rule).
    Text(Span),
    /// `{ldelim}` / `{rdelim}`.
    Brace(char),
    /// `{expr}`.
    Output(Box<Expr>),
    Tag(Box<Tag>),
}

/// A function tag, with its body when it is a block.
#[derive(Clone, Debug)]
pub struct Tag {
    pub name: String,
    /// The whole opening tag.
    pub span: Span,
    pub args: Args,
    /// The nodes between the opening and the closing tag; `None` for a
    /// bodiless function. Intermediate tags (`{else}`, `{case}`,
    /// `{section-else}`, ...) stay in the body where they were written.
    pub body: Option<Vec<Node>>,
    /// Parameters on the closing tag (`{/do while=$x}`).
    pub close_args: Vec<Param>,
    /// Whether the engine knows this function tag.
    pub known: bool,
}

/// A tag's arguments, in the shape its function expects.
#[derive(Clone, Debug)]
pub enum Args {
    /// `{if cond}`, `{elseif cond}`, `{while cond}`. Named parameters
    /// after the condition (`{if $list name=List loop=$list}`, legacy
    /// leftovers) are parsed and dropped, as the CMS ignores them.
    Cond(Expr),
    /// `name=expr` and bare `name` items.
    Params(Vec<Param>),
    /// `{def $a=1 $b=2}`, `{set ...}`, `{undef $a}`.
    Vars(Vec<Assign>),
    /// `{foreach $list as $key => $value max=3}`, with an optional
    /// `sequence array(...) as $style`: the values and their variable.
    Foreach {
        list: Expr,
        key: Option<VarName>,
        value: VarName,
        params: Vec<Param>,
        sequence: Option<(Expr, VarName)>,
    },
    /// `{for 0 to 9 as $i}`.
    For {
        from: Expr,
        to: Expr,
        var: VarName,
        params: Vec<Param>,
    },
    /// An unknown function's arguments, kept unparsed: extensions have
    /// syntaxes of their own.
    Raw(Span),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub span: Span,
    /// `None` for a bare `name`, which means true.
    pub value: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct Assign {
    pub var: VarName,
    pub value: Option<Expr>,
}

/// Where a variable name is looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `$name`, `$ns:name`: the current namespace, then the enclosing ones.
    Relative,
    /// `$:name`: the current namespace only.
    Local,
    /// `$#name`: the global namespace.
    Global,
}

#[derive(Clone, Debug, PartialEq)]
pub struct VarName {
    pub scope: Scope,
    /// Namespace segments before the name (`$Outer:Inner:item`).
    pub ns: Vec<String>,
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Str(String),
    Int(i64),
    Float(f64),
    /// A bare identifier used as a value (`attribute(show)`): its text.
    Word(String),
    Var(VarName),
    /// `name(args)`: an operator called as a function, or a literal
    /// constructor (`array`, `hash`, `true`, `false`). `None` arguments are
    /// empty ones, which mean null.
    Call {
        name: String,
        name_span: Span,
        args: Vec<Option<Expr>>,
    },
    /// `base.name`, `base[expr]`.
    Access {
        base: Box<Expr>,
        path: Vec<Access>,
    },
    /// `input|name(args)`.
    Pipe {
        input: Box<Expr>,
        name: String,
        name_span: Span,
        args: Vec<Option<Expr>>,
    },
}

#[derive(Clone, Debug)]
pub enum Access {
    Name(String),
    Index(Expr),
}
