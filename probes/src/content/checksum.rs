//! The database checksum: SHA-256 over every row of every table in key
//! order, each value tagged with its type. Two stores with the same rows
//! have the same checksum whatever their pages, free lists or statistics,
//! so it says "the same content" where the file's bytes cannot.

use super::ContentError;
use super::schema::TABLES;
use rusqlite::Connection;
use rusqlite::types::ValueRef;
use sha2::{Digest, Sha256};
use std::path::Path;

/// The checksum of the store at `path`, as 64 hex digits.
pub fn checksum(path: &Path) -> Result<String, ContentError> {
    let at = |e: rusqlite::Error| ContentError::sql(path, e);
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(at)?;
    let mut hash = Sha256::new();
    for table in TABLES {
        hash.update(table.as_bytes());
        let mut statement = conn
            .prepare(&format!("SELECT * FROM {table} ORDER BY 1"))
            .map_err(at)?;
        let columns = statement.column_count();
        let mut rows = statement.query([]).map_err(at)?;
        while let Some(row) = rows.next().map_err(at)? {
            for i in 0..columns {
                match row.get_ref(i).map_err(at)? {
                    ValueRef::Null => hash.update(b"N"),
                    ValueRef::Integer(n) => hash.update(format!("I{n};")),
                    ValueRef::Real(x) => hash.update(format!("R{:x};", x.to_bits())),
                    ValueRef::Text(t) => {
                        hash.update(format!("T{}:", t.len()));
                        hash.update(t);
                    }
                    ValueRef::Blob(b) => {
                        hash.update(format!("B{}:", b.len()));
                        hash.update(b);
                    }
                }
            }
            hash.update(b"\n");
        }
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}
