//! The first reading of a saved run: the two fields that say a document is
//! a run of a version (`tool`, `format`), read without building the rest
//! in memory (every other value is skipped unparsed, so this pass costs a
//! scan), and the document's own keys each once. serde_json keeps the last
//! of two equal keys, so `"tool"` twice would otherwise be read as one.
//! The structs below refuse a field twice themselves (their derived
//! readers do); checking every object here instead would parse every
//! sample of the run in this pass too (comparing two runs of 50,000 rows
//! took 1.1 s rather than 0.65 s, `python3 scripts/big-runs.py`).

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
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
                map.next_value::<IgnoredAny>()?;
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
