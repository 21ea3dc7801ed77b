//! From a file's bytes to text: the charset declaration, UTF-8 checking and
//! latin1 decoding, and the errors that name the file.

use std::borrow::Cow;
use std::fmt;

/// Why a settings file could not be read. Every variant names the file,
/// because a site reads dozens of them and "invalid UTF-8" alone sends
/// someone hunting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsError {
    /// The file exists but could not be read.
    Unreadable { file: String, reason: String },
    /// The file is not valid UTF-8 and declares no latin1 charset.
    Encoding { file: String, offset: usize },
    /// No candidate file of that name exists in any directory.
    Missing { file: String, dirs: Vec<String> },
    /// The name asked for is not a plain settings file name.
    BadName { file: String },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Unreadable { file, reason } => {
                write!(f, "cannot read settings file {file}: {reason}")
            }
            SettingsError::Encoding { file, offset } => write!(
                f,
                "settings file {file} is not valid UTF-8 (first bad byte at offset {offset})"
            ),
            SettingsError::Missing { file, dirs } => write!(
                f,
                "no settings file {file} in {}",
                if dirs.is_empty() {
                    "any directory".to_string()
                } else {
                    dirs.join(", ")
                }
            ),
            SettingsError::BadName { file } => {
                write!(f, "{file:?} is not a settings file name")
            }
        }
    }
}

impl std::error::Error for SettingsError {}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The charset declared on the first line (`#?ini charset="utf-8"?`, also
/// after a `<?php /*` wrapper), quotes optional.
pub(crate) fn declared_charset(bytes: &[u8]) -> Option<&str> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let first = &bytes[..memchr_newline(bytes)];
    let at = find(first, b"#?ini")?;
    let rest = &first[at + 5..];
    let at = find(rest, b"charset=")?;
    let rest = &rest[at + 8..];
    let rest = rest.strip_prefix(b"\"").unwrap_or(rest);
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'"' | b'?' | b'\'') || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    std::str::from_utf8(&rest[..end])
        .ok()
        .filter(|s| !s.is_empty())
}

fn memchr_newline(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Whether a declared charset means ISO-8859-1, the one legacy charset old
/// sites still ship files in.
pub(crate) fn is_latin1(charset: &str) -> bool {
    ["iso-8859-1", "iso8859-1", "latin1", "latin-1"]
        .iter()
        .any(|c| c.eq_ignore_ascii_case(charset))
}

/// The file's text: latin1 decoded when declared, otherwise checked UTF-8
/// (borrowed, no copy). A leading byte-order mark is dropped.
pub(crate) fn decode<'a>(
    file: &str,
    bytes: &'a [u8],
    charset: Option<&str>,
) -> Result<Cow<'a, str>, SettingsError> {
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if charset.is_some_and(is_latin1) {
        return Ok(Cow::Owned(body.iter().map(|&b| char::from(b)).collect()));
    }
    match std::str::from_utf8(body) {
        Ok(text) => Ok(Cow::Borrowed(text)),
        Err(e) => Err(SettingsError::Encoding {
            file: file.to_string(),
            offset: e.valid_up_to() + (bytes.len() - body.len()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charset_lines() {
        assert_eq!(
            declared_charset(b"#?ini charset=\"utf-8\"?\n[A]"),
            Some("utf-8")
        );
        assert_eq!(declared_charset(b"#?ini charset=utf-8?\n"), Some("utf-8"));
        assert_eq!(
            declared_charset(b"<?php /* #?ini charset=\"iso-8859-1\"?\n"),
            Some("iso-8859-1")
        );
        assert_eq!(
            declared_charset(b"\xEF\xBB\xBF#?ini charset=\"latin1\"?"),
            Some("latin1")
        );
        assert_eq!(declared_charset(b"[A]\n#?ini charset=\"utf-8\"?"), None);
        assert_eq!(declared_charset(b"#?ini charset=\"\"?"), None);
        assert_eq!(declared_charset(b""), None);
    }

    #[test]
    fn invalid_utf8_names_file_and_offset() {
        let err = decode("site.ini", b"[A]\nB=caf\xE9\n", None).unwrap_err();
        assert_eq!(
            err,
            SettingsError::Encoding {
                file: "site.ini".into(),
                offset: 9
            }
        );
        let text = err.to_string();
        assert!(
            text.contains("site.ini") && text.contains("offset 9"),
            "{text}"
        );
        // The offset counts from the file's first byte, byte-order mark included.
        let err = decode("x.ini", b"\xEF\xBB\xBF\xFF", None).unwrap_err();
        assert_eq!(
            err,
            SettingsError::Encoding {
                file: "x.ini".into(),
                offset: 3
            }
        );
    }

    #[test]
    fn latin1_is_decoded_when_declared() {
        let text = decode("x.ini", b"B=caf\xE9", Some("ISO-8859-1")).unwrap();
        assert_eq!(text, "B=café");
        // Other declared charsets are read as UTF-8.
        assert!(decode("x.ini", b"B=caf\xE9", Some("windows-1252")).is_err());
        assert!(matches!(
            decode("x.ini", "B=café".as_bytes(), Some("utf-8")),
            Ok(Cow::Borrowed("B=café"))
        ));
    }
}
