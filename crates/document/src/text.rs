//! Text yardstick did not write itself (probe keys, names and notes from a
//! saved run, a server's `Server` header and error messages, file names)
//! reaches terminals and CI logs. A newline in it would start a line of its
//! own, and a line starting `::` is a GitHub workflow command; an escape
//! sequence rewrites the terminal; a bidirectional override makes a log say
//! something else than its bytes, and a zero-width character makes two
//! different keys look alike. So every printed field goes through
//! `clean`, which leaves one visible character where such a character was.

use std::borrow::Cow;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// What an unsafe character is replaced by: visible, and never a separator.
pub const REPLACEMENT: char = '\u{FFFD}';

/// True for the characters no printed field may carry, by their Unicode
/// general category, so a new version's additions are covered as its
/// tables are: controls (Cc: newline, carriage return, escape, tab, DEL,
/// the C1 controls), format characters (Cf: every bidirectional mark,
/// embedding, override and isolate, zero-width characters, the soft
/// hyphen, tags), and the line and paragraph separators (Zl, Zp).
pub fn is_unsafe(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// `text` with every unsafe character replaced by [`REPLACEMENT`];
/// borrowed when there is none, which is nearly always.
pub fn clean(text: &str) -> Cow<'_, str> {
    if text.chars().any(is_unsafe) {
        Cow::Owned(
            text.chars()
                .map(|c| if is_unsafe(c) { REPLACEMENT } else { c })
                .collect(),
        )
    } else {
        Cow::Borrowed(text)
    }
}

/// [`clean`] into an owned string, for cells and format arguments.
pub fn cleaned(text: &str) -> String {
    clean(text).into_owned()
}

/// `text` with every unsafe character but layout whitespace (newline,
/// carriage return, tab) written as its code point, `\u{202e}`: for a
/// document whose reader wants to know which character was there (the
/// HTML report), where the terminal shows [`REPLACEMENT`].
pub fn visible(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| is_unsafe(c) && !matches!(c, '\n' | '\r' | '\t');
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_document_shows_which_character_was_there() {
        assert_eq!(
            visible("a\u{202E}b\u{61C}\u{200B}\u{2028}\u{AD}\u{1b}[2J\nc\td"),
            "a\\u{202e}b\\u{61c}\\u{200b}\\u{2028}\\u{ad}\\u{1b}[2J\nc\td"
        );
        assert!(matches!(visible("ini_parse é ☃"), Cow::Borrowed(_)));
    }

    #[test]
    fn controls_and_separators_become_one_visible_character() {
        assert_eq!(clean("a\n::error::x"), "a\u{FFFD}::error::x");
        assert_eq!(
            clean("\r\t\u{1b}[2J\u{7f}\u{85}"),
            "\u{FFFD}".repeat(3) + "[2J\u{FFFD}\u{FFFD}"
        );
        assert_eq!(clean("x\u{2028}y\u{202E}z"), "x\u{FFFD}y\u{FFFD}z");
        assert!(matches!(clean("ini_parse é ☃"), Cow::Borrowed(_)));
    }

    /// Bidi_Control, from Unicode's PropList.txt: a stable list.
    const BIDI_CONTROLS: [(char, char); 4] = [
        ('\u{061C}', '\u{061C}'),
        ('\u{200E}', '\u{200F}'),
        ('\u{202A}', '\u{202E}'),
        ('\u{2066}', '\u{2069}'),
    ];

    #[test]
    fn every_bidirectional_control_is_replaced() {
        for c in BIDI_CONTROLS.iter().flat_map(|&(a, b)| a..=b) {
            assert!(is_unsafe(c), "U+{:04X}", u32::from(c));
        }
        assert_eq!(clean("a\u{061C}b"), "a\u{FFFD}b");
    }

    /// Every character, once: those of the unsafe categories are replaced,
    /// every other one is left, and a few known invisible ones are among
    /// the replaced.
    #[test]
    fn exactly_the_controls_format_characters_and_separators_are_unsafe() {
        let mut replaced = 0;
        for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
            let category = c.general_category();
            let class = c.is_control()
                || [
                    GeneralCategory::Format,
                    GeneralCategory::LineSeparator,
                    GeneralCategory::ParagraphSeparator,
                ]
                .contains(&category);
            assert_eq!(is_unsafe(c), class, "U+{:04X} {category:?}", u32::from(c));
            replaced += usize::from(class);
        }
        for c in ['\u{00AD}', '\u{200B}', '\u{2060}', '\u{FEFF}', '\u{E0001}'] {
            assert!(is_unsafe(c), "U+{:04X}", u32::from(c));
        }
        // Cc is 65, Cf about 170, Zl and Zp one each.
        assert!((200..1000).contains(&replaced), "{replaced}");
    }

    proptest! {
        #[test]
        fn nothing_unsafe_survives(text in any::<String>()) {
            let out = clean(&text);
            prop_assert!(!out.chars().any(is_unsafe));
            prop_assert_eq!(out.chars().count(), text.chars().count());
        }
    }
}
