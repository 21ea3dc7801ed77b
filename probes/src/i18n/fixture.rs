//! The generator of the suite's German catalogue fixture.
//!
//! It composes interface strings of a CMS back office from word lists, the
//! way such catalogues grow: many contexts (one per template), short button
//! labels repeated across them, sentences with `%1`/`%name` arguments and
//! markup, and the untidy parts of a living catalogue (unfinished, obsolete
//! and empty translations, a few duplicates, numerus forms). The output is
//! a pure function of [`SEED`], so the committed file can be checked
//! against it; `cargo run -p probes --example i18n_fixture` rewrites it.

use std::collections::HashSet;
use std::fmt::Write;

use self::words::{
    AREAS, COMMENTS, EXTRA_COMMENTS, LEAVES, OBJECTS, SECTIONS, TRANSLATOR_COMMENTS, VERBS,
};

mod words;

/// Where the generated catalogue is committed, below the fixtures folder.
pub const FIXTURE: &str = "translations/kernel_de.ts";

/// The generator's fixed seed.
pub const SEED: u64 = 0x7ea5_2024_dede_0001;

const CONTEXTS: usize = 420;

/// The generated text and what the generator put into it, so tests can
/// hold the loader's counts against an account kept independently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    pub text: String,
    pub contexts: usize,
    pub messages: usize,
    pub unfinished: usize,
    pub obsolete: usize,
    pub vanished: usize,
    pub empty: usize,
    pub duplicates: usize,
    pub numerus: usize,
}

/// SplitMix64, written out so that the fixture's bytes can never change
/// with a dependency's version.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A German article: nominative and accusative by gender.
fn article(gender: char, accusative: bool) -> &'static str {
    match (gender, accusative) {
        ('m', false) => "der",
        ('m', true) => "den",
        ('f', _) => "die",
        _ => "das",
    }
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// One message's English source and German translation (or forms).
struct Text {
    source: String,
    translation: Vec<String>,
    numerus: bool,
}

fn compose(rng: &mut Rng) -> Text {
    let &(verb, done, verb_de, done_de) = rng.pick(VERBS);
    let &(obj, objs, obj_de, gender, objs_de) = rng.pick(OBJECTS);
    let nom = format!("{} {obj_de}", article(gender, false));
    let acc = format!("{} {obj_de}", article(gender, true));
    let plain = |source: String, translation: String| Text {
        source,
        translation: vec![translation],
        numerus: false,
    };
    match rng.below(20) {
        0..=3 => plain(capitalize(verb), capitalize(verb_de)),
        4..=5 => plain(
            format!("{} {obj}", capitalize(verb)),
            format!("{} {verb_de}", capitalize(&acc)),
        ),
        6 => plain(
            format!("Are you sure you want to {verb} the {obj} \"%name\"?"),
            format!("Wollen Sie {acc} „%name“ wirklich {verb_de}?"),
        ),
        7 => plain(
            format!("The {obj} could not be {done}."),
            format!("{} konnte nicht {done_de} werden.", capitalize(&nom)),
        ),
        8 => plain(
            format!("The {obj} was {done} successfully."),
            format!("{} wurde erfolgreich {done_de}.", capitalize(&nom)),
        ),
        9 => plain(
            format!("You do not have permission to {verb} {objs}."),
            format!("Sie haben keine Berechtigung, {objs_de} zu {verb_de}."),
        ),
        10 => plain(format!("%1 of %2 {objs}"), format!("%1 von %2 {objs_de}")),
        11 => plain(
            format!("Use <b>{}</b> to {verb} the {obj}.", capitalize(verb)),
            format!(
                "Mit <b>{}</b> können Sie {acc} {verb_de}.",
                capitalize(verb_de)
            ),
        ),
        12 => plain(
            format!("{} & {objs}", capitalize(obj)),
            format!("{obj_de} & {objs_de}"),
        ),
        13 => plain(
            format!("The '{obj}' field is required."),
            format!("Das Feld '{obj_de}' muss ausgefüllt werden."),
        ),
        14 => plain(
            format!("Last {done} by %author on %date"),
            format!("Zuletzt {done_de} von %author am %date"),
        ),
        15 => plain(
            format!("Show %count {objs} per page"),
            format!("%count {objs_de} pro Seite anzeigen"),
        ),
        16 => plain(
            format!("Number of {objs}:\u{a0}%1"),
            format!("Anzahl {objs_de}:\u{a0}%1"),
        ),
        17 => plain(format!("{}\t%1", capitalize(obj)), format!("{obj_de}\t%1")),
        18 => Text {
            source: format!("%n {obj}(s) {done}"),
            translation: vec![
                format!("%n {obj_de} {done_de}"),
                format!("%n {objs_de} {done_de}"),
            ],
            numerus: true,
        },
        _ => plain(
            format!("{} selected {objs}", capitalize(verb)),
            format!("Ausgewählte {objs_de} {verb_de}"),
        ),
    }
}

/// Writes `text` as element content the way Qt's tools do: markup
/// characters and quotes as entities, a no-break space as a character
/// reference, a tab as a `byte` element.
fn escape(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{a0}' => out.push_str("&#xa0;"),
            '\t' => out.push_str("<byte value=\"x9\"/>"),
            c => out.push(c),
        }
    }
}

/// Builds the catalogue text from [`SEED`].
pub fn generate() -> Generated {
    let mut rng = Rng(SEED);
    let mut g = Generated {
        text: String::with_capacity(2_200_000),
        contexts: 0,
        messages: 0,
        unfinished: 0,
        obsolete: 0,
        vanished: 0,
        empty: 0,
        duplicates: 0,
        numerus: 0,
    };
    g.text.push_str(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n\
         <TS version=\"2.1\" language=\"de_DE\" sourcelanguage=\"en\">\n",
    );
    let mut names = HashSet::new();
    while g.contexts < CONTEXTS {
        let section = *rng.pick(SECTIONS);
        let leaf = *rng.pick(LEAVES);
        let name = format!("{}/{section}/{leaf}", rng.pick(AREAS));
        if !names.insert(name.clone()) {
            continue;
        }
        g.contexts += 1;
        context(&mut g, &mut rng, &name, section, leaf);
    }
    g.text.push_str("</TS>\n");
    g
}

fn context(g: &mut Generated, rng: &mut Rng, name: &str, section: &str, leaf: &str) {
    g.text.push_str("<context>\n    <name>");
    escape(&mut g.text, name);
    g.text.push_str("</name>\n");
    let template = format!(
        "{}/templates/{section}/{leaf}.tpl",
        &name[..name.len() - section.len() - leaf.len() - 2]
    );
    let mut keys = HashSet::new();
    let mut written: Vec<(String, String)> = Vec::new();
    let count = 12 + rng.below(16);
    let mut n = 0;
    while n < count {
        let text = compose(rng);
        let comment = if rng.chance(8) {
            (*rng.pick(COMMENTS)).to_string()
        } else {
            String::new()
        };
        if !keys.insert((text.source.clone(), comment.clone())) {
            continue;
        }
        n += 1;
        message(g, rng, &template, &text, &comment, false);
        written.push((text.source, comment));
    }
    // Now and then a message is written twice: the later one replaces it.
    if rng.chance(3) {
        let (source, comment) = rng.pick(&written).clone();
        let text = Text {
            translation: vec![format!("{source} (überarbeitet)")],
            source,
            numerus: false,
        };
        g.duplicates += 1;
        message(g, rng, &template, &text, &comment, true);
    }
    g.text.push_str("</context>\n");
}

fn message(
    g: &mut Generated,
    rng: &mut Rng,
    template: &str,
    text: &Text,
    comment: &str,
    duplicate: bool,
) {
    g.messages += 1;
    let out = &mut g.text;
    out.push_str(if text.numerus {
        "    <message numerus=\"yes\">\n"
    } else {
        "    <message>\n"
    });
    // Newer tools write further locations in the same file relative to the
    // previous one, without the file name.
    let _ = writeln!(
        out,
        "        <location filename=\"{template}\" line=\"{}\"/>",
        1 + rng.below(900)
    );
    let more = match rng.below(20) {
        0 => 2,
        1..=5 => 1,
        _ => 0,
    };
    for _ in 0..more {
        let _ = writeln!(out, "        <location line=\"+{}\"/>", 1 + rng.below(120));
    }
    out.push_str("        <source>");
    escape(out, &text.source);
    out.push_str("</source>\n");
    if !comment.is_empty() {
        out.push_str("        <comment>");
        escape(out, comment);
        out.push_str("</comment>\n");
    }
    if rng.chance(2) {
        out.push_str("        <translatorcomment>");
        let remark = *rng.pick(TRANSLATOR_COMMENTS);
        escape(out, remark);
        out.push_str("</translatorcomment>\n");
    }
    if rng.chance(2) {
        out.push_str("        <extracomment>");
        let remark = *rng.pick(EXTRA_COMMENTS);
        escape(out, remark);
        out.push_str("</extracomment>\n");
    }
    // The state a translator left it in; duplicates are always finished.
    let roll = if duplicate { 99 } else { rng.below(100) };
    let (kind, empty) = match roll {
        0..=3 => (" type=\"unfinished\"", true),
        4..=6 => (" type=\"unfinished\"", false),
        7..=9 => (" type=\"obsolete\"", false),
        10 => (" type=\"vanished\"", false),
        11 => ("", true),
        _ => ("", false),
    };
    match roll {
        0..=6 => g.unfinished += 1,
        7..=9 => g.obsolete += 1,
        10 => g.vanished += 1,
        _ => {}
    }
    g.empty += usize::from(empty);
    g.numerus += usize::from(text.numerus);
    let _ = write!(out, "        <translation{kind}>");
    if text.numerus {
        for form in &text.translation {
            out.push_str("\n            <numerusform>");
            if !empty {
                escape(out, form);
            }
            out.push_str("</numerusform>");
        }
        out.push_str("\n        ");
    } else if !empty {
        for form in &text.translation {
            escape(out, form);
        }
    }
    out.push_str("</translation>\n    </message>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_fixture_is_the_generators_output() {
        let path = crate::fixtures::path(FIXTURE);
        let committed =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let generated = generate();
        assert!(
            committed == generated.text,
            "{} differs from the generator's output; rewrite it with \
             `cargo run -p probes --example i18n_fixture`",
            path.display()
        );
    }

    #[test]
    fn the_catalogue_has_the_promised_size_and_shape() {
        let g = generate();
        let kb = g.text.len() / 1024;
        assert!((1800..=2300).contains(&kb), "{kb} KB");
        assert!(g.contexts >= 400 && g.messages >= 8000, "{g:?}");
        for (what, n) in [
            ("unfinished", g.unfinished),
            ("obsolete", g.obsolete),
            ("vanished", g.vanished),
            ("empty", g.empty),
            ("duplicates", g.duplicates),
            ("numerus", g.numerus),
        ] {
            assert!(n > 0, "no {what} messages");
        }
        assert!(g.duplicates < 30, "{} duplicates", g.duplicates);
        for needle in [
            "&lt;b&gt;",
            "&amp;",
            "&quot;",
            "&apos;",
            "&#xa0;",
            "<byte value=\"x9\"/>",
            "<comment>",
            "<location ",
        ] {
            assert!(g.text.contains(needle), "no {needle}");
        }
    }

    #[test]
    fn loading_it_counts_what_was_generated() {
        let g = generate();
        let c = crate::i18n::load_bytes("kernel_de.ts", g.text.as_bytes()).unwrap();
        let s = c.stats();
        assert_eq!(s.contexts, g.contexts);
        assert_eq!(s.messages, g.messages);
        assert_eq!(s.unfinished, g.unfinished);
        assert_eq!(s.obsolete, g.obsolete);
        assert_eq!(s.vanished, g.vanished);
        assert_eq!(s.empty, g.empty);
        assert_eq!(s.duplicates, g.duplicates);
        assert_eq!(s.numerus, g.numerus);
        assert_eq!(c.len(), g.messages - g.duplicates);
        assert_eq!(c.warnings().len(), g.duplicates);
        assert_eq!(c.language(), "de_DE");
    }
}
