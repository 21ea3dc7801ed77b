//! Typed setting values and the groups that hold them.

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

use crate::host::SettingValue;

/// An insertion-ordered map keyed by text. Settings are looked up far more
/// often than they are read, and keys are short trusted names, so a fast
/// non-keyed hash fits better than the default one.
pub type OrderedMap<V> = IndexMap<String, V, FxBuildHasher>;

/// One setting's value.
///
/// The CMS keeps arrays and hashes as one thing, an ordered map (a PHP
/// array), and real files mix `Name[]=` and `Name[key]=` lines in one
/// variable. `Array` is the compact form of a map whose keys are `0..n`, as
/// long as only appends were seen; the first named entry turns it into a
/// `Hash` keyed `"0"`, `"1"`, ... plus the name, and later appends go on
/// under the next integer key. So no line of a mixed variable is lost, and
/// the entries stay in the order of the lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Scalar(String),
    Array(Vec<String>),
    /// Entries in the order they were first set.
    Hash(OrderedMap<String>),
}

impl Value {
    pub fn as_scalar(&self) -> Option<&str> {
        match self {
            Value::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[String]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_hash(&self) -> Option<&OrderedMap<String>> {
        match self {
            Value::Hash(map) => Some(map),
            _ => None,
        }
    }

    /// The entry `key` of a hash value.
    pub fn entry(&self, key: &str) -> Option<&str> {
        self.as_hash()?.get(key).map(String::as_str)
    }

    /// Whether a scalar says yes the way settings files do (`enabled`,
    /// `true`): switches are written as words, and a typo must read as off.
    pub fn is_enabled(&self) -> bool {
        matches!(self.as_scalar(), Some("enabled" | "true"))
    }
}

impl From<&Value> for SettingValue {
    fn from(value: &Value) -> Self {
        match value {
            Value::Scalar(s) => SettingValue::Scalar(s.clone()),
            Value::Array(items) => SettingValue::Array(items.clone()),
            Value::Hash(map) => {
                SettingValue::Hash(map.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            }
        }
    }
}

/// A group's settings in the order they first appeared.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Group {
    pub(crate) settings: OrderedMap<Value>,
}

impl Group {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.settings.get(name)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.settings.contains_key(name)
    }

    /// Settings in order, with their names.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.settings.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.settings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.settings.is_empty()
    }

    pub(crate) fn set_scalar(&mut self, name: &str, value: &str) {
        match self.settings.get_mut(name) {
            Some(Value::Scalar(s)) => {
                s.clear();
                s.push_str(value);
            }
            Some(other) => *other = Value::Scalar(value.to_owned()),
            None => {
                self.settings
                    .insert(name.to_owned(), Value::Scalar(value.to_owned()));
            }
        }
    }

    /// Appends `value`; false when the map has no next integer key left
    /// (its largest key is `i64::MAX`, where PHP refuses the append too), so
    /// the reader can warn instead of overwriting an entry.
    #[must_use]
    pub(crate) fn append(&mut self, name: &str, value: &str) -> bool {
        match self.settings.get_mut(name) {
            Some(Value::Array(items)) => items.push(value.to_owned()),
            Some(Value::Hash(map)) => match next_index(map) {
                Some(next) => {
                    map.insert(next.to_string(), value.to_owned());
                }
                None => return false,
            },
            Some(other) => *other = Value::Array(vec![value.to_owned()]),
            None => {
                self.settings
                    .insert(name.to_owned(), Value::Array(vec![value.to_owned()]));
            }
        }
        true
    }

    pub(crate) fn clear(&mut self, name: &str) {
        match self.settings.get_mut(name) {
            Some(Value::Array(items)) => items.clear(),
            Some(other) => *other = Value::Array(Vec::new()),
            None => {
                self.settings
                    .insert(name.to_owned(), Value::Array(Vec::new()));
            }
        }
    }

    pub(crate) fn set_entry(&mut self, name: &str, key: &str, value: &str) {
        match self.settings.get_mut(name) {
            Some(Value::Hash(map)) => match map.get_mut(key) {
                Some(existing) => {
                    existing.clear();
                    existing.push_str(value);
                }
                None => {
                    map.insert(key.to_owned(), value.to_owned());
                }
            },
            Some(Value::Array(items)) => {
                let mut map: OrderedMap<String> = std::mem::take(items)
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v))
                    .collect();
                match map.get_mut(key) {
                    Some(existing) => *existing = value.to_owned(),
                    None => {
                        map.insert(key.to_owned(), value.to_owned());
                    }
                }
                self.settings.insert(name.to_owned(), Value::Hash(map));
            }
            Some(other) => *other = Value::Hash(single(key, value)),
            None => {
                self.settings
                    .insert(name.to_owned(), Value::Hash(single(key, value)));
            }
        }
    }
}

/// The key PHP gives the next appended entry: one more than the largest
/// integer key so far, or 0; `None` when that would pass `i64::MAX`. Only
/// keys written the way PHP writes integers (`0`, `17`, no sign, no leading
/// zero, within `i64`) count, since `"07"` stays a string key there too.
/// Negative keys are left out: a settings key is never one in practice.
fn next_index(map: &OrderedMap<String>) -> Option<i64> {
    match map.keys().filter_map(|k| integer_key(k)).max() {
        Some(n) => n.checked_add(1),
        None => Some(0),
    }
}

fn integer_key(key: &str) -> Option<i64> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty());
    if canonical && key.bytes().all(|b| b.is_ascii_digit()) {
        key.parse().ok()
    } else {
        None
    }
}

fn single(key: &str, value: &str) -> OrderedMap<String> {
    let mut map = OrderedMap::default();
    map.insert(key.to_owned(), value.to_owned());
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(g: &Group, name: &str) -> Vec<String> {
        g.get(name)
            .and_then(Value::as_hash)
            .map(|m| m.iter().map(|(k, v)| format!("{k}={v}")).collect())
            .unwrap_or_default()
    }

    #[test]
    fn only_a_change_between_scalar_and_array_replaces() {
        let mut g = Group::default();
        g.set_scalar("A", "x");
        assert!(g.append("A", "1"));
        assert_eq!(g.get("A"), Some(&Value::Array(vec!["1".into()])));
        g.set_entry("A", "k", "v");
        assert_eq!(g.get("A").and_then(|v| v.entry("k")), Some("v"));
        assert!(g.append("A", "2"));
        assert_eq!(entries(&g, "A"), ["0=1", "k=v", "1=2"]);
        g.set_scalar("A", "y");
        assert_eq!(g.get("A").and_then(Value::as_scalar), Some("y"));
        g.clear("A");
        assert_eq!(g.get("A"), Some(&Value::Array(Vec::new())));
        g.set_entry("H", "k", "v");
        g.clear("H");
        assert_eq!(g.get("H"), Some(&Value::Array(Vec::new())));
    }

    #[test]
    fn appends_and_named_entries_mix_in_line_order() {
        let mut g = Group::default();
        for (key, value) in [("bold", "b"), ("", "|"), ("italic", "i"), ("", "|")] {
            if key.is_empty() {
                assert!(g.append("Buttons", value));
            } else {
                g.set_entry("Buttons", key, value);
            }
        }
        assert_eq!(entries(&g, "Buttons"), ["bold=b", "0=|", "italic=i", "1=|"]);
    }

    #[test]
    fn appends_follow_the_largest_integer_key() {
        let mut g = Group::default();
        g.set_entry("A", "5", "five");
        g.set_entry("A", "07", "string key");
        assert!(g.append("A", "six"));
        assert_eq!(entries(&g, "A"), ["5=five", "07=string key", "6=six"]);
        let mut g = Group::default();
        assert!(g.append("B", "a"));
        assert!(g.append("B", "b"));
        g.set_entry("B", "0", "A");
        assert_eq!(entries(&g, "B"), ["0=A", "1=b"]);
        assert!(g.append("B", "c"));
        assert_eq!(entries(&g, "B"), ["0=A", "1=b", "2=c"]);
        assert_eq!(integer_key("9223372036854775807"), Some(i64::MAX));
        assert_eq!(integer_key("9223372036854775808"), None);
        assert_eq!(integer_key("-1"), None);
        g.set_entry("C", "9223372036854775807", "max");
        assert!(!g.append("C", "refused"));
        assert_eq!(entries(&g, "C"), ["9223372036854775807=max"]);
    }

    #[test]
    fn hash_entries_keep_their_first_position() {
        let mut g = Group::default();
        g.set_entry("H", "b", "1");
        g.set_entry("H", "a", "2");
        g.set_entry("H", "b", "3");
        let h = g.get("H").and_then(Value::as_hash).map(|m| {
            m.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
        });
        assert_eq!(h, Some(vec!["b=3".to_string(), "a=2".to_string()]));
    }

    #[test]
    fn converts_to_the_host_value() {
        let mut g = Group::default();
        g.set_entry("H", "k", "v");
        assert!(g.append("L", "x"));
        g.set_scalar("S", "s");
        let host = |n| g.get(n).map(SettingValue::from);
        assert_eq!(
            host("H"),
            Some(SettingValue::Hash(vec![("k".into(), "v".into())]))
        );
        assert_eq!(host("L"), Some(SettingValue::Array(vec!["x".into()])));
        assert_eq!(host("S"), Some(SettingValue::Scalar("s".into())));
    }

    #[test]
    fn switches() {
        assert!(Value::Scalar("enabled".into()).is_enabled());
        assert!(Value::Scalar("true".into()).is_enabled());
        assert!(!Value::Scalar("disabled".into()).is_enabled());
        assert!(!Value::Scalar("Enabled ".into()).is_enabled());
        assert!(!Value::Array(vec!["enabled".into()]).is_enabled());
    }
}
