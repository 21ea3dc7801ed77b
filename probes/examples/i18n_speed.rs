//! The catalogue's speed: load throughput against a bare quick-xml event
//! scan of the same file (the floor any loader on that parser stands on),
//! and lookup time.
//!
//! `cargo run --release -p probes --example i18n_speed`
//!
//! Rounds are interleaved so that both sides see the same machine state;
//! the figures are medians.
//!
//! `i18n_speed --only scan|load [rounds]` runs one side alone (once by
//! default), for profilers and for an instruction count that a busy machine
//! cannot skew:
//! `valgrind --tool=callgrind --toggle-collect='*bare_scan*' ... --only scan`
//! against `--toggle-collect='*load_bytes*' ... --only load`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use probes::i18n::{Catalogue, fixture::FIXTURE, load_bytes};
use quick_xml::Reader;
use quick_xml::events::Event;

const ROUNDS: usize = 101;

/// Reads every event of the file and keeps nothing: the parser's own cost.
///
/// The event is looked at where the parser left it (`ref`): moving it out
/// of the result first copies it with wider loads than the parser's
/// stores, a store-forwarding stall on every event that would make the
/// floor look higher than it is.
fn bare_scan(bytes: &[u8]) -> usize {
    let mut reader = Reader::from_reader(bytes);
    let mut events = 0usize;
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => return events,
            Ok(ref event) => {
                black_box(event);
                events += 1;
            }
            Err(e) => panic!("the fixture is not well-formed: {e}"),
        }
    }
}

/// The time `f` takes to produce its result; freeing the result is not
/// part of producing it.
fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    let out = black_box(f());
    let elapsed = start.elapsed();
    drop(out);
    elapsed
}

/// The type-7 median of yardstick's statistics (zero for no value).
fn median(samples: Vec<Duration>) -> Duration {
    let seconds: Vec<f64> = samples.iter().map(Duration::as_secs_f64).collect();
    Duration::from_secs_f64(yardstick::stats::median(&seconds).unwrap_or(0.0))
}

fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

/// Median nanoseconds per lookup of `keys`, each looked up by `look`.
fn lookup_ns(
    catalogue: &Catalogue,
    keys: &[(String, String, String)],
    look: impl Fn(&Catalogue, &str, &str, &str) -> bool,
) -> (f64, usize) {
    let mut found = 0;
    let samples = (0..ROUNDS)
        .map(|_| {
            time(|| {
                for _ in 0..10 {
                    for (c, s, m) in keys {
                        found +=
                            usize::from(look(catalogue, black_box(c), black_box(s), black_box(m)));
                    }
                }
            })
        })
        .collect();
    let per_round = median(samples);
    (
        per_round.as_nanos() as f64 / (keys.len() * 10) as f64,
        found / ROUNDS,
    )
}

fn usage(why: &str) -> ! {
    eprintln!("{why}\nusage: i18n_speed [--only scan|load [rounds]]");
    std::process::exit(2)
}

fn main() {
    let path = probes::fixtures::path(FIXTURE);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1);
        }
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => {}
        ["--only", side] | ["--only", side, _] => {
            let rounds = match args.get(2).map(|n| n.parse::<usize>()) {
                None => 1,
                Some(Ok(n)) => n,
                Some(Err(e)) => usage(&format!("rounds: {e}")),
            };
            for _ in 0..rounds {
                match side {
                    "scan" => println!("{} events", bare_scan(&bytes)),
                    "load" => match load_bytes("kernel_de.ts", &bytes) {
                        Ok(c) => println!("{} messages", c.stats().messages),
                        Err(e) => usage(&e.to_string()),
                    },
                    other => usage(&format!("no side {other}")),
                }
            }
            return;
        }
        _ => usage("unknown arguments"),
    }
    let catalogue = match load_bytes("kernel_de.ts", &bytes) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };

    // Warm up both, then interleave.
    bare_scan(&bytes);
    let _ = load_bytes("kernel_de.ts", &bytes);
    let mut scans = Vec::with_capacity(ROUNDS);
    let mut loads = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        scans.push(time(|| bare_scan(&bytes)));
        loads.push(time(|| load_bytes("kernel_de.ts", &bytes)));
    }
    // Each round's own ratio: a scan and the load right after it see much
    // the same machine, so slow swings of a busy machine cancel out.
    let mut paired: Vec<f64> = scans
        .iter()
        .zip(&loads)
        .map(|(s, l)| s.as_secs_f64() / l.as_secs_f64() * 100.0)
        .collect();
    paired.sort_unstable_by(f64::total_cmp);
    let paired = paired[paired.len() / 2];
    let (scan, load) = (median(scans), median(loads));
    println!(
        "{}: {} KB, {} contexts, {} messages; {ROUNDS} interleaved rounds, medians",
        path.display(),
        bytes.len() / 1024,
        catalogue.stats().contexts,
        catalogue.stats().messages
    );
    println!(
        "  bare quick-xml scan  {:>8.1} MB/s  ({:.2} ms)",
        mb_per_s(bytes.len(), scan),
        scan.as_secs_f64() * 1e3
    );
    println!(
        "  catalogue load       {:>8.1} MB/s  ({:.2} ms)",
        mb_per_s(bytes.len(), load),
        load.as_secs_f64() * 1e3
    );
    println!(
        "  load / scan speed    {:>8.1} %  (target >= 50 %)",
        scan.as_secs_f64() / load.as_secs_f64() * 100.0
    );
    println!("  per-round ratio      {paired:>8.1} %  (median of each round's scan / load)");

    // The lookup probe's keys: the first 300 translated, unshadowed messages.
    let keys: Vec<(String, String, String)> = catalogue
        .messages()
        .filter(|m| !m.is_shadowed() && !m.is_numerus() && !m.translation().is_empty())
        .take(300)
        .map(|m| {
            (
                m.context().to_string(),
                m.source().to_string(),
                m.comment().to_string(),
            )
        })
        .collect();
    let (hit, found) = lookup_ns(&catalogue, &keys, |c, x, s, m| {
        c.translate(x, s, m).is_some()
    });
    println!(
        "  lookup, exact hit    {hit:>8.1} ns  ({found} of {} found)",
        keys.len() * 10
    );
    let (fallback, found) = lookup_ns(&catalogue, &keys, |c, x, s, m| {
        let comment = if m.is_empty() { "unknown comment" } else { m };
        c.translate(x, s, comment).is_some()
    });
    println!(
        "  lookup via fallback  {fallback:>8.1} ns  ({found} of {} found)",
        keys.len() * 10
    );
    let (miss, found) = lookup_ns(&catalogue, &keys, |c, _, s, m| {
        c.translate("no/such/context", s, m).is_some()
    });
    println!("  lookup, miss         {miss:>8.1} ns  ({found} found)");
}
