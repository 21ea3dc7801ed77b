//! Which numerus form a count selects, per catalogue language.
//!
//! Only the rule German and English share is known: one form for exactly
//! one, another for every other count (0 included: "0 Elemente",
//! "0 items"). A language whose rule is unknown selects nothing, so the
//! caller shows the source text instead of a form that may be wrong.

/// A plural rule: maps a count to the index of a numerus form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluralRule {
    /// Form 0 for a count of exactly one, form 1 otherwise (German, English).
    OneOther,
    /// A language this catalogue has no rule for.
    Unknown,
}

impl PluralRule {
    /// The rule of a catalogue `language` such as `de_DE`, `de-AT` or `en`.
    pub fn for_language(language: &str) -> PluralRule {
        let base = language
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or_default();
        if base.eq_ignore_ascii_case("de") || base.eq_ignore_ascii_case("en") {
            PluralRule::OneOther
        } else {
            PluralRule::Unknown
        }
    }

    /// The numerus form index for `count`, or `None` for an unknown rule.
    /// Negative counts choose like their magnitude ("-1 Grad").
    pub fn form(self, count: i64) -> Option<usize> {
        match self {
            PluralRule::OneOther => Some(if count.unsigned_abs() == 1 { 0 } else { 1 }),
            PluralRule::Unknown => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PluralRule;

    #[test]
    fn german_and_english_pick_singular_only_for_one() {
        for lang in ["de_DE", "de", "DE-at", "en", "en_GB", "en_US.UTF-8"] {
            let rule = PluralRule::for_language(lang);
            assert_eq!(rule, PluralRule::OneOther, "{lang}");
            assert_eq!(rule.form(1), Some(0));
            assert_eq!(rule.form(-1), Some(0));
            for n in [0, 2, 5, 11, 21, 101, -2, i64::MIN, i64::MAX] {
                assert_eq!(rule.form(n), Some(1), "{lang} {n}");
            }
        }
    }

    #[test]
    fn other_languages_choose_nothing() {
        for lang in ["", "fr_FR", "pl", "ru_RU", "den", "e"] {
            let rule = PluralRule::for_language(lang);
            assert_eq!(rule, PluralRule::Unknown, "{lang}");
            assert_eq!(rule.form(1), None);
        }
    }
}
