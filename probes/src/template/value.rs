//! The values templates compute with.
//!
//! Designs were written against PHP's loose typing, so the conversions here
//! follow it where a design would notice: `false` prints as nothing, `"3"`
//! counts as a number, floats print with 14 significant digits. Composite
//! values sit behind `Arc`, so passing a 40-item list into a loop or an
//! include costs a reference count, not a copy.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// A host object reached through attributes (`$node.object.name`), the way
/// the kernel exposes content nodes to templates without converting them.
pub trait Object: Send + Sync + fmt::Debug {
    /// The attribute `name`, or `None` when the object has no such attribute.
    fn attribute(&self, name: &str) -> Option<Value>;
    /// Every attribute name, in display order (for `attribute(show)`).
    fn attribute_names(&self) -> Vec<String>;
    /// The class name `get_class` and `is_class` see; empty by default.
    fn class_name(&self) -> String {
        String::new()
    }
    /// What `{$object}` prints; nothing by default.
    fn to_text(&self) -> String {
        String::new()
    }
    /// The value a proxy object stands for when a variable holding it is
    /// used whole (`{$it}`, `$it|wash`), while `$it.name` still asks the
    /// object: the CMS's `{section var=}` iterator. `None` by default.
    fn proxy(&self) -> Option<&Value> {
        None
    }
}

/// A template value.
#[derive(Clone, Debug, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Arc<str>),
    Array(Arc<List>),
    Hash(Arc<Map>),
    Object(Arc<dyn Object>),
}

/// An ordered string-keyed map: designs iterate hashes in insertion order.
///
/// Lookups scan linearly: template hashes hold a handful of keys, where a
/// scan beats hashing.
#[derive(Clone, Debug, Default)]
pub struct Map {
    entries: Vec<(Arc<str>, Value)>,
    /// As [`List::depth`]: an upper bound, since an overwritten key may
    /// have held the deepest value.
    depth: u32,
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.entries == other.entries
    }
}

/// An array's elements and how deeply they nest, kept beside them so that
/// building an array learns its depth from its elements without walking
/// them (a walk of shared elements can take exponential time).
#[derive(Clone, Debug, Default)]
pub struct List {
    items: Vec<Value>,
    depth: u32,
}

impl PartialEq for List {
    fn eq(&self, other: &List) -> bool {
        self.items == other.items
    }
}

impl std::ops::Deref for List {
    type Target = Vec<Value>;

    fn deref(&self) -> &Vec<Value> {
        &self.items
    }
}

impl List {
    /// Levels of arrays and hashes, this one included.
    pub fn depth(&self) -> u32 {
        self.depth
    }
}

impl Map {
    pub fn new() -> Self {
        Map::default()
    }

    pub fn with_capacity(n: usize) -> Self {
        Map {
            entries: Vec::with_capacity(n),
            depth: 1,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| &**k == key)
            .map(|(_, v)| v)
    }

    /// Sets `key`, keeping its first position when it already exists.
    pub fn insert(&mut self, key: impl Into<Arc<str>>, value: Value) {
        let key = key.into();
        self.depth = self.depth.max(value.depth().saturating_add(1));
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.entries.push((key, value)),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Levels of arrays and hashes, this one included.
    pub fn depth(&self) -> u32 {
        self.depth.max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&Arc<str>, &Value)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn entry_at(&self, i: usize) -> Option<(&Arc<str>, &Value)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }
}

impl PartialEq for Value {
    /// Strict structural equality (for tests and folding); the template
    /// operators use [`loose_eq`] instead.
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Hash(a), Value::Hash(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(Arc::from(s))
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(Arc::from(s))
    }
}
impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Int(n)
    }
}
impl From<i32> for Value {
    fn from(n: i32) -> Self {
        Value::Int(i64::from(n))
    }
}
impl From<f64> for Value {
    fn from(n: f64) -> Self {
        Value::Float(n)
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<Vec<Value>> for List {
    fn from(items: Vec<Value>) -> Self {
        let depth = 1 + items.iter().map(Value::depth).max().unwrap_or(0);
        List { items, depth }
    }
}
impl FromIterator<Value> for List {
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Self {
        List::from(iter.into_iter().collect::<Vec<_>>())
    }
}
impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Value::Array(Arc::new(List::from(items)))
    }
}
impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Value::Hash(Arc::new(m))
    }
}

/// A number as arithmetic sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    pub fn into_value(self) -> Value {
        match self {
            Num::Int(i) => Value::Int(i),
            Num::Float(f) => Value::Float(f),
        }
    }
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::from(s)
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Levels of arrays and hashes: 0 for a scalar, 1 for a flat array.
    pub fn depth(&self) -> u32 {
        match self {
            Value::Array(l) => l.depth(),
            Value::Hash(m) => m.depth(),
            _ => 0,
        }
    }

    /// The bytes this value holds itself, not counting the values it
    /// shares with others: what an operator made when it returned it.
    pub fn own_bytes(&self) -> usize {
        match self {
            Value::Str(s) => s.len(),
            Value::Array(l) => l.len() * std::mem::size_of::<Value>(),
            Value::Hash(m) => m.len() * std::mem::size_of::<(Arc<str>, Value)>(),
            _ => 0,
        }
    }

    /// An upper bound of the bytes [`Value::write_text`] would write, known
    /// without writing them (objects name themselves in a few bytes).
    pub fn text_bytes(&self) -> usize {
        match self {
            Value::Str(s) => s.len(),
            Value::Int(_) | Value::Float(_) => 32,
            Value::Bool(_) => 1,
            Value::Object(_) => 256,
            _ => 0,
        }
    }

    /// PHP truthiness: empty strings, `"0"`, zero, empty arrays and null
    /// are false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty() && &**s != "0",
            Value::Array(a) => !a.is_empty(),
            Value::Hash(h) => !h.is_empty(),
            Value::Object(_) => true,
        }
    }

    /// The number this value stands for; non-numeric text counts as 0.
    pub fn to_num(&self) -> Num {
        match self {
            Value::Null => Num::Int(0),
            Value::Bool(b) => Num::Int(i64::from(*b)),
            Value::Int(i) => Num::Int(*i),
            Value::Float(f) => Num::Float(*f),
            Value::Str(s) => parse_num(s).unwrap_or(Num::Int(0)),
            Value::Array(a) => Num::Int(a.len() as i64),
            Value::Hash(h) => Num::Int(h.len() as i64),
            Value::Object(_) => Num::Int(1),
        }
    }

    /// The value as a whole number, truncating floats (saturating at the
    /// ends of the range, never panicking).
    pub fn to_int(&self) -> i64 {
        match self.to_num() {
            Num::Int(i) => i,
            Num::Float(f) if f.is_nan() => 0,
            Num::Float(f) => f as i64,
        }
    }

    pub fn to_f64(&self) -> f64 {
        self.to_num().as_f64()
    }

    /// Whether a loose comparison would treat this value as a number.
    fn is_numeric(&self) -> bool {
        match self {
            Value::Int(_) | Value::Float(_) => true,
            Value::Str(s) => parse_num(s).is_some(),
            _ => false,
        }
    }

    /// The text `{$value}` prints.
    pub fn to_text(&self) -> Cow<'_, str> {
        match self {
            Value::Str(s) => Cow::Borrowed(s),
            other => {
                let mut out = String::new();
                other.write_text(&mut out);
                Cow::Owned(out)
            }
        }
    }

    /// Appends the printed form to `out` without an intermediate string.
    pub fn write_text(&self, out: &mut String) {
        match self {
            Value::Null | Value::Bool(false) => {}
            Value::Bool(true) => out.push('1'),
            Value::Int(i) => {
                let mut buf = itoa_buf();
                out.push_str(format_int(*i, &mut buf));
            }
            Value::Float(f) => write_float(*f, out),
            Value::Str(s) => out.push_str(s),
            // PHP prints "Array" with a notice; a page is better off blank.
            Value::Array(_) | Value::Hash(_) => {}
            Value::Object(o) => out.push_str(&o.to_text()),
        }
    }

    /// The value itself, or the value a proxy object stands for.
    pub fn proxied(&self) -> &Value {
        match self {
            Value::Object(o) => o.proxy().unwrap_or(self),
            _ => self,
        }
    }

    /// Number of elements (arrays, hashes, object attributes) or characters.
    pub fn count(&self) -> i64 {
        match self {
            Value::Null => 0,
            Value::Array(a) => a.len() as i64,
            Value::Hash(h) => h.len() as i64,
            Value::Object(o) => o.attribute_names().len() as i64,
            Value::Str(s) => s.chars().count() as i64,
            _ => 1,
        }
    }

    /// `$value.name`: a hash entry, an object attribute, or an array
    /// element when `name` is a number.
    pub fn attr(&self, name: &str) -> Option<Cow<'_, Value>> {
        match self {
            Value::Hash(h) => h.get(name).map(Cow::Borrowed),
            Value::Object(o) => o.attribute(name).map(Cow::Owned),
            Value::Array(a) => name
                .parse::<usize>()
                .ok()
                .and_then(|i| a.get(i))
                .map(Cow::Borrowed),
            _ => None,
        }
    }

    /// `$value[key]`: like [`Value::attr`] but with a computed key.
    pub fn index(&self, key: &Value) -> Option<Cow<'_, Value>> {
        match (self, key) {
            (Value::Array(a), k) => {
                let i = match k {
                    Value::Int(i) => *i,
                    Value::Str(s) => s.trim().parse::<i64>().ok()?,
                    Value::Float(f) => *f as i64,
                    Value::Bool(b) => i64::from(*b),
                    _ => return None,
                };
                usize::try_from(i)
                    .ok()
                    .and_then(|i| a.get(i))
                    .map(Cow::Borrowed)
            }
            (_, Value::Str(s)) => self.attr(s),
            (_, k) => self.attr(&k.to_text()),
        }
    }

    /// The type name shown by `attribute(show)`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "double",
            Value::Str(_) => "string",
            Value::Array(_) | Value::Hash(_) => "array",
            Value::Object(_) => "object",
        }
    }
}

/// Parses a whole string as a number: an optional sign, digits, at most one
/// dot. Surrounding whitespace is allowed, as PHP allows it.
pub fn parse_num(s: &str) -> Option<Num> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || digits.bytes().filter(|&b| b == b'.').count() > 1
        || digits == "."
    {
        return None;
    }
    if !digits.contains('.')
        && let Ok(i) = t.parse::<i64>()
    {
        return Some(Num::Int(i));
    }
    t.parse::<f64>().ok().map(Num::Float)
}

/// Loose equality as `eq` sees it: numbers compare by value (also when one
/// side is numeric text), booleans by truthiness, null equals every empty
/// value, composites element by element.
pub fn loose_eq(a: &Value, b: &Value) -> bool {
    let mut visits = MAX_VISITS;
    loose_eq_within(a, b, &mut visits)
}

/// Elements one comparison may visit. Values share their elements, so two
/// built alike (a thousand references to a thousand references...) are
/// cheap to make and could take a trillion steps to compare, within one
/// step of the render's budget; past this many, they are taken as unequal.
pub const MAX_VISITS: u64 = 1 << 20;

/// [`loose_eq`] drawing on `visits`, which a search shares across the
/// elements it compares.
pub fn loose_eq_within(a: &Value, b: &Value, visits: &mut u64) -> bool {
    if *visits == 0 {
        return false;
    }
    *visits -= 1;
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => {
            if x == y {
                return true;
            }
            match (parse_num(x), parse_num(y)) {
                (Some(p), Some(q)) => p.as_f64() == q.as_f64(),
                _ => false,
            }
        }
        (Value::Bool(x), y) | (y, Value::Bool(x)) => *x == y.truthy(),
        (Value::Null, y) | (y, Value::Null) => !y.truthy() && !y.is_numeric_nonzero_text(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| loose_eq_within(p, q, visits))
        }
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| loose_eq_within(v, w, visits)))
        }
        (Value::Object(x), Value::Object(y)) => Arc::ptr_eq(x, y),
        (x, y) if x.is_numeric() && y.is_numeric() => x.to_f64() == y.to_f64(),
        (Value::Int(_) | Value::Float(_), Value::Str(_))
        | (Value::Str(_), Value::Int(_) | Value::Float(_)) => a.to_text() == b.to_text(),
        _ => false,
    }
}

impl Value {
    fn is_numeric_nonzero_text(&self) -> bool {
        matches!(self, Value::Str(s) if &**s == "0")
    }
}

/// Ordering for `gt`/`lt`/`min`/`max`: numeric when both sides are
/// numbers or numeric text, otherwise by text.
pub fn loose_cmp(a: &Value, b: &Value) -> Ordering {
    let numeric = |v: &Value| {
        v.is_numeric()
            || matches!(
                v,
                Value::Null | Value::Bool(_) | Value::Array(_) | Value::Hash(_)
            )
    };
    if numeric(a) && numeric(b) {
        a.to_f64()
            .partial_cmp(&b.to_f64())
            .unwrap_or(Ordering::Equal)
    } else {
        a.to_text().cmp(&b.to_text())
    }
}

type ItoaBuf = [u8; 24];

fn itoa_buf() -> ItoaBuf {
    [0; 24]
}

/// Formats an integer into a stack buffer (the hot path of printing loop
/// indices and ids).
fn format_int(i: i64, buf: &mut ItoaBuf) -> &str {
    let mut n = i.unsigned_abs();
    let mut pos = buf.len();
    loop {
        pos -= 1;
        buf[pos] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if i < 0 {
        pos -= 1;
        buf[pos] = b'-';
    }
    // Only ASCII digits and '-' were written.
    std::str::from_utf8(&buf[pos..]).unwrap_or("0")
}

/// Prints a float the way PHP does by default: 14 significant digits,
/// trailing zeros dropped, whole numbers without a fraction.
pub fn write_float(f: f64, out: &mut String) {
    use std::fmt::Write;
    if f.is_nan() {
        out.push_str("NAN");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f < 0.0 { "-INF" } else { "INF" });
        return;
    }
    if f == f.trunc() && f.abs() < 1e15 {
        let mut buf = itoa_buf();
        out.push_str(format_int(f as i64, &mut buf));
        return;
    }
    let exp = f.abs().log10().floor() as i32;
    if !(-4..15).contains(&exp) {
        // 1.0E-5, 9.2233720368548E+18: PHP's exponent form.
        let s = format!("{f:.13e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        let mantissa = mantissa.trim_end_matches('0');
        let mantissa = mantissa
            .strip_suffix('.')
            .map_or(mantissa.to_string(), |m| format!("{m}.0"));
        let exponent: i32 = exponent.parse().unwrap_or(0);
        let _ = write!(out, "{mantissa}E{exponent:+}");
        return;
    }
    let decimals = (13 - exp).clamp(0, 20) as usize;
    let start = out.len();
    let _ = write!(out, "{f:.decimals$}");
    if out[start..].contains('.') {
        let trimmed = out.trim_end_matches('0').trim_end_matches('.').len();
        out.truncate(trimmed);
    }
    if &out[start..] == "-0" {
        out.replace_range(start.., "0");
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: Value) -> String {
        v.to_text().into_owned()
    }

    #[test]
    fn printing_follows_php() {
        assert_eq!(text(Value::Null), "");
        assert_eq!(text(Value::Bool(false)), "");
        assert_eq!(text(Value::Bool(true)), "1");
        assert_eq!(text(Value::Int(-120)), "-120");
        assert_eq!(text(Value::Int(i64::MIN)), "-9223372036854775808");
        assert_eq!(text(Value::Float(3.25)), "3.25");
        assert_eq!(text(Value::Float(13.0)), "13");
        assert_eq!(text(Value::Float(0.1 + 0.2)), "0.3");
        assert_eq!(text(Value::Float(-0.5)), "-0.5");
        assert_eq!(text(Value::Float(1.0 / 3.0)), "0.33333333333333");
        assert_eq!(text(Value::Float(0.00001)), "1.0E-5");
        assert_eq!(text(Value::Float(-1.5e20)), "-1.5E+20");
        assert_eq!(text(Value::from(vec![Value::Int(1)])), "");
    }

    #[test]
    fn truthiness_follows_php() {
        for v in [
            Value::Null,
            Value::Int(0),
            Value::Float(0.0),
            Value::str(""),
            Value::str("0"),
            Value::from(Vec::new()),
        ] {
            assert!(!v.truthy(), "{v:?}");
        }
        for v in [
            Value::Int(2),
            Value::str("a"),
            Value::str("0.0"),
            Value::Bool(true),
        ] {
            assert!(v.truthy(), "{v:?}");
        }
    }

    #[test]
    fn numbers_from_text() {
        assert_eq!(parse_num(" 42 "), Some(Num::Int(42)));
        assert_eq!(parse_num("-1.5"), Some(Num::Float(-1.5)));
        assert_eq!(parse_num("1.2.3"), None);
        assert_eq!(parse_num("."), None);
        assert_eq!(parse_num("abc"), None);
        assert_eq!(Value::str("x").to_int(), 0);
        assert_eq!(Value::Float(f64::NAN).to_int(), 0);
        assert_eq!(Value::Float(1e300).to_int(), i64::MAX);
    }

    #[test]
    fn loose_comparisons() {
        assert!(loose_eq(&Value::Int(3), &Value::str("3")));
        assert!(loose_eq(&Value::Int(3), &Value::Float(3.0)));
        assert!(loose_eq(&Value::Null, &Value::str("")));
        assert!(!loose_eq(&Value::Null, &Value::str("a")));
        assert!(loose_eq(&Value::Bool(true), &Value::str("x")));
        assert!(!loose_eq(&Value::str("abc"), &Value::str("abd")));
        assert_eq!(
            loose_cmp(&Value::str("10"), &Value::Int(9)),
            Ordering::Greater
        );
        assert_eq!(
            loose_cmp(&Value::str("b"), &Value::str("a")),
            Ordering::Greater
        );
    }

    #[test]
    fn attribute_and_index_access() {
        let mut m = Map::new();
        m.insert("name", Value::str("n"));
        let h = Value::from(m);
        assert_eq!(h.attr("name").as_deref(), Some(&Value::str("n")));
        assert!(h.attr("none").is_none());
        let a = Value::from(vec![Value::Int(7), Value::Int(8)]);
        assert_eq!(a.attr("1").as_deref(), Some(&Value::Int(8)));
        assert_eq!(a.index(&Value::Int(0)).as_deref(), Some(&Value::Int(7)));
        assert!(a.index(&Value::Int(-1)).is_none());
        assert!(a.index(&Value::Int(5)).is_none());
    }
}
