//! yardstick: calibrated benchmarks that guard a codebase's speed in CI.
//!
//! A probe is a fixed amount of real work registered with [`probe!`]. A
//! bench target with `harness = false` calls [`run_main`]; the harness times
//! every probe in rounds, times a fixed calibration loop just before every
//! sample, and reports each probe's time also relative to that loop
//! ("x calib"), so that runs made on two machines compare. Data flows one
//! way, one crate per step: [`measure`] → [`document`] (the Run) →
//! [`judge`] (against the baseline that yardstick-baseline chooses) → the
//! output (yardstick-output); [`commands`] put the steps in order.
//! docs/design.md draws the crates and the flows.

#![warn(missing_docs)]

// `worker` and the option table under `commands` are public for the
// `yardstick` command (the crate yardstick-cli), which drives a bench's
// worker and reads its options through the same table; they are hidden
// from a user's documentation, and promise nothing to a bench.

// The crates a bench's run goes through and a user never names.
use yardstick_baseline as baseline;
use yardstick_output as output;

pub use yardstick_probe::alloc;
pub mod commands;
pub use yardstick_document as document;
pub use yardstick_document::error;
pub use yardstick_document::text;
pub use yardstick_judge as judge;
pub use yardstick_measure as measure;
pub use yardstick_probe as probe;
pub use yardstick_probe::fs;
pub use yardstick_process as process;
pub use yardstick_stats as stats;
#[doc(hidden)]
pub mod worker;

mod macros;

#[doc(hidden)]
pub use yardstick_probe::inventory;

pub use yardstick_probe::{Checksum, Param, Probe, param, probe, process_probe};

pub use commands::{run_bench, run_main, run_suite};
