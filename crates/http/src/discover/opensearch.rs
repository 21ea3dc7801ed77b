//! An OpenSearch description (OpenSearch 1.1): the URL template of a
//! site's search page, and the short name the site gives itself. A site
//! publishes one when anonymous visitors may search it.

use super::xml;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// What the page list needs of a description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Description {
    /// `<ShortName>`, trimmed; none when absent or empty.
    pub short_name: Option<String>,
    /// The `template` of the first `<Url>` that gives an HTML page by GET.
    pub template: String,
}

/// Reads a description; the error says in a few words why `text` is none.
pub fn parse(text: &str) -> Result<Description, String> {
    let mut reader = Reader::from_str(text);
    let mut state = State::default();
    loop {
        let at = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| xml::error(&e, reader.error_position()))?;
        match event {
            Event::Start(ref e) => {
                if state.depth == xml::MAX_DEPTH {
                    return Err(xml::too_deep(at));
                }
                state.start(e, at)?;
                state.depth += 1;
            }
            Event::Empty(ref e) => {
                state.start(e, at)?;
                state.in_short_name = false;
            }
            Event::End(_) => {
                state.depth = state.depth.saturating_sub(1);
                state.in_short_name = false;
            }
            Event::Text(ref t) if state.in_short_name => state.short_name.push_str(t),
            Event::CData(ref c) if state.in_short_name => state.short_name.push_str(c),
            Event::GeneralRef(ref r) if state.in_short_name => {
                let c = xml::reference(r).map_err(|m| format!("{m} at byte {at}"))?;
                state.short_name.push(c);
            }
            Event::Eof => return state.finish(),
            _ => {}
        }
    }
}

/// Where the reader is in the document, and what it has read.
#[derive(Default)]
struct State {
    depth: usize,
    root: bool,
    in_short_name: bool,
    short_name: String,
    template: Option<String>,
}

impl State {
    /// The start of element `e`, at `depth` below the root.
    fn start(&mut self, e: &BytesStart<'_>, at: u64) -> Result<(), String> {
        let element = xml::name(e);
        match self.depth {
            0 if self.root => return Err(format!("a second root element at byte {at}")),
            0 if element == "OpenSearchDescription" => self.root = true,
            0 => {
                return Err(format!(
                    "not an OpenSearch description: its root element is <{}>",
                    xml::quoted(&element)
                ));
            }
            1 if element == "ShortName" => self.in_short_name = true,
            1 if element == "Url" && self.template.is_none() => {
                self.template = html_template(e);
            }
            _ => {}
        }
        Ok(())
    }

    fn finish(self) -> Result<Description, String> {
        if !self.root {
            return Err("not an OpenSearch description: no root element".to_string());
        }
        if self.depth > 0 {
            return Err("the document is cut short".to_string());
        }
        let template = self
            .template
            .ok_or_else(|| "names no search page (a <Url type=\"text/html\">)".to_string())?;
        let short_name = self.short_name.trim();
        Ok(Description {
            short_name: (!short_name.is_empty()).then(|| short_name.to_string()),
            template,
        })
    }
}

/// The template of a `<Url>` that gives an HTML page by GET, if this is
/// one.
fn html_template(e: &BytesStart<'_>) -> Option<String> {
    let html = xml::attribute(e, "type").is_some_and(|t| {
        t.split(';')
            .next()
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("text/html"))
    });
    let get = xml::attribute(e, "method").is_none_or(|m| m.eq_ignore_ascii_case("get"));
    let results = xml::attribute(e, "rel").is_none_or(|r| r == "results");
    if html && get && results {
        xml::attribute(e, "template").filter(|t| !t.trim().is_empty())
    } else {
        None
    }
}

/// What a query value escapes: all but the characters RFC 3986 leaves
/// unreserved.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The search URL of `template` for `words`: `{searchTerms}` becomes the
/// words, percent-encoded; the parameters OpenSearch defines take their
/// first values (page 1, UTF-8, any language); an optional one (`{name?}`)
/// is left empty. A required parameter of another name cannot be filled,
/// and is an error that names it.
pub fn fill(template: &str, words: &str) -> Result<String, String> {
    let shown = xml::quoted(template);
    let mut out = String::with_capacity(template.len() + words.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(format!("the template `{shown}` has an unclosed `{{`"));
        };
        let name = &after[..close];
        let value = match name.trim_end_matches('?') {
            "searchTerms" => utf8_percent_encode(words, QUERY_VALUE).to_string(),
            "startPage" | "startIndex" => "1".to_string(),
            "inputEncoding" | "outputEncoding" => "UTF-8".to_string(),
            "language" => "*".to_string(),
            "count" => "10".to_string(),
            _ if name.ends_with('?') => String::new(),
            other => {
                return Err(format!(
                    "the template `{shown}` needs {{{}}}, which yardstick cannot fill",
                    xml::quoted(other)
                ));
            }
        };
        out.push_str(&value);
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    if !template.contains("{searchTerms") {
        return Err(format!(
            "the template `{shown}` has no {{searchTerms}} for the words"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_html_search_url_and_the_short_name_are_read() {
        let xml = r#"<?xml version="1.0"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName> Harbour &amp; Co </ShortName>
  <Url type="application/rss+xml" template="http://h/rss?q={searchTerms}"/>
  <Url type="text/html" method="post" template="http://h/post"/>
  <Url type="text/html" template="http://h/search?q={searchTerms}&amp;p={startPage?}"/>
</OpenSearchDescription>"#;
        let d = parse(xml).unwrap();
        assert_eq!(d.short_name.as_deref(), Some("Harbour & Co"));
        assert_eq!(d.template, "http://h/search?q={searchTerms}&p={startPage?}");
        assert_eq!(
            fill(&d.template, "caf\u{e9} & tea").unwrap(),
            "http://h/search?q=caf%C3%A9%20%26%20tea&p=1"
        );
    }

    #[test]
    fn elements_nested_past_the_bound_are_refused() {
        let deep = format!("<OpenSearchDescription>{}", "<a>".repeat(xml::MAX_DEPTH));
        let why = parse(&deep).unwrap_err();
        assert!(
            why.starts_with("elements nested more than 64 deep"),
            "{why}"
        );
    }

    #[test]
    fn what_cannot_be_used_is_said() {
        for (xml, expected) in [
            ("", "no root element"),
            ("<html/>", "not an OpenSearch description"),
            (
                "<OpenSearchDescription><ShortName>x</ShortName></OpenSearchDescription>",
                "names no search page",
            ),
            (
                "<OpenSearchDescription><Url type=\"text/html\" template=\"x\">",
                "cut short",
            ),
            (
                "<OpenSearchDescription><ShortName>&bogus;</ShortName></OpenSearchDescription>",
                "not XML",
            ),
        ] {
            let e = parse(xml).unwrap_err();
            assert!(e.contains(expected), "{xml:?}: {e}");
        }
        assert!(
            fill("http://h/?q={custom}", "x")
                .unwrap_err()
                .contains("{custom}")
        );
        assert!(
            fill("http://h/?q={searchTerms", "x")
                .unwrap_err()
                .contains("unclosed")
        );
        assert!(
            fill("http://h/?q=fixed", "x")
                .unwrap_err()
                .contains("no {searchTerms}")
        );
        assert_eq!(
            fill("http://h/?q={searchTerms}&n={count}&l={language}", "a").unwrap(),
            "http://h/?q=a&n=10&l=*"
        );
    }

    proptest! {
        #[test]
        fn no_text_makes_the_reader_or_the_template_panic(text in "\\PC{0,300}", words in "\\PC{0,20}") {
            let _ = parse(&text);
            let _ = fill(&text, &words);
        }
    }
}
