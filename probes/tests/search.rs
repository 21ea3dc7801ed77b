//! The name search against direct SQL over a small generated store: the
//! same nodes in the same order, the same total, and the refusals.

use probes::content::search::{MAX_WORDS, Search};
use probes::content::{self, Shape};
use rusqlite::Connection;
use std::path::Path;

const SMALL: Shape = Shape {
    nodes: 600,
    depth: 6,
    seed: 7,
};

/// Node ids of the visible nodes whose names contain every word
/// (ASCII case folded), newest first, by direct SQL with `instr`.
fn direct(path: &Path, words: &[&str]) -> Vec<i64> {
    let conn = Connection::open(path).unwrap();
    let mut s = conn
        .prepare(
            "SELECT n.node_id, o.name FROM content_node n JOIN content_object o ON o.id = n.object_id \
             WHERE n.is_invisible = 0 ORDER BY o.modified DESC, n.node_id",
        )
        .unwrap();
    let rows = s
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .unwrap();
    rows.map(Result::unwrap)
        .filter(|(_, name)| {
            let name = name.to_ascii_lowercase();
            words.iter().all(|w| name.contains(&w.to_ascii_lowercase()))
        })
        .map(|(id, _)| id)
        .collect()
}

/// The most common word of the store's names, so the search finds more
/// than one page of nodes.
fn common_word(path: &Path) -> String {
    let conn = Connection::open(path).unwrap();
    let mut s = conn.prepare("SELECT name FROM content_object").unwrap();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for name in s.query_map([], |r| r.get::<_, String>(0)).unwrap() {
        for w in name.unwrap().split_whitespace() {
            *counts.entry(w.to_ascii_lowercase()).or_default() += 1;
        }
    }
    counts.into_iter().max_by_key(|(_, n)| *n).unwrap().0
}

#[test]
fn search_finds_what_direct_sql_finds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.db");
    content::generate(&path, &SMALL).unwrap();
    let search = Search::open(&path).unwrap();
    let word = common_word(&path);
    let want = direct(&path, &[&word]);
    assert!(want.len() > 10, "{word}: {}", want.len());
    // Upper case finds the same: LIKE folds ASCII case.
    let found = search
        .find(&format!("  {} ", word.to_uppercase()), 10)
        .unwrap();
    assert_eq!(found.total, want.len() as u64);
    let ids: Vec<i64> = found.nodes.iter().map(|n| n.node_id).collect();
    assert_eq!(ids, want[..10]);
    // Two words: both must appear.
    let second = found.nodes[0]
        .name
        .split_whitespace()
        .last()
        .unwrap()
        .to_string();
    let both = search.find(&format!("{word} {second}"), 100).unwrap();
    let want = direct(&path, &[&word, &second]);
    assert_eq!(both.total, want.len() as u64);
    let ids: Vec<i64> = both.nodes.iter().map(|n| n.node_id).collect();
    assert_eq!(ids, want);
}

#[test]
fn wildcards_are_text_and_empty_text_finds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("store.db");
    content::generate(&path, &SMALL).unwrap();
    let search = Search::open(&path).unwrap();
    for text in ["", "   ", "%", "_", "\\"] {
        let found = search.find(text, 10).unwrap();
        assert_eq!((found.total, found.nodes.len()), (0, 0), "{text:?}");
    }
    // More words than counted: the extra ones are ignored, not an error.
    let many = vec!["a"; MAX_WORDS + 5].join(" ");
    assert!(search.find(&many, 10).is_ok());
}

#[test]
fn a_missing_or_foreign_file_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.db");
    let e = Search::open(&missing).err().unwrap().to_string();
    assert!(e.contains("missing.db"), "{e}");
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database, not at all, no").unwrap();
    let e = Search::open(&junk).err().unwrap().to_string();
    assert!(e.contains("junk.db"), "{e}");
}
