//! Link relations of a page (RFC 8288): from its `Link` header, and from
//! the `<link>` elements of its HTML, as a browser finds a site's search
//! description. Both are read leniently: what cannot be read is passed
//! over, never an error.

use regex::Regex;
use std::sync::LazyLock;

/// One link: its target as written, and its relations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The URI reference, relative or absolute.
    pub target: String,
    /// The relation types, lower-cased.
    pub rel: Vec<String>,
    /// The `type` the link names, lower-cased.
    pub media_type: Option<String>,
}

impl Link {
    /// Whether the link has relation `rel`.
    pub fn is(&self, rel: &str) -> bool {
        self.rel.iter().any(|r| r == rel)
    }
}

/// The links of one `Link` header value: `<target>; rel="a b"; type=x`,
/// separated by commas.
pub fn from_header(value: &str) -> Vec<Link> {
    let mut links = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        let Some(after) = rest.strip_prefix('<') else {
            return links;
        };
        let Some(close) = after.find('>') else {
            return links;
        };
        let target = after[..close].trim().to_string();
        let (params, next) = parameters(&after[close + 1..]);
        rest = next;
        links.push(link(target, &params));
    }
}

/// The `; name=value` parameters after a link's target, up to the comma
/// that ends the link; and what follows that comma.
fn parameters(mut text: &str) -> (Vec<(String, String)>, &str) {
    let mut params = Vec::new();
    loop {
        text = text.trim_start();
        let Some(after) = text.strip_prefix(';') else {
            return (params, text);
        };
        let after = after.trim_start();
        let name_end = after
            .find(|c: char| c == '=' || c == ';' || c == ',' || c.is_whitespace())
            .unwrap_or(after.len());
        let name = after[..name_end].to_ascii_lowercase();
        let mut rest = after[name_end..].trim_start();
        let mut value = String::new();
        if let Some(v) = rest.strip_prefix('=') {
            let v = v.trim_start();
            if let Some(quoted) = v.strip_prefix('"') {
                let end = quoted.find('"').unwrap_or(quoted.len());
                value = quoted[..end].to_string();
                rest = quoted.get(end + 1..).unwrap_or("");
            } else {
                let end = v.find([';', ',']).unwrap_or(v.len());
                value = v[..end].trim().to_string();
                rest = &v[end..];
            }
        }
        params.push((name, value));
        text = rest;
    }
}

fn link(target: String, params: &[(String, String)]) -> Link {
    let value = |name: &str| {
        params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    Link {
        target,
        rel: value("rel")
            .map(|r| r.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default(),
        media_type: value("type"),
    }
}

/// How much of a page is read and searched for `<link>` elements: they
/// belong in its head.
pub(crate) const HTML_SCANNED: usize = 256 * 1024;

/// The `<link>` elements of an HTML page with an `href` and a `rel`.
pub fn from_html(html: &str) -> Vec<Link> {
    static LINK: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)<link\b([^>]*)>").unwrap_or_else(|_| unreachable!()));
    static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i)([a-z][a-z0-9-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))"#)
            .unwrap_or_else(|_| unreachable!())
    });
    let mut end = HTML_SCANNED.min(html.len());
    while !html.is_char_boundary(end) {
        end -= 1;
    }
    LINK.captures_iter(&html[..end])
        .filter_map(|tag| {
            let attributes: Vec<(String, String)> = ATTRIBUTE
                .captures_iter(tag.get(1)?.as_str())
                .filter_map(|a| {
                    let value = a.get(2).or(a.get(3)).or(a.get(4))?.as_str();
                    Some((a.get(1)?.as_str().to_ascii_lowercase(), unescape(value)))
                })
                .collect();
            let href = attributes.iter().find(|(n, _)| n == "href")?.1.clone();
            let found = link(href, &attributes);
            (!found.rel.is_empty()).then_some(found)
        })
        .collect()
}

/// An attribute's value with its character references resolved; left as
/// written when it holds one XML does not know (HTML's `&nbsp;`).
fn unescape(value: &str) -> String {
    quick_xml::escape::unescape(value).map_or_else(|_| value.to_string(), |v| v.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_link_header_gives_each_link_its_relations_and_type() {
        let links = from_header(
            "</opensearch.xml>; rel=\"search\"; type=\"application/opensearchdescription+xml\", \
             <https://h/login>;rel=\"login nofollow\" , </x>; rel=next; title=\"a, b; c\"",
        );
        assert_eq!(links.len(), 3, "{links:?}");
        assert_eq!(links[0].target, "/opensearch.xml");
        assert!(links[0].is("search"));
        assert_eq!(
            links[0].media_type.as_deref(),
            Some("application/opensearchdescription+xml")
        );
        assert!(links[1].is("login") && links[1].is("nofollow"));
        assert_eq!(
            (links[2].target.as_str(), links[2].is("next")),
            ("/x", true)
        );
        assert!(from_header("no links here").is_empty());
        assert_eq!(from_header("</a>; rel=\"x\", garbage").len(), 1);
    }

    #[test]
    fn link_elements_are_read_from_html() {
        let html = r#"<html><head>
<LINK REL="search" type="application/opensearchdescription+xml" href="/os.xml?a=1&amp;b=2">
<link href='/user/login' rel='login'/>
<link rel=stylesheet href=/s.css>
<link href="/no-rel">
</head>"#;
        let links = from_html(html);
        let read: Vec<(&str, &str)> = links
            .iter()
            .map(|l| (l.target.as_str(), l.rel[0].as_str()))
            .collect();
        assert_eq!(
            read,
            [
                ("/os.xml?a=1&b=2", "search"),
                ("/user/login", "login"),
                ("/s.css", "stylesheet")
            ]
        );
    }

    proptest! {
        #[test]
        fn no_text_makes_the_readers_panic(text in "\\PC{0,300}") {
            let _ = from_header(&text);
            let _ = from_html(&text);
        }

        #[test]
        fn no_link_like_text_makes_the_readers_panic(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("<"), Just(">"), Just(";"), Just(","), Just("="), Just("\""),
                    Just("'"), Just(" "), Just("rel"), Just("/x"), Just("type"),
                    Just("<link "), Just("href"), Just("&amp;"), Just("\u{e9}"),
                ],
                0..40,
            )
        ) {
            let text = parts.concat();
            let _ = from_header(&text);
            let _ = from_html(&text);
        }
    }
}
