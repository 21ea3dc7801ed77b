//! h2load's output parser: stdout and stderr, split at a NUL byte; and the
//! reader of its verbose warm-up, given the text in pieces of the first
//! byte's size.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (out, err) = text.split_once('\0').unwrap_or((text, ""));
    let _ = yardstick_http::tools::h2load::parse(out, err);
    let chunk = text.bytes().next().map_or(0, usize::from);
    let _ = yardstick_http::tools::h2load::warm_up_refusal(text.as_bytes(), chunk);
});
