//! The template lexer: text, tags and the whitespace rule.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|source: &str| {
    let _ = probes::template::lexer::tokenize(source);
});
