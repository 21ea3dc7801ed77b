//! The reference kernel's stateful and process probes under
//! `cargo bench --bench kernel` (and, once each, under `cargo test`),
//! judged as absolute times against a baseline of this machine class.

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

yardstick::main!(
    suite: kernel,
    params: [
        node: i64 = "the node to render and fetch (default: the front page, or the menu page with the largest full view when the front page's is nearly empty)",
        content_size: probes::kernel::ContentSize = "nodes in the generated content store (default 10000; 8 to 200000)",
        database: probes::kernel::DatabaseFile = "a content store of the generator's layout to read instead of the generated one",
    ],
    probes,
    rivals,
    yardstick_report,
    yardstick_history,
);
