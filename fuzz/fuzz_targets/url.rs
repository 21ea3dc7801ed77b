//! The URL parser of HTTP mode: any text as a page or server address, and
//! what is shown of one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yardstick_http::url::{Url, hide_userinfo};

fuzz_target!(|text: &str| {
    let _ = hide_userinfo(text);
    if let Ok(url) = Url::parse(text) {
        let _ = (url.to_string(), url.origin());
        let _ = url.join("/page").path_with_bench("1");
    }
});
