//! The first reading of a saved run: the two fields that say a document is
//! a run of a version (`tool`, `format`), read without building the rest
//! in memory, and the whole document checked for a key an object holds
//! twice. serde_json keeps the last of two equal keys, and a derived
//! struct refuses them only for its own fields (maps and free-form values
//! keep one silently), so a document could say one thing to yardstick and
//! another to the next tool that reads it.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// `tool` and `format`, as the document gives them (absent or `null`:
/// `None`).
pub(super) struct Header {
    pub tool: Option<Value>,
    pub format: Option<Value>,
}

impl<'de> de::Deserialize<'de> for Header {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Header, D::Error> {
        d.deserialize_map(Top)
    }
}

/// The document: an object, its keys each once.
struct Top;

impl<'de> Visitor<'de> for Top {
    type Value = Header;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Header, A::Error> {
        let mut header = Header {
            tool: None,
            format: None,
        };
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key_seed(Key)? {
            let (tool, format) = (key == "tool", key == "format");
            once(&mut keys, key)?;
            if tool {
                header.tool = map.next_value()?;
            } else if format {
                header.format = map.next_value()?;
            } else {
                map.next_value_seed(Unique)?;
            }
        }
        Ok(header)
    }
}

/// Adds `key` to the keys of its object; an error if it was there.
fn once<'de, E: de::Error>(keys: &mut HashSet<Cow<'de, str>>, key: Cow<'de, str>) -> Result<(), E> {
    if keys.contains(&key) {
        return Err(E::custom(format_args!("duplicate key `{key}`")));
    }
    keys.insert(key);
    Ok(())
}

/// A key, borrowed from the document where it has no escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_string()))
    }
}

/// Any value, skipped; an error where an object in it holds a key twice.
struct Unique;

impl<'de> DeserializeSeed<'de> for Unique {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Unique)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = HashSet::new();
        while let Some(key) = map.next_key_seed(Key)? {
            once(&mut keys, key)?;
            map.next_value_seed(Unique)?;
        }
        Ok(())
    }
}
