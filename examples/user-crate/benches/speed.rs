//! The crate's bench target: its own probe, and the library's two, which
//! `main!` keeps by naming the crate they live in.

yardstick::probe! {
    name: user_join,
    run: || user_crate::words(1000, 8).join(" "),
}

// Optional: each probe's allocations, bytes and peak per iteration.
#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

yardstick::main!(user_crate);
