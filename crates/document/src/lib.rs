//! The documents a run produces and reads: the [`run::Run`] (format 1), its
//! [`comparison::Comparison`] with a baseline, the [`environment`] it was
//! made in, and the [`store`] that reads and writes them atomically. Every
//! crate above reads and writes runs through these types, so the format is
//! defined once; what is read from outside is reported through [`error`]
//! (one line, exit code 2) and [`text`] (cleaned before it is printed).

#![warn(missing_docs)]

pub mod builder;
pub mod check;
pub mod comparison;
pub mod environment;
pub mod error;
pub mod explanation;
pub mod failures;
pub mod figures;
pub mod functions;
pub mod histogram;
pub mod import;
pub mod matrix;
pub mod outcome;
pub mod platform;
pub mod ranking;
pub mod row;
pub mod run;
#[cfg(test)]
mod schema;
pub mod settings;
pub mod setup;
pub mod store;
pub mod text;
pub mod thresholds;
pub mod timestamp;

/// The repository's root, where the fixtures, baselines and schema this
/// crate's tests read are kept (they are shared with the other crates').
#[cfg(test)]
fn repository() -> &'static std::path::Path {
    std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}
