//! The cache round trip, and every way a cache can be refused.

use proptest::prelude::*;

use super::*;
use crate::i18n::fixture;

const SOURCE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context><name>c</name>
<message><location filename="a.tpl" line="3"/><location line="+2"/><source>Open</source><comment>Verb</comment>
<translatorcomment>tc</translatorcomment><extracomment>ec</extracomment><translation>Öffnen</translation></message>
<message numerus="yes"><source>%n file(s)</source><translation type="unfinished"><numerusform>%n Datei</numerusform><numerusform>%n Dateien</numerusform></translation></message>
<message><source>gone</source><translation type="vanished">weg</translation></message>
<message><source>Open</source><comment>Verb</comment><translation>Aufmachen</translation></message>
<extra-x/>
</context>
<context><message><source>x</source><translation type="obsolete">X</translation></message></context>
</TS>
"#;

fn fingerprint(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Everything a catalogue holds, compared table by table.
fn assert_same(a: &Catalogue, b: &Catalogue) {
    assert_eq!(a.text, b.text);
    assert_eq!(a.contexts, b.contexts);
    assert_eq!(a.messages, b.messages);
    assert_eq!(a.forms, b.forms);
    assert_eq!(a.locations, b.locations);
    assert_eq!(a.stats, b.stats);
    assert_eq!(a.warnings, b.warnings);
    assert_eq!(
        (
            a.version(),
            a.language(),
            a.source_language(),
            a.plural_rule(),
            a.len()
        ),
        (
            b.version(),
            b.language(),
            b.source_language(),
            b.plural_rule(),
            b.len()
        )
    );
}

#[test]
fn a_cache_reads_back_as_the_catalogue_it_was_made_from() {
    let loaded = load_bytes("t.ts", SOURCE.as_bytes()).unwrap();
    let print = fingerprint(SOURCE.as_bytes());
    let read = decode("t.ts", &encode(&loaded, &print), &print).unwrap();
    assert_same(&loaded, &read);
    assert_eq!(read.translate("c", "Open", "Verb"), Some("Aufmachen"));
    assert_eq!(
        read.translate_count("c", "%n file(s)", "", 2),
        Some("%n Dateien")
    );
    assert_eq!(read.translate("", "x", ""), Some("X"));
    let shadowed: Vec<_> = read.messages().map(|m| m.is_shadowed()).collect();
    assert_eq!(shadowed, [true, false, false, false, false]);
}

#[test]
fn the_fixture_round_trips() {
    let text = fixture::generate().text;
    let loaded = load_bytes("f.ts", text.as_bytes()).unwrap();
    let print = fingerprint(text.as_bytes());
    let read = decode("f.ts", &encode(&loaded, &print), &print).unwrap();
    assert_same(&loaded, &read);
}

#[test]
fn load_cached_builds_then_hits_then_notices_a_changed_source() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("de.ts");
    let cache = dir.path().join("de.ts.cache");
    std::fs::write(&source, SOURCE).unwrap();

    let (first, outcome) = load_cached(&source, &cache).unwrap();
    assert_eq!(
        outcome,
        CacheOutcome::Rebuilt {
            reason: RebuildReason::Missing,
            write_error: None
        }
    );
    assert!(cache.exists());
    let (second, outcome) = load_cached(&source, &cache).unwrap();
    assert_eq!(outcome, CacheOutcome::Hit);
    assert_same(&first, &second);
    assert_eq!(second.file(), source.display().to_string());

    std::fs::write(&source, SOURCE.replace("Aufmachen", "Öffne")).unwrap();
    let (third, outcome) = load_cached(&source, &cache).unwrap();
    assert!(
        matches!(
            &outcome,
            CacheOutcome::Rebuilt {
                reason: RebuildReason::Stale,
                write_error: None
            }
        ),
        "{outcome:?}"
    );
    assert_eq!(third.translate("c", "Open", "Verb"), Some("Öffne"));
    assert_eq!(load_cached(&source, &cache).unwrap().1, CacheOutcome::Hit);
}

/// Loads through a cache file holding `damage(valid cache)`.
fn outcome_after(damage: impl FnOnce(&mut Vec<u8>)) -> (Catalogue, CacheOutcome, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("de.ts");
    let cache = dir.path().join("de.cache");
    std::fs::write(&source, SOURCE).unwrap();
    load_cached(&source, &cache).unwrap();
    let mut bytes = std::fs::read(&cache).unwrap();
    damage(&mut bytes);
    std::fs::write(&cache, &bytes).unwrap();
    let (catalogue, outcome) = load_cached(&source, &cache).unwrap();
    let rewritten = std::fs::read(&cache).unwrap();
    (catalogue, outcome, rewritten)
}

fn reason(outcome: &CacheOutcome) -> &RebuildReason {
    match outcome {
        CacheOutcome::Rebuilt {
            reason,
            write_error: None,
        } => reason,
        other => panic!("expected a rebuilt cache, got {other:?}"),
    }
}

#[test]
fn a_corrupt_cache_is_rebuilt_and_rewritten() {
    let fresh = load_bytes("t.ts", SOURCE.as_bytes()).unwrap();
    type Damage = Box<dyn FnOnce(&mut Vec<u8>)>;
    let damages: [(&str, Damage); 5] = [
        (
            "flipped payload byte",
            Box::new(|b| {
                let last = b.len() - 1;
                b[last] ^= 0x40;
            }),
        ),
        ("cut short", Box::new(|b| b.truncate(b.len() / 2))),
        ("empty", Box::new(|b| b.clear())),
        ("foreign file", Box::new(|b| *b = b"<TS/>".repeat(30))),
        ("flipped checksum", Box::new(|b| b[60] ^= 1)),
    ];
    for (what, damage) in damages {
        let (catalogue, outcome, rewritten) = outcome_after(damage);
        assert!(
            matches!(reason(&outcome), RebuildReason::Corrupt(_)),
            "{what}: {outcome:?}"
        );
        assert_same(&fresh, &catalogue);
        let print = fingerprint(SOURCE.as_bytes());
        assert!(
            decode("t.ts", &rewritten, &print).is_ok(),
            "{what}: not rewritten"
        );
    }
}

#[test]
fn a_cache_of_another_version_is_rebuilt() {
    let (_, outcome, rewritten) = outcome_after(|b| b[8..12].copy_from_slice(&7u32.to_le_bytes()));
    assert_eq!(reason(&outcome), &RebuildReason::OtherVersion(7));
    assert_eq!(&rewritten[8..12], &VERSION.to_le_bytes());
}

#[test]
fn a_cache_that_cannot_be_written_still_yields_the_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("de.ts");
    std::fs::write(&source, SOURCE).unwrap();
    let cache = dir.path().join("no-such-dir").join("de.cache");
    let (catalogue, outcome) = load_cached(&source, &cache).unwrap();
    assert_eq!(catalogue.translate("c", "Open", "Verb"), Some("Aufmachen"));
    match outcome {
        CacheOutcome::Rebuilt {
            reason: RebuildReason::Missing,
            write_error: Some(e),
        } => assert!(e.contains("de.cache"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_broken_source_is_a_load_error_even_with_a_cache() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("de.ts");
    let cache = dir.path().join("de.cache");
    std::fs::write(&source, "<TS><context><message/></context></TS>").unwrap();
    let e = load_cached(&source, &cache).err().unwrap();
    assert_eq!(e.kind, ErrorKind::MessageWithoutSource);
    let e = load_cached(&dir.path().join("none.ts"), &cache)
        .err()
        .unwrap();
    assert!(matches!(e.kind, ErrorKind::Io(_)));
}

/// A cache with its payload replaced by `payload` and sealed with a
/// matching checksum, so that only the payload's own checks stand between
/// it and the catalogue.
fn sealed(payload: &[u8], print: &[u8; 32]) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(print);
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(print, payload));
    bytes.extend_from_slice(payload);
    bytes
}

#[test]
fn inconsistent_payloads_are_refused() {
    let loaded = load_bytes("t.ts", SOURCE.as_bytes()).unwrap();
    let print = fingerprint(SOURCE.as_bytes());
    let payload = encode(&loaded, &print)[HEADER..].to_vec();
    // A span past the text: the first span's length.
    let mut bad = payload.clone();
    bad[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        decode("t.ts", &sealed(&bad, &print), &print),
        Err(RebuildReason::Corrupt(_))
    ));
    // Trailing bytes.
    let mut bad = payload.clone();
    bad.push(0);
    assert!(matches!(
        decode("t.ts", &sealed(&bad, &print), &print),
        Err(RebuildReason::Corrupt(_))
    ));
    // The same payload, sealed properly, is accepted.
    assert!(decode("t.ts", &sealed(&payload, &print), &print).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn damaged_payloads_never_panic(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let loaded = load_bytes("t.ts", SOURCE.as_bytes()).unwrap();
        let print = fingerprint(SOURCE.as_bytes());
        let mut payload = encode(&loaded, &print)[HEADER..].to_vec();
        for (at, byte) in flips {
            let i = at.index(payload.len());
            payload[i] = byte;
        }
        if cut.index(4) == 0 {
            payload.truncate(cut.index(payload.len()));
        }
        if let Ok(c) = decode("t.ts", &sealed(&payload, &print), &print) {
            // Whatever was accepted is safe to use.
            for m in c.messages() {
                let _ = (m.source(), m.forms().count(), m.locations().count(), m.is_shadowed());
                let _ = c.translate(m.context(), m.source(), m.comment());
                let _ = c.translate_count(m.context(), m.source(), m.comment(), 2);
            }
        }
    }

    #[test]
    fn arbitrary_cache_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let print = fingerprint(SOURCE.as_bytes());
        prop_assert!(decode("t.ts", &bytes, &print).is_err());
    }
}
