//! The `locale` operator: `$code|locale().intl_language_name`,
//! `false()|locale.locale_code`. It gives a locale object for the given
//! code (`lll-CC`, optionally `@variation`), or for the site's current
//! locale when there is no code (`false()`, null, empty).
//!
//! The current locale's code comes from `site.ini` `[RegionalSettings]
//! Locale` (`eng-GB` without settings), the charset from `i18n.ini`
//! `[CharacterSettings] Charset` (`utf-8`). Language and country names come
//! from a small built-in table of the locales real sites use most, not
//! from the CMS's `share/locale/*.ini` files, which the kernel does not
//! read; an unknown code has its codes but empty names, and `is_valid`
//! false. The current locale also carries its number formats.

use std::sync::Arc;

use super::{Env, Locale, Unary};
use crate::host::{SettingValue, SettingsSource};
use crate::template::value::{Object, Value};

/// Language code: name in the language itself, international name.
const LANGUAGES: &[(&str, &str, &str)] = &[
    ("eng", "English", "English"),
    ("ger", "Deutsch", "German"),
    ("nor", "Norsk (bokmål)", "Norwegian (Bokmal)"),
    ("fre", "Français", "French"),
    ("esl", "Español", "Spanish"),
    ("ita", "Italiano", "Italian"),
    ("dut", "Nederlands", "Dutch"),
    ("swe", "Svenska", "Swedish"),
    ("dan", "Dansk", "Danish"),
    ("pol", "Polski", "Polish"),
];

const COUNTRIES: &[(&str, &str)] = &[
    ("GB", "United Kingdom"),
    ("US", "USA"),
    ("DE", "Germany"),
    ("NO", "Norway"),
    ("FR", "France"),
    ("ES", "Spain"),
    ("IT", "Italy"),
    ("NL", "Netherlands"),
    ("SE", "Sweden"),
    ("DK", "Denmark"),
    ("PL", "Poland"),
];

#[derive(Debug)]
struct LocaleInfo {
    /// `lll-CC@variation` as given.
    full_code: String,
    language: String,
    country: String,
    variation: String,
    charset: String,
    /// Number formats, known for the current locale only.
    formats: Option<Formats>,
}

#[derive(Debug)]
struct Formats {
    decimal_symbol: String,
    thousands_separator: String,
    decimal_count: i64,
    currency_symbol: String,
}

fn lookup<'t>(table: &'t [(&str, &str)], key: &str) -> Option<&'t str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

impl LocaleInfo {
    fn language_names(&self) -> Option<(&'static str, &'static str)> {
        LANGUAGES
            .iter()
            .find(|(code, _, _)| *code == self.language)
            .map(|&(_, own, intl)| (own, intl))
    }

    fn country_name(&self) -> &'static str {
        lookup(COUNTRIES, &self.country).unwrap_or("")
    }

    fn locale_code(&self) -> String {
        if self.country.is_empty() {
            self.language.clone()
        } else {
            format!("{}-{}", self.language, self.country)
        }
    }
}

impl Object for LocaleInfo {
    fn attribute(&self, name: &str) -> Option<Value> {
        let names = self.language_names();
        let country = self.country_name();
        // `English (United Kingdom)`; a name that already carries a
        // qualifier (`Norwegian (Bokmal)`) is left as it is.
        let with_country = |name: &str| match (name, country) {
            ("", _) => String::new(),
            (name, "") => name.to_string(),
            (name, _) if name.contains('(') => name.to_string(),
            (name, country) => format!("{name} ({country})"),
        };
        let text = match name {
            "locale_code" => self.locale_code(),
            "locale_full_code" => self.full_code.clone(),
            "http_locale_code" => {
                let lang = self.language.get(..2).unwrap_or(&self.language);
                match self.country.as_str() {
                    "" => lang.to_string(),
                    c => format!("{lang}-{}", c.to_ascii_lowercase()),
                }
            }
            "language_code" => self.language.clone(),
            "country_code" => self.country.clone(),
            "country_variation" => self.variation.clone(),
            "language_name" => names.map(|(own, _)| own.to_string()).unwrap_or_default(),
            "intl_language_name" => with_country(names.map_or("", |(_, intl)| intl)),
            "country_name" => country.to_string(),
            "charset" => self.charset.clone(),
            "is_valid" => return Some(Value::Bool(names.is_some())),
            _ => {
                let f = self.formats.as_ref()?;
                return match name {
                    "decimal_symbol" => Some(Value::str(&f.decimal_symbol)),
                    "thousands_separator" => Some(Value::str(&f.thousands_separator)),
                    "decimal_count" => Some(Value::Int(f.decimal_count)),
                    "currency_symbol" => Some(Value::str(&f.currency_symbol)),
                    _ => None,
                };
            }
        };
        Some(Value::from(text))
    }

    fn attribute_names(&self) -> Vec<String> {
        let mut names = vec![
            "locale_code",
            "locale_full_code",
            "http_locale_code",
            "language_code",
            "country_code",
            "country_variation",
            "language_name",
            "intl_language_name",
            "country_name",
            "charset",
            "is_valid",
        ];
        if self.formats.is_some() {
            names.extend([
                "decimal_symbol",
                "thousands_separator",
                "decimal_count",
                "currency_symbol",
            ]);
        }
        names.into_iter().map(String::from).collect()
    }

    fn class_name(&self) -> String {
        "ezlocale".into()
    }
}

fn scalar(settings: Option<&dyn SettingsSource>, file: &str, group: &str, name: &str) -> String {
    match settings.and_then(|s| s.setting(file, group, name)) {
        Some(SettingValue::Scalar(v)) => v,
        _ => String::new(),
    }
}

/// `code|locale`, `locale(code)`: the locale object for `code`, or the
/// current one.
pub fn locale(u: Unary, env: &Env) -> Value {
    let given = match &*u.subject {
        Value::Null | Value::Bool(false) => String::new(),
        v => v.to_text().trim().to_string(),
    };
    let current = {
        let code = scalar(env.settings, "site.ini", "RegionalSettings", "Locale");
        if code.is_empty() {
            env.locale.code.clone()
        } else {
            code
        }
    };
    let is_current = given.is_empty() || given == current;
    let full_code = if given.is_empty() { current } else { given };
    let (code, variation) = full_code
        .split_once('@')
        .map_or((full_code.as_str(), ""), |(c, v)| (c, v));
    let (language, country) = code.split_once('-').unwrap_or((code, ""));
    let charset = match scalar(env.settings, "i18n.ini", "CharacterSettings", "Charset") {
        c if c.is_empty() => "utf-8".to_string(),
        c => c,
    };
    let formats = is_current.then(|| formats(env.locale));
    Value::Object(Arc::new(LocaleInfo {
        language: language.to_string(),
        country: country.to_string(),
        variation: variation.to_string(),
        full_code: full_code.clone(),
        charset,
        formats,
    }))
}

fn formats(l: &Locale) -> Formats {
    Formats {
        decimal_symbol: l.decimal_symbol.clone(),
        thousands_separator: l.thousands_separator.clone(),
        decimal_count: l.decimals as i64,
        currency_symbol: l.currency_symbol.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{run_with, with_env};
    use crate::template::value::Value;

    fn attr(input: Value, name: &str) -> String {
        with_env(false, |env| {
            let v = run_with(env, "locale", Some(input), &[]);
            v.attr(name)
                .map(|v| v.to_text().into_owned())
                .unwrap_or_else(|| "<none>".into())
        })
    }

    #[test]
    fn a_given_code() {
        let nor = || Value::str("nor-NO");
        assert_eq!(attr(nor(), "locale_code"), "nor-NO");
        assert_eq!(attr(nor(), "language_code"), "nor");
        assert_eq!(attr(nor(), "country_code"), "NO");
        assert_eq!(attr(nor(), "country_name"), "Norway");
        assert_eq!(attr(nor(), "language_name"), "Norsk (bokmål)");
        assert_eq!(attr(nor(), "intl_language_name"), "Norwegian (Bokmal)");
        assert_eq!(
            attr(Value::str("ger-DE"), "intl_language_name"),
            "German (Germany)"
        );
        assert_eq!(attr(nor(), "http_locale_code"), "no-no");
        assert_eq!(attr(nor(), "charset"), "utf-8");
        // Number formats are the current locale's only.
        assert_eq!(attr(nor(), "decimal_symbol"), "<none>");
        assert_eq!(attr(Value::str("ger-DE@euro"), "country_variation"), "euro");
        assert_eq!(attr(Value::str("ger-DE@euro"), "locale_code"), "ger-DE");
        assert_eq!(attr(Value::str("xxx-YY"), "is_valid"), "");
        assert_eq!(attr(Value::str("xxx-YY"), "language_name"), "");
    }

    #[test]
    fn no_code_is_the_current_locale() {
        for input in [Value::Bool(false), Value::Null, Value::str("")] {
            assert_eq!(attr(input.clone(), "locale_code"), "eng-GB");
            assert_eq!(
                attr(input.clone(), "intl_language_name"),
                "English (United Kingdom)"
            );
            assert_eq!(attr(input, "decimal_symbol"), ".");
        }
    }
}
