//! A bench binary as a worker that times single samples on request, so that
//! `compare-builds` can put a sample of the old build and one of the new
//! build milliseconds apart.
//!
//! On this kind of machine the speed of the CPU available to a process moves
//! by tens of percent over seconds (another tenant's work on the same core),
//! and not by the same factor for every kind of work. Whole runs of each
//! build, however well alternated, each land in a different spell; two
//! samples taken back to back land in the same one, and their ratio cancels
//! it. So both builds run as long-lived workers (`--bench --worker`) and the
//! parent asks each in turn for one sample.
//!
//! The lines they exchange are in `protocol`; what a worker process does is
//! `server`. How the parent starts one and talks to it is the `yardstick`
//! command's (`yardstick-cli`, `commands/interleave/client.rs`), which a
//! bench never runs.

pub mod protocol;
pub(crate) mod server;
