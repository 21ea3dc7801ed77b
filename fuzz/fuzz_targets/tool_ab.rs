//! ab's output parser: stdout, stderr and the percentile file, split at
//! NUL bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let mut parts = text.splitn(3, '\0');
    let (out, err, csv) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    let _ = yardstick_http::tools::ab::parse(out, err, csv, 100);
});
