//! The template parser (and the expression parser under it).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|source: &str| {
    let _ = probes::template::parse("fuzz.tpl", source);
});
