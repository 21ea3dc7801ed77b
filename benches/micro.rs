//! The reference probe suite, and the other crates it is ranked against
//! (rivals/), under `cargo bench` (and, once each, under
//! `cargo test`), with each probe's allocations counted.

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

yardstick::main!(probes, rivals, yardstick_report, yardstick_history);
