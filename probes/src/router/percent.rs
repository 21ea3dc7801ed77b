//! Percent-decoding one path element.

use std::borrow::Cow;
use std::fmt;

/// Why a request path cannot be routed. Offsets count bytes from the start
/// of the path as given, so a log line points at the culprit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlError {
    /// A `%` not followed by two hex digits.
    BadEscape { offset: usize },
    /// An element whose decoded bytes are not UTF-8.
    NotUtf8 { offset: usize },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::BadEscape { offset } => {
                write!(f, "invalid percent escape at byte {offset} of the URL")
            }
            UrlError::NotUtf8 { offset } => write!(
                f,
                "the URL element at byte {offset} does not decode to UTF-8"
            ),
        }
    }
}

impl std::error::Error for UrlError {}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes `%XX` escapes in one element that starts at byte `start` of the
/// path. Borrows when there is nothing to decode, which is almost always.
pub(crate) fn decode(element: &str, start: usize) -> Result<Cow<'_, str>, UrlError> {
    if !element.contains('%') {
        return Ok(Cow::Borrowed(element));
    }
    let bytes = unescape(element, false).map_err(|i| UrlError::BadEscape { offset: start + i })?;
    String::from_utf8(bytes)
        .map(Cow::Owned)
        .map_err(|_| UrlError::NotUtf8 { offset: start })
}

/// Decodes `%XX` escapes as PHP's `urldecode` does for `$_GET`: a `%` not
/// followed by two hex digits stays as it is, and bytes that are not UTF-8
/// become U+FFFD (PHP keeps the raw bytes, which a Rust string cannot).
pub(crate) fn decode_lenient(text: &str) -> Cow<'_, str> {
    if !text.contains('%') {
        return Cow::Borrowed(text);
    }
    let bytes = unescape(text, true).unwrap_or_else(|_| text.as_bytes().to_vec());
    match String::from_utf8(bytes) {
        Ok(s) => Cow::Owned(s),
        Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// The bytes `text` stands for. A bad escape is kept as it is when
/// `lenient`, else it is an error at its byte position.
fn unescape(text: &str, lenient: bool) -> Result<Vec<u8>, usize> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let pair = (b == b'%')
            .then(|| {
                bytes
                    .get(i + 1)
                    .copied()
                    .and_then(hex)
                    .zip(bytes.get(i + 2).copied().and_then(hex))
            })
            .flatten();
        match pair {
            Some((hi, lo)) => {
                out.push(hi << 4 | lo);
                i += 3;
            }
            None if b == b'%' && !lenient => return Err(i),
            None => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_escapes() {
        assert!(matches!(decode("plain", 0), Ok(Cow::Borrowed("plain"))));
        assert_eq!(decode("a%20b", 0).unwrap(), "a b");
        assert_eq!(decode("%2F%2f", 0).unwrap(), "//");
        assert_eq!(decode("caf%C3%A9", 0).unwrap(), "café");
        assert_eq!(decode("%25", 0).unwrap(), "%");
    }

    #[test]
    fn bad_escapes_are_errors_with_offsets() {
        assert_eq!(decode("a%2", 10), Err(UrlError::BadEscape { offset: 11 }));
        assert_eq!(decode("%", 0), Err(UrlError::BadEscape { offset: 0 }));
        assert_eq!(decode("%zz", 4), Err(UrlError::BadEscape { offset: 4 }));
        assert_eq!(
            decode("ok%20%g0", 0),
            Err(UrlError::BadEscape { offset: 5 })
        );
        assert_eq!(decode("%C3", 7), Err(UrlError::NotUtf8 { offset: 7 }));
        assert_eq!(decode("%FF%FE", 0), Err(UrlError::NotUtf8 { offset: 0 }));
        assert!(
            UrlError::BadEscape { offset: 3 }
                .to_string()
                .contains("byte 3")
        );
    }

    #[test]
    fn lenient_decoding_keeps_bad_escapes_and_replaces_bad_bytes() {
        assert!(matches!(decode_lenient("plain"), Cow::Borrowed("plain")));
        assert_eq!(decode_lenient("a%20b%zz%2"), "a b%zz%2");
        assert_eq!(decode_lenient("%"), "%");
        assert_eq!(decode_lenient("caf%C3%A9%FF"), "café\u{fffd}");
    }

    #[test]
    fn multibyte_text_next_to_escapes() {
        assert_eq!(decode("é%20ü", 0).unwrap(), "é ü");
        assert_eq!(decode("é%", 0), Err(UrlError::BadEscape { offset: 2 }));
    }
}
