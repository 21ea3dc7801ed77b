//! Lookup: fallback order, numerus selection and argument substitution.

use crate::host::Translator;
use crate::i18n::{PluralRule, load_bytes};

use super::Catalogue;

fn catalogue(language: &str, body: &str) -> Catalogue {
    let text = format!("<TS language=\"{language}\">{body}</TS>");
    load_bytes("t.ts", text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn message(source: &str, comment: &str, translation: &str) -> String {
    let comment = if comment.is_empty() {
        String::new()
    } else {
        format!("<comment>{comment}</comment>")
    };
    format!(
        "<message><source>{source}</source>{comment}<translation>{translation}</translation></message>"
    )
}

fn fallback_catalogue() -> Catalogue {
    let body = [
        message("Open", "", "Öffnen"),
        message("Open", "Adjective", "Offen"),
        message("Save", "Verb", ""),
        message("Save", "", "Speichern"),
        message("Close", "Verb", "Schließen"),
        message("Empty", "", ""),
    ]
    .concat();
    catalogue("de_DE", &format!("<context><name>c</name>{body}</context>"))
}

#[test]
fn the_exact_key_wins_over_the_key_without_comment() {
    let c = fallback_catalogue();
    assert_eq!(c.translate("c", "Open", "Adjective"), Some("Offen"));
    assert_eq!(c.translate("c", "Open", ""), Some("Öffnen"));
}

#[test]
fn an_unknown_comment_falls_back_to_the_message_without_comment() {
    let c = fallback_catalogue();
    assert_eq!(c.translate("c", "Open", "Noun"), Some("Öffnen"));
}

#[test]
fn an_empty_translation_falls_back_like_a_missing_one() {
    let c = fallback_catalogue();
    assert_eq!(c.translate("c", "Save", "Verb"), Some("Speichern"));
    assert_eq!(c.translate("c", "Empty", ""), None);
    assert_eq!(c.tr("c", "Empty", ""), "Empty");
}

#[test]
fn the_fallback_never_goes_from_no_comment_to_a_comment() {
    let c = fallback_catalogue();
    assert_eq!(c.translate("c", "Close", ""), None);
    assert_eq!(c.translate("c", "Close", "Verb"), Some("Schließen"));
}

#[test]
fn a_miss_returns_the_source_and_is_counted() {
    let c = fallback_catalogue();
    assert_eq!(c.misses(), 0);
    assert_eq!(c.tr("c", "Nowhere", "x"), "Nowhere");
    assert_eq!(c.tr("other", "Open", ""), "Open");
    assert_eq!(c.tr("c", "Open", ""), "Öffnen");
    assert_eq!(c.misses(), 2);
}

#[test]
fn contexts_keep_messages_apart_and_empty_means_default() {
    let c = catalogue(
        "de",
        &format!(
            "<context><name>a</name>{}</context><context><name>b</name>{}</context>\
             <context><name>default</name>{}</context>",
            message("X", "", "Xa"),
            message("X", "", "Xb"),
            message("X", "", "Xd"),
        ),
    );
    assert_eq!(c.translate("a", "X", ""), Some("Xa"));
    assert_eq!(c.translate("b", "X", ""), Some("Xb"));
    assert_eq!(c.translate("", "X", ""), Some("Xd"));
}

#[test]
fn keys_do_not_run_into_each_other() {
    // Same concatenation, different split between the three parts.
    let c = catalogue(
        "de",
        &format!(
            "<context><name>ab</name>{}</context><context><name>a</name>{}</context>",
            message("c", "", "one"),
            message("bc", "", "two"),
        ),
    );
    assert_eq!(c.translate("ab", "c", ""), Some("one"));
    assert_eq!(c.translate("a", "bc", ""), Some("two"));
    assert_eq!(c.translate("a", "b", "c"), None);
}

fn numerus_catalogue(language: &str) -> Catalogue {
    catalogue(
        language,
        "<context><name>n</name>\
         <message numerus=\"yes\"><source>%n file(s)</source><translation>\
         <numerusform>%n Datei</numerusform><numerusform>%n Dateien</numerusform></translation></message>\
         <message numerus=\"yes\"><source>%n day(s)</source><translation>\
         <numerusform>ein Tag</numerusform></translation></message>\
         <message numerus=\"yes\"><source>%n row(s)</source><translation type=\"unfinished\">\
         <numerusform>%n Zeile</numerusform><numerusform></numerusform></translation></message>\
         <message><source>plain</source><translation>schlicht</translation></message>\
         </context>",
    )
}

#[test]
fn numerus_forms_follow_the_german_rule() {
    let c = numerus_catalogue("de_DE");
    assert_eq!(c.plural_rule(), PluralRule::OneOther);
    let form = |n| c.translate_count("n", "%n file(s)", "", n);
    assert_eq!(form(1), Some("%n Datei"));
    assert_eq!(form(0), Some("%n Dateien"));
    assert_eq!(form(2), Some("%n Dateien"));
    assert_eq!(form(21), Some("%n Dateien"));
    assert_eq!(c.tr_count("n", "%n file(s)", "", 1, &[]), "1 Datei");
    assert_eq!(c.tr_count("n", "%n file(s)", "", 7, &[]), "7 Dateien");
    // Without a count, the first form.
    assert_eq!(c.translate("n", "%n file(s)", ""), Some("%n Datei"));
}

#[test]
fn english_catalogues_use_the_same_rule() {
    let c = numerus_catalogue("en_GB");
    assert_eq!(
        c.translate_count("n", "%n file(s)", "", 1),
        Some("%n Datei")
    );
    assert_eq!(
        c.translate_count("n", "%n file(s)", "", 3),
        Some("%n Dateien")
    );
}

#[test]
fn missing_or_empty_forms_fall_back_sensibly() {
    let c = numerus_catalogue("de");
    // One form only: every count past it takes the last one.
    assert_eq!(c.translate_count("n", "%n day(s)", "", 5), Some("ein Tag"));
    // An empty form is untranslated: the source, with %n, is shown.
    assert_eq!(c.translate_count("n", "%n row(s)", "", 1), Some("%n Zeile"));
    assert_eq!(c.translate_count("n", "%n row(s)", "", 2), None);
    assert_eq!(c.tr_count("n", "%n row(s)", "", 2, &[]), "2 row(s)");
    // A plain message answers a counted lookup with its text.
    assert_eq!(c.translate_count("n", "plain", "", 2), Some("schlicht"));
}

#[test]
fn an_unknown_plural_rule_shows_the_source() {
    let c = numerus_catalogue("pl_PL");
    assert_eq!(c.plural_rule(), PluralRule::Unknown);
    assert_eq!(c.translate_count("n", "%n file(s)", "", 2), None);
    assert_eq!(c.tr_count("n", "%n file(s)", "", 2, &[]), "2 file(s)");
    assert_eq!(c.translate_count("n", "plain", "", 2), Some("schlicht"));
}

#[test]
fn arguments_are_substituted_after_lookup() {
    let c = catalogue(
        "de",
        &format!(
            "<context><name>s</name>{}{}</context>",
            message("%1 of %2", "", "%1 von %2"),
            message("Hello %name", "", "Hallo %name, %1"),
        ),
    );
    assert_eq!(
        c.tr_args("s", "%1 of %2", "", &[("%1", "3"), ("%2", "9")]),
        "3 von 9"
    );
    assert_eq!(
        c.tr_args("s", "Hello %name", "", &[("%name", "Ana"), ("%1", "%name")]),
        "Hallo Ana, %name"
    );
    // Untranslated text is substituted as well.
    assert_eq!(
        c.tr_args("s", "Bye %name", "", &[("%name", "Bo")]),
        "Bye Bo"
    );
    assert_eq!(c.tr_count("s", "%n of %1", "", 4, &[("%1", "x")]), "4 of x");
}

#[test]
fn the_catalogue_serves_the_template_engine_as_a_translator() {
    let c = fallback_catalogue();
    let translator: &dyn Translator = &c;
    assert_eq!(translator.translate("c", "Open", "Noun"), Some("Öffnen"));
    assert_eq!(translator.translate("c", "Missing", ""), None);
}
