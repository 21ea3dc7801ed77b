//! The catalogue's probes: a full load from XML, and lookups.

use std::path::PathBuf;

use super::catalogue::Catalogue;
use super::fixture::FIXTURE;
use super::loader::load_bytes;

/// The fixture's bytes and the counts a correct load must report, taken
/// by counting start tags in the raw text rather than by the loader.
struct LoadState {
    file: String,
    bytes: Vec<u8>,
    contexts: usize,
    messages: usize,
}

fn read_fixture() -> Result<(String, Vec<u8>), String> {
    let path: PathBuf = crate::fixtures::path(FIXTURE);
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file = path
        .file_name()
        .map_or_else(|| FIXTURE.to_string(), |n| n.to_string_lossy().into_owned());
    Ok((file, bytes))
}

/// Occurrences of the start tag `<name>` or `<name ...>` in `text`.
fn count_tags(text: &[u8], name: &str) -> usize {
    let open = format!("<{name}");
    text.windows(open.len() + 1)
        .filter(|w| w.starts_with(open.as_bytes()) && matches!(w[open.len()], b'>' | b' '))
        .count()
}

/// `1234567` as `1,234,567`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

yardstick_probe::probe! {
    name: i18n_load,
    group: catalogue_load,
    variant: kernel,
    role: reference,
    ops: 1,
    note: |s: &LoadState| format!(
        "{}, {} KB, {} messages",
        s.file,
        thousands(s.bytes.len() / 1024),
        thousands(s.messages)
    ),
    setup: || -> Result<LoadState, String> {
        let (file, bytes) = read_fixture()?;
        Ok(LoadState {
            contexts: count_tags(&bytes, "context"),
            messages: count_tags(&bytes, "message"),
            file,
            bytes,
        })
    },
    run: |s: &LoadState| load_bytes(&s.file, &s.bytes),
    check: |s: &LoadState, out: &Result<Catalogue, super::LoadError>| {
        let catalogue = out.as_ref().map_err(|e| e.to_string())?;
        let stats = catalogue.stats();
        if stats.contexts != s.contexts || stats.messages != s.messages {
            return Err(format!(
                "loaded {} contexts and {} messages, the file has {} and {}",
                stats.contexts, stats.messages, s.contexts, s.messages
            ));
        }
        Ok(())
    },
}

/// How many lookups the probe makes of each message.
const ROUNDS: usize = 10;
/// How many messages it looks up.
const LOOKED_UP: usize = 300;

/// One looked-up message: its key and the translation it must yield.
struct Key {
    context: String,
    source: String,
    comment: String,
    expected: String,
}

struct LookupState {
    catalogue: Catalogue,
    keys: Vec<Key>,
}

/// What a round of lookups found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tally {
    /// Lookups that returned the expected translation.
    pub right: usize,
    /// The key number of the first lookup that did not, if any.
    pub first_wrong: Option<usize>,
}

/// The first [`LOOKED_UP`] messages in file order that have a translation a
/// lookup returns and are not replaced by a later duplicate.
fn lookup_keys(catalogue: &Catalogue) -> Vec<Key> {
    catalogue
        .messages()
        .filter(|m| !m.is_shadowed())
        .filter_map(|m| {
            let expected = if m.is_numerus() {
                m.forms().next().unwrap_or_default()
            } else {
                m.translation()
            };
            (!expected.is_empty()).then(|| Key {
                context: m.context().to_string(),
                source: m.source().to_string(),
                comment: m.comment().to_string(),
                expected: expected.to_string(),
            })
        })
        .take(LOOKED_UP)
        .collect()
}

fn look_up_all(s: &LookupState) -> Tally {
    let mut tally = Tally {
        right: 0,
        first_wrong: None,
    };
    for _ in 0..ROUNDS {
        for (i, key) in s.keys.iter().enumerate() {
            let found = s
                .catalogue
                .translate(&key.context, &key.source, &key.comment);
            if found == Some(key.expected.as_str()) {
                tally.right += 1;
            } else if tally.first_wrong.is_none() {
                tally.first_wrong = Some(i);
            }
        }
    }
    tally
}

yardstick_probe::probe! {
    name: i18n_lookup,
    ops: (LOOKED_UP * ROUNDS) as u64,
    note: "300 messages, 10 times",
    setup: || -> Result<LookupState, String> {
        let (file, bytes) = read_fixture()?;
        let catalogue = load_bytes(&file, &bytes).map_err(|e| e.to_string())?;
        let keys = lookup_keys(&catalogue);
        if keys.len() < LOOKED_UP {
            return Err(format!(
                "{file} has only {} translated messages, the probe needs {LOOKED_UP}",
                keys.len()
            ));
        }
        Ok(LookupState { catalogue, keys })
    },
    run: look_up_all,
    check: |s: &LookupState, tally: &Tally| {
        if let Some(i) = tally.first_wrong {
            let k = &s.keys[i];
            let found = s.catalogue.translate(&k.context, &k.source, &k.comment);
            return Err(format!(
                "lookup of ({:?}, {:?}, {:?}) gave {found:?}, expected {:?}",
                k.context, k.source, k.comment, k.expected
            ));
        }
        if tally.right != LOOKED_UP * ROUNDS {
            return Err(format!("{} of {} lookups right", tally.right, LOOKED_UP * ROUNDS));
        }
        Ok(())
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_thousands_are_counted() {
        let text = b"<context><message numerus=\"yes\"><messages/></message><message></context>";
        assert_eq!(count_tags(text, "context"), 1);
        assert_eq!(count_tags(text, "message"), 2);
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(8412), "8,412");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn the_lookup_keys_skip_empty_and_shadowed_messages() {
        let ts = r#"<TS language="de"><context><name>c</name>
            <message><source>a</source><translation>A1</translation></message>
            <message><source>e</source><translation type="unfinished"></translation></message>
            <message><source>o</source><translation type="obsolete">O</translation></message>
            <message><source>a</source><translation>A2</translation></message>
            </context></TS>"#;
        let catalogue = load_bytes("t.ts", ts.as_bytes()).unwrap();
        let keys = lookup_keys(&catalogue);
        let got: Vec<_> = keys
            .iter()
            .map(|k| (k.source.as_str(), k.expected.as_str()))
            .collect();
        assert_eq!(got, [("o", "O"), ("a", "A2")]);
        let state = LookupState { catalogue, keys };
        let tally = look_up_all(&state);
        assert_eq!(
            tally,
            Tally {
                right: 2 * ROUNDS,
                first_wrong: None
            }
        );
    }
}
