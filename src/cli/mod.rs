//! Command-line parsing: the shared options, each mode's own, and the
//! commands over saved runs.

pub mod baseline;
pub mod common;
pub mod machine;
pub mod micro;
pub mod paired;
pub mod saved;
