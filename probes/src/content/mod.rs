//! The content store: classes, objects with versions and languages, the
//! node tree and URL aliases, in an embedded SQLite database (bundled, so
//! nothing is installed or started).
//!
//! A seeded generator ([`generate`]) builds a site's content into a fresh
//! file; [`ContentStore`] reads it the way the CMS's `fetch` functions do:
//! a node, an object with its attributes, a node's children sorted, limited
//! and filtered by class, counts of a list or a subtree, and a URL alias
//! resolved to its node.

mod checksum;
pub mod classes;
mod generate;
pub mod image;
mod query;
mod schema;
pub mod search;
mod store;
mod values;
mod words;

pub use checksum::checksum;
pub use generate::{FRONT_PAGE, GENERATOR, Generated, Shape, generate};
pub use query::{ClassFilter, ListQuery, SortKey};
pub use schema::VERSION as LAYOUT;
pub use store::{Attribute, ContentStore, NODE_SELECT, Node, Object, Resolved};

use std::fmt;
use std::path::Path;

/// Why the store could not be built or read, naming the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentError {
    message: String,
}

impl ContentError {
    pub(crate) fn new(message: String) -> ContentError {
        ContentError { message }
    }

    /// An SQLite error on the store at `path`.
    pub(crate) fn sql(path: &Path, e: rusqlite::Error) -> ContentError {
        ContentError::new(format!("{}: {e}", path.display()))
    }
}

impl fmt::Display for ContentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ContentError {}
