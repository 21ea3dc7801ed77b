//! Colour for the words a reader looks for first: the verdict (PASS,
//! FAIL, INCONCLUSIVE, NO VERDICT) and a check's or a group's result. It is
//! painted on the finished text, after the table fitted its width, so an
//! escape sequence never counts as a column's width. Plain escape codes:
//! a user's bench gains no crate for this.

use regex::Regex;
use std::io::IsTerminal;
use std::sync::LazyLock;

/// `--color`: when to paint.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum When {
    /// On a terminal, unless `NO_COLOR` is set (and not empty) or the
    /// terminal is `dumb`.
    #[default]
    Auto,
    /// Wherever stdout goes (a pager that reads escapes, `less -R`).
    Always,
    /// Nowhere.
    Never,
}

impl When {
    /// Reads `--color`'s value.
    pub fn parse(value: &str) -> Option<When> {
        match value {
            "auto" => Some(When::Auto),
            "always" => Some(When::Always),
            "never" => Some(When::Never),
            _ => None,
        }
    }

    /// Whether stdout is painted.
    pub fn paints(self) -> bool {
        match self {
            When::Always => true,
            When::Never => false,
            When::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

const RED: &str = "\x1b[1;31m";
const GREEN: &str = "\x1b[1;32m";
const YELLOW: &str = "\x1b[1;33m";
const RESET: &str = "\x1b[0m";

/// The words painted, each in its colour: a verdict's first word at the
/// start of its line, and a check's or a group's result anywhere.
static WORDS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?m)^(PASS|FAIL|INCONCLUSIVE|NO VERDICT):|\b(REGRESSED|inconclusive|winner)\b")
        .ok()
});

/// `text` with its verdicts and results painted.
pub fn paint(text: &str) -> String {
    let Some(words) = WORDS.as_ref() else {
        return text.to_string();
    };
    words
        .replace_all(text, |c: &regex::Captures<'_>| {
            let word = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
            let colour = match word {
                "PASS" | "winner" => GREEN,
                "FAIL" | "REGRESSED" => RED,
                _ => YELLOW,
            };
            let colon = if c.get(1).is_some() { ":" } else { "" };
            format!("{colour}{word}{RESET}{colon}")
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_results_are_painted_and_nothing_else() {
        let text = "row  verdict\nparse  REGRESSED\nFAIL: slower than the baseline\nPASSED: no\n";
        let painted = paint(text);
        assert_eq!(
            painted,
            "row  verdict\nparse  \x1b[1;31mREGRESSED\x1b[0m\n\x1b[1;31mFAIL\x1b[0m: slower than \
             the baseline\nPASSED: no\n"
        );
        assert!(paint("NO VERDICT: other classes").starts_with("\x1b[1;33mNO VERDICT\x1b[0m:"));
        assert_eq!(paint("a winner2"), "a winner2");
        assert_eq!(When::parse("always"), Some(When::Always));
        assert_eq!(When::parse("yes"), None);
        assert!(When::Always.paints() && !When::Never.paints());
    }
}
