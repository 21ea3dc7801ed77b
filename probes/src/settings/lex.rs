//! Classifying one line of a settings file.
//!
//! The dialect is line based: every line is understood on its own, so the
//! store never sees text, only these classified lines. Classification
//! borrows from the line and allocates nothing; the store copies only what
//! it keeps.

/// What one line of a settings file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Line<'a> {
    /// Empty, blank, a `#` comment, or nothing left after the trailing
    /// comment was cut.
    Blank,
    /// `[Name]`: the (trimmed) group name.
    Group(&'a str),
    /// `Name=value`.
    Scalar { name: &'a str, value: &'a str },
    /// `Name[]=value`.
    Append { name: &'a str, value: &'a str },
    /// `Name[]` with nothing after it.
    Clear { name: &'a str },
    /// `Name[key]=value`.
    Entry {
        name: &'a str,
        key: &'a str,
        value: &'a str,
    },
    /// The `<?php /*` and `*/ ?>` lines that wrap the `.php` variants: they
    /// carry no setting, and warning about them would bury real mistakes in
    /// noise on every correctly written file.
    Wrapper,
    /// A line that starts with whitespace.
    Indented,
    /// A line that matches no form.
    Unknown,
}

/// Whether `b` may appear in a setting name.
pub(crate) fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'*' | b'@' | b'-')
}

/// Cuts a trailing comment: everything from the last `##` on, together with
/// the whitespace before it. The last one, so that a value may itself hold
/// `##` as long as its line ends with one more.
pub(crate) fn cut_comment(line: &str) -> &str {
    // A byte scan from the end: most lines have no `#` at all, and this
    // avoids setting up a substring search for every line of a file.
    let bytes = line.as_bytes();
    let mut end = bytes.len();
    while let Some(pos) = bytes[..end].iter().rposition(|&b| b == b'#') {
        if pos > 0 && bytes[pos - 1] == b'#' {
            return line[..pos - 1].trim_end();
        }
        end = pos;
    }
    line
}

/// Classifies one line (without its line feed and carriage returns).
pub(crate) fn classify(raw: &str) -> Line<'_> {
    let bytes = raw.as_bytes();
    if crate::faults::on(crate::faults::Fault::SettingsRescan) {
        crate::faults::hash(bytes, 1);
    }
    match bytes.first() {
        None | Some(b'#') => return Line::Blank,
        _ => {}
    }
    let line = cut_comment(raw);
    let Some(&first) = line.as_bytes().first() else {
        return Line::Blank;
    };
    if line.starts_with(char::is_whitespace) {
        return if line.trim_start().is_empty() {
            Line::Blank
        } else {
            Line::Indented
        };
    }
    if first == b'[' {
        return group(line);
    }
    if line.starts_with("<?php") || line.starts_with("*/") {
        return Line::Wrapper;
    }
    setting(line)
}

fn group(line: &str) -> Line<'_> {
    let t = line.trim_end();
    match t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        Some(inner) if !inner.is_empty() => Line::Group(inner.trim()),
        _ => Line::Unknown,
    }
}

fn setting(line: &str) -> Line<'_> {
    let bytes = line.as_bytes();
    let end = bytes
        .iter()
        .position(|&b| !is_name_byte(b))
        .unwrap_or(bytes.len());
    if end == 0 {
        return Line::Unknown;
    }
    let (name, rest) = line.split_at(end);
    if let Some(value) = rest.strip_prefix('=') {
        return Line::Scalar { name, value };
    }
    if let Some(after) = rest.strip_prefix("[]") {
        if let Some(value) = after.strip_prefix('=') {
            return Line::Append { name, value };
        }
        return if after.trim().is_empty() {
            Line::Clear { name }
        } else {
            Line::Unknown
        };
    }
    if let Some(inner) = rest.strip_prefix('[')
        && let Some(close) = inner.find(']')
    {
        let key = &inner[..close];
        if let Some(value) = inner[close + 1..].strip_prefix('=') {
            return Line::Entry { name, key, value };
        }
    }
    Line::Unknown
}

#[cfg(test)]
mod tests {
    use super::{Line, classify};

    #[test]
    fn the_five_setting_forms() {
        assert_eq!(
            classify("SiteName=Example site"),
            Line::Scalar {
                name: "SiteName",
                value: "Example site"
            }
        );
        assert_eq!(
            classify("SiteList[]=admin"),
            Line::Append {
                name: "SiteList",
                value: "admin"
            }
        );
        assert_eq!(
            classify("SiteList[]="),
            Line::Append {
                name: "SiteList",
                value: ""
            }
        );
        assert_eq!(classify("SiteList[]"), Line::Clear { name: "SiteList" });
        assert_eq!(classify("SiteList[]  "), Line::Clear { name: "SiteList" });
        assert_eq!(
            classify("LanguageSA[eng-GB]=site"),
            Line::Entry {
                name: "LanguageSA",
                key: "eng-GB",
                value: "site"
            }
        );
        assert_eq!(
            classify("Map[a b=c]=x=y"),
            Line::Entry {
                name: "Map",
                key: "a b=c",
                value: "x=y"
            }
        );
    }

    #[test]
    fn names_use_the_allowed_characters_only() {
        assert_eq!(
            classify("a-Z_0*@=1"),
            Line::Scalar {
                name: "a-Z_0*@",
                value: "1"
            }
        );
        assert_eq!(classify("Na.me=1"), Line::Unknown);
        assert_eq!(classify("=value"), Line::Unknown);
        assert_eq!(classify("Name"), Line::Unknown);
        assert_eq!(classify("Name[key]"), Line::Unknown);
        assert_eq!(classify("Name[key"), Line::Unknown);
        assert_eq!(classify("Name[]x"), Line::Unknown);
        assert_eq!(classify("Näme=1"), Line::Unknown);
    }

    #[test]
    fn values_are_verbatim() {
        assert_eq!(
            classify("A=  spaced \"quoted\" \\n  "),
            Line::Scalar {
                name: "A",
                value: "  spaced \"quoted\" \\n  "
            }
        );
        assert_eq!(
            classify("A="),
            Line::Scalar {
                name: "A",
                value: ""
            }
        );
        assert_eq!(
            classify("A=b=c"),
            Line::Scalar {
                name: "A",
                value: "b=c"
            }
        );
    }

    #[test]
    fn comments_and_trailing_comments() {
        assert_eq!(classify("#Name=value"), Line::Blank);
        assert_eq!(classify("## heading"), Line::Blank);
        assert_eq!(classify(""), Line::Blank);
        assert_eq!(classify("   \t"), Line::Blank);
        assert_eq!(classify("   ## indented comment"), Line::Blank);
        assert_eq!(
            classify("A=x   ## cut"),
            Line::Scalar {
                name: "A",
                value: "x"
            }
        );
        // The last `##` cuts; earlier ones stay in the value.
        assert_eq!(
            classify("A=x##y ## cut"),
            Line::Scalar {
                name: "A",
                value: "x##y"
            }
        );
        // A single `#` is part of the value.
        assert_eq!(
            classify("Color=#ff0000 # not a comment"),
            Line::Scalar {
                name: "Color",
                value: "#ff0000 # not a comment"
            }
        );
        assert_eq!(classify("A[] ## cut"), Line::Clear { name: "A" });
        assert_eq!(classify("[Group] ## cut"), Line::Group("Group"));
    }

    #[test]
    fn the_last_double_hash_is_found() {
        use super::cut_comment;
        assert_eq!(cut_comment("a###"), "a#");
        assert_eq!(cut_comment("##"), "");
        assert_eq!(cut_comment("a # b #"), "a # b #");
        assert_eq!(cut_comment("a## b ##c# d"), "a## b");
        assert_eq!(cut_comment("é##ü"), "é");
    }

    #[test]
    fn group_headers() {
        assert_eq!(classify("[SiteSettings]"), Line::Group("SiteSettings"));
        assert_eq!(
            classify("[ Site Settings ]  "),
            Line::Group("Site Settings")
        );
        assert_eq!(classify("[a]b]"), Line::Group("a]b"));
        assert_eq!(classify("[ ]"), Line::Group(""));
        assert_eq!(classify("[]"), Line::Unknown);
        assert_eq!(classify("[Open"), Line::Unknown);
        assert_eq!(classify("[Group] trailing"), Line::Unknown);
    }

    #[test]
    fn indented_lines_and_wrappers() {
        assert_eq!(classify("  Name=value"), Line::Indented);
        assert_eq!(classify("\t[Group]"), Line::Indented);
        assert_eq!(classify("\u{a0}Name=value"), Line::Indented);
        assert_eq!(classify("<?php /* #?ini charset=\"utf-8\"?"), Line::Wrapper);
        assert_eq!(classify("*/ ?>"), Line::Wrapper);
    }
}
