//! Text yardstick did not write itself (probe keys, names and notes from a
//! saved run, a server's `Server` header and error messages, file names)
//! reaches terminals and CI logs. A newline in it would start a line of its
//! own, and a line starting `::` is a GitHub workflow command; an escape
//! sequence rewrites the terminal; a bidirectional override makes a log say
//! something else than its bytes. So every printed field goes through
//! `clean`, which leaves one visible character where such a character was.

use std::borrow::Cow;

/// What an unsafe character is replaced by: visible, and never a separator.
pub(crate) const REPLACEMENT: char = '\u{FFFD}';

/// True for the characters no printed field may carry: C0 and C1 controls
/// (newline, carriage return, escape, tab), DEL, the Unicode line and
/// paragraph separators, and the bidirectional embedding, override and
/// isolate marks.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every unsafe character replaced by [`REPLACEMENT`];
/// borrowed when there is none, which is nearly always.
pub(crate) fn clean(text: &str) -> Cow<'_, str> {
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
pub(crate) fn cleaned(text: &str) -> String {
    clean(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    proptest! {
        #[test]
        fn nothing_unsafe_survives(text in any::<String>()) {
            let out = clean(&text);
            prop_assert!(!out.chars().any(is_unsafe));
            prop_assert_eq!(out.chars().count(), text.chars().count());
        }
    }
}
