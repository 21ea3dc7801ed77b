//! Template operators: the names a template may pipe into or call, resolved
//! once at compile time to an [`Op`], and their behaviour.
//!
//! Every operator sees its operands the same way: the piped input (if any)
//! followed by the call's arguments. Unary operators work on the first
//! operand (`$x|upcase` and `upcase($x)` agree); the others take the rest
//! as parameters. Arguments are evaluated lazily, so `cond` and `or` only
//! compute what they return.

mod array;
mod edit;
mod fetch;
mod l10n;
mod locale;
mod logic;
mod markup;
mod math;
mod site;
mod text;
mod types;

use std::borrow::Cow;
use std::path::PathBuf;

pub use fetch::check as check_fetch;
pub use l10n::Locale;
pub use site::Site;
pub use text::{escape_html_into, escape_js_into, escaped_len};
pub use types::Clock;

use super::budget::{Budget, MAX_VALUE_DEPTH};
use super::program::Expr;
use super::value::Value;
use crate::host::{ContentSource, SettingsSource, Translator};
use std::sync::Arc;

macro_rules! ops {
    ($($variant:ident = $name:literal, pure: $pure:literal;)*) => {
        /// A built-in operator.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op { $($variant),* }

        impl Op {
            /// Every operator, in a fixed order (its wire number in the
            /// compiled-template cache).
            pub const ALL: &'static [Op] = &[$(Op::$variant),*];

            /// The operator a template names, or `None` for an unknown one.
            pub fn from_name(name: &str) -> Option<Op> {
                match name {
                    $($name => Some(Op::$variant),)*
                    _ => None,
                }
            }

            pub fn name(self) -> &'static str {
                match self { $(Op::$variant => $name),* }
            }

            /// Whether the result depends on the operands alone, so that a
            /// call with constant operands may be computed at compile time.
            /// Operators that read the site, the locale, the translator or
            /// the settings are not.
            pub fn is_pure(self) -> bool {
                match self { $(Op::$variant => $pure),* }
            }
        }
    };
}

ops! {
    True = "true", pure: true;
    False = "false", pure: true;
    Array = "array", pure: true;
    Hash = "hash", pure: true;
    Wash = "wash", pure: true;
    I18n = "i18n", pure: false;
    L10n = "l10n", pure: false;
    Datetime = "datetime", pure: false;
    Count = "count", pure: true;
    Concat = "concat", pure: true;
    Implode = "implode", pure: true;
    Explode = "explode", pure: true;
    Upcase = "upcase", pure: true;
    Downcase = "downcase", pure: true;
    Upfirst = "upfirst", pure: true;
    Shorten = "shorten", pure: true;
    Nl2br = "nl2br", pure: true;
    Trim = "trim", pure: true;
    Contains = "contains", pure: true;
    BeginsWith = "begins_with", pure: true;
    EndsWith = "ends_with", pure: true;
    Append = "append", pure: true;
    Prepend = "prepend", pure: true;
    Merge = "merge", pure: true;
    Extract = "extract", pure: true;
    Reverse = "reverse", pure: true;
    Int = "int", pure: true;
    Float = "float", pure: true;
    Ceil = "ceil", pure: true;
    Floor = "floor", pure: true;
    Round = "round", pure: true;
    Eq = "eq", pure: true;
    Ne = "ne", pure: true;
    Gt = "gt", pure: true;
    Lt = "lt", pure: true;
    Ge = "ge", pure: true;
    Le = "le", pure: true;
    And = "and", pure: true;
    Or = "or", pure: true;
    Not = "not", pure: true;
    Sum = "sum", pure: true;
    Sub = "sub", pure: true;
    Mul = "mul", pure: true;
    Div = "div", pure: true;
    Mod = "mod", pure: true;
    Inc = "inc", pure: true;
    Dec = "dec", pure: true;
    Min = "min", pure: true;
    Max = "max", pure: true;
    Cond = "cond", pure: true;
    Choose = "choose", pure: true;
    FirstSet = "first_set", pure: true;
    IsSet = "is_set", pure: true;
    IsNull = "is_null", pure: true;
    EzUrl = "ezurl", pure: false;
    EzDesign = "ezdesign", pure: false;
    EzImage = "ezimage", pure: false;
    EzRoot = "ezroot", pure: false;
    EzIni = "ezini", pure: false;
    Attribute = "attribute", pure: true;
    IsArray = "is_array", pure: true;
    IsBoolean = "is_boolean", pure: true;
    IsInteger = "is_integer", pure: true;
    IsFloat = "is_float", pure: true;
    IsNumeric = "is_numeric", pure: true;
    IsString = "is_string", pure: true;
    IsObject = "is_object", pure: true;
    IsClass = "is_class", pure: true;
    IsUnset = "is_unset", pure: true;
    GetType = "get_type", pure: true;
    GetClass = "get_class", pure: true;
    CurrentDate = "currentdate", pure: false;
    Break = "break", pure: true;
    Indent = "indent", pure: true;
    Pad = "pad", pure: true;
    Repeat = "repeat", pure: true;
    Compare = "compare", pure: true;
    Unique = "unique", pure: true;
    ArraySum = "array_sum", pure: true;
    Insert = "insert", pure: true;
    Remove = "remove", pure: true;
    Replace = "replace", pure: true;
    Autolink = "autolink", pure: true;
    Simpletags = "simpletags", pure: false;
    Wordtoimage = "wordtoimage", pure: false;
    Locale = "locale", pure: false;
    Fetch = "fetch", pure: false;
    Treemenu = "treemenu", pure: false;
}

/// What operators may read besides their operands.
pub struct Env<'a> {
    pub translator: Option<&'a dyn Translator>,
    pub settings: Option<&'a dyn SettingsSource>,
    pub site: &'a Site,
    pub locale: &'a Locale,
    /// The design search path, for `ezdesign`/`ezimage`.
    pub designs: &'a [PathBuf],
    /// Where `currentdate` reads the time.
    pub clock: Clock,
    /// The content store `fetch` and `treemenu` read; without one they
    /// yield nothing.
    pub content: Option<&'a Arc<dyn ContentSource>>,
    /// What the render may still make.
    pub budget: &'a Budget,
}

/// An operator's operands: the piped input, then lazily evaluated
/// arguments.
pub struct Operands<'a, 'e> {
    input: Option<Cow<'a, Value>>,
    args: &'a [Expr],
    eval: &'e dyn Fn(&'a Expr) -> Cow<'a, Value>,
}

impl<'a, 'e> Operands<'a, 'e> {
    pub fn new(
        input: Option<Cow<'a, Value>>,
        args: &'a [Expr],
        eval: &'e dyn Fn(&'a Expr) -> Cow<'a, Value>,
    ) -> Self {
        Operands { input, args, eval }
    }

    /// How many operands there are, input included.
    pub fn len(&self) -> usize {
        self.args.len() + usize::from(self.input.is_some())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Operand `i`, input first; null past the end.
    pub fn get(&self, i: usize) -> Cow<'a, Value> {
        match (&self.input, i) {
            (Some(Cow::Borrowed(v)), 0) => Cow::Borrowed(v),
            (Some(Cow::Owned(v)), 0) => Cow::Owned(v.clone()),
            (Some(_), i) => self.arg(i - 1),
            (None, i) => self.arg(i),
        }
    }

    fn arg(&self, i: usize) -> Cow<'a, Value> {
        match self.args.get(i) {
            Some(e) => (self.eval)(e),
            None => Cow::Owned(Value::Null),
        }
    }

    /// The first operand, taken without a copy when it is the input.
    pub fn take_subject(&mut self) -> Cow<'a, Value> {
        match self.input.take() {
            Some(v) => v,
            None => self.arg(0),
        }
    }

    /// The parameters after the subject (for unary operators), given
    /// whether `take_subject` consumed the input.
    pub fn param(&self, i: usize, subject_was_input: bool) -> Option<Cow<'a, Value>> {
        let idx = if subject_was_input { i } else { i + 1 };
        (idx < self.args.len()).then(|| self.arg(idx))
    }

    pub fn has_input(&self) -> bool {
        self.input.is_some()
    }

    /// Every operand, evaluated.
    pub fn all(&self) -> impl Iterator<Item = Cow<'a, Value>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

/// A unary operator's view: its subject and its parameters.
pub struct Unary<'a, 'e, 'o> {
    pub subject: Cow<'a, Value>,
    ops: &'o Operands<'a, 'e>,
    from_input: bool,
}

impl<'a> Unary<'a, '_, '_> {
    pub fn param(&self, i: usize) -> Option<Cow<'a, Value>> {
        self.ops.param(i, self.from_input)
    }

    /// Parameter `i` as text, or `default` when absent or null.
    pub fn text_param(&self, i: usize, default: &str) -> String {
        match self.param(i) {
            Some(v) if !v.is_null() => v.to_text().into_owned(),
            _ => default.to_string(),
        }
    }

    pub fn param_count(&self) -> usize {
        let n = self.ops.args.len();
        if self.from_input {
            n
        } else {
            n.saturating_sub(1)
        }
    }
}

/// Splits operands into a unary operator's subject and parameters.
pub fn unary<'a, 'e, 'o>(ops: &'o mut Operands<'a, 'e>) -> Unary<'a, 'e, 'o> {
    let from_input = ops.has_input();
    let subject = ops.take_subject();
    Unary {
        subject,
        ops,
        from_input,
    }
}

/// `u`, its subject's bytes burnt: for an operator that reads its subject
/// whole and makes little of it (`count`, `contains`), which the byte
/// budget cannot see.
fn scanned<'a, 'e, 'o>(u: Unary<'a, 'e, 'o>, budget: &Budget) -> Unary<'a, 'e, 'o> {
    budget.burn_operand(u.subject.own_bytes());
    u
}

/// Applies `op` to its operands, charging what it made to the render's
/// budget; a result the budget cannot hold, or nested too deeply, is null
/// (and the budget remembers why, for the renderer to stop).
pub fn apply(op: Op, ops: Operands<'_, '_>, env: &Env) -> Value {
    let budget = env.budget;
    let value = apply_unchecked(op, ops, env);
    // Most operators answer a scalar, which costs nothing to keep.
    let made = match &value {
        Value::Str(s) => s.len(),
        Value::Array(_) | Value::Hash(_) if value.depth() > MAX_VALUE_DEPTH => {
            budget.too_deep();
            return Value::Null;
        }
        Value::Array(_) | Value::Hash(_) => value.own_bytes(),
        _ => return value,
    };
    if budget.take(made) {
        value
    } else {
        Value::Null
    }
}

// Inlined: `apply` is its only caller, and the dispatch keeps the
// operators it inlines only inside one function.
#[inline(always)]
fn apply_unchecked(op: Op, mut ops: Operands<'_, '_>, env: &Env) -> Value {
    use Op::*;
    match op {
        True => Value::Bool(true),
        False => Value::Bool(false),
        Array => Value::from(ops.all().map(Cow::into_owned).collect::<Vec<_>>()),
        Hash => logic::hash(&ops, env.budget),
        Eq | Ne | Gt | Lt | Ge | Le => logic::compare(op, &ops, env.budget),
        And => logic::and(&ops),
        Or => logic::or(&ops),
        Not => Value::Bool(!unary(&mut ops).subject.truthy()),
        Cond => logic::cond(&ops),
        Choose => logic::choose(&mut ops),
        FirstSet => logic::first_set(&ops),
        IsSet => Value::Bool(!unary(&mut ops).subject.is_null()),
        IsNull => Value::Bool(unary(&mut ops).subject.is_null()),
        Sum | Sub | Mul | Div | Mod | Min | Max => math::fold(op, &ops),
        Int | Float => math::unary(op, scanned(unary(&mut ops), env.budget)),
        Inc | Dec | Ceil | Floor | Round => math::unary(op, unary(&mut ops)),
        Count => Value::Int(scanned(unary(&mut ops), env.budget).subject.count()),
        Concat => text::concat(&ops, env.budget),
        BeginsWith | EndsWith => text::unary(op, scanned(unary(&mut ops), env.budget), env.budget),
        Contains => array::unary(op, scanned(unary(&mut ops), env.budget), env.budget),
        Wash | Implode | Explode | Upcase | Downcase | Upfirst | Shorten | Nl2br | Trim => {
            text::unary(op, unary(&mut ops), env.budget)
        }
        Append | Prepend | Merge | Extract | Reverse => {
            array::unary(op, unary(&mut ops), env.budget)
        }
        I18n => site::i18n(unary(&mut ops), env),
        L10n => l10n::l10n(unary(&mut ops), env.locale),
        Datetime => l10n::datetime(unary(&mut ops), env.locale),
        EzUrl => site::ezurl(unary(&mut ops), env),
        EzDesign => site::ezdesign(unary(&mut ops), env, ""),
        EzImage => site::ezdesign(unary(&mut ops), env, "images/"),
        EzRoot => site::ezroot(unary(&mut ops), env),
        EzIni => site::ezini(&ops, env),
        Attribute => site::attribute(unary(&mut ops), env.budget),
        IsArray | IsBoolean | IsInteger | IsFloat | IsNumeric | IsString | IsObject | IsClass
        | IsUnset => types::test(op, ops),
        GetType => types::get_type(ops),
        GetClass => types::get_class(ops),
        CurrentDate => Value::Int(env.clock.now()),
        Break | Indent | Pad | Repeat | Compare | Unique | ArraySum | Insert | Remove | Replace => {
            edit::unary(op, unary(&mut ops), env.budget)
        }
        Autolink => markup::autolink(&unary(&mut ops), env.budget),
        Simpletags => markup::simpletags(&unary(&mut ops), env),
        Wordtoimage => markup::wordtoimage(&unary(&mut ops), env),
        Locale => locale::locale(unary(&mut ops), env),
        Fetch => fetch::fetch(&ops, env),
        Treemenu => fetch::treemenu(&ops, env),
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Runs operators on constant operands, for the operator tests.
    use super::*;
    use crate::host::SettingValue;

    pub struct Settings;
    impl SettingsSource for Settings {
        fn setting(&self, file: &str, group: &str, name: &str) -> Option<SettingValue> {
            match (file, group, name) {
                ("site.ini", "SiteSettings", "SiteName") => {
                    Some(SettingValue::Scalar("Demo site".into()))
                }
                ("menu.ini", "Menu", "Items") => {
                    Some(SettingValue::Array(vec!["a".into(), "b".into()]))
                }
                ("menu.ini", "Menu", "Map") => {
                    Some(SettingValue::Hash(vec![("k".into(), "v".into())]))
                }
                _ => None,
            }
        }
    }

    pub struct Dutch;
    impl Translator for Dutch {
        fn translate(&self, context: &str, source: &str, comment: &str) -> Option<&str> {
            match (context, source, comment) {
                ("design/search", "Search", "") => Some("Zoeken"),
                ("design/search", "%1 of %2", "") => Some("%1 van %2"),
                ("design/search", "Hello %name", "") => Some("Hallo %name"),
                ("design/search", "Search", "verb") => Some("Zoek"),
                _ => None,
            }
        }
    }

    /// `op` applied to an optional input and constant arguments.
    pub fn run_with(env: &Env, op: &str, input: Option<Value>, args: &[Value]) -> Value {
        let op = Op::from_name(op).expect("known operator");
        let exprs: Vec<Expr> = args.iter().cloned().map(Expr::Const).collect();
        let eval = crate::template::lower_expr::const_value;
        apply(op, Operands::new(input.map(Cow::Owned), &exprs, &eval), env)
    }

    pub fn with_env<R>(translated: bool, f: impl FnOnce(&Env) -> R) -> R {
        with_settings_env(&Settings, translated, f)
    }

    fn with_settings_env<R>(
        settings: &dyn SettingsSource,
        translated: bool,
        f: impl FnOnce(&Env) -> R,
    ) -> R {
        let site = Site::default();
        let locale = Locale::default();
        let budget = Budget::new(u64::MAX);
        let env = Env {
            translator: translated.then_some(&Dutch as &dyn Translator),
            settings: Some(settings),
            site: &site,
            locale: &locale,
            designs: &[],
            clock: Clock::Fixed(1_700_000_000),
            content: None,
            budget: &budget,
        };
        f(&env)
    }

    struct FnSettings(fn(&str, &str, &str) -> Option<SettingValue>);
    impl SettingsSource for FnSettings {
        fn setting(&self, file: &str, group: &str, name: &str) -> Option<SettingValue> {
            (self.0)(file, group, name)
        }
    }

    /// `input|op(arg)` as text, with the settings `settings` answers.
    pub fn with_env_settings(
        settings: fn(&str, &str, &str) -> Option<SettingValue>,
        op: &str,
        input: Value,
        arg: Option<Value>,
    ) -> String {
        let args: Vec<Value> = arg.into_iter().collect();
        with_settings_env(&FnSettings(settings), false, |env| {
            run_with(env, op, Some(input), &args).to_text().into_owned()
        })
    }

    /// `input|op(args)` as printed text.
    pub fn pipe(op: &str, input: Value, args: &[Value]) -> String {
        with_env(false, |env| {
            run_with(env, op, Some(input), args).to_text().into_owned()
        })
    }

    /// `op(args)` as a value.
    pub fn call(op: &str, args: &[Value]) -> Value {
        with_env(false, |env| run_with(env, op, None, args))
    }

    pub fn s(text: &str) -> Value {
        Value::str(text)
    }

    pub fn arr(items: &[Value]) -> Value {
        Value::from(items.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::Op;

    #[test]
    fn names_round_trip_and_unknown_names_are_none() {
        for &op in Op::ALL {
            assert_eq!(Op::from_name(op.name()), Some(op));
        }
        assert_eq!(Op::from_name("fancy_filter"), None);
        assert!(!Op::Fetch.is_pure() && !Op::Treemenu.is_pure());
        assert!(!Op::I18n.is_pure() && Op::Sum.is_pure());
    }
}
