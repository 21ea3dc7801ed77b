//! Other crates doing the suite's workloads, as variants beside the
//! kernel's own (`probe!`'s `group`): the same work in the same rounds,
//! so each run says how the kernel stands against them, and the CI check
//! keeps judging every variant.
//!
//! The workspace's benches link it beside `probes` (`main!(probes,
//! rivals)`); a user of the kernel as a library needs none of these
//! crates.

pub mod cache;
pub mod catalogue;
pub mod kernel;
pub mod settings;
pub mod template;
