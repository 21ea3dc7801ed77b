//! The settings reader: the INI dialect a CMS site is configured in.
//!
//! A site's behaviour lives in a handful of settings files (`site.ini`,
//! `content.ini`, ...) that are read on every request, then overridden
//! per site access and per installation by files of the same name in other
//! directories. The dialect is line based and forgiving: a line that says
//! nothing the reader understands is skipped with a warning, never an
//! error, because one stray line must not take a site down.
//!
//! - [`lex`]: what one line says.
//! - [`store`]: the merged store and its lookups.
//! - [`value`]: typed values (scalar, array, hash) and groups.
//! - [`decode`]: charset, UTF-8 checking, latin1, errors.
//! - [`overrides`]: the directory chain and the site-wide view.
//! - [`write`]: saving a store so it reads back the same.
//! - [`cache`]: a merged store kept in the file cache, read back while its
//!   files are unchanged.

mod cache;
mod decode;
mod lex;
mod overrides;
pub mod probe;
mod store;
mod value;
mod write;

pub use cache::{Found, SettingsCache};
pub use decode::SettingsError;
pub use overrides::{SiteSettings, candidates, load};
pub use store::{Settings, Warning};
pub use value::{Group, OrderedMap, Value};
pub use write::{WriteError, write};

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Lines built from the dialect's own pieces, so the generator reaches
    /// every form and the odd corners between them far more often than
    /// random bytes would.
    fn line() -> impl Strategy<Value = String> {
        let name = "[A-Za-z0-9_*@-]{1,6}";
        let text = "[ -~\u{e9}\u{2603}#\\[\\]=]{0,12}";
        prop_oneof![
            (name, text).prop_map(|(n, v)| format!("{n}={v}")),
            (name, text).prop_map(|(n, v)| format!("{n}[]={v}")),
            name.prop_map(|n| format!("{n}[]")),
            (name, "[^\\]\n]{0,5}", text).prop_map(|(n, k, v)| format!("{n}[{k}]={v}")),
            // One-letter names and short keys, so appends, named entries,
            // integer keys and clears land on the same variable often.
            ("[AB]", text).prop_map(|(n, v)| format!("{n}[]={v}")),
            ("[AB]", "[0-2k]{1,2}", text).prop_map(|(n, k, v)| format!("{n}[{k}]={v}")),
            "[AB]".prop_map(|n| format!("{n}[]")),
            "[ -~]{0,8}".prop_map(|g| format!("[{g}]")),
            text.prop_map(|t| format!("#{t}")),
            (name, text, text).prop_map(|(n, v, c)| format!("{n}={v} ##{c}")),
            text,
            Just(String::new()),
            Just("<?php /* #?ini charset=\"iso-8859-1\"?".to_string()),
            Just("*/ ?>".to_string()),
        ]
    }

    fn document() -> impl Strategy<Value = String> {
        prop::collection::vec(line(), 0..40).prop_map(|lines| lines.join("\n"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn reader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
            let _ = Settings::parse("fuzz.ini", &bytes);
        }

        #[test]
        fn reader_never_panics_on_dialect_lines(text in document(), crlf in any::<bool>()) {
            let text = if crlf { text.replace('\n', "\r\n") } else { text };
            let s = Settings::parse("fuzz.ini", text.as_bytes());
            if let Ok(s) = s {
                for (g, group) in s.groups() {
                    for (n, _) in group.iter() {
                        prop_assert!(s.has_variable(g, n));
                    }
                }
            }
        }

        #[test]
        fn parse_write_parse_is_stable(text in document()) {
            let first = Settings::parse_str("a.ini", &text);
            let written = write(&first).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let second = Settings::parse_str("b.ini", &written);
            prop_assert_eq!(&first, &second, "written:\n{}", written);
            prop_assert!(second.warnings().is_empty());
            prop_assert_eq!(write(&second).ok(), Some(written));
        }
    }
}
