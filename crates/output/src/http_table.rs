//! The table of an HTTP run: one line of set-up (counts, concurrency,
//! warm-up, warm or cold, the tool and the load tools found installed), one
//! row per server and page, the failures by message, and with `--compare`
//! an A/B table per page. Pure text, no trailing spaces.

use super::layout::{Align, Table, ms, significant, thousands};
use crate::document::failures;
use crate::document::run::{Row, Run, ServerPair};
use crate::document::settings::HttpSettings;
use crate::text::{clean, cleaned};
use std::collections::BTreeMap;

/// The whole table text of an HTTP run: the table format prints it in
/// place of the probe table, whose columns do not fit pages.
pub(crate) fn render(run: &Run) -> String {
    let mut out = String::new();
    out.push_str(&header(run));
    out.push('\n');
    out.push_str(&rows_table(&run.rows).render());
    let failures = failures(&run.rows);
    if !failures.is_empty() {
        out.push_str("\nfailures:\n");
        out.push_str(&failures);
    }
    if let Some(pairs) = run.server_pairs.as_ref().filter(|p| !p.is_empty()) {
        out.push('\n');
        out.push_str(&ab_tables(pairs));
    }
    out
}

/// `http: 2 servers × 3 pages, 100 requests + 5 warm-up each, ...`.
fn header(run: &Run) -> String {
    let empty = HttpSettings::default();
    let s = run.settings.http().unwrap_or(&empty);
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let from_site = if s.pages_from_site.is_some() {
        " (from the site's sitemap)"
    } else {
        ""
    };
    let mut parts = vec![format!(
        "http: {} × {}{from_site}",
        plural(s.servers.len(), "server", "servers"),
        plural(s.pages.len(), "page", "pages")
    )];
    let tool = if s.tool.is_empty() {
        "builtin"
    } else {
        s.tool.as_str()
    };
    parts.push(load(s, tool));
    parts.push(format!("concurrency {}", s.concurrency));
    // The built-in client's threads move its figures on a machine shared
    // with the server; older runs do not say.
    if let Some(n) = s.threads {
        parts.push(plural(n as usize, "client thread", "client threads"));
    }
    if tool == "builtin" || tool == "k6" {
        parts.push(plural(s.rounds as usize, "round", "rounds"));
    }
    if let Some(n) = s.segments.filter(|n| *n > 1) {
        parts.push(format!("{n} k6 segments"));
    }
    parts.push(
        if s.cold {
            "cold"
        } else if s.cold_clear {
            "caches cleared first"
        } else {
            "warm"
        }
        .to_string(),
    );
    if !s.keepalive {
        parts.push("no keep-alive".to_string());
    }
    parts.push(format!("tool {tool}"));
    parts.push(if s.tools_found.is_empty() {
        "external tools found: none".to_string()
    } else {
        format!("external tools found: {}", s.tools_found.join(", "))
    });
    parts.push("times in ms".to_string());
    // The tool names come from the saved settings.
    cleaned(&parts.join(", "))
}

fn rows_table(rows: &[Row]) -> Table {
    let mut t = Table::new(&[
        ("target", Align::Left),
        ("url", Align::Left),
        ("n", Align::Right),
        ("min", Align::Right),
        ("median", Align::Right),
        ("p90", Align::Right),
        ("p99", Align::Right),
        ("max", Align::Right),
        ("sd", Align::Right),
        ("req/s", Align::Right),
        ("err", Align::Right),
        ("status", Align::Left),
        ("bytes", Align::Right),
        ("cache", Align::Left),
    ])
    .droppable(&["cache", "bytes", "sd", "min", "max", "p99", "p90"]);
    for r in rows {
        let tool = r.page.tool.as_deref().unwrap_or("builtin");
        let cache = if tool == "builtin" {
            counts(&r.page.cache)
        } else {
            tool.to_string()
        };
        t.push(vec![
            r.page.target.clone().unwrap_or_default(),
            r.name.clone(),
            r.figures.n.to_string(),
            ms(r.figures.min),
            ms(r.figures.median),
            ms(r.figures.p90),
            ms(r.figures.p99),
            ms(r.figures.max),
            ms(r.figures.stddev),
            r.rps.map_or("-".to_string(), rate),
            r.errors.to_string(),
            counts(&r.page.status),
            r.page.bytes.map_or("-".to_string(), thousands),
            cache,
        ]);
    }
    t
}

/// `200:95 404:5`, the most frequent first.
pub fn counts(map: &BTreeMap<String, u64>) -> String {
    let mut items: Vec<(&String, &u64)> = map.iter().collect();
    items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    items
        .iter()
        .map(|(k, n)| format!("{k}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Requests per second: whole, in thousands, from 100; else to three
/// significant digits.
pub fn rate(v: f64) -> String {
    if v >= 100.0 {
        thousands(v)
    } else {
        significant(v, 3)
    }
}

/// One line per row that failed or was overloaded: `target url: 5 ×
/// Connection refused`, after the overloaded mark and the share that
/// failed, with its kinds where the row counts them (`5.0 % of 100 failed
/// (connect 5)`).
fn failures(rows: &[Row]) -> String {
    let mut out = String::new();
    for r in rows
        .iter()
        .filter(|r| !r.error_messages.is_empty() || r.page.overloaded)
    {
        let mut items: Vec<(&String, &u64)> = r.error_messages.iter().collect();
        items.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = items.iter().map(|(m, n)| format!("{n} × {m}")).collect();
        let line = format!(
            "  {} {}: {}{}",
            r.page.target.as_deref().unwrap_or(""),
            r.name,
            kinds(r),
            list.join(", ")
        );
        out.push_str(clean(line.trim_end()).as_ref());
        out.push('\n');
    }
    out
}

/// `OVERLOADED, 96.9 % of 30,000 failed (closed 29064); `: the share of
/// a row's requests that failed and their kinds, where the row counts
/// them (the built-in client does).
fn kinds(r: &Row) -> String {
    let mark = if r.page.overloaded {
        "OVERLOADED, "
    } else {
        ""
    };
    if r.page.failures.is_none() && mark.is_empty() {
        return String::new();
    }
    let kinds = match r.page.failures.filter(|f| f.total() > 0) {
        Some(f) => format!(" ({f})"),
        None => String::new(),
    };
    format!(
        "{mark}{:.1} % of {} failed{kinds}; ",
        failures::share(r.errors, r.requests),
        thousands(r.requests as f64),
    )
}

/// Per page: each later server (B) against the first (A).
fn ab_tables(pairs: &[ServerPair]) -> String {
    let mut out = String::new();
    let mut pages: Vec<&str> = Vec::new();
    for p in pairs {
        if !pages.contains(&p.name.as_str()) {
            pages.push(&p.name);
        }
    }
    for (i, page) in pages.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("A/B {}\n", clean(page)));
        let mut t = Table::new(&[
            ("A", Align::Left),
            ("B", Align::Left),
            ("A median", Align::Right),
            ("B median", Align::Right),
            ("B/A", Align::Right),
            ("A req/s", Align::Right),
            ("B req/s", Align::Right),
            ("B/A", Align::Right),
        ]);
        for p in pairs.iter().filter(|p| p.name == *page) {
            t.push(vec![
                p.base.clone(),
                p.other.clone(),
                ms(p.base_median),
                ms(p.other_median),
                ratio(p.median_ratio),
                p.base_rps.map_or("-".to_string(), rate),
                p.other_rps.map_or("-".to_string(), rate),
                ratio(p.rps_ratio),
            ]);
        }
        out.push_str(&t.render());
    }
    out
}

/// A ratio as `x1.23`; none as `-`.
pub fn ratio(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |r| format!("x{r:.2}"))
}

/// What load each page got: wrk, and k6 and the built-in client when
/// asked, run for a time, the others for a count of requests.
fn load(s: &HttpSettings, tool: &str) -> String {
    let timed = matches!(tool, "wrk" | "k6" | "builtin");
    match (s.duration.filter(|_| timed), s.rate) {
        (Some(d), Some(rate)) if tool == "builtin" => format!(
            "{rate} requests/s for {d} s + {} warm-up each",
            s.warmup_effective
        ),
        (Some(d), Some(rate)) => format!("{rate} requests/s for {d} s each"),
        (Some(d), None) if tool == "builtin" => {
            format!("{d} s + {} warm-up each", s.warmup_effective)
        }
        (Some(d), None) => format!("{d} s each"),
        (None, Some(rate)) if tool == "builtin" => format!(
            "{} requests at {rate}/s + {} warm-up each",
            s.requests, s.warmup_effective
        ),
        (None, _) => format!(
            "{} requests + {} warm-up each",
            s.requests, s.warmup_effective
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::environment::Environment;
    use crate::document::run::{FORMAT, Mode, RowKind, TOOL};
    use serde_json::json;

    fn row(target: &str, page: &str, samples: Vec<f64>) -> Row {
        let mut r = Row::with_samples(
            format!("{target} {page}"),
            RowKind::Page,
            page.into(),
            samples,
        );
        r.page.target = Some(target.into());
        r.page.url = Some(format!("{target}{page}"));
        r.page.tool = Some("builtin".into());
        r
    }

    fn run(rows: Vec<Row>, pairs: Option<Vec<ServerPair>>, settings: serde_json::Value) -> Run {
        Run {
            tool: TOOL.into(),
            format: FORMAT,
            mode: Mode::Http,
            started: String::new(),
            machine: String::new(),
            settings: serde_json::from_value(settings).unwrap(),
            environment: Environment::default(),
            warnings: Vec::new(),
            rows,
            calibration: None,
            comparison: None,
            server_pairs: pairs,
            metric: Default::default(),
            ranking: None,
            matrix: None,
            thresholds: None,
            outcome: None,
            explanation: None,
        }
    }

    #[test]
    fn rows_header_and_failures() {
        let mut a = row("http://127.0.0.1:8080", "/", vec![1.0, 2.0, 3.0]);
        a.rps = Some(1234.5);
        a.page.status = [("200".to_string(), 3), ("404".to_string(), 1)].into();
        a.page.cache = [("HIT".to_string(), 2), ("MISS".to_string(), 1)].into();
        a.page.bytes = Some(1000.0);
        a.errors = 1;
        a.error_messages = [("HTTP 404".to_string(), 1)].into();
        let mut b = row("http://127.0.0.1:8081", "/", vec![]);
        b.rps = Some(0.0);
        (b.requests, b.errors) = (4, 4);
        b.error_messages = [("Connection refused".to_string(), 4)].into();
        b.page.failures = Some(crate::document::failures::Failures {
            connect: 4,
            ..Default::default()
        });
        b.page.overloaded = true;
        let settings = json!({
            "servers": ["a", "b"], "pages": ["/"], "requests": 3, "warmup_effective": 4,
            "concurrency": 4, "threads": 1, "rounds": 2, "cold": false, "tool": "builtin",
            "tools_found": ["ab", "wrk"]
        });
        let text = render(&run(vec![a, b], None, settings));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "http: 2 servers × 1 page, 3 requests + 4 warm-up each, concurrency 4, 1 client thread, 2 rounds, warm, tool builtin, external tools found: ab, wrk, times in ms"
        );
        assert!(
            lines[1].starts_with("target") && lines[1].ends_with("cache"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains("1,235")
                && lines[2].contains("200:3 404:1")
                && lines[2].ends_with("HIT:2 MISS:1"),
            "{}",
            lines[2]
        );
        assert!(lines[2].contains(" 2.000 "), "{}", lines[2]);
        assert!(
            lines[3].contains(" 0 ") && lines[3].contains(" - "),
            "{}",
            lines[3]
        );
        assert!(
            text.contains(
                "  http://127.0.0.1:8081 /: OVERLOADED, 100.0 % of 4 failed (connect 4); \
                 4 × Connection refused"
            ),
            "{text}"
        );
        assert!(text.lines().all(|l| !l.ends_with(' ')), "{text}");
    }

    #[test]
    fn tool_rows_show_the_tool_in_the_cache_column() {
        let mut r = row("http://h", "/", vec![]);
        r.page.tool = Some("wrk".into());
        r.figures.median = Some(0.049);
        let text = render(&run(
            vec![r],
            None,
            json!({"servers": [], "tool": "wrk", "duration": 10, "concurrency": 2}),
        ));
        assert!(text.lines().nth(2).unwrap().ends_with("wrk"), "{text}");
        assert!(
            text.starts_with(
                "http: 0 servers × 0 pages, 10 s each, concurrency 2, warm, tool wrk, external tools found: none, times in ms"
            ),
            "{text}"
        );
    }

    #[test]
    fn ab_table_per_page() {
        let pair = |page: &str, other: &str, m: f64| ServerPair {
            name: page.into(),
            base: "A-server".into(),
            other: other.into(),
            base_median: Some(2.0),
            other_median: Some(2.0 * m),
            median_ratio: Some(m),
            base_rps: Some(100.0),
            other_rps: Some(100.0 / m),
            rps_ratio: Some(1.0 / m),
        };
        let text = ab_tables(&[
            pair("/", "B1", 1.5),
            pair("/", "B2", 0.5),
            pair("/x", "B1", 1.0),
        ]);
        assert_eq!(text.matches("A/B ").count(), 2, "{text}");
        let first: Vec<&str> = text.lines().take(4).collect();
        assert_eq!(first[0], "A/B /");
        assert!(
            first[1].starts_with("A ") && first[1].contains("B median"),
            "{}",
            first[1]
        );
        assert!(
            first[2].contains("x1.50") && first[2].contains("x0.67"),
            "{}",
            first[2]
        );
        assert!(
            first[3].contains("B2") && first[3].contains("x0.50") && first[3].contains("x2.00"),
            "{}",
            first[3]
        );
        assert!(text.lines().all(|l| !l.ends_with(' ')));
    }
}
