//! The commands: each reads its options, runs the steps below it in one
//! direction (measure, summarise, judge, deliver) and returns an exit code.
//! Only this folder knows the command line.

pub mod baseline;
pub mod common;
pub mod compare_builds;
pub mod http;
pub mod machine;
pub mod micro;
pub mod saved;
pub mod testmode;
pub mod worker;
