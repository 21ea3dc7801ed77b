//! A list of nodes as `fetch('content', 'list', hash(...))` asks for it,
//! and the SQL it becomes.

/// What a list may be sorted by: `sort_by` of a `fetch`, or a node's own
/// sort field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Path,
    Published,
    Modified,
    Priority,
    Name,
    ClassIdentifier,
    Depth,
}

impl SortKey {
    /// The key of a `sort_by` name (`'priority'`, `'published'`, ...).
    pub fn named(name: &str) -> Option<SortKey> {
        Some(match name {
            "path" => SortKey::Path,
            "published" => SortKey::Published,
            "modified" => SortKey::Modified,
            "priority" => SortKey::Priority,
            "name" => SortKey::Name,
            "class_identifier" => SortKey::ClassIdentifier,
            "depth" => SortKey::Depth,
            _ => return None,
        })
    }

    /// The key a node's stored sort field stands for (the CMS's numbers).
    pub fn of_field(field: i64) -> SortKey {
        match field {
            2 => SortKey::Published,
            3 => SortKey::Modified,
            6 => SortKey::ClassIdentifier,
            7 => SortKey::Depth,
            8 => SortKey::Priority,
            9 => SortKey::Name,
            _ => SortKey::Path,
        }
    }

    fn column(self) -> &'static str {
        match self {
            SortKey::Path => "n.path_string",
            SortKey::Published => "o.published",
            SortKey::Modified => "o.modified",
            SortKey::Priority => "n.priority",
            SortKey::Name => "o.name",
            SortKey::ClassIdentifier => "c.identifier",
            SortKey::Depth => "n.depth",
        }
    }
}

/// Only these classes, or all but these.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassFilter {
    /// `include` keeps the classes listed, else it drops them.
    pub include: bool,
    /// Class identifiers.
    pub classes: Vec<String>,
}

/// A list of nodes under a parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListQuery {
    pub parent: i64,
    /// Levels below the parent: 1 for its children; `None` for its whole
    /// subtree.
    pub depth: Option<u64>,
    /// Sort keys, ascending when true; empty takes the parent's own sort
    /// field and order.
    pub sort_by: Vec<(SortKey, bool)>,
    pub limit: Option<u64>,
    pub offset: u64,
    pub class_filter: Option<ClassFilter>,
}

impl ListQuery {
    /// The children of `parent`, in its own order.
    pub fn children(parent: i64) -> ListQuery {
        ListQuery {
            parent,
            depth: Some(1),
            sort_by: Vec::new(),
            limit: None,
            offset: 0,
            class_filter: None,
        }
    }

    /// The `WHERE` clause and its parameters, for a parent at `path`
    /// (`/1/2/`) and `parent_depth`. Subtrees are a range of the path
    /// index, which `LIKE` would not use.
    pub(super) fn filter(&self, path: &str, parent_depth: i64) -> (String, Vec<Param>) {
        let mut sql = String::from(" WHERE n.is_invisible = 0");
        let mut params = Vec::new();
        if self.depth == Some(1) {
            sql.push_str(" AND n.parent_node_id = ?");
            params.push(Param::Int(self.parent));
        } else {
            // '/1/2/' .. '/1/20': '0' follows '/'.
            let end = format!("{}0", &path[..path.len().saturating_sub(1)]);
            sql.push_str(" AND n.path_string > ? AND n.path_string < ?");
            params.push(Param::Text(path.to_string()));
            params.push(Param::Text(end));
            if let Some(depth) = self.depth {
                sql.push_str(" AND n.depth <= ?");
                params.push(Param::Int(parent_depth + depth as i64));
            }
        }
        if let Some(filter) = &self.class_filter {
            let marks = vec!["?"; filter.classes.len()].join(", ");
            let not = if filter.include { "" } else { "NOT " };
            sql.push_str(&format!(" AND c.identifier {not}IN ({marks})"));
            params.extend(filter.classes.iter().cloned().map(Param::Text));
        }
        (sql, params)
    }

    /// The `ORDER BY` clause; `own` is the parent's sort field and order.
    /// Ties go by node id, so a list has one order.
    pub(super) fn order(&self, own: (i64, i64)) -> String {
        let keys = if self.sort_by.is_empty() {
            vec![(SortKey::of_field(own.0), own.1 == 1)]
        } else {
            self.sort_by.clone()
        };
        let mut parts: Vec<String> = keys
            .iter()
            .map(|(key, asc)| format!("{} {}", key.column(), if *asc { "ASC" } else { "DESC" }))
            .collect();
        parts.push("n.node_id ASC".into());
        format!(" ORDER BY {}", parts.join(", "))
    }
}

/// A bound parameter of a built query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Param {
    Int(i64),
    Text(String),
}

impl rusqlite::ToSql for Param {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            Param::Int(n) => n.to_sql(),
            Param::Text(t) => t.to_sql(),
        }
    }
}
