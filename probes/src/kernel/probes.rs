//! The kernel suite's probes.

use super::{Site, fixture};
use crate::content::FRONT_PAGE;
use std::time::Instant;

/// Checks a full view of the front page: its title, and its children.
fn check_front_page(html: &str) -> Result<(), String> {
    if html.contains("<h1>Home</h1>") && html.contains("class=\"children\"") {
        Ok(())
    } else {
        Err(format!(
            "the front page's full view is wrong ({} bytes)",
            html.len()
        ))
    }
}

yardstick::process_probe! {
    suite: kernel,
    name: kernel,
    note: "boot: content store opened, settings read; render_cold: the front page's full view, first in the process",
    setup: || fixture().map(|_| ()),
    child: |child| {
        let site = Site::boot(&fixture()?)?;
        child.ready();
        let started = Instant::now();
        let html = site.full_view(FRONT_PAGE)?;
        child.report("render_cold", started.elapsed());
        check_front_page(&html)
    },
}
