//! Reading the content store: what the template language's `fetch`
//! functions and the URL router ask of it.
//!
//! Statements are prepared once and cached by the connection, as a CMS's
//! database layer keeps them, so a probe times the query, not its parsing.
//! The connection sits behind a mutex: template values that fetch lazily
//! (a node's `data_map`) share the store across threads, and an
//! uncontended lock costs a few nanoseconds beside a query's microseconds.

use super::ContentError;
use super::query::{ListQuery, Param};
use super::schema;
use crate::host::ContentSource;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params_from_iter};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A node of the tree, with what lists show of its object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub node_id: i64,
    pub parent_node_id: i64,
    pub object_id: i64,
    pub depth: i64,
    pub path_string: String,
    /// The node's URL alias path, without the leading `/`.
    pub url_alias: String,
    pub priority: i64,
    pub sort_field: i64,
    pub sort_order: i64,
    pub is_hidden: bool,
    pub is_invisible: bool,
    pub name: String,
    pub class_identifier: String,
    pub published: i64,
    pub modified: i64,
}

/// An object's attribute in one version and language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub id: i64,
    pub identifier: String,
    pub data_type: String,
    pub text: Option<String>,
    pub int: Option<i64>,
    pub sort_key_string: String,
    pub sort_key_int: i64,
}

/// An object in its current version and one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    pub id: i64,
    pub class_identifier: String,
    pub name: String,
    pub current_version: i64,
    pub language: String,
    pub published: i64,
    pub modified: i64,
    pub section_id: i64,
    pub owner_id: i64,
    /// In the class's placement order.
    pub attributes: Vec<Attribute>,
}

/// A URL alias resolved: its node, and whether it is the node's current
/// alias or an old one (which the CMS redirects).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    pub node_id: i64,
    pub current: bool,
}

/// An open content store, read-only.
pub struct ContentStore {
    conn: Mutex<Connection>,
    path: PathBuf,
}

/// The SELECT every node query starts with: a node joined to its object
/// and class, the columns [`Node::from_row`] reads.
pub const NODE_SELECT: &str = "SELECT n.node_id, n.parent_node_id, n.object_id, n.depth, \
     n.path_string, n.path_identification_string, n.priority, n.sort_field, n.sort_order, \
     n.is_hidden, n.is_invisible, o.name, c.identifier, o.published, o.modified \
     FROM content_node n JOIN content_object o ON o.id = n.object_id \
     JOIN content_class c ON c.id = o.class_id";

/// A read-only connection to the store at `path`; a path that is missing
/// or no regular file, a file that is not SQLite, or one of another layout
/// (its version, or a table or column the queries read missing) is
/// refused, naming it, before anything reads it.
pub(super) fn connect(path: &Path) -> Result<Connection, ContentError> {
    let refuse = |why: String| ContentError::new(format!("{}: {why}", path.display()));
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(refuse("no content store (the file does not exist)".into()));
        }
        Err(e) => return Err(refuse(format!("cannot read: {e}"))),
        Ok(m) if m.is_dir() => return Err(refuse("is a directory, not a content store".into())),
        Ok(m) if !m.is_file() => {
            return Err(refuse("is not a regular file, so no content store".into()));
        }
        Ok(_) => {}
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| ContentError::sql(path, e))?;
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| ContentError::sql(path, e))?;
    if version != schema::VERSION {
        return Err(refuse(format!(
            "not a content store of layout {} (it says {version})",
            schema::VERSION
        )));
    }
    if let Some(missing) = schema::missing(&conn).map_err(|e| ContentError::sql(path, e))? {
        return Err(refuse(format!(
            "not a content store of layout {}: it says so, but has no {missing}",
            schema::VERSION
        )));
    }
    Ok(conn)
}

impl ContentStore {
    /// Opens the store at `path`; a file that is missing, not SQLite, or
    /// of another layout is refused, naming it.
    pub fn open(path: &Path) -> Result<ContentStore, ContentError> {
        Ok(ContentStore {
            conn: Mutex::new(connect(path)?),
            path: path.to_path_buf(),
        })
    }

    /// Runs `f` on the connection; its error names the file.
    fn with<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, ContentError> {
        let conn = self.conn.lock().map_err(|_| {
            ContentError::new(format!("{}: a reader panicked", self.path.display()))
        })?;
        f(&conn).map_err(|e| ContentError::sql(&self.path, e))
    }

    /// Node `id`, or `None`.
    pub fn node(&self, id: i64) -> Result<Option<Node>, ContentError> {
        self.with(|c| node_in(c, id))
    }

    /// Object `id` in its current version, in `language` (its initial
    /// language when `None`), or `None`.
    pub fn object(&self, id: i64, language: Option<&str>) -> Result<Option<Object>, ContentError> {
        self.with(|c| object_in(c, id, language))
    }

    /// The nodes `query` asks for; none when its parent does not exist.
    pub fn list(&self, query: &ListQuery) -> Result<Vec<Node>, ContentError> {
        self.with(|c| list_in(c, query))
    }

    /// How many nodes `query` finds, its limit and offset aside.
    pub fn count(&self, query: &ListQuery) -> Result<u64, ContentError> {
        self.with(|c| count_in(c, query))
    }

    /// The node a URL path (`/news/harbour-festival`) names, element by
    /// element as the CMS resolves it, case-insensitively; `/` is the
    /// front page.
    pub fn resolve(&self, url: &str) -> Result<Option<Resolved>, ContentError> {
        self.with(|c| resolve_in(c, url))
    }
}

impl ContentStore {
    /// The first current attribute of `data_type` whose stored text
    /// contains `needle`, by id: what a probe picks in its set-up (an image
    /// that has a given alias).
    pub fn attribute_with(
        &self,
        data_type: &str,
        needle: &str,
    ) -> Result<Option<(i64, Attribute)>, ContentError> {
        self.with(|c| {
            c.prepare_cached(
                "SELECT a.object_id, a.id, ca.identifier, a.data_type, a.data_text, a.data_int, \
                 a.sort_key_string, a.sort_key_int \
                 FROM content_object_attribute a \
                 JOIN content_object o ON o.id = a.object_id AND o.current_version = a.version \
                 JOIN content_class_attribute ca ON ca.id = a.class_attribute_id \
                 WHERE a.data_type = ?1 AND instr(a.data_text, ?2) > 0 ORDER BY a.id LIMIT 1",
            )?
            .query_row(rusqlite::params![data_type, needle], |r| {
                Ok((
                    r.get(0)?,
                    Attribute {
                        id: r.get(1)?,
                        identifier: r.get(2)?,
                        data_type: r.get(3)?,
                        text: r.get(4)?,
                        int: r.get(5)?,
                        sort_key_string: r.get(6)?,
                        sort_key_int: r.get(7)?,
                    },
                ))
            })
            .optional()
        })
    }
}

impl ContentSource for ContentStore {
    fn node(&self, id: i64) -> Result<Option<Node>, String> {
        ContentStore::node(self, id).map_err(|e| e.to_string())
    }

    fn object(&self, id: i64, language: Option<&str>) -> Result<Option<Object>, String> {
        ContentStore::object(self, id, language).map_err(|e| e.to_string())
    }

    fn list(&self, query: &ListQuery) -> Result<Vec<Node>, String> {
        ContentStore::list(self, query).map_err(|e| e.to_string())
    }

    fn count(&self, query: &ListQuery) -> Result<u64, String> {
        ContentStore::count(self, query).map_err(|e| e.to_string())
    }
}

fn node_in(conn: &Connection, id: i64) -> rusqlite::Result<Option<Node>> {
    let sql = format!("{NODE_SELECT} WHERE n.node_id = ?1");
    conn.prepare_cached(&sql)?
        .query_row([id], Node::from_row)
        .optional()
}

fn object_in(
    conn: &Connection,
    id: i64,
    language: Option<&str>,
) -> rusqlite::Result<Option<Object>> {
    let found = conn
        .prepare_cached(
            "SELECT o.id, c.identifier, o.name, o.current_version, o.initial_language, \
             o.published, o.modified, o.section_id, o.owner_id \
             FROM content_object o JOIN content_class c ON c.id = o.class_id WHERE o.id = ?1",
        )?
        .query_row([id], |r| {
            Ok(Object {
                id: r.get(0)?,
                class_identifier: r.get(1)?,
                name: r.get(2)?,
                current_version: r.get(3)?,
                language: r.get(4)?,
                published: r.get(5)?,
                modified: r.get(6)?,
                section_id: r.get(7)?,
                owner_id: r.get(8)?,
                attributes: Vec::new(),
            })
        })
        .optional()?;
    let Some(mut object) = found else {
        return Ok(None);
    };
    if let Some(language) = language {
        object.language = language.to_string();
    }
    object.attributes = attributes_in(conn, &object)?;
    Ok(Some(object))
}

fn attributes_in(conn: &Connection, object: &Object) -> rusqlite::Result<Vec<Attribute>> {
    let mut statement = conn.prepare_cached(
        "SELECT a.id, ca.identifier, a.data_type, a.data_text, a.data_int, \
         a.sort_key_string, a.sort_key_int \
         FROM content_object_attribute a \
         JOIN content_class_attribute ca ON ca.id = a.class_attribute_id \
         WHERE a.object_id = ?1 AND a.version = ?2 AND a.language_code = ?3 \
         ORDER BY ca.placement",
    )?;
    let params = rusqlite::params![object.id, object.current_version, object.language];
    let rows = statement.query_map(params, |r| {
        Ok(Attribute {
            id: r.get(0)?,
            identifier: r.get(1)?,
            data_type: r.get(2)?,
            text: r.get(3)?,
            int: r.get(4)?,
            sort_key_string: r.get(5)?,
            sort_key_int: r.get(6)?,
        })
    })?;
    rows.collect()
}

fn list_in(conn: &Connection, query: &ListQuery) -> rusqlite::Result<Vec<Node>> {
    let Some(parent) = node_in(conn, query.parent)? else {
        return Ok(Vec::new());
    };
    let (filter, mut params) = query.filter(&parent.path_string, parent.depth);
    let mut sql = format!(
        "{NODE_SELECT}{filter}{}",
        query.order((parent.sort_field, parent.sort_order))
    );
    if query.limit.is_some() || query.offset > 0 {
        sql.push_str(" LIMIT ? OFFSET ?");
        let limit = query.limit.map_or(-1, |l| l.min(i64::MAX as u64) as i64);
        params.push(Param::Int(limit));
        params.push(Param::Int(query.offset.min(i64::MAX as u64) as i64));
    }
    let mut statement = conn.prepare_cached(&sql)?;
    let rows = statement.query_map(params_from_iter(params.iter()), Node::from_row)?;
    rows.collect()
}

fn count_in(conn: &Connection, query: &ListQuery) -> rusqlite::Result<u64> {
    let Some(parent) = node_in(conn, query.parent)? else {
        return Ok(0);
    };
    let (filter, params) = query.filter(&parent.path_string, parent.depth);
    let sql = format!(
        "SELECT COUNT(*) FROM content_node n JOIN content_object o ON o.id = n.object_id \
         JOIN content_class c ON c.id = o.class_id{filter}"
    );
    let n: i64 = conn
        .prepare_cached(&sql)?
        .query_row(params_from_iter(params.iter()), |r| r.get(0))?;
    Ok(n.max(0) as u64)
}

fn resolve_in(conn: &Connection, url: &str) -> rusqlite::Result<Option<Resolved>> {
    let mut statement = conn.prepare_cached(
        "SELECT id, action, is_original FROM url_alias WHERE parent = ?1 AND text = ?2",
    )?;
    let mut parent = 0i64;
    let mut found = None;
    for element in url.split('/').filter(|e| !e.is_empty()) {
        let row: Option<(i64, String, bool)> = statement
            .query_row(rusqlite::params![parent, element.to_lowercase()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?;
        let Some((id, action, original)) = row else {
            return Ok(None);
        };
        parent = id;
        found = Some((action, original));
    }
    Ok(match found {
        None => Some(Resolved {
            node_id: super::FRONT_PAGE,
            current: true,
        }),
        Some((action, current)) => action
            .strip_prefix("eznode:")
            .and_then(|n| n.parse().ok())
            .map(|node_id| Resolved { node_id, current }),
    })
}

impl Node {
    /// The node of a row of [`NODE_SELECT`].
    pub fn from_row(r: &Row) -> rusqlite::Result<Node> {
        Ok(Node {
            node_id: r.get(0)?,
            parent_node_id: r.get(1)?,
            object_id: r.get(2)?,
            depth: r.get(3)?,
            path_string: r.get(4)?,
            url_alias: r.get(5)?,
            priority: r.get(6)?,
            sort_field: r.get(7)?,
            sort_order: r.get(8)?,
            is_hidden: r.get(9)?,
            is_invisible: r.get(10)?,
            name: r.get(11)?,
            class_identifier: r.get(12)?,
            published: r.get(13)?,
            modified: r.get(14)?,
        })
    }
}
