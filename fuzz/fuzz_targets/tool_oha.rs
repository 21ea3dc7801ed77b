//! oha's output parser: its JSON summary.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = yardstick_http::tools::oha::parse(text, 100);
});
