//! A compiled template: a flat instruction list with jumps, where every
//! name is already resolved (operators to [`Op`], variables to hashed
//! [`Sym`]bols) and constant sub-expressions are already computed.
//!
//! Flat code keeps rendering a tight loop over a slice and makes the
//! program trivially serialisable for the compiled-template cache; only
//! expressions stay trees, as they are small.

use std::sync::Arc;

use super::ast::Scope;
use super::error::Warning;
use super::ops::Op;
use super::value::Value;

/// A resolved name: the text plus a precomputed hash, so variable lookups
/// compare one integer before they ever compare text.
#[derive(Clone, Debug)]
pub struct Sym {
    pub name: Arc<str>,
    pub hash: u64,
}

impl Sym {
    pub fn new(name: &str) -> Sym {
        Sym {
            hash: fnv1a(name.as_bytes()),
            name: Arc::from(name),
        }
    }
}

impl PartialEq for Sym {
    fn eq(&self, other: &Sym) -> bool {
        self.hash == other.hash && self.name == other.name
    }
}

/// 64-bit FNV-1a: stable across runs and builds, unlike the std hasher,
/// which matters because symbols are rebuilt from cached programs.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A variable reference as written: scope, namespace path, name.
#[derive(Clone, Debug, PartialEq)]
pub struct VarRef {
    pub scope: Scope,
    pub ns: Vec<Sym>,
    pub name: Sym,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Const(Value),
    Var(VarRef),
    Access(Box<Expr>, Vec<Access>),
    /// An operator: `input|op(args)` or `op(args)` (no input). Empty
    /// arguments are `Const(Null)`.
    Op {
        op: Op,
        input: Option<Box<Expr>>,
        args: Vec<Expr>,
    },
    /// An operator this engine does not know: evaluates to null.
    Unknown,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Access {
    Name(Arc<str>),
    Index(Expr),
}

/// How `{case}` tests the switch value.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseTest {
    /// `match=expr`: loose equality.
    Match(Expr),
    /// `in=array(...)`: membership.
    In(Expr),
}

/// What a loop walks.
#[derive(Clone, Debug, PartialEq)]
pub enum LoopSource {
    /// An array or hash (or, for sections, a count).
    List(Expr),
    /// `{for a to b}`: inclusive, counting down when `b < a`.
    Range(Expr, Expr),
}

/// Everything a loop needs at its start.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopSpec {
    pub source: LoopSource,
    /// Legacy `{section}`: binds `item`, `key`, `index`, `number` (and
    /// `sequence`) in a namespace instead of named loop variables.
    pub section: bool,
    /// The section's namespace (`name=`), relative to the current one.
    pub ns: Option<Sym>,
    /// Foreach/for: the value variable.
    pub item: Option<Sym>,
    /// Section `var=`: the name (computed, as `var=$v` may give it) of the
    /// one variable that holds an iterator instead of `item`, `key`, ...
    pub var: Option<Expr>,
    /// Foreach over a hash: the key variable.
    pub key: Option<Sym>,
    pub offset: Option<Expr>,
    pub max: Option<Expr>,
    pub reverse: bool,
    /// Section `sequence=array(...)` or foreach `sequence array(...) as
    /// $style`: values handed out in turn, one per shown item.
    pub sequence: Option<Expr>,
    /// The variable the sequence value is bound to (`sequence` for a
    /// section, the `as` variable for a foreach).
    pub sequence_name: Option<Sym>,
    /// Whether section filters decide which items are shown.
    pub filtered: bool,
    /// The `LoopNext` instruction of this loop.
    pub next: u32,
}

/// Where HTML-escaping output goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escape {
    Html,
    Javascript,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    Text(Arc<str>),
    Print(Expr),
    /// `{expr|wash}` fused: escapes straight into the output.
    PrintEscaped(Expr, Escape),
    Def(VarRef, Expr),
    Set(VarRef, Expr),
    Undef(VarRef),
    /// `{undef}`: every variable this template defined.
    UndefAll,
    Jump(u32),
    JumpUnless(Expr, u32),
    JumpIf(Expr, u32),
    /// Jumps to the first matching case, else to `default`.
    Switch {
        subject: Expr,
        cases: Vec<(CaseTest, u32)>,
        default: u32,
    },
    LoopStart(Box<LoopSpec>),
    /// Advances the innermost loop: binds the next item and jumps to
    /// `body`, or falls through when done.
    LoopNext {
        body: u32,
    },
    /// Pops the innermost loop.
    LoopEnd,
    /// `{section-exclude match=...}` / `{section-include match=...}`.
    Filter {
        include: bool,
        cond: Expr,
    },
    /// After the filters: skip to `next` when the item is excluded.
    Show {
        next: u32,
    },
    /// Starts the delimiter: skipped before the first shown item, when
    /// `cond` (a section delimiter's `match=`) is false, or when the
    /// item's index is not a multiple of `modulo`.
    Delim {
        skip: u32,
        modulo: Option<Expr>,
        cond: Option<Expr>,
    },
    /// `{let}` / `{default}`: binds variables until `PopLet`.
    PushLet {
        ns: Option<Sym>,
        vars: Vec<(Sym, Expr)>,
        default_only: bool,
    },
    PopLet,
    Include {
        uri: Expr,
        ns: Option<Sym>,
        vars: Vec<(Sym, Expr)>,
    },
    /// `{set-block}`: output from here on is captured until `CaptureEnd`.
    CaptureStart,
    /// Ends the innermost capture and stores its text in `name`.
    CaptureEnd {
        name: Sym,
        /// `name=`: the namespace (inside the scope's) the variable goes in.
        ns: Option<Sym>,
        scope: BlockScope,
    },
    /// `{run-once}`: jumps to `skip` when this instruction already ran
    /// during this render.
    RunOnce {
        skip: u32,
    },
    /// `{cache-block}`: writes the block's stored output and jumps to `end`
    /// when the file cache has it fresh; otherwise the body renders and
    /// `CacheBlockEnd` stores what it wrote. Without a file cache the body
    /// just renders.
    CacheBlock {
        /// `keys=`: a value or an array that tells the block's variants
        /// apart (the page's node, the user's language).
        keys: Option<Expr>,
        /// `expiry=`: seconds a stored output stays fresh (0: until the
        /// content changes).
        expiry: Option<Expr>,
        /// `ignore_content_expiry`: content changes do not make it stale.
        ignore_content_expiry: bool,
        end: u32,
    },
    /// Ends the `{cache-block}` whose `CacheBlock` is at `start`.
    CacheBlockEnd {
        start: u32,
    },
    /// `{node_view_gui}`, `{content_view_gui}`, `{attribute_view_gui}`:
    /// renders the template the view mode (and datatype) picks, with the
    /// tag's parameters in scope.
    ViewGui {
        kind: ViewKind,
        params: Vec<(Sym, Expr)>,
    },
}

/// Where `{set-block}` stores its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockScope {
    /// The current namespace (the default).
    Relative,
    /// The template's root namespace: the one it was started in.
    Root,
    /// The global namespace, where it outlives the template.
    Global,
}

/// Which view-gui tag: it decides the template directory and the
/// parameter that holds the subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewKind {
    Node,
    Content,
    Attribute,
}

impl ViewKind {
    /// The kind a view-gui tag's name stands for.
    pub fn of_tag(name: &str) -> Option<ViewKind> {
        match name {
            "node_view_gui" => Some(ViewKind::Node),
            "content_view_gui" => Some(ViewKind::Content),
            "attribute_view_gui" => Some(ViewKind::Attribute),
            _ => None,
        }
    }

    /// The tag parameter that holds the subject, and the name the picked
    /// template sees it under (`$node`, `$object`, `$attribute`).
    pub fn subject(self) -> (&'static str, &'static str) {
        match self {
            ViewKind::Node => ("content_node", "node"),
            ViewKind::Content => ("content_object", "object"),
            ViewKind::Attribute => ("attribute", "attribute"),
        }
    }
}

/// A compiled template.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub file: String,
    pub code: Vec<Inst>,
    /// Line and column of the tag each instruction came from.
    pub positions: Vec<(u32, u32)>,
    /// What compiling noticed (unknown operators and tags, ignored
    /// parameters); kept with the program so a cached one still reports it.
    pub warnings: Vec<Warning>,
}

impl Program {
    pub fn position(&self, pc: usize) -> (u32, u32) {
        self.positions.get(pc).copied().unwrap_or((0, 0))
    }
}
