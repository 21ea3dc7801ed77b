//! The reference probe suite under `cargo bench` (and, once each, under
//! `cargo test`).
use probes as _;

fn main() {
    std::process::exit(yardstick::run_main());
}
