//! Looking up a parsed setting allocates nothing: per-request code reads
//! settings far more often than files are parsed, so a lookup must cost a
//! hash and a compare, never a heap allocation.

use probes::settings::{Settings, Value};

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

/// Allocations and reallocations made by `f` on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    match yardstick::alloc::measure(f) {
        (value, Some(a)) => (value, a.allocs + a.reallocs),
        (_, None) => panic!("the counting allocator is not counting"),
    }
}

#[test]
fn lookups_of_parsed_settings_do_not_allocate() {
    let path = probes::fixtures::path("settings/site.ini");
    let bytes = std::fs::read(&path).unwrap();
    let (site, parsing) = allocations(|| Settings::parse("site.ini", &bytes).unwrap());
    // The counter works: parsing allocates.
    assert!(parsing > 0);

    let mut found = 0usize;
    let ((), during) = allocations(|| {
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
    });
    assert_eq!(during, 0, "{during} allocations in 8,000 lookups");
    assert!(found > 8000);
}
