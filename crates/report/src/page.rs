//! One HTML document: a title, then blocks in order, with a style that
//! reads in a light or dark browser and on paper.

use super::chart::Svg;
use crate::document::store;
use crate::error::Error;
use std::path::Path;

/// A report being written.
#[derive(Debug, Clone)]
pub struct Page {
    title: String,
    body: String,
    /// Each section's heading and its subheadings, in order: the contents
    /// at the top link to them (`#s1`, `#s1-1`, ...).
    sections: Vec<(String, Vec<String>)>,
}

/// Forbids every fetch: the page stands alone, and a report of hostile
/// text cannot reach out even if an escape were missed.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE: &str = "
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #5c5c5c; --rule: #d0d0d0; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6e6e6; --bg: #161616; --muted: #a8a8a8; --rule: #3a3a3a; }
}
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.35rem; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.5rem; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 1.5rem 0 0.5rem; }
p.note, footer { color: var(--muted); }
figure.chart { background: #ffffff; border-radius: 6px; padding: 0.5rem; margin: 1rem 0; }
figure.chart svg { display: block; width: 100%; height: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; display: block; overflow-x: auto; }
h1, h2, h3, p, footer { overflow-wrap: anywhere; }
th { white-space: nowrap; }
th, td { padding: 0.2rem 0.7rem; border-bottom: 1px solid var(--rule); text-align: left; }
td.number, th.number { text-align: right; white-space: nowrap; }
code { font: 0.9em ui-monospace, monospace; }
nav.contents ol { margin: 0 0 1rem; padding-left: 1.4rem; columns: 2; }
@media print { body { color: #000; background: #fff; } figure.chart { break-inside: avoid; } }
";

impl Page {
    /// A page titled `title` (text, escaped here).
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            body: String::new(),
            sections: Vec::new(),
        }
    }

    /// A section heading, which the contents link to.
    pub fn heading(&mut self, text: &str) {
        self.sections.push((text.to_string(), Vec::new()));
        self.body.push_str(&format!(
            "<h2 id=\"s{}\">{}</h2>\n",
            self.sections.len(),
            escape(text)
        ));
    }

    /// The contents: a link to each section and each of its subheadings
    /// (a probe, a page), where there are three or more (a long page is
    /// read by jumping); none for a shorter one.
    fn contents(&self) -> String {
        let entries: usize = self.sections.iter().map(|(_, subs)| 1 + subs.len()).sum();
        if entries < 3 {
            return String::new();
        }
        let mut links = String::new();
        for (i, (text, subs)) in self.sections.iter().enumerate() {
            links.push_str(&format!("<li><a href=\"#s{}\">{}</a>", i + 1, escape(text)));
            if !subs.is_empty() {
                links.push_str("<ol>");
                for (j, sub) in subs.iter().enumerate() {
                    links.push_str(&format!(
                        "<li><a href=\"#s{}-{}\">{}</a></li>",
                        i + 1,
                        j + 1,
                        escape(sub)
                    ));
                }
                links.push_str("</ol>");
            }
            links.push_str("</li>");
        }
        format!("<nav class=\"contents\"><ol>{links}</ol></nav>\n")
    }

    /// A heading within a section, which the contents link to.
    pub fn subheading(&mut self, text: &str) {
        let section = self.sections.len();
        match self.sections.last_mut() {
            Some((_, subs)) => {
                subs.push(text.to_string());
                let id = format!("s{section}-{}", subs.len());
                self.body
                    .push_str(&format!("<h3 id=\"{id}\">{}</h3>\n", escape(text)));
            }
            None => self.body.push_str(&format!("<h3>{}</h3>\n", escape(text))),
        }
    }

    /// A paragraph of plain text; `note` greys it, for what qualifies a
    /// figure rather than gives one.
    pub fn paragraph(&mut self, text: &str, note: bool) {
        let class = if note { " class=\"note\"" } else { "" };
        self.body
            .push_str(&format!("<p{class}>{}</p>\n", escape(text)));
    }

    /// A chart, with `label` as its accessible name.
    pub fn chart(&mut self, label: &str, svg: &Svg) {
        self.body.push_str(&format!(
            "<figure class=\"chart\" role=\"img\" aria-label=\"{}\">\n{}</figure>\n",
            escape(label),
            svg.as_str()
        ));
    }

    /// A table: its header, then rows of cells; a column whose header is
    /// in `numbers` is right-aligned.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>], numbers: &[&str]) {
        let class = |h: &str| {
            if numbers.contains(&h) {
                " class=\"number\""
            } else {
                ""
            }
        };
        let mut html = String::from("<table>\n<thead><tr>");
        for h in header {
            html.push_str(&format!("<th{}>{}</th>", class(h), escape(h)));
        }
        html.push_str("</tr></thead>\n<tbody>\n");
        for row in rows {
            html.push_str("<tr>");
            for (cell, h) in row.iter().zip(header) {
                html.push_str(&format!("<td{}>{}</td>", class(h), escape(cell)));
            }
            html.push_str("</tr>\n");
        }
        html.push_str("</tbody>\n</table>\n");
        self.body.push_str(&html);
    }

    /// The whole document, closed by a footer naming the command that made
    /// it, with `args` as it was given.
    pub fn render(&self, args: &[String]) -> String {
        let command = args
            .iter()
            .map(|a| crate::text::cleaned(a))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n\
             <h1>{title}</h1>\n{contents}{body}<footer><p>Made by <code>{command}</code> on {date}.</p>\
             </footer>\n</main>\n</body>\n</html>\n",
            title = escape(&self.title),
            contents = self.contents(),
            body = self.body,
            command = escape(&command),
            date = escape(&crate::document::environment::now()),
        )
    }

    /// Writes the document to `path` through a temporary file and a
    /// rename, so a reader never sees half of it.
    pub fn save(&self, path: &Path, args: &[String]) -> Result<(), Error> {
        store::write_atomic(path, &self.render(args))
    }
}

/// `text` for HTML text and attribute values alike; a character that
/// would reorder or hide text (a bidirectional control, a zero-width
/// character) is shown as its code point.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in crate::text::visible(text).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever a run's text holds, it stays text: no tag, attribute
        /// or entity of its own reaches the document.
        #[test]
        fn hostile_text_stays_text(text in any::<String>()) {
            // Every block, the contents with their links included.
            let page_of = |text: &str| {
                let mut page = Page::new(text);
                page.heading(text);
                page.subheading(text);
                page.subheading(text);
                page.paragraph(text, true);
                page.table(&[text], &[vec![text.to_string()]], &[]);
                page.chart(text, &Svg::for_test("<svg></svg>"));
                page.render(&[text.to_string()])
            };
            let html = page_of(&text);
            let escaped = escape(&text);
            prop_assert!(!escaped.contains(['<', '>', '"', '\'']));
            // Every `<` in the document is the page's own markup: as many
            // as in the same page of plain text.
            let tags = |h: &str| h.matches('<').count();
            prop_assert!(html.contains("<nav class=\"contents\">"));
            prop_assert_eq!(tags(&html), tags(&page_of("x")));
        }
    }

    #[test]
    fn a_long_page_opens_with_links_to_its_sections() {
        let mut page = Page::new("t");
        for name in ["a", "b <c>"] {
            page.heading(name);
        }
        assert!(!page.render(&[]).contains("<nav"));
        page.heading("d");
        let html = page.render(&[]);
        assert!(html.contains(
            "<nav class=\"contents\"><ol><li><a href=\"#s1\">a</a></li><li><a href=\"#s2\">b &lt;c&gt;</a></li>"
        ));
        assert!(html.contains("<h2 id=\"s3\">d</h2>"));
        // A run's probes are linked too: one section of many is no short page.
        let mut page = Page::new("t");
        page.heading("run");
        for probe in ["p1", "p2"] {
            page.subheading(probe);
        }
        let html = page.render(&[]);
        assert!(html.contains(
            "<li><a href=\"#s1\">run</a><ol><li><a href=\"#s1-1\">p1</a></li><li><a href=\"#s1-2\">p2</a></li></ol></li>"
        ), "{html}");
        assert!(html.contains("<h3 id=\"s1-2\">p2</h3>"), "{html}");
    }

    #[test]
    fn characters_that_reorder_or_hide_text_are_shown_by_their_code_points() {
        let key = "parse\u{202E}txt.exe\u{200B}\u{61C}\u{2028}\u{AD}";
        let mut page = Page::new(key);
        page.heading(key);
        page.table(&["probe"], &[vec![key.to_string()]], &[]);
        let html = page.render(&[key.to_string()]);
        assert!(
            !html.chars().any(|c| crate::text::is_unsafe(c) && c != '\n'),
            "{html}"
        );
        assert!(html.contains("parse\\u{202e}txt.exe\\u{200b}\\u{61c}\\u{2028}\\u{ad}"));
    }

    #[test]
    fn the_page_fetches_nothing() {
        let html = Page::new("t").render(&["yardstick".into()]);
        assert!(html.contains("default-src 'none'"));
        assert!(!html.contains("http://") && !html.contains("https://"));
        assert!(!html.contains("<script") && !html.contains("<link"));
    }
}
