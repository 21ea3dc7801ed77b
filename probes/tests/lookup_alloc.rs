//! Looking up a parsed setting allocates nothing: per-request code reads
//! settings far more often than files are parsed, so a lookup must cost a
//! hash and a compare, never a heap allocation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use probes::settings::{Settings, Value};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn lookups_of_parsed_settings_do_not_allocate() {
    let path = probes::fixtures::path("settings/site.ini");
    let bytes = std::fs::read(&path).unwrap();
    let before_parse = allocations();
    let site = Settings::parse("site.ini", &bytes).unwrap();
    // The counter works: parsing allocates.
    assert!(allocations() > before_parse);

    let before = allocations();
    let mut found = 0usize;
    for _ in 0..1000 {
        if let Some(Value::Scalar(s)) = site.variable("SiteSettings", "SiteName") {
            found += s.len();
        }
        found += usize::from(site.has_variable("DatabaseSettings", "Server"));
        found += usize::from(site.has_variable("DatabaseSettings", "NoSuchSetting"));
        found += usize::from(site.variable("NoSuchGroup", "Server").is_none());
        found += site
            .variable("SiteSettings", "SiteList")
            .and_then(Value::as_array)
            .map_or(0, <[String]>::len);
        found += site
            .variable("RegionalSettings", "LanguageSA")
            .and_then(|v| v.entry("ger-DE"))
            .map_or(0, str::len);
        found += site.group("MailSettings").map_or(0, |g| g.len());
        found += usize::from(
            site.variable("URLTranslator", "UserParameters")
                .is_some_and(Value::is_enabled),
        );
    }
    let during = allocations() - before;
    assert_eq!(during, 0, "{during} allocations in 8,000 lookups");
    assert!(found > 8000);
}
