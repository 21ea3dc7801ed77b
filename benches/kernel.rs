//! The reference kernel's stateful and process probes under
//! `cargo bench --bench kernel` (and, once each, under `cargo test`),
//! judged as absolute times against a baseline of this machine class.

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

yardstick::main!(suite: kernel, probes);
