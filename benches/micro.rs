//! The reference probe suite under `cargo bench` (and, once each, under
//! `cargo test`).
yardstick::main!(probes);
