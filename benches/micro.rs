//! The reference probe suite under `cargo bench` (and, once each, under
//! `cargo test`), with each probe's allocations counted.

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

yardstick::main!(probes);
