//! Typed setting values and the groups that hold them.

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

use crate::host::SettingValue;

/// An insertion-ordered map keyed by text. Settings are looked up far more
/// often than they are read, and keys are short trusted names, so a fast
/// non-keyed hash fits better than the default one.
pub type OrderedMap<V> = IndexMap<String, V, FxBuildHasher>;

/// One setting's value. The form of its last defining line decides the
/// type: `Name=` a scalar, `Name[]=`/`Name[]` an array, `Name[key]=` a hash.
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

    pub(crate) fn append(&mut self, name: &str, value: &str) {
        match self.settings.get_mut(name) {
            Some(Value::Array(items)) => items.push(value.to_owned()),
            Some(other) => *other = Value::Array(vec![value.to_owned()]),
            None => {
                self.settings
                    .insert(name.to_owned(), Value::Array(vec![value.to_owned()]));
            }
        }
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
            Some(other) => *other = Value::Hash(single(key, value)),
            None => {
                self.settings
                    .insert(name.to_owned(), Value::Hash(single(key, value)));
            }
        }
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

    #[test]
    fn the_later_form_wins() {
        let mut g = Group::default();
        g.set_scalar("A", "x");
        g.append("A", "1");
        assert_eq!(g.get("A"), Some(&Value::Array(vec!["1".into()])));
        g.set_entry("A", "k", "v");
        assert_eq!(g.get("A").and_then(|v| v.entry("k")), Some("v"));
        g.append("A", "2");
        assert_eq!(
            g.get("A").and_then(Value::as_array),
            Some(&["2".to_string()][..])
        );
        g.set_scalar("A", "y");
        assert_eq!(g.get("A").and_then(Value::as_scalar), Some("y"));
        g.clear("A");
        assert_eq!(g.get("A"), Some(&Value::Array(Vec::new())));
        g.set_entry("H", "k", "v");
        g.clear("H");
        assert_eq!(g.get("H"), Some(&Value::Array(Vec::new())));
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
        g.append("L", "x");
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
