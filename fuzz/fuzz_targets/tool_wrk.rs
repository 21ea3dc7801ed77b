//! wrk's output parser: stdout and stderr, split at a NUL byte.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (out, err) = text.split_once('\0').unwrap_or((text, ""));
    let _ = yardstick_http::tools::wrk::parse(out, err);
});
