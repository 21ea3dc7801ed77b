//! The GitHub job summary: the verdict, the calibration speed line, the
//! comparison table and the run's table, in Markdown.

use super::layout::{Align, change, check_value, ms, significant, thousands};
use super::{header, verdict};
use crate::document::comparison::Comparison;
use crate::document::run::{Mode, Run};
use crate::text::clean;

/// The Markdown summary of a run (and its comparison).
pub fn summary(run: &Run) -> String {
    let mut out = format!("## yardstick {}\n\n", run.mode.as_str());
    let verdicts = verdict::lines(run);
    if verdicts.is_empty() {
        out.push_str("**measured, no baseline**\n\n");
    }
    for line in verdicts {
        out.push_str(&format!("**{}**\n\n", escape(&line)));
    }
    if let Some(c) = &run.comparison {
        out.push_str(&comparison(c));
        out.push('\n');
        out.push_str(&explained(run, c));
    }
    out.push_str(&format!("{}\n\n", escape(&header(run))));
    for w in &run.warnings {
        out.push_str(&format!("> warning: {}\n\n", escape(w)));
    }
    out.push_str(&rows(run));
    out.push_str(&groups(run));
    out.push_str(&matrix(run));
    out
}

/// What `--explain` found for each regression of a timed run, a line
/// each; nothing without it.
fn explained(run: &Run, c: &Comparison) -> String {
    let Some(e) = &run.explanation else {
        return String::new();
    };
    if let crate::document::explanation::Explanation::Uncounted { why } = e {
        return format!("Not explained by counts: {}.\n\n", escape(why));
    }
    let lines: String = c
        .checks
        .iter()
        .filter(|k| k.regressed())
        .filter_map(|k| {
            let said = super::attribution::explained(e, &k.key)?;
            Some(format!("- {}: {}\n", escape(&k.key), escape(&said)))
        })
        .collect();
    let missing = match e {
        crate::document::explanation::Explanation::Counts { comparison } => &comparison.missing,
        crate::document::explanation::Explanation::Uncounted { .. } => return String::new(),
    };
    let missing = if missing.is_empty() {
        String::new()
    } else {
        format!(
            "Not in the count baseline: {}.\n\n",
            escape(&missing.join(", "))
        )
    };
    if lines.is_empty() {
        return missing;
    }
    format!("Explained by counts (`--explain`):\n\n{lines}\n{missing}")
}

/// The run's groups of variants, as the text table shows them, and each
/// variant's standing; nothing for a run without groups.
fn groups(run: &Run) -> String {
    let Some(ranking) = &run.ranking else {
        return String::new();
    };
    let mut out = format!("\n{}\n\n", escape(&super::ranking::caption(run.metric)));
    let (names, marks): (Vec<&str>, Vec<&str>) = super::ranking::COLUMNS
        .iter()
        .map(|(name, align)| (*name, if *align == Align::Right { "--:" } else { "---" }))
        .unzip();
    out.push_str(&format!(
        "| {} |\n|{}|\n",
        names.join(" | "),
        marks.join("|")
    ));
    for row in super::ranking::rows(ranking, run.metric) {
        let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push_str(&format!(
        "\n{}\n\n",
        escape(&super::ranking::legend(ranking))
    ));
    for s in &ranking.standings {
        out.push_str(&format!("- {}\n", escape(&super::ranking::standing(s))));
    }
    out
}

/// The run's configuration matrix, as the text table shows it; nothing for
/// a run without one.
fn matrix(run: &Run) -> String {
    let Some(m) = &run.matrix else {
        return String::new();
    };
    let mut out = format!("\n{}\n\n", escape(&super::matrix::caption(m)));
    let (names, marks): (Vec<String>, Vec<&str>) = super::matrix::columns(m)
        .into_iter()
        .map(|(name, align)| {
            (
                escape(&name),
                if align == Align::Right { "--:" } else { "---" },
            )
        })
        .unzip();
    out.push_str(&format!(
        "| {} |\n|{}|\n",
        names.join(" | "),
        marks.join("|")
    ));
    for row in super::matrix::rows(m) {
        let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

fn comparison(c: &Comparison) -> String {
    let n = c.regressions();
    let mut out = format!(
        "Against {}, by {}: {n} {} at {}.\n\n",
        escape(&c.baseline),
        c.method.said(),
        if n == 1 { "regression" } else { "regressions" },
        escape(&super::table::thresholds_said(c))
    );
    if let Some(cal) = &c.calibration {
        out.push_str(&format!("{}\n\n", super::table::speed_line(cal)));
    }
    if let Some(note) = c.too_slow_note() {
        out.push_str(&format!("> warning: {}\n\n", escape(&note)));
    }
    if let Some(basis) = &c.basis {
        out.push_str(&format!("Chosen as: {}.\n\n", escape(basis)));
    }
    out.push_str(&notes(c));
    out.push_str(
        "| row | metric | baseline | now | change | verdict |\n|---|---|--:|--:|--:|---|\n",
    );
    for k in &c.checks {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            escape(&k.key),
            escape(k.metric.as_str()),
            check_value(&k.metric, k.baseline),
            check_value(&k.metric, k.current),
            change(k.change_pct),
            if k.regressed() {
                format!("**{}**", k.verdict.word())
            } else {
                k.verdict.word().to_string()
            }
        ));
    }
    let located: Vec<String> = c
        .checks
        .iter()
        .filter_map(|k| {
            let line = super::attribution::in_a_line(k)?;
            Some(format!("- {}: {}\n", escape(&k.key), escape(&line)))
        })
        .collect();
    if !located.is_empty() {
        out.push_str("\nWhere the counts moved, by each function's own count:\n\n");
        out.push_str(&located.concat());
    }
    if !c.missing.is_empty() {
        out.push_str(&format!(
            "\nnot measured: {}\n",
            escape(&c.missing.join(", "))
        ));
    }
    if !c.new.is_empty() {
        out.push_str(&format!("\nnew: {}\n", escape(&c.new.join(", "))));
    }
    out
}

/// The comparison's notes, as quoted paragraphs, then its set-up
/// differences.
fn notes(c: &Comparison) -> String {
    let mut out = String::new();
    for note in c.notes() {
        out.push_str(&format!("> note: {}\n\n", escape(&note)));
    }
    for d in &c.environment_differences {
        out.push_str(&format!(
            "note: the baseline was made with another set-up, {}: {} -> {}\n\n",
            escape(&d.field),
            escape(&d.baseline),
            escape(&d.current)
        ));
    }
    out
}

fn rows(run: &Run) -> String {
    let mut out = String::new();
    match run.mode {
        Mode::Micro | Mode::Kernel => {
            out.push_str("| probe | n | median ms | p99 ms | ops/s | x calib | err | note |\n");
            out.push_str("|---|--:|--:|--:|--:|--:|--:|---|\n");
            for r in &run.rows {
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    escape(&r.name),
                    r.figures.n,
                    ms(r.figures.median),
                    ms(r.figures.p99),
                    r.rps.map(thousands).unwrap_or_else(|| "-".into()),
                    run.x_calib(r)
                        .map(|x| significant(x, 4))
                        .unwrap_or_else(|| "-".into()),
                    r.errors,
                    escape(&r.note)
                ));
            }
        }
        Mode::Http => {
            out.push_str("| target | url | n | median ms | p95 ms | req/s | err |\n|---|---|--:|--:|--:|--:|--:|\n");
            for r in &run.rows {
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} |\n",
                    escape(r.page.target.as_deref().unwrap_or("")),
                    escape(r.page.url.as_deref().unwrap_or("")),
                    r.figures.n,
                    ms(r.figures.median),
                    ms(r.figures.p95),
                    r.rps
                        .map(|x| significant(x, 4))
                        .unwrap_or_else(|| "-".into()),
                    r.errors
                ));
            }
        }
    }
    out
}

/// Keeps text from a run from breaking a table cell or turning into markup
/// (a link, an image fetched from elsewhere, HTML, math): unsafe
/// characters are `clean`ed, `<`, `>` and `&` become entities, and the
/// marks of code, emphasis, links, images, math and table cells are
/// backslash-escaped, which CommonMark shows as the mark itself. For
/// inline text only, after text of the summary's own on its line.
///
/// No text becomes a link through GitHub's autolinks either, and each
/// still reads as it did. A URL autolink (`http://`, `https://`, `ftp://`)
/// is found at its `://` and a `www.` one at its `www.`, both while the
/// text is parsed, so a `:` before a `/` and a `.` after a `w` are
/// escaped, which stops them. An email autolink (`user@host.example`,
/// `mailto:`, `xmpp:`) is found after parsing, in text whose escapes are
/// gone already, and so are mentions (`@octocat`, `@org/team`) and
/// references (`#123`, `org/repo#12`). So every `@` stands between two
/// empty HTML comments, and every `#` before a letter or digit before one: an address's halves, a
/// mention's `@` and its name, a reference's `#` and its number are
/// separate text nodes then, and GitHub shows no comment. Other colons
/// and dots stay as they are, so the summary's Markdown reads as its
/// text.
pub fn escape(text: &str) -> String {
    let text = clean(text);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut previous = None;
    while let Some(c) = chars.next() {
        let autolink = match c {
            ':' => chars.peek() == Some(&'/'),
            '.' => matches!(previous, Some('w' | 'W')),
            _ => false,
        };
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' => out.push_str("<!-- -->@<!-- -->"),
            '#' if chars.peek().is_some_and(char::is_ascii_alphanumeric) => {
                out.push_str("#<!-- -->");
            }
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '!' | '|' | '~' | '$' => {
                out.push('\\');
                out.push(c);
            }
            _ if autolink => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        previous = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn the_summary_shows_each_group_s_variants() {
        use crate::document::ranking::{Entry, Group, Outcome, Ranking};
        let mut run = crate::document::run::test_micro_run(Vec::new(), None);
        let entry = |variant: &str, role| Entry {
            variant: variant.into(),
            key: format!("load_{variant}"),
            role,
            median: None,
            ratio: None,
            memory: None,
            failed: None,
        };
        run.ranking = Some(Ranking {
            groups: vec![Group {
                name: "load".into(),
                reference: "ours".into(),
                variants: vec![
                    entry("ours", crate::probe::Role::Reference),
                    entry("theirs", crate::probe::Role::Contender),
                ],
                outcome: Outcome::Winner("ours".into()),
            }],
            standings: Vec::new(),
            margin: Some(0.02),
        });
        let md = super::summary(&run);
        assert!(md.contains("| group | variant | role | median |"), "{md}");
        assert!(md.contains("|---|---|---|--:|"), "{md}");
        assert!(md.contains("| load | ours | reference |"), "{md}");
        assert!(md.contains("|  | theirs | contender |"), "{md}");
    }
    use crate::text::cleaned;
    use comrak::nodes::NodeValue;
    use comrak::{Arena, Node, Options, parse_document};
    use proptest::prelude::*;

    #[test]
    fn text_from_a_run_is_no_markup() {
        assert_eq!(
            escape("![x](http://e/t.png) <img src=x> a|b `c` *d* fine_sum"),
            "\\!\\[x\\]\\(http\\://e/t.png\\) &lt;img src=x&gt; a\\|b \\`c\\` \\*d\\* fine\\_sum"
        );
        assert_eq!(escape("a\n# b"), "a\u{FFFD}# b");
    }

    /// What GitHub shows of `markdown`, read by a parser of its flavour
    /// with its extensions (autolinks, tables, strikethrough, math): the
    /// text, or what else it made of it.
    fn shown(markdown: &str) -> Result<String, String> {
        let mut options = Options::default();
        options.extension.autolink = true;
        options.extension.table = true;
        options.extension.strikethrough = true;
        options.extension.math_dollars = true;
        options.extension.footnotes = true;
        let arena = Arena::new();
        let mut text = String::new();
        read(parse_document(&arena, markdown, &options), &mut text)?;
        Ok(text)
    }

    /// Adds `node`'s text to `text`; an error for any node but text, its
    /// escapes, the empty comment and the blocks of a table or paragraph.
    /// GitHub finds email addresses in the text of adjacent text nodes
    /// joined, its escapes undone, so that joined text is searched.
    fn read<'a>(node: Node<'a>, text: &mut String) -> Result<(), String> {
        let mut joined = String::new();
        for child in node.children() {
            match &child.data().value {
                NodeValue::Text(t) => joined.push_str(t),
                NodeValue::Escaped => read(child, &mut joined)?,
                NodeValue::HtmlInline(h) if h == "<!-- -->" => flush(&mut joined, text)?,
                NodeValue::Paragraph
                | NodeValue::Table(_)
                | NodeValue::TableRow(_)
                | NodeValue::TableCell => {
                    flush(&mut joined, text)?;
                    read(child, text)?;
                }
                other => return Err(format!("{other:?}")),
            }
        }
        flush(&mut joined, text)
    }

    /// Moves the `joined` text of adjacent nodes to `text`, unless it
    /// holds what could be an email autolink (an `@` between characters of
    /// an address: stricter than GitHub, which also needs a dot after it),
    /// a mention (`@` before a name) or a reference (`#` before a digit).
    fn flush(joined: &mut String, text: &mut String) -> Result<(), String> {
        let chars: Vec<char> = joined.chars().collect();
        let local = |c: char| c.is_ascii_alphanumeric() || ".+-_".contains(c);
        let domain = |c: char| c.is_ascii_alphanumeric() || "-_".contains(c);
        if chars
            .windows(3)
            .any(|w| local(w[0]) && w[1] == '@' && domain(w[2]))
        {
            return Err(format!("an email autolink in {joined:?}"));
        }
        if chars.windows(2).any(|w| w[0] == '@' && domain(w[1])) {
            return Err(format!("a mention in {joined:?}"));
        }
        if chars
            .windows(2)
            .any(|w| w[0] == '#' && w[1].is_ascii_digit())
        {
            return Err(format!("a reference in {joined:?}"));
        }
        text.push_str(&std::mem::take(joined));
        Ok(())
    }

    /// A link in every form GitHub's autolinks take, and each still reads
    /// as it did.
    #[test]
    fn no_address_becomes_a_link() {
        for text in [
            "http://evil.example/auto",
            "see https://evil.example/a?b=c#d, then",
            "HTTPS://EVIL.EXAMPLE",
            "ftp://evil.example",
            "www.evil.example",
            "(www.evil.example/x)",
            "*www.evil.example*",
            "user@evil.example",
            "mailto:user@evil.example",
            "xmpp:user@evil.example/home",
            "http://user@evil.example",
            "<https://evil.example>",
            "<user@evil.example>",
            "[x](https://evil.example) ![y](https://evil.example/y.png)",
            "$x$ ~~z~~ [^1]",
            "ping @octocat, @org/team and @a-b about #123, org/repo#12 and GH#7",
        ] {
            let cell = format!("| key |\n|---|\n| {} |\n", escape(text));
            assert_eq!(shown(&cell), Ok(format!("key{text}")), "{cell}");
            let line = format!("warning: {}", escape(text));
            assert_eq!(shown(&line), Ok(format!("warning: {text}")), "{line}");
        }
    }

    /// Text made of the pieces of links and markup, or of anything.
    fn hostile() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            prop::sample::select(vec![
                "http", "HTTPS", "ftp", "mailto", "xmpp", "www", "WWW", ":", "//", ".", "@",
                "evil", "example", "a1", "-", "_", "<", ">", "(", ")", "[", "]", "!", "*", "~",
                "`", "$", "&", "#", ";", "\\", "|", " ", "amp", "lt",
            ])
            .prop_map(String::from),
            any::<char>().prop_map(String::from),
        ];
        prop_oneof![
            proptest::collection::vec(piece, 0..16).prop_map(|p| p.concat()),
            any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn no_text_is_markup_and_every_text_reads_as_it_did(text in hostile()) {
            let reads = cleaned(&text);
            let cell = format!("| key |\n|---|\n| {} |\n", escape(&text));
            prop_assert_eq!(shown(&cell), Ok(format!("key{}", reads.trim_matches(' '))));
            let line = format!("warning: {}", escape(&text));
            let expected = format!("warning: {reads}");
            prop_assert_eq!(shown(&line), Ok(expected.trim_end_matches(' ').to_string()));
        }
    }
}
