//! Searching the content store by object name: what the CMS's simple
//! search (`/content/search?SearchText=...`) asks of its database.
//!
//! Each word of the search text must appear in the object's name, case
//! aside (SQLite's `LIKE`, which folds ASCII case): a `LIKE '%word%'`
//! scan, as the CMS's plain database search does without a search
//! engine. Over ten thousand names it costs about a millisecond, which is
//! the point of a search page in a benchmark: a page whose database work
//! a view cache cannot hide unless the whole page is cached.
//!
//! The search keeps a read-only connection of its own beside the
//! [`ContentStore`](super::ContentStore)'s, so searching does not wait for
//! a page being rendered, and the store's reader stays as it is.

use super::ContentError;
use super::store::{NODE_SELECT, Node};
use rusqlite::{Connection, params_from_iter};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Words of a search text that count; more are ignored, so one request
/// cannot build an arbitrarily long statement.
pub const MAX_WORDS: usize = 8;

/// Characters of a word that count; a longer word counts by its first
/// ones. SQLite refuses a `LIKE` pattern over 50,000 bytes (an error, not
/// a miss). The kernel fixture's longest name is 51 characters, so there a
/// cut word finds what the whole one would.
pub const MAX_WORD_CHARS: usize = 100;

/// What a search found: one page of nodes and how many there are in all.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Found {
    /// Every visible node whose object's name holds each word.
    pub total: u64,
    /// The first of them, newest first (by modification, then node).
    pub nodes: Vec<Node>,
}

/// A search over the content store at a path.
pub struct Search {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl Search {
    /// Opens the store at `path` for searching; a file that is missing,
    /// not SQLite, or of another layout is refused, naming it.
    pub fn open(path: &Path) -> Result<Search, ContentError> {
        let conn = super::store::connect(path)?;
        Ok(Search {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
        })
    }

    /// The visible nodes whose names hold every word of `text` (up to
    /// [`MAX_WORDS`], each cut to [`MAX_WORD_CHARS`]), at most `limit` of them, and their total. Text
    /// without a word finds nothing.
    pub fn find(&self, text: &str, limit: u64) -> Result<Found, ContentError> {
        let patterns: Vec<String> = text
            .split_whitespace()
            .take(MAX_WORDS)
            .map(|word| match word.char_indices().nth(MAX_WORD_CHARS) {
                Some((cut, _)) => &word[..cut],
                None => word,
            })
            .map(pattern)
            .collect();
        if patterns.is_empty() {
            return Ok(Found::default());
        }
        let filter = filter(patterns.len());
        let conn = self.conn.lock().map_err(|_| {
            ContentError::new(format!("{}: a searcher panicked", self.path.display()))
        })?;
        let at = |e| ContentError::sql(&self.path, e);
        let count_sql = format!(
            "SELECT COUNT(*) FROM content_node n JOIN content_object o ON o.id = n.object_id{filter}"
        );
        let total: i64 = conn
            .prepare_cached(&count_sql)
            .and_then(|mut s| s.query_row(params_from_iter(patterns.iter()), |r| r.get(0)))
            .map_err(at)?;
        let list_sql = format!(
            "{NODE_SELECT}{filter} ORDER BY o.modified DESC, n.node_id LIMIT {}",
            limit.min(i64::MAX as u64)
        );
        let mut statement = conn.prepare_cached(&list_sql).map_err(at)?;
        let nodes = statement
            .query_map(params_from_iter(patterns.iter()), Node::from_row)
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<Node>>>())
            .map_err(at)?;
        Ok(Found {
            total: total.max(0) as u64,
            nodes,
        })
    }
}

/// The WHERE clause for `words` words: each one a `LIKE` on the name.
fn filter(words: usize) -> String {
    let mut sql = String::from(" WHERE n.is_invisible = 0");
    for i in 1..=words {
        sql.push_str(&format!(" AND o.name LIKE ?{i} ESCAPE '\\'"));
    }
    sql
}

/// `%word%`, with LIKE's own `%`, `_` and the escape character escaped, so
/// a search for `100%` finds that text and not everything.
fn pattern(word: &str) -> String {
    let mut p = String::with_capacity(word.len() + 2);
    p.push('%');
    for c in word.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_escape_like_wildcards() {
        assert_eq!(pattern("news"), "%news%");
        assert_eq!(pattern("100%_a\\b"), "%100\\%\\_a\\\\b%");
        assert_eq!(filter(2).matches("LIKE").count(), 2);
    }

    #[test]
    fn a_word_past_sqlite_s_pattern_limit_is_cut_not_an_error() {
        let path = crate::kernel::fixture().unwrap();
        let search = Search::open(&path).unwrap();
        // 60,000 characters, each escaped to two bytes in the pattern.
        let word = "%".repeat(60_000);
        assert_eq!(search.find(&word, 10).unwrap(), Found::default());
        let long_a = format!("harbour {}", "a".repeat(60_000));
        assert_eq!(search.find(&long_a, 10).unwrap().total, 0);
    }
}
