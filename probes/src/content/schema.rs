//! The content store's tables and indexes, in SQLite.
//!
//! The shape follows the content model of the CMS the kernel implements:
//! classes with typed attributes; objects with versions, each version's
//! attributes per language; a node tree placing objects, with materialised
//! paths (`/1/2/45/`), priorities, a sort field per node and visibility;
//! and URL aliases, one path element per row, as the CMS resolves them.
//! The indexes are the ones its queries need: children by parent, subtrees
//! by path prefix, attributes by (object, version, language), aliases by
//! (parent element, text).

use rusqlite::Connection;
use std::collections::HashSet;

/// Bumped when a table changes; stored as SQLite's `user_version`, so a
/// store of another layout is refused rather than misread.
pub const VERSION: i64 = 1;

/// Every table and index, in creation order.
pub const SCHEMA: &str = "
CREATE TABLE content_class (
    id INTEGER PRIMARY KEY,
    identifier TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    is_container INTEGER NOT NULL
);
CREATE TABLE content_class_attribute (
    id INTEGER PRIMARY KEY,
    class_id INTEGER NOT NULL REFERENCES content_class(id),
    identifier TEXT NOT NULL,
    name TEXT NOT NULL,
    data_type TEXT NOT NULL,
    placement INTEGER NOT NULL,
    UNIQUE (class_id, identifier)
);
CREATE TABLE content_object (
    id INTEGER PRIMARY KEY,
    class_id INTEGER NOT NULL REFERENCES content_class(id),
    name TEXT NOT NULL,
    section_id INTEGER NOT NULL,
    owner_id INTEGER NOT NULL,
    current_version INTEGER NOT NULL,
    initial_language TEXT NOT NULL,
    published INTEGER NOT NULL,
    modified INTEGER NOT NULL,
    remote_id TEXT NOT NULL UNIQUE
);
CREATE INDEX content_object_class ON content_object (class_id);
CREATE INDEX content_object_published ON content_object (published);
CREATE TABLE content_object_version (
    id INTEGER PRIMARY KEY,
    object_id INTEGER NOT NULL REFERENCES content_object(id),
    version INTEGER NOT NULL,
    status INTEGER NOT NULL,
    creator_id INTEGER NOT NULL,
    created INTEGER NOT NULL,
    modified INTEGER NOT NULL,
    languages TEXT NOT NULL,
    UNIQUE (object_id, version)
);
CREATE TABLE content_object_attribute (
    id INTEGER PRIMARY KEY,
    object_id INTEGER NOT NULL REFERENCES content_object(id),
    version INTEGER NOT NULL,
    language_code TEXT NOT NULL,
    class_attribute_id INTEGER NOT NULL REFERENCES content_class_attribute(id),
    data_type TEXT NOT NULL,
    data_text TEXT,
    data_int INTEGER,
    data_float REAL,
    sort_key_string TEXT NOT NULL,
    sort_key_int INTEGER NOT NULL
);
CREATE INDEX content_object_attribute_object
    ON content_object_attribute (object_id, version, language_code);
CREATE TABLE content_node (
    node_id INTEGER PRIMARY KEY,
    parent_node_id INTEGER NOT NULL,
    object_id INTEGER NOT NULL,
    main_node_id INTEGER NOT NULL,
    path_string TEXT NOT NULL,
    path_identification_string TEXT NOT NULL,
    depth INTEGER NOT NULL,
    priority INTEGER NOT NULL,
    sort_field INTEGER NOT NULL,
    sort_order INTEGER NOT NULL,
    is_hidden INTEGER NOT NULL,
    is_invisible INTEGER NOT NULL,
    modified_subnode INTEGER NOT NULL,
    remote_id TEXT NOT NULL UNIQUE
);
CREATE INDEX content_node_parent ON content_node (parent_node_id);
CREATE INDEX content_node_path ON content_node (path_string);
CREATE INDEX content_node_object ON content_node (object_id);
CREATE TABLE url_alias (
    id INTEGER PRIMARY KEY,
    parent INTEGER NOT NULL,
    text TEXT NOT NULL,
    action TEXT NOT NULL,
    language_mask INTEGER NOT NULL,
    is_original INTEGER NOT NULL,
    UNIQUE (parent, text)
);
CREATE INDEX url_alias_action ON url_alias (action);
";

/// The tables, in the order the checksum reads them.
pub const TABLES: [&str; 7] = [
    "content_class",
    "content_class_attribute",
    "content_object",
    "content_object_version",
    "content_object_attribute",
    "content_node",
    "url_alias",
];

/// What a store that says it is of this layout lacks of [`SCHEMA`]: its
/// first missing table or column, named, or `None`. One query, over the
/// schema SQLite reads on the first query anyway.
pub fn missing(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let mut statement = conn.prepare(
        "SELECT m.name, c.name FROM sqlite_master m JOIN pragma_table_info(m.name) c \
         WHERE m.type = 'table'",
    )?;
    let found = statement
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
        .collect::<rusqlite::Result<HashSet<(String, String)>>>()?;
    let tables: HashSet<&str> = found.iter().map(|(t, _)| t.as_str()).collect();
    for (table, column) in columns() {
        if !tables.contains(table) {
            return Ok(Some(format!("table `{table}`")));
        }
        if !found.contains(&(table.to_string(), column.to_string())) {
            return Ok(Some(format!("column `{table}.{column}`")));
        }
    }
    Ok(None)
}

/// Each table of [`SCHEMA`] with each of its columns, read from its text:
/// a column is a line of a `CREATE TABLE` that starts with its name.
fn columns() -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    let mut table = None;
    for line in SCHEMA.lines() {
        if let Some(name) = line
            .strip_prefix("CREATE TABLE ")
            .and_then(|l| l.strip_suffix(" ("))
        {
            table = Some(name);
        } else if line.starts_with(')') {
            table = None;
        } else if let (Some(table), Some(column)) = (
            table,
            line.strip_prefix("    ")
                .and_then(|l| l.split_whitespace().next()),
        ) && column != "UNIQUE"
        {
            out.push((table, column));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns read from the schema's text are the ones SQLite makes
    /// of it, table by table.
    #[test]
    fn the_columns_are_read_from_the_schema_as_sqlite_reads_them() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        assert_eq!(missing(&conn).unwrap(), None);
        let mut made = Vec::new();
        for table in TABLES {
            let mut statement = conn
                .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
                .unwrap();
            let names = statement
                .query_map([table], |r| r.get::<_, String>(0))
                .unwrap();
            made.extend(names.map(|n| (table, n.unwrap())));
        }
        let read: Vec<(&str, String)> = columns()
            .into_iter()
            .map(|(t, c)| (t, c.to_string()))
            .collect();
        assert_eq!(read, made);
    }
}
