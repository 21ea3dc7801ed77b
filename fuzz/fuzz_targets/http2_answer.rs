//! The built-in client's HTTP/2 answer reader: any bytes as a server's
//! frames after its connection preface, sent a few bytes at a time or all
//! at once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yardstick_http::http2::read_answer;

fuzz_target!(|input: (u8, &[u8])| {
    let (chunk, bytes) = input;
    if let Ok((_, body)) = read_answer(bytes, usize::from(chunk)) {
        assert!(body <= bytes.len() as u64);
    }
});
