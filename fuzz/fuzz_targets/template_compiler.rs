//! The template compiler (resolved names, folded constants, jumps), and
//! the cache's promise that a compiled program decodes to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use probes::template::codec::{decode, encode};

fuzz_target!(|source: &str| {
    let Ok(program) = probes::template::compile("fuzz.tpl", source) else {
        return;
    };
    let bytes = encode(&program);
    assert_eq!(decode(&bytes).as_ref(), Ok(&program));
});
