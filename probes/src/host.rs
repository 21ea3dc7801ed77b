//! The small traits through which the template engine reaches the other
//! kernel parts (the translation catalogue for `i18n`, the settings reader
//! for `ezini`), so that each part stays usable and testable alone.

/// Looks up translated interface strings. Implemented by the translation
/// catalogue; the template engine falls back to the source text without one.
pub trait Translator {
    /// The translation of `source` in `context`, disambiguated by `comment`
    /// (`""` when absent), or `None` when there is none (the caller then uses
    /// `source`). Argument substitution is the caller's, see [`substitute`].
    fn translate(&self, context: &str, source: &str, comment: &str) -> Option<&str>;
}

use crate::content::{ListQuery, Node, Object};

/// A typed setting value as the settings reader stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingValue {
    Scalar(String),
    Array(Vec<String>),
    /// Entries in the order they were first set.
    Hash(Vec<(String, String)>),
}

/// Reads settings for the template engine's `ezini(group, name, file)`.
pub trait SettingsSource {
    /// The value of `name` in `group` of the settings file `file`
    /// (for example `site.ini`), or `None` when it is not set.
    fn setting(&self, file: &str, group: &str, name: &str) -> Option<SettingValue>;
}

/// The content store as the template engine's `fetch` and `treemenu`
/// reach it. An error (the database went away) is a message; the
/// template then renders nothing for that call.
pub trait ContentSource: Send + Sync {
    /// Node `id`, or `None`.
    fn node(&self, id: i64) -> Result<Option<Node>, String>;
    /// Object `id` in its current version and `language` (its own when
    /// `None`), or `None`.
    fn object(&self, id: i64, language: Option<&str>) -> Result<Option<Object>, String>;
    /// The nodes `query` lists.
    fn list(&self, query: &ListQuery) -> Result<Vec<Node>, String>;
    /// How many nodes `query` finds, its limit and offset aside.
    fn count(&self, query: &ListQuery) -> Result<u64, String>;
}

/// Replaces `%1`, `%2`, ... and named `%name` placeholders in `text`.
///
/// `args` pairs a placeholder (with its `%`, e.g. `"%1"` or `"%name"`) with
/// its value. At each `%`, the longest placeholder that matches wins, so
/// `%10` is not read as `%1` followed by `0`; text with no matching
/// placeholder is copied unchanged. Values are not scanned again.
pub fn substitute(text: &str, args: &[(&str, &str)]) -> String {
    if args.is_empty() || !text.contains('%') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(pos) = rest.find('%') {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        let best = args
            .iter()
            .filter(|(key, _)| key.len() > 1 && tail.starts_with(key))
            .max_by_key(|(key, _)| key.len());
        match best {
            Some((key, value)) => {
                out.push_str(value);
                rest = &tail[key.len()..];
            }
            None => {
                out.push('%');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::substitute;

    #[test]
    fn numbered_and_named_placeholders() {
        assert_eq!(
            substitute("%1 of %2", &[("%1", "3"), ("%2", "7")]),
            "3 of 7"
        );
        assert_eq!(
            substitute(
                "Hello %name, %names",
                &[("%name", "Ann"), ("%names", "all")]
            ),
            "Hello Ann, all"
        );
        assert_eq!(
            substitute("%10 and %1", &[("%1", "a"), ("%10", "b")]),
            "b and a"
        );
    }

    #[test]
    fn unmatched_percent_and_values_with_percent_stay() {
        assert_eq!(substitute("100% %x", &[("%1", "a")]), "100% %x");
        assert_eq!(substitute("%1", &[("%1", "%1%1")]), "%1%1");
        assert_eq!(substitute("é%1é", &[("%1", "ü")]), "éüé");
    }
}
