//! What the kernel probes work on: the store (`--database`, or the size of
//! the generated one, `--content-size`) and the node they render and fetch
//! (`--node`), all parameters of `cargo bench --bench kernel` (see
//! `yardstick_probe::param`).
//!
//! The default node is the front page, as a visitor's first request is,
//! unless its full view is nearly empty (a site whose front page is a bare
//! title over a menu): then the menu page with the largest full view, since
//! a probe that renders next to nothing times next to nothing.

use crate::content::{ContentStore, FRONT_PAGE, ListQuery, Shape};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// `--content-size`: the nodes of the generated store, the root and the
/// front page included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContentSize(pub u64);

impl ContentSize {
    /// The fewest: the root, the front page and its menu of six.
    pub const MIN: u64 = 8;
    /// The most: about 1.5 GB of database and 15 s to build on the 2-core
    /// machine (10,000 nodes take 73 MB and 0.56 s); past it a typo would
    /// fill a disk.
    pub const MAX: u64 = 200_000;

    /// The size given (`--content-size`), else the default shape's.
    pub fn given() -> Result<ContentSize, String> {
        match yardstick_probe::param("content_size") {
            Some(v) => v.parse().map_err(|e| format!("--content-size: {e}")),
            None => Ok(ContentSize(Shape::default().nodes)),
        }
    }
}

impl FromStr for ContentSize {
    type Err = String;

    fn from_str(s: &str) -> Result<ContentSize, String> {
        let nodes: u64 = s
            .parse()
            .map_err(|_| format!("`{s}` is not a number of nodes"))?;
        if (ContentSize::MIN..=ContentSize::MAX).contains(&nodes) {
            Ok(ContentSize(nodes))
        } else {
            Err(format!(
                "{nodes} nodes: from {} (a front page and its menu) to {}",
                ContentSize::MIN,
                ContentSize::MAX
            ))
        }
    }
}

impl fmt::Display for ContentSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// `--database`: a content store of the current layout to read instead of
/// the generated one. Parsing opens it, so a missing or corrupt file is a
/// usage error that names it before anything runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseFile(pub PathBuf);

impl DatabaseFile {
    /// The store given (`--database`), if any.
    pub fn given() -> Result<Option<DatabaseFile>, String> {
        yardstick_probe::param("database")
            .map(|v| v.parse().map_err(|e| format!("--database: {e}")))
            .transpose()
    }
}

impl FromStr for DatabaseFile {
    type Err = String;

    fn from_str(s: &str) -> Result<DatabaseFile, String> {
        let path = PathBuf::from(s);
        ContentStore::open(&path).map_err(|e| e.to_string())?;
        Ok(DatabaseFile(path))
    }
}

/// A full view shorter than this, by [`weight`], is nearly empty.
const NEARLY_EMPTY: u64 = 1024;

/// The node the probes render and fetch in the store at `path`: `--node`
/// if given (it must exist), else the default of the module's comment.
/// It reads the store through a connection of its own, closed before the
/// site boots, so the site's statements and SQLite's page cache are as
/// cold as a request finds them (`render_cold` times the first render).
pub fn node(path: &Path) -> Result<i64, String> {
    let store = ContentStore::open(path).map_err(|e| e.to_string())?;
    match yardstick_probe::param("node") {
        Some(v) => {
            let id: i64 = v.parse().map_err(|e| format!("--node={v}: {e}"))?;
            match store.node(id).map_err(|e| e.to_string())? {
                Some(_) => Ok(id),
                None => Err(format!("--node={id}: no such node in the content store")),
            }
        }
        None => default_node(&store),
    }
}

/// The front page, or the menu page with the largest full view when the
/// front page's is nearly empty.
fn default_node(store: &ContentStore) -> Result<i64, String> {
    let front = weight(store, FRONT_PAGE)?;
    if front >= NEARLY_EMPTY {
        // The usual case, in three queries: every child pays for them.
        return Ok(FRONT_PAGE);
    }
    let menu = store
        .list(&ListQuery::children(FRONT_PAGE))
        .map_err(|e| e.to_string())?;
    let mut pages = Vec::with_capacity(menu.len());
    for page in menu.iter().filter(|n| n.class_identifier == "folder") {
        pages.push((page.node_id, weight(store, page.node_id)?));
    }
    Ok(pick(front, &pages))
}

/// The choice itself: `front`'s weight against the menu pages'.
fn pick(front: u64, menu: &[(i64, u64)]) -> i64 {
    if front >= NEARLY_EMPTY {
        return FRONT_PAGE;
    }
    menu.iter()
        .filter(|(_, w)| *w > front)
        // The first of equals, in menu order.
        .fold(None, |best: Option<(i64, u64)>, &(id, w)| match best {
            Some((_, b)) if b >= w => best,
            _ => Some((id, w)),
        })
        .map_or(FRONT_PAGE, |(id, _)| id)
}

/// What a node's full view shows, in bytes, read from the store without
/// rendering: its attributes' stored text, and a line per child it lists
/// (the full view's page holds 5).
fn weight(store: &ContentStore, id: i64) -> Result<u64, String> {
    let Some(node) = store.node(id).map_err(|e| e.to_string())? else {
        return Ok(0);
    };
    let text: usize = store
        .object(node.object_id, None)
        .map_err(|e| e.to_string())?
        .map(|o| {
            o.attributes
                .iter()
                .filter_map(|a| a.text.as_ref())
                .map(String::len)
                .sum()
        })
        .unwrap_or(0);
    let children = store
        .count(&ListQuery::children(id))
        .map_err(|e| e.to_string())?;
    Ok(text as u64 + 120 * children.min(5))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_front_page_is_chosen() {
        assert_eq!(pick(NEARLY_EMPTY, &[(3, 50_000)]), FRONT_PAGE);
    }

    #[test]
    fn a_nearly_empty_front_page_gives_way_to_the_largest_menu_page() {
        assert_eq!(pick(10, &[(3, 500), (4, 9_000), (5, 9_000), (6, 20)]), 4);
    }

    #[test]
    fn no_larger_menu_page_keeps_the_front_page() {
        assert_eq!(pick(10, &[]), FRONT_PAGE);
        assert_eq!(pick(10, &[(3, 5), (4, 10)]), FRONT_PAGE);
    }

    /// Why `path` is refused as `--database`, or `None`.
    fn refused(path: &Path) -> Option<String> {
        path.to_str()?.parse::<DatabaseFile>().err()
    }

    #[test]
    fn a_missing_or_corrupt_database_is_refused_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.db");
        let e = refused(&missing).unwrap_or_default();
        assert!(
            e.contains("missing.db") && e.contains("does not exist"),
            "{e}"
        );
        let corrupt = dir.path().join("corrupt.db");
        std::fs::write(
            &corrupt,
            b"SQLite format 3\0 and then nothing a database holds",
        )
        .unwrap();
        let e = refused(&corrupt).unwrap_or_default();
        assert!(e.contains("corrupt.db"), "{e}");
    }

    /// A directory, a device and a FIFO are said to be what they are,
    /// before anything opens them (a FIFO would block the open).
    #[test]
    fn a_database_that_is_no_regular_file_is_refused_for_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let e = refused(dir.path()).unwrap_or_default();
        assert!(
            e.starts_with(&format!("{}: is a directory", dir.path().display())),
            "{e}"
        );
        let e = refused(Path::new("/dev/zero")).unwrap_or_default();
        assert!(e.starts_with("/dev/zero: is not a regular file"), "{e}");
        let fifo = dir.path().join("fifo.db");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let e = refused(&fifo).unwrap_or_default();
            assert!(
                e.starts_with(&format!("{}: is not a regular file", fifo.display())),
                "{e}"
            );
        }
    }

    /// A store that says it is of this layout but lacks a table or a
    /// column is refused when opened, naming the file and what it lacks,
    /// not by every query later.
    #[test]
    fn a_store_without_the_layouts_tables_is_refused_naming_what_it_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.db");
        let conn = rusqlite::Connection::open(&empty).unwrap();
        conn.pragma_update(None, "user_version", crate::content::LAYOUT)
            .unwrap();
        drop(conn);
        let e = refused(&empty).unwrap_or_default();
        assert_eq!(
            e,
            format!(
                "{}: not a content store of layout 1: it says so, but has no table `content_class`",
                empty.display()
            )
        );
        let thin = dir.path().join("thin.db");
        let shape = Shape {
            nodes: ContentSize::MIN,
            ..Shape::default()
        };
        crate::content::generate(&thin, &shape).unwrap();
        let conn = rusqlite::Connection::open(&thin).unwrap();
        conn.execute_batch("ALTER TABLE url_alias DROP COLUMN is_original")
            .unwrap();
        drop(conn);
        assert!(refused(&thin).is_some_and(|e| e.ends_with("no column `url_alias.is_original`")));
    }

    #[test]
    fn content_sizes_out_of_range_are_refused() {
        assert_eq!("8".parse::<ContentSize>(), Ok(ContentSize(8)));
        assert!("7".parse::<ContentSize>().is_err());
        assert!("200001".parse::<ContentSize>().is_err());
        assert!("ten".parse::<ContentSize>().is_err());
    }
}
