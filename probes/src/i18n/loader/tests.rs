//! The format's rules, one test each, and the loader's errors with their
//! positions.

use proptest::prelude::*;

use super::*;
use crate::i18n::{ErrorKind, LocationLine, TranslationKind};

fn load(text: &str) -> Result<Catalogue, LoadError> {
    load_bytes("t.ts", text.as_bytes())
}

fn ok(text: &str) -> Catalogue {
    load(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The error of loading `text`, with its line and column.
fn err(text: &str) -> (ErrorKind, u32, u32) {
    let e = load(text).expect_err("loading should fail");
    assert_eq!(e.file, "t.ts");
    let p = e.position.expect("a position");
    (e.kind, p.line, p.column)
}

fn in_ts(body: &str) -> String {
    format!("<TS language=\"de_DE\">\n<context>\n<name>c</name>\n{body}\n</context>\n</TS>\n")
}

const SAMPLE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.0" language="de_DE" sourcelanguage="en">
<context>
    <name>design/standard/content/search</name>
    <message>
        <location filename="search.tpl" line="12"/>
        <source>Search</source>
        <comment>Button label</comment>
        <translatorcomment>Short!</translatorcomment>
        <extracomment>In the top bar</extracomment>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>%count results for &lt;em&gt;%phrase&lt;/em&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n Element</numerusform>
            <numerusform>%n Elemente</numerusform>
        </translation>
    </message>
</context>
</TS>
"#;

#[test]
fn a_catalogue_loads_with_every_part_of_a_message() {
    let c = ok(SAMPLE);
    assert_eq!(
        (c.version(), c.language(), c.source_language()),
        ("2.0", "de_DE", "en")
    );
    assert_eq!(
        c.contexts().collect::<Vec<_>>(),
        ["design/standard/content/search"]
    );
    let m: Vec<_> = c.messages().collect();
    assert_eq!(m.len(), 3);
    assert_eq!(m[0].context(), "design/standard/content/search");
    assert_eq!(m[0].source(), "Search");
    assert_eq!(m[0].comment(), "Button label");
    assert_eq!(m[0].translator_comment(), "Short!");
    assert_eq!(m[0].extra_comment(), "In the top bar");
    assert_eq!(m[0].translation(), "Suchen");
    assert_eq!(m[0].kind(), TranslationKind::Finished);
    assert_eq!(
        m[0].locations().collect::<Vec<_>>(),
        [("search.tpl", LocationLine::Absolute(12))]
    );
    assert_eq!(m[1].source(), "%count results for <em>%phrase</em>");
    assert_eq!(m[1].translation(), "");
    assert_eq!(m[1].kind(), TranslationKind::Unfinished);
    assert!(m[2].is_numerus());
    assert_eq!(
        m[2].forms().collect::<Vec<_>>(),
        ["%n Element", "%n Elemente"]
    );
    let s = c.stats();
    assert_eq!(
        (s.contexts, s.messages, s.unfinished, s.empty, s.numerus),
        (1, 3, 1, 1, 1)
    );
    assert_eq!((s.obsolete, s.vanished, s.duplicates), (0, 0, 0));
    assert_eq!(c.len(), 3);
}

#[test]
fn root_attributes_are_optional() {
    let c = ok("<TS><context><name>x</name></context></TS>");
    assert_eq!(
        (c.version(), c.language(), c.source_language()),
        ("", "", "")
    );
    assert_eq!(c.stats().contexts, 1);
    assert!(ok("<TS/>").is_empty());
}

#[test]
fn entities_character_references_cdata_and_bytes_become_characters() {
    let c = ok(&in_ts(
        "<message><source>a &amp; b &lt;&gt; &quot;q&quot; &apos;s&apos;</source>\
         <translation>&#228;&#xFC;&#x1F600;<![CDATA[<raw> & ]]><byte value=\"x9\"/>|<byte value=\"65\"/></translation></message>",
    ));
    let m = c.messages().next().unwrap();
    assert_eq!(m.source(), "a & b <> \"q\" 's'");
    assert_eq!(m.translation(), "äü😀<raw> & \t|A");
}

#[test]
fn line_ends_are_normalised_and_whitespace_kept() {
    let c = ok(&in_ts(
        "<message><source>two\r\nlines\rhere</source><translation>  padded  </translation></message>",
    ));
    let m = c.messages().next().unwrap();
    assert_eq!(m.source(), "two\nlines\nhere");
    assert_eq!(m.translation(), "  padded  ");
    let c = ok(&in_ts(
        "<message><source><![CDATA[a\r\nb]]></source><comment>c&#13;d</comment></message>",
    ));
    let m = c.messages().next().unwrap();
    assert_eq!((m.source(), m.comment()), ("a\nb", "c\rd"));
    // A reference to a carriage return is kept, in a file with no other.
    let c = ok(&in_ts("<message><source>a&#13;\nb</source></message>"));
    assert_eq!(c.messages().next().unwrap().source(), "a\r\nb");
}

#[test]
fn an_empty_or_missing_context_name_means_default() {
    let c = ok(
        "<TS><context><name></name><message><source>a</source><translation>A</translation></message></context>\
                <context><message><source>b</source><translation>B</translation></message></context>\
                <context><name/></context></TS>",
    );
    assert_eq!(c.contexts().collect::<Vec<_>>(), ["default"; 3]);
    let contexts: Vec<_> = c.messages().map(|m| m.context()).collect();
    assert_eq!(contexts, ["default", "default"]);
    assert_eq!(c.translate("", "a", ""), Some("A"));
    assert_eq!(c.translate("default", "b", ""), Some("B"));
}

#[test]
fn translation_types_are_loaded_and_counted() {
    let c = ok(&in_ts(
        "<message><source>u</source><translation type=\"unfinished\">U</translation></message>\
         <message><source>o</source><translation type=\"obsolete\">O</translation></message>\
         <message><source>v</source><translation type=\"vanished\">V</translation></message>\
         <message><source>e</source><translation></translation></message>\
         <message><source>n</source></message>",
    ));
    let kinds: Vec<_> = c.messages().map(|m| m.kind()).collect();
    use TranslationKind::*;
    assert_eq!(kinds, [Unfinished, Obsolete, Vanished, Finished, Finished]);
    let s = c.stats();
    assert_eq!(
        (s.unfinished, s.obsolete, s.vanished, s.empty),
        (1, 1, 1, 2)
    );
    assert_eq!(c.translate("c", "o", ""), Some("O"));
    assert_eq!(c.translate("c", "u", ""), Some("U"));
    assert_eq!(c.translate("c", "e", ""), None);
}

#[test]
fn a_numerus_message_with_every_form_empty_counts_as_empty() {
    let c = ok(&in_ts(
        "<message numerus=\"yes\"><source>%n x</source><translation type=\"unfinished\">\n\
         <numerusform></numerusform><numerusform/></translation></message>\
         <message numerus=\"no\"><source>y</source><translation>Y</translation></message>",
    ));
    let s = c.stats();
    assert_eq!((s.numerus, s.empty), (1, 1));
    assert!(!c.messages().nth(1).unwrap().is_numerus());
}

#[test]
fn a_later_duplicate_replaces_the_earlier_and_is_reported() {
    let text = in_ts(
        "<message><source>a</source><translation>first</translation></message>\n\
         <message><source>a</source><comment>k</comment><translation>other key</translation></message>\n\
         <message><source>a</source><translation>second</translation></message>",
    );
    let c = ok(&text);
    assert_eq!(c.translate("c", "a", ""), Some("second"));
    assert_eq!(c.translate("c", "a", "k"), Some("other key"));
    assert_eq!(
        (c.stats().duplicates, c.stats().messages, c.len()),
        (1, 3, 2)
    );
    let shadowed: Vec<_> = c.messages().map(|m| m.is_shadowed()).collect();
    assert_eq!(shadowed, [true, false, false]);
    let w = &c.warnings()[0];
    assert_eq!((w.position.line, w.position.column), (6, 1));
    assert!(
        w.message.contains("duplicate") && w.message.contains("\"a\""),
        "{w}"
    );
}

#[test]
fn locations_may_be_absolute_relative_or_bare() {
    let c = ok(&in_ts(
        "<message><location filename=\"a.tpl\" line=\"7\"/><location line=\"+3\"/>\
         <location line=\"-2\"/><location filename=\"b&amp;c.tpl\"/><source>s</source></message>",
    ));
    let m = c.messages().next().unwrap();
    assert_eq!(
        m.locations().collect::<Vec<_>>(),
        [
            ("a.tpl", LocationLine::Absolute(7)),
            ("", LocationLine::Relative(3)),
            ("", LocationLine::Relative(-2)),
            ("b&c.tpl", LocationLine::None),
        ]
    );
}

#[test]
fn attributes_read_alike_however_they_are_written() {
    let plain = "<location filename=\"a\tb&lt;.tpl\" line=\"7\"/>";
    let spaced = "<location  filename = 'a\tb&lt;.tpl'\nline= \"7\" />";
    for location in [plain, spaced] {
        let c = ok(&in_ts(&format!(
            "<message>{location}<source>s</source></message>"
        )));
        let m = c.messages().next().unwrap();
        let got: Vec<_> = m.locations().collect();
        assert_eq!(got, [("a b<.tpl", LocationLine::Absolute(7))], "{location}");
    }
    for (location, column) in [
        ("<location line=\"1\" line=\"2\"/>", 10),
        ("<location line = \"1\" line=\"2\"/>", 10),
    ] {
        let (kind, line, col) = err(&in_ts(&format!(
            "<message>{location}<source>a</source></message>"
        )));
        let repeated = ErrorKind::NotXml("attribute `line` is repeated".into());
        assert_eq!((kind, line, col), (repeated, 4, column), "{location}");
    }
}

#[test]
fn elements_outside_the_format_are_skipped_with_their_content() {
    let c = ok(
        "<TS><dependencies><dependency catalog=\"qt\"/></dependencies>\
                <context><name>c</name><extra-note>x<message/></extra-note>\
                <message><source>s</source><oldsource>old</oldsource><extra-po-flags>f</extra-po-flags>\
                <translation>T</translation><userdata/></message></context></TS>",
    );
    assert_eq!(c.stats().skipped_elements, 5);
    assert_eq!(c.translate("c", "s", ""), Some("T"));
    assert_eq!(c.stats().messages, 1);
}

#[test]
fn comments_and_processing_instructions_are_ignored() {
    let c = ok(
        "<?xml version=\"1.0\"?><!-- head --><TS><?pi x?><context><!-- c --><name>c<!-- in -->d</name>\
                <message><source>s</source><translation>T<!-- mid -->U</translation></message></context></TS><!-- tail -->",
    );
    assert_eq!(c.translate("cd", "s", ""), Some("TU"));
}

#[test]
fn not_xml_is_an_error_at_its_start() {
    let (kind, line, col) = err("hello, world");
    assert!(matches!(kind, ErrorKind::NotXml(_)), "{kind:?}");
    assert_eq!((line, col), (1, 1));
    let (kind, _, _) = err("");
    assert_eq!(kind, ErrorKind::NotXml("the file is empty".into()));
    let (kind, line, _) = err("\n\n  \n");
    assert_eq!(
        (kind, line),
        (ErrorKind::NotXml("the file is empty".into()), 4)
    );
    let (kind, line, col) = err("<?xml version=\"1.0\"?>\n<!-- only a comment -->\n");
    assert_eq!(kind, ErrorKind::NotXml("no root element".into()));
    assert_eq!((line, col), (3, 1));
}

#[test]
fn invalid_utf8_is_an_error_at_its_place() {
    let mut bytes = b"<TS>\n<context>\n<message><source>ok</source>\n<translation>x".to_vec();
    bytes.extend_from_slice(b"\xff\xfe</translation></message></context></TS>");
    let e = load_bytes("t.ts", &bytes).err().unwrap();
    assert!(matches!(e.kind, ErrorKind::NotXml(_)), "{e}");
    assert_eq!(
        e.position,
        Some(Position {
            line: 4,
            column: 15
        })
    );
}

#[test]
fn a_wrong_root_is_named_at_its_position() {
    let (kind, line, col) = err("<?xml version=\"1.0\"?>\n  <html><body/></html>");
    assert_eq!(kind, ErrorKind::WrongRoot("html".into()));
    assert_eq!((line, col), (2, 3));
}

#[test]
fn a_message_without_source_is_reported_at_its_start() {
    let text = in_ts("<message>\n  <translation>T</translation>\n</message>");
    assert_eq!(err(&text), (ErrorKind::MessageWithoutSource, 4, 1));
    let text = in_ts("<message><source>a</source></message> <message/>");
    assert_eq!(err(&text), (ErrorKind::MessageWithoutSource, 4, 39));
}

#[test]
fn a_truncated_file_names_the_open_element_at_the_end() {
    let full = in_ts("<message><source>a</source><translation>Ä</translation></message>");
    let cut = &full[..full.find("</translation>").unwrap()];
    let (kind, line, col) = err(cut);
    assert_eq!(kind, ErrorKind::Truncated("translation".into()));
    assert_eq!((line, col), (4, 42));
    // Cut inside a tag.
    let cut = &full[..full.find("</message>").unwrap() + 4];
    let (kind, line, col) = err(cut);
    assert_eq!(kind, ErrorKind::Truncated("message".into()));
    assert_eq!((line, col), (4, 56));
    // Cut inside a skipped element.
    let (kind, _, _) = err("<TS><context><extra>x<y>");
    assert!(matches!(kind, ErrorKind::Truncated(_)), "{kind:?}");
    // Every cut before the root's end tag fails.
    for end in 0..full.trim_end().len() {
        if full.is_char_boundary(end) {
            assert!(load(&full[..end]).is_err(), "cut at {end} loaded");
        }
    }
}

#[test]
fn misplaced_elements_name_element_and_parent() {
    let misplaced = |e: &str, p: &str| ErrorKind::Misplaced {
        element: e.into(),
        parent: p.into(),
    };
    assert_eq!(
        err("<TS>\n<message/></TS>"),
        (misplaced("message", "TS"), 2, 1)
    );
    assert_eq!(
        err(&in_ts("<source>a</source>")),
        (misplaced("source", "context"), 4, 1)
    );
    assert_eq!(
        err(&in_ts("<message><source>a<b>bold</b></source></message>")),
        (misplaced("b", "source"), 4, 19)
    );
    assert_eq!(
        err(&in_ts(
            "<message><source>a</source><translation><numerusform>x</numerusform></translation></message>"
        )),
        (misplaced("numerusform", "translation"), 4, 41)
    );
    assert_eq!(
        err(&in_ts(
            "<message numerus=\"yes\"><source>a</source><translation><byte value=\"x9\"/></translation></message>"
        )),
        (misplaced("byte", "translation"), 4, 55)
    );
    assert_eq!(
        err(&in_ts("<message><source>a</source></message><context/>")),
        (misplaced("context", "context"), 4, 38)
    );
    let (kind, line, _) = err(&in_ts(
        "<message><source>a</source></message><name>late</name>",
    ));
    assert!(matches!(kind, ErrorKind::Misplaced { .. }), "{kind:?}");
    assert_eq!(line, 4);
}

#[test]
fn repeated_elements_are_errors() {
    let rep = |e: &str| ErrorKind::Repeated(e.into());
    assert_eq!(
        err(&in_ts(
            "<message><source>a</source><source>b</source></message>"
        )),
        (rep("source"), 4, 28)
    );
    assert_eq!(
        err(&in_ts(
            "<message><source>a</source><translation/><translation/></message>"
        )),
        (rep("translation"), 4, 42)
    );
    assert_eq!(
        err(&in_ts(
            "<message><source>a</source><comment/><comment/></message>"
        )),
        (rep("comment"), 4, 38)
    );
    assert_eq!(
        err("<TS><context><name>a</name><name>b</name></context></TS>"),
        (rep("name"), 1, 28)
    );
}

#[test]
fn text_where_only_elements_belong_is_an_error() {
    assert_eq!(
        err(&in_ts("stray <message><source>a</source></message>")),
        (ErrorKind::UnexpectedText("stray".into()), 4, 1)
    );
    let (kind, line, col) = err(&in_ts(
        "<message numerus=\"yes\"><source>a</source><translation>x<numerusform/></translation></message>",
    ));
    assert_eq!(kind, ErrorKind::UnexpectedText("x".into()));
    assert_eq!((line, col), (4, 55));
    let (kind, _, _) = err(&in_ts("<message><source>a</source>&amp;</message>"));
    assert_eq!(kind, ErrorKind::UnexpectedText("&amp;".into()));
    assert_eq!(err("<TS/>\n<TS/>"), (ErrorKind::AfterRoot, 2, 1));
    assert_eq!(err("<TS/>\ntail"), (ErrorKind::AfterRoot, 2, 1));
}

#[test]
fn bad_attribute_values_are_named() {
    let bad = |e: &str, a: &str, v: &str| ErrorKind::BadAttribute {
        element: e.into(),
        attribute: a.into(),
        value: v.into(),
    };
    assert_eq!(
        err(&in_ts(
            "<message><source>a</source><translation type=\"done\">T</translation></message>"
        )),
        (bad("translation", "type", "done"), 4, 28)
    );
    assert_eq!(
        err(&in_ts(
            "<message><location line=\"twelve\"/><source>a</source></message>"
        )),
        (bad("location", "line", "twelve"), 4, 10)
    );
    for value in ["xZZ", "", "x0", "xD800", "x110000", "-1"] {
        let text = in_ts(&format!(
            "<message><source>a<byte value=\"{value}\"/></source></message>"
        ));
        assert_eq!(err(&text), (bad("byte", "value", value), 4, 19), "{value}");
    }
    let text = in_ts("<message><source>a<byte/></source></message>");
    assert_eq!(err(&text), (bad("byte", "value", ""), 4, 19));
}

#[test]
fn unknown_entities_and_bad_references_are_errors() {
    assert_eq!(
        err(&in_ts("<message><source>a&nbsp;b</source></message>")),
        (ErrorKind::UnknownEntity("nbsp".into()), 4, 19)
    );
    let (kind, line, col) = err(&in_ts("<message><source>&#0;</source></message>"));
    assert!(matches!(kind, ErrorKind::NotXml(_)), "{kind:?}");
    assert_eq!((line, col), (4, 18));
}

#[test]
fn mismatched_tags_are_not_xml() {
    let (kind, line, col) = err(&in_ts("<message><source>a</translation></message>"));
    assert!(matches!(kind, ErrorKind::NotXml(_)), "{kind:?}");
    assert_eq!((line, col), (4, 19));
}

#[test]
fn files_are_read_and_unreadable_ones_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("de.ts");
    std::fs::write(&path, SAMPLE).unwrap();
    let c = load_file(&path).unwrap();
    assert_eq!(c.file(), path.display().to_string());
    let missing = dir.path().join("missing.ts");
    let e = load_file(&missing).err().unwrap();
    assert!(matches!(e.kind, ErrorKind::Io(_)) && e.position.is_none());
    assert!(
        e.to_string().starts_with(&missing.display().to_string()),
        "{e}"
    );
    std::fs::write(&path, "<TS>\n<context>\n<message/>").unwrap();
    let e = load_file(&path).err().unwrap();
    assert_eq!(
        e.to_string(),
        format!("{}:3:1: <message> without <source>", path.display())
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = load_bytes("p.ts", &bytes);
    }

    #[test]
    fn damaged_catalogues_never_panic(cut in 0..SAMPLE.len(), at in 0..SAMPLE.len(), byte in any::<u8>()) {
        let mut bytes = SAMPLE.as_bytes().to_vec();
        bytes[at] = byte;
        bytes.truncate(cut.max(at + 1));
        let _ = load_bytes("p.ts", &bytes);
        // A cut before the root's end tag never loads.
        prop_assert!(load_bytes("p.ts", &SAMPLE.as_bytes()[..cut.min(SAMPLE.len() - 7)]).is_err());
    }

    #[test]
    fn xml_like_soup_never_panics(parts in proptest::collection::vec(prop_oneof![
        Just("<TS>"), Just("</TS>"), Just("<context>"), Just("</context>"), Just("<name>"),
        Just("</name>"), Just("<message numerus=\"yes\">"), Just("<message>"), Just("</message>"),
        Just("<source>"), Just("</source>"), Just("<translation type=\"unfinished\">"),
        Just("<translation>"), Just("</translation>"), Just("<numerusform>"), Just("</numerusform>"),
        Just("<byte value=\"x41\"/>"), Just("<location line=\"+1\"/>"), Just("text"), Just("&amp;"),
        Just("&#x41;"), Just("<extra-x>"), Just("</extra-x>"), Just(" "), Just("<comment/>"),
    ], 0..40)) {
        let text: String = parts.concat();
        let _ = load(&text);
    }
}

#[test]
fn repeated_attributes_are_not_xml() {
    let (kind, line, col) = err(&in_ts(
        "<message><location line=\"1\" line=\"2\"/><source>a</source></message>",
    ));
    assert_eq!(
        kind,
        ErrorKind::NotXml("attribute `line` is repeated".into())
    );
    assert_eq!((line, col), (4, 10));
    // Past the small array, the parser's own check takes over.
    let many: String = (0..9).map(|i| format!(" a{i}=\"{i}\"")).collect();
    let (kind, _, _) = err(&in_ts(&format!(
        "<message><location{many} a3=\"x\"/><source>a</source></message>"
    )));
    assert!(matches!(kind, ErrorKind::NotXml(_)), "{kind:?}");
    let c = ok(&in_ts(&format!(
        "<message><location{many} line=\"4\"/><source>a</source></message>"
    )));
    let m = c.messages().next().unwrap();
    assert_eq!(m.locations().next(), Some(("", LocationLine::Absolute(4))));
}
