//! A sitemap (the sitemaps.org 0.9 format): the pages a site lists, each
//! with the priority it gives it. Only `<loc>` and `<priority>` are read;
//! the other elements (`<lastmod>`, `<changefreq>`, extensions) are passed
//! over.

use super::xml;
use quick_xml::Reader;
use quick_xml::events::Event;

/// The most URLs a sitemap may list, by the format's own limit.
pub const MAX_URLS: usize = 50_000;

/// The priority of a URL whose `<priority>` is not given, by the format.
const DEFAULT_PRIORITY: f64 = 0.5;

/// One page the sitemap lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The page's absolute URL, as written.
    pub loc: String,
    /// From 0.0 to 1.0: how the site ranks the page among its own.
    pub priority: f64,
}

/// What is being read inside a `<url>`.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Loc,
    Priority,
    Other,
}

/// The entries of a sitemap, in its order; the error says in a few words
/// why `text` is no sitemap, with the byte where that was found.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut reader = Reader::from_str(text);
    let mut state = State::default();
    loop {
        let at = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| xml::error(&e, reader.error_position()))?;
        match event {
            Event::Start(ref e) => {
                if state.open.len() == xml::MAX_DEPTH {
                    return Err(xml::too_deep(at));
                }
                let name = xml::name(e);
                state.start(&name, at)?;
                state.open.push(name);
            }
            Event::Empty(ref e) => {
                let name = xml::name(e);
                state.start(&name, at)?;
                state.end(&name, at)?;
            }
            Event::End(_) => {
                let name = state.open.pop().unwrap_or_default();
                state.end(&name, at)?;
            }
            Event::Text(ref t) => state.keep(t),
            Event::CData(ref c) => state.keep(c),
            Event::GeneralRef(ref r) => {
                let c = xml::reference(r).map_err(|m| format!("{m} at byte {at}"))?;
                state.keep(c.encode_utf8(&mut [0; 4]));
            }
            Event::Eof => return state.finish(),
            _ => {}
        }
    }
}

/// Where the reader is in the document, and what it has read.
#[derive(Default)]
struct State {
    entries: Vec<Entry>,
    /// The elements open, the root first.
    open: Vec<String>,
    root: bool,
    /// Inside a `<url>`: its loc and priority so far.
    url: Option<(String, String)>,
    field: Option<Field>,
}

impl State {
    /// The start of element `name` (not yet open).
    fn start(&mut self, name: &str, at: u64) -> Result<(), String> {
        match self.open.len() {
            0 if self.root => return Err(format!("a second root element at byte {at}")),
            0 => {
                self.root = true;
                check_root(name)?;
            }
            1 if name == "url" => {
                if self.entries.len() == MAX_URLS {
                    return Err(format!(
                        "lists more than {MAX_URLS} URLs, the format's limit"
                    ));
                }
                self.url = Some((String::new(), String::new()));
            }
            2 if self.url.is_some() => {
                self.field = Some(match name {
                    "loc" => Field::Loc,
                    "priority" => Field::Priority,
                    _ => Field::Other,
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// Text inside the field of the `<url>` being read.
    fn keep(&mut self, text: &str) {
        match (&mut self.url, self.field) {
            (Some((loc, _)), Some(Field::Loc)) => loc.push_str(text),
            (Some((_, priority)), Some(Field::Priority)) => priority.push_str(text),
            _ => {}
        }
    }

    /// The end of element `name` (no longer open): a field of a `<url>`,
    /// or the `<url>` itself, which becomes an entry.
    fn end(&mut self, name: &str, at: u64) -> Result<(), String> {
        match self.open.len() {
            2 => self.field = None,
            1 if name == "url" => {
                let Some((loc, priority)) = self.url.take() else {
                    return Ok(());
                };
                let n = self.entries.len() + 1;
                let loc = loc.trim();
                if loc.is_empty() {
                    return Err(format!("URL {n} (byte {at}) has no <loc>"));
                }
                let priority = priority_of(priority.trim()).map_err(|m| format!("URL {n}: {m}"))?;
                self.entries.push(Entry {
                    loc: loc.to_string(),
                    priority,
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// The entries, once the document has ended whole.
    fn finish(self) -> Result<Vec<Entry>, String> {
        if let Some(name) = self.open.last() {
            return Err(format!(
                "ends inside <{}>: the document is cut short",
                xml::quoted(name)
            ));
        }
        if !self.root {
            return Err("not XML: no root element (the document is empty)".to_string());
        }
        if self.entries.is_empty() {
            return Err("lists no page".to_string());
        }
        Ok(self.entries)
    }
}

/// Refuses a document that is not a `<urlset>`, naming what it is.
fn check_root(name: &str) -> Result<(), String> {
    match name {
        "urlset" => Ok(()),
        "sitemapindex" => Err(
            "a sitemap index, which lists sitemaps rather than pages: give the pages with --url"
                .to_string(),
        ),
        other => Err(format!(
            "not a sitemap: its root element is <{}>, not <urlset>",
            xml::quoted(other)
        )),
    }
}

/// A `<priority>`'s value: the default when empty, else a number from 0
/// to 1.
fn priority_of(text: &str) -> Result<f64, String> {
    if text.is_empty() {
        return Ok(DEFAULT_PRIORITY);
    }
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "<priority> `{text}` is not a number from 0.0 to 1.0"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn locations_and_priorities_are_read_in_order() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://h/</loc><priority>1.0</priority><lastmod>2026-01-01</lastmod></url>
  <url>
    <loc> http://h/a?x=1&amp;y=2 </loc>
  </url>
  <url><loc><![CDATA[http://h/b]]></loc><priority>0.25</priority></url>
</urlset>"#;
        let entries = parse(xml).unwrap();
        let read: Vec<(&str, f64)> = entries
            .iter()
            .map(|e| (e.loc.as_str(), e.priority))
            .collect();
        assert_eq!(
            read,
            [
                ("http://h/", 1.0),
                ("http://h/a?x=1&y=2", 0.5),
                ("http://h/b", 0.25)
            ]
        );
        // A prefixed namespace is read by local name.
        let prefixed = "<s:urlset xmlns:s=\"x\"><s:url><s:loc>http://h/</s:loc></s:url></s:urlset>";
        assert_eq!(parse(prefixed).unwrap()[0].loc, "http://h/");
    }

    #[test]
    fn what_is_no_sitemap_is_said_in_a_few_words() {
        let cases = [
            ("", "the document is empty"),
            ("  \n", "the document is empty"),
            ("not xml at all", "not XML"),
            ("<html><body>hi</body></html>", "its root element is <html>"),
            ("<sitemapindex><sitemap/></sitemapindex>", "a sitemap index"),
            ("<urlset></urlset>", "lists no page"),
            ("<urlset/>", "lists no page"),
            ("<urlset><url><loc>http://h/</loc></url>", "cut short"),
            ("<urlset><url></url></urlset>", "has no <loc>"),
            (
                "<urlset><url><loc>h</loc><priority>2</priority></url></urlset>",
                "URL 1: <priority> `2`",
            ),
            ("<urlset><url><loc>h</loc></urlset>", "not XML"),
            ("<urlset><url><loc>&nbsp;</loc></url></urlset>", "&nbsp;"),
            (
                "<urlset><url><loc>h</loc></url></urlset><urlset/>",
                "a second root element",
            ),
        ];
        for (xml, expected) in cases {
            let e = parse(xml).unwrap_err();
            assert!(e.contains(expected), "{xml:?}: {e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }

    #[test]
    fn elements_nested_past_the_bound_are_refused() {
        let nested = |depth: usize| {
            format!(
                "<urlset><url><loc>http://h/</loc></url>{}{}</urlset>",
                "<a>".repeat(depth - 1),
                "</a>".repeat(depth - 1)
            )
        };
        assert_eq!(parse(&nested(xml::MAX_DEPTH)).map(|e| e.len()), Ok(1));
        let deep = parse(&nested(xml::MAX_DEPTH + 1)).unwrap_err();
        assert!(
            deep.starts_with("elements nested more than 64 deep at byte"),
            "{deep}"
        );
    }

    #[test]
    fn more_urls_than_the_format_allows_are_refused() {
        let one = "<url><loc>http://h/</loc></url>";
        let at_limit = format!("<urlset>{}</urlset>", one.repeat(MAX_URLS));
        assert_eq!(parse(&at_limit).unwrap().len(), MAX_URLS);
        let over = format!("<urlset>{}</urlset>", one.repeat(MAX_URLS + 1));
        assert!(parse(&over).unwrap_err().contains("more than 50000 URLs"));
    }

    proptest! {
        #[test]
        fn no_text_makes_the_reader_panic(text in "\\PC{0,300}") {
            let _ = parse(&text);
        }

        #[test]
        fn no_sitemap_like_text_makes_the_reader_panic(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("<urlset>"), Just("</urlset>"), Just("<url>"), Just("</url>"),
                    Just("<loc>"), Just("</loc>"), Just("<priority>"), Just("</priority>"),
                    Just("http://h/"), Just("0.5"), Just("&amp;"), Just("<url/>"), Just("<![CDATA[x]]>"),
                ],
                0..30,
            )
        ) {
            let _ = parse(&parts.concat());
        }
    }
}
