//! The documents a run produces and reads: the [`run::Run`] (format 1), its
//! [`comparison::Comparison`] with a baseline, the [`environment`] it was
//! made in, and the [`store`] that reads and writes them atomically.

pub mod builder;
pub mod check;
pub mod comparison;
pub mod environment;
pub mod figures;
pub mod import;
pub mod matrix;
pub mod platform;
pub mod ranking;
pub mod row;
pub mod run;
#[cfg(test)]
mod schema_check;
pub mod settings;
pub mod store;
pub mod thresholds;
