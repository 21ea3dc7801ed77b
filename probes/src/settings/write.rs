//! Saving a store as a settings file that reads back to the same store.

use std::fmt::{self, Write as _};

use super::lex::is_name_byte;
use super::store::Settings;
use super::value::Value;

/// A store holds something no line of the dialect can say (a line feed in a
/// value, a name with a dot, a value with `##` that ends in whitespace, an
/// empty hash). Writing it anyway would save a different store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    pub group: String,
    pub name: Option<String>,
    pub reason: &'static str,
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "cannot write [{}] {}: {}", self.group, name, self.reason),
            None => write!(f, "cannot write group [{}]: {}", self.group, self.reason),
        }
    }
}

impl std::error::Error for WriteError {}

/// The store as UTF-8 settings text: groups in order, arrays as `Name[]=`
/// lines (an empty one as a `Name[]` clear), hashes as `Name[key]=` lines.
pub fn write(settings: &Settings) -> Result<String, WriteError> {
    let mut out = String::from("#?ini charset=\"utf-8\"?\n");
    let mut line = String::new();
    for (index, (group, settings_of)) in settings.groups().enumerate() {
        let fail = |name: Option<&str>, reason| WriteError {
            group: group.to_string(),
            name: name.map(str::to_string),
            reason,
        };
        // Settings before any header land in the empty-named group, so it
        // needs no header when it comes first and holds something.
        if !(group.is_empty() && index == 0 && !settings_of.is_empty()) {
            if group.trim() != group || has_line_break(group) {
                return Err(fail(
                    None,
                    "group name has surrounding whitespace or a line break",
                ));
            }
            if index > 0 {
                out.push('\n');
            }
            line.clear();
            line.push('[');
            line.push_str(if group.is_empty() { " " } else { group });
            line.push(']');
            push_line(&mut out, &line).map_err(|r| fail(None, r))?;
        }
        for (name, value) in settings_of.iter() {
            if name.is_empty() || !name.bytes().all(is_name_byte) {
                return Err(fail(
                    Some(name),
                    "setting name has characters outside A-Z a-z 0-9 _ * @ -",
                ));
            }
            let mut emit = |line: &str| push_line(&mut out, line).map_err(|r| fail(Some(name), r));
            match value {
                Value::Scalar(v) => {
                    line.clear();
                    let _ = write!(line, "{name}={v}");
                    emit(&line)?;
                }
                Value::Array(items) if items.is_empty() => {
                    line.clear();
                    let _ = write!(line, "{name}[]");
                    emit(&line)?;
                }
                Value::Array(items) => {
                    for v in items {
                        line.clear();
                        let _ = write!(line, "{name}[]={v}");
                        emit(&line)?;
                    }
                }
                Value::Hash(map) if map.is_empty() => {
                    return Err(fail(Some(name), "an empty hash has no line form"));
                }
                Value::Hash(map) => {
                    for (key, v) in map {
                        if key.is_empty() || key.contains(']') {
                            return Err(fail(Some(name), "hash key is empty or holds `]`"));
                        }
                        line.clear();
                        let _ = write!(line, "{name}[{key}]={v}");
                        emit(&line)?;
                    }
                }
            }
        }
    }
    Ok(out)
}

fn has_line_break(text: &str) -> bool {
    text.contains(['\n', '\r'])
}

/// Appends one line. A line holding `##` gets one more at its end, so the
/// reader's cut at the last `##` removes only that.
fn push_line(out: &mut String, line: &str) -> Result<(), &'static str> {
    if has_line_break(line) {
        return Err("value holds a line break");
    }
    out.push_str(line);
    if line.contains("##") {
        if line.ends_with(char::is_whitespace) {
            return Err("value holds `##` and ends in whitespace, which the comment cut would eat");
        }
        out.push_str("##");
    }
    out.push('\n');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::value::OrderedMap;

    fn roundtrip(text: &str) -> (Settings, String, Settings) {
        let first = Settings::parse_str("a.ini", text);
        let written = write(&first).unwrap();
        let second = Settings::parse_str("b.ini", &written);
        assert_eq!(first, second, "{written}");
        assert!(second.warnings().is_empty(), "{written}");
        (first, written, second)
    }

    #[test]
    fn writes_every_form() {
        let (_, written, _) = roundtrip(
            "Top=1\n[A]\nS=x\nL[]=a\nL[]=\nE[]\nH[k]=v\nH[k2]=\n[B]\n[ C ]\nX= padded \n",
        );
        assert_eq!(
            written,
            "#?ini charset=\"utf-8\"?\nTop=1\n\n[A]\nS=x\nL[]=a\nL[]=\nE[]\nH[k]=v\nH[k2]=\n\n[B]\n\n[C]\nX= padded \n"
        );
    }

    #[test]
    fn mixed_arrays_read_back_with_every_entry() {
        let (first, written, second) = roundtrip(
            "[T]\nButtons[bold]=b\nButtons[]=|\nButtons[italic]=i\nButtons[]=|\nL[]=a\nL[k]=v\n",
        );
        assert!(
            written.contains("Buttons[bold]=b\nButtons[0]=|\nButtons[italic]=i\nButtons[1]=|\n"),
            "{written}"
        );
        assert!(written.contains("L[0]=a\nL[k]=v\n"), "{written}");
        let len = |s: &Settings| {
            s.variable("T", "Buttons")
                .and_then(Value::as_hash)
                .map(OrderedMap::len)
        };
        assert_eq!(len(&first), Some(4));
        assert_eq!(len(&second), Some(4));
    }

    #[test]
    fn values_with_double_hash_survive() {
        let (first, written, _) = roundtrip("[A]\nX=a##b## cut\nY=## x##\nZ=#\nW=a###\n");
        assert_eq!(
            first.variable("A", "X").and_then(Value::as_scalar),
            Some("a##b")
        );
        assert!(written.contains("X=a##b##\n"), "{written}");
        assert!(written.contains("Z=#\n"), "{written}");
        assert!(written.contains("W=a#\n"), "{written}");
    }

    #[test]
    fn the_empty_group_out_of_first_place_gets_a_header() {
        let (_, written, _) = roundtrip("[A]\nX=1\n[ ]\nY=2\n");
        assert!(written.contains("[ ]\nY=2"), "{written}");
        roundtrip("[ ]\n[A]\n");
    }

    #[test]
    fn refuses_what_no_line_can_say() {
        let refused = |group: &str, name: &str, value: Value| {
            let mut s = Settings::new();
            s.set(group, name, value);
            write(&s).unwrap_err()
        };
        let scalar = |v: &str| Value::Scalar(v.to_string());
        assert_eq!(
            refused("A", "X", scalar("a\nb")).reason,
            "value holds a line break"
        );
        assert!(refused("A", "X", scalar("a## ")).reason.contains("##"));
        assert!(
            refused("A", "X.Y", scalar("1"))
                .reason
                .contains("setting name")
        );
        assert!(
            refused("A", "", scalar("1"))
                .reason
                .contains("setting name")
        );
        assert!(
            refused(" A", "X", scalar("1"))
                .reason
                .contains("group name")
        );
        assert!(
            refused("A\nB", "X", scalar("1"))
                .reason
                .contains("group name")
        );
        assert!(
            refused("A", "H", Value::Hash(OrderedMap::default()))
                .reason
                .contains("empty hash")
        );
        let mut map = OrderedMap::default();
        map.insert("a]b".to_string(), "v".to_string());
        let err = refused("A", "H", Value::Hash(map));
        assert_eq!(
            err.to_string(),
            "cannot write [A] H: hash key is empty or holds `]`"
        );
        assert!(
            refused("A", "L", Value::Array(vec!["x\r".into()]))
                .reason
                .contains("line break")
        );
    }
}
