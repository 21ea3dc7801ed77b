//! The catalogue loader: any bytes as a Qt Linguist `.ts` file.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = probes::i18n::load_bytes("fuzz.ts", data);
});
