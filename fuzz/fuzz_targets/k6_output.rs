//! k6's per-request output reader (`--tool=k6`, `yardstick k6 collect`):
//! any bytes, fed in two pieces cut anywhere, must read as the whole does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yardstick_http::k6::output::{Reader, read};

fuzz_target!(|data: &[u8]| {
    let whole = read(data);
    let cut = data.first().map_or(0, |&b| usize::from(b)) % (data.len() + 1);
    let mut reader = Reader::new();
    reader.feed(&data[..cut]);
    reader.feed(&data[cut..]);
    assert_eq!(reader.finish(), whole);
});
