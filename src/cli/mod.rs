//! Command-line parsing: the shared options and each mode's own.

pub mod common;
