//! Prints how fast the kernel reads settings files and routes module URLs.
//!
//! Settings: our reader and the `rust-ini` crate parse the fixture site's
//! seven settings files in interleaved rounds; medians and their ratio are
//! printed. `rust-ini` is a raw-parse reference with other semantics: it
//! cannot read `Name[]` clear lines (it joins them with the next line) and
//! unescapes backslashes, so it gets a copy without those lines, and both
//! parsers are checked to have succeeded so no early error is timed. Ours is
//! timed on the same copy and on the original files.
//!
//! Routing: the ten paths of the `uri_parse` probe, plain and with every
//! element percent-encoded, in ns per URL.
//!
//! Run with `cargo run --release -p probes --example settings_speed`.

use std::hint::black_box;
use std::time::Instant;

use probes::router::{Registry, Route, Router};
use probes::settings::Settings;

const FILES: [&str; 7] = [
    "site.ini",
    "content.ini",
    "template.ini",
    "i18n.ini",
    "image.ini",
    "design.ini",
    "menu.ini",
];

const URLS: [&str; 10] = [
    "/",
    "content/view/full/2",
    "/content/view/full/144/(offset)/20/(sort)/name",
    "content/edit/57/3/eng-GB",
    "user/login",
    "Products/Shoes/Running-shoe-42",
    "/content/search/(SearchText)/benchmark/(SubTreeArray)/2",
    "layout/set/print/News/Article",
    "ezjscore/call/ezjsc::time",
    "/content/view/full/2/(year)/2026/(month)/10/(day)/5",
];

const ROUNDS: usize = 31;

/// The type-7 median of yardstick's statistics (0 for no value).
fn median(v: Vec<f64>) -> f64 {
    yardstick::stats::median(&v).unwrap_or(0.0)
}

/// Seconds for `reps` runs of `f`.
fn time(reps: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        f();
    }
    start.elapsed().as_secs_f64()
}

/// The lines `rust-ini` reads differently: `Name[]` clears and anything
/// with a backslash.
fn is_clear_line(line: &str) -> bool {
    line.strip_suffix("[]")
        .is_some_and(|name| !name.is_empty() && !name.contains(['=', '[', ' ']))
}

fn main() -> Result<(), String> {
    let dir = probes::fixtures::path("settings");
    let mut originals = Vec::new();
    for name in FILES {
        let path = dir.join(name);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        originals.push((name, text));
    }
    let copies: Vec<(&str, String)> = originals
        .iter()
        .map(|(name, text)| {
            let kept: Vec<&str> = text
                .lines()
                .filter(|l| !is_clear_line(l) && !l.contains('\\'))
                .collect();
            (*name, kept.join("\n") + "\n")
        })
        .collect();
    let original_bytes: usize = originals.iter().map(|(_, t)| t.len()).sum();
    let copy_bytes: usize = copies.iter().map(|(_, t)| t.len()).sum();
    let dropped: usize = originals
        .iter()
        .map(|(_, t)| t.lines().count())
        .sum::<usize>()
        - copies.iter().map(|(_, t)| t.lines().count()).sum::<usize>();

    // Both parsers must succeed on what they are given, or we would time an
    // early error.
    for (name, text) in &copies {
        let ours = Settings::parse(name, text.as_bytes()).map_err(|e| e.to_string())?;
        let theirs =
            ini::Ini::load_from_str(text).map_err(|e| format!("rust-ini on {name}: {e}"))?;
        let their_groups = theirs.sections().flatten().count();
        if ours.group_count() == 0 || their_groups == 0 || !ours.warnings().is_empty() {
            return Err(format!(
                "{name}: ours {} groups, rust-ini {their_groups}",
                ours.group_count()
            ));
        }
    }
    for (name, text) in &originals {
        Settings::parse(name, text.as_bytes()).map_err(|e| e.to_string())?;
    }

    let reps = 20;
    let (mut ours_orig, mut ours_copy, mut theirs) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        ours_orig.push(time(reps, || {
            for (name, text) in &originals {
                black_box(Settings::parse(name, black_box(text.as_bytes())).ok());
            }
        }));
        ours_copy.push(time(reps, || {
            for (name, text) in &copies {
                black_box(Settings::parse(name, black_box(text.as_bytes())).ok());
            }
        }));
        theirs.push(time(reps, || {
            for (_, text) in &copies {
                black_box(ini::Ini::load_from_str(black_box(text)).ok());
            }
        }));
    }
    let mbs = |bytes: usize, secs: f64| (bytes * reps) as f64 / secs / 1e6;
    let (o, c, t) = (median(ours_orig), median(ours_copy), median(theirs));
    println!("settings parse, 7 files, median of {ROUNDS} interleaved rounds of {reps} passes:");
    println!(
        "  ours     on the originals ({:>6} bytes): {:>7.1} MB/s",
        original_bytes,
        mbs(original_bytes, o)
    );
    println!(
        "  ours     on the copy      ({:>6} bytes): {:>7.1} MB/s",
        copy_bytes,
        mbs(copy_bytes, c)
    );
    println!(
        "  rust-ini on the copy      ({:>6} bytes): {:>7.1} MB/s   ({dropped} clear/backslash lines left out)",
        copy_bytes,
        mbs(copy_bytes, t)
    );
    println!("  ours / rust-ini on the same copy: {:.2}x faster", t / c);

    let router = Router::new(Registry::kernel());
    let encoded: Vec<String> = URLS
        .iter()
        .map(|u| {
            u.split('/')
                .map(|e| e.bytes().map(|b| format!("%{b:02X}")).collect::<String>())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    let route_all = |urls: &[&str]| {
        let mut found = 0usize;
        for url in urls {
            if let Ok(uri) = router.parse(black_box(url)) {
                if let Route::View { view, .. } = router.route(&uri) {
                    found += view.parameters(&uri).count();
                }
                found += uri.elements().len();
            }
        }
        found
    };
    let encoded_refs: Vec<&str> = encoded.iter().map(String::as_str).collect();
    if route_all(&URLS) != route_all(&encoded_refs) {
        return Err("encoded URLs route differently".into());
    }
    let reps = 2000;
    let (mut plain, mut escaped) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        plain.push(time(reps, || {
            black_box(route_all(&URLS));
        }));
        escaped.push(time(reps, || {
            black_box(route_all(&encoded_refs));
        }));
    }
    let ns = |secs: f64| secs * 1e9 / (reps * URLS.len()) as f64;
    let (p, e) = (median(plain), median(escaped));
    println!(
        "URL routing, 10 module URLs, median of {ROUNDS} interleaved rounds of {reps} passes:"
    );
    println!("  plain paths:                 {:>7.1} ns per URL", ns(p));
    println!("  every element percent-coded: {:>7.1} ns per URL", ns(e));
    println!("  percent-coded / plain: {:.2}x", e / p);
    Ok(())
}
