//! The documents a site's page list is made from: any text as a sitemap,
//! an OpenSearch description (and its search URL template), a `Link`
//! header and a page's HTML (`crates/http/src/discover/`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use yardstick_http::discover::{links, opensearch, sitemap};

fuzz_target!(|text: &str| {
    if let Ok(entries) = sitemap::parse(text) {
        assert!(!entries.is_empty() && entries.len() <= sitemap::MAX_URLS);
        assert!(entries.iter().all(|e| (0.0..=1.0).contains(&e.priority)));
    }
    if let Ok(description) = opensearch::parse(text) {
        let _ = opensearch::fill(&description.template, "two words");
    }
    let _ = opensearch::fill(text, text);
    let _ = links::from_header(text);
    let _ = links::from_html(text);
});
