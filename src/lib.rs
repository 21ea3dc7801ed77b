//! yardstick: calibrated benchmarks that guard a codebase's speed in CI.
//!
//! A probe is a fixed amount of real work registered with [`probe!`]. A
//! bench target with `harness = false` calls [`run_main`]; the harness times
//! every probe, times a fixed calibration loop before and after, and reports
//! each probe's median also divided by the calibration median, so that runs
//! made on two machines compare.

pub mod calibration;
pub mod cli;
pub mod compare;
pub mod comparison;
pub mod environment;
pub mod error;
pub mod http;
pub mod probe;
pub mod run;
pub mod stats;
pub mod store;
mod testmode;

#[doc(hidden)]
pub use inventory;

pub use probe::{Checksum, Probe};

/// Entry point of a bench target (`harness = false`): measures under
/// `cargo bench`, runs each probe once as a test under `cargo test`.
pub fn run_main() -> i32 {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--bench") {
        eprintln!("error: micro mode is not built yet");
        2
    } else {
        testmode::run(args)
    }
}

/// Entry point of a yardstick binary.
pub fn main() -> i32 {
    run_main()
}
