//! The template compiler: resolved names, folded constants, jumps.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|source: &str| {
    let _ = probes::template::compile("fuzz.tpl", source);
});
