//! `yardstick http` as a whole: the saved document against the published
//! schema, exit codes with a baseline, refusals, and the external tools
//! driven against the in-process test server (loopback only).

#[macro_use]
mod common;
mod http_support;

use http_support::{closed_port, start};
use serde_json::Value;
use std::path::Path;
use yardstick::error::Error;

/// Runs `yardstick http ARGS` in this process; the exit code it would end
/// with (errors print their line and give 2).
fn http(args: &[&str]) -> i32 {
    let mut words: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    words.push("-q".to_string());
    match yardstick_cli::commands::http::main(words) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{e}");
            e.exit_code()
        }
    }
}

fn http_err(args: &[&str]) -> Error {
    let mut words: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    words.push("-q".to_string());
    yardstick_cli::commands::http::main(words).unwrap_err()
}

fn load(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn saved_document_matches_the_schema_and_hides_secrets() {
    let (a, b) = (start(), start());
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let code = http(&[
        &format!("--compare={},{}", a.base(), b.base()),
        "--url=/",
        "--url=/missing",
        "--requests=6",
        "--concurrency=2",
        "--auth=user:topsecret",
        "--header=Cookie: also-secret",
        "--format=json",
        &format!("--save={}", save.display()),
    ]);
    // /missing answers 404 on both servers: a quarter of the requests
    // failed, and without a baseline any failure fails the run.
    assert_eq!(code, 1);
    let doc = load(&save);
    common::assert_valid_run(&doc);
    assert_eq!(doc["mode"], "http");
    assert_eq!(doc["rows"].as_array().unwrap().len(), 4);
    let pairs = doc["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2);
    for field in [
        "name",
        "base",
        "other",
        "base_median",
        "other_median",
        "median_ratio",
        "base_rps",
        "other_rps",
        "rps_ratio",
    ] {
        assert!(pairs[0].get(field).is_some(), "pairs lack {field}");
    }
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(
        !text.contains("topsecret") && !text.contains("also-secret"),
        "{text}"
    );
    assert_eq!(doc["settings"]["concurrency"], 2);
}

/// A baseline made by measuring `/slow` once and setting its median and
/// p95 to `ms`. The figures are set, not scaled from the measured ones: a
/// measurement made while the machine is loaded can take any time.
fn baseline_at(server: &http_support::TestServer, ms: f64, dir: &Path) -> std::path::PathBuf {
    let path = dir.join(format!("base-{ms}.json"));
    let o = yardstick_cli::commands::http::options::parse(
        vec![
            format!("--url={}", server.url("/slow")),
            "--requests=4".into(),
            "--concurrency=2".into(),
            "-q".into(),
        ],
        None,
    )
    .unwrap();
    let mut run = yardstick_cli::commands::http::measure(&o).unwrap();
    for row in &mut run.rows {
        for v in [&mut row.figures.median, &mut row.figures.p95] {
            *v = v.map(|_| ms);
        }
    }
    yardstick::document::store::save(&path, &run).unwrap();
    path
}

fn a_slower_page_than_the_baseline_exits_1_and_a_faster_one_0() {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("--url={}", s.url("/slow"));
    // `/slow` answers after a 20 ms sleep, which load can lengthen but
    // never shorten; the client gives up after 30 s.
    let faster = baseline_at(&s, 1.0, dir.path());
    let code = http(&[
        &url,
        "--requests=4",
        "--concurrency=2",
        &format!("--baseline={}", faster.display()),
    ]);
    assert_eq!(code, 1, "at least 20 ms now against 1 ms in the baseline");
    let slower = baseline_at(&s, 60_000.0, dir.path());
    let code = http(&[
        &url,
        "--requests=4",
        "--concurrency=2",
        &format!("--baseline={}", slower.display()),
    ]);
    assert_eq!(code, 0);
}

fn a_bad_baseline_is_refused_before_any_request() {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{not json").unwrap();
    let e = http_err(&[
        &format!("--url={}", s.url("/")),
        &format!("--baseline={}", bad.display()),
    ]);
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("bad.json"), "{e}");
    assert_eq!(s.seen.requests(), 0);
}

fn the_ab_table_informs_and_a_dead_server_fails_the_run() {
    let a = start();
    let dead = format!("http://127.0.0.1:{}", closed_port());
    let compare = format!("--compare={},{dead}", a.base());
    let args = [
        compare.as_str(),
        "--url=/",
        "--requests=4",
        "--concurrency=2",
    ];
    // Half the requests went to a server that refused them all.
    assert_eq!(http(&args), 1);
    // No cap passes it: the dead server's page got no answer, so it was
    // not measured.
    for cap in ["--max-failures=100", "--max-failures=49"] {
        let allowed: Vec<&str> = args.iter().copied().chain([cap]).collect();
        assert_eq!(http(&allowed), 1, "{cap}");
    }
}

fn a_dead_server_fails_a_run_without_a_baseline_and_the_cap_is_checked() {
    let dead = format!("http://127.0.0.1:{}/", closed_port());
    let url = format!("--url={dead}");
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let saved = format!("--save={}", save.display());
    assert_eq!(http(&[&url, "--requests=3", &saved]), 1);
    // The cap is saved with the run, so `show` and the report judge alike.
    assert_eq!(load(&save)["settings"]["max_failures"], 0.0);
    for bad in [
        "--max-failures=101",
        "--max-failures=-1",
        "--max-failures=many",
    ] {
        let e = http_err(&[&url, bad]);
        assert!(
            e.exit_code() == 2 && e.to_string().contains("--max-failures"),
            "{bad}: {e}"
        );
    }
}

fn refusals_and_usage_errors_exit_2() {
    let e = http_err(&["--url=http://example.invalid/", "--concurrency=64"]);
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().starts_with("REFUSED: "), "{e}");
    let e = http_err(&["--url=/relative"]);
    assert!(matches!(e, Error::Usage(_)), "{e}");
    let e = http_err(&["--urls-file=/nonexistent/pages.txt"]);
    assert!(e.to_string().contains("/nonexistent/pages.txt"), "{e}");
}

fn no_page_at_all_says_how_to_start_the_demo_site() {
    let e = http_err(&[]);
    assert_eq!(e.exit_code(), 2);
    let text = e.to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("--base=URL")
            && text.contains("found from its sitemap")
            && text.contains("cargo run --release -p demo-site")
            && text.contains("--base=http://127.0.0.1:8080`"),
        "{text}"
    );
}

fn pages_come_from_a_file() {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("pages.txt");
    std::fs::write(&list, "# the home page\n/\n\n/missing\n").unwrap();
    let save = dir.path().join("run.json");
    let code = http(&[
        &format!("--base={}", s.base()),
        &format!("--urls-file={}", list.display()),
        "--requests=2",
        &format!("--save={}", save.display()),
    ]);
    // /missing answers 404: a failure, which fails a run without a baseline.
    assert_eq!(code, 1);
    let doc = load(&save);
    let names: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["/", "/missing"]);
}

/// Runs an installed load tool against the test server (its trial runs
/// only where the tool was found).
fn with_tool(tool: &str, extra: &[&str], check: impl FnOnce(&Value)) {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let mut args = vec![
        format!("--url={}", s.url("/")),
        format!("--tool={tool}"),
        "--concurrency=2".into(),
        format!("--save={}", save.display()),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(http(&words), 0);
    let doc = load(&save);
    common::assert_valid_run(&doc);
    assert_eq!(doc["rows"][0]["tool"], tool);
    assert!(s.seen.requests() > 0);
    check(&doc["rows"][0]);
}

fn ab_measures_the_page() {
    with_tool("ab", &["--requests=20"], |row| {
        assert_eq!(row["n"], 20);
        assert_eq!(row["errors"], 0);
        assert_eq!(row["bytes"], 1000.0);
        assert!(row["median"].as_f64().is_some());
    });
}

fn h2load_measures_the_page() {
    with_tool("h2load", &["--requests=20"], |row| {
        assert_eq!(row["n"], 20);
        assert!(row["mean"].as_f64().is_some() && row["median"].is_null());
    });
}

fn wrk_measures_the_page() {
    with_tool("wrk", &["--duration=1"], |row| {
        assert!(row["n"].as_u64().unwrap() > 0);
        assert!(row["median"].as_f64().is_some() && row["min"].is_null());
    });
}

fn oha_measures_the_page() {
    with_tool("oha", &["--requests=20"], |row| {
        assert_eq!(row["n"], 20);
        assert!(row["median"].as_f64().is_some());
    });
}

fn wrk_gets_credentials_from_a_private_script_and_the_checked_address() {
    let s = start();
    let port = s.addr.port();
    let code = http(&[
        &format!("--url=http://localhost:{port}/auth"),
        "--tool=wrk",
        "--duration=1",
        "--concurrency=1",
        "--auth=user:secret",
    ]);
    assert_eq!(code, 0);
    let auth = s.seen.authorization.lock().unwrap().clone();
    assert!(
        !auth.is_empty() && auth.iter().all(|a| a == "Basic dXNlcjpzZWNyZXQ="),
        "{auth:?}"
    );
    // wrk was handed 127.0.0.1 (what localhost resolved to) and the name
    // as the Host header.
    let hosts = s.seen.hosts.lock().unwrap().clone();
    assert!(
        hosts.iter().all(|h| *h == format!("localhost:{port}")),
        "{hosts:?}"
    );
}

fn tools_that_take_headers_as_arguments_are_refused_credentials() {
    let e = http_err(&[
        "--url=http://127.0.0.1:9/",
        "--tool=ab",
        "--cookie=session=s3cr3t",
    ]);
    assert_eq!(e.exit_code(), 2);
    let m = e.to_string();
    assert!(
        m.starts_with("REFUSED: --tool=ab: ab takes headers only") && !m.contains("s3cr3t"),
        "{m}"
    );
}

fn without_a_page_the_sitemap_gives_the_front_page_menu_pages_search_and_login() {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let code = http(&[
        &format!("--base={}", s.base()),
        "--requests=2",
        "--concurrency=1",
        &format!("--save={}", save.display()),
    ]);
    // /error answers 500: counted in its row, and, without a baseline,
    // a failure fails the run.
    assert_eq!(code, 1);
    let run = load(&save);
    let pages: Vec<&str> = run["settings"]["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    // By priority, the other server's page passed over, the login page
    // apart, and the first menu page's name searched for.
    assert_eq!(
        pages,
        ["/", "/slow", "/error", "/find?q=slow", "/account/login"]
    );
    let found = &run["settings"]["pages_from_site"];
    assert_eq!(found["sitemap"], s.url("/sitemap.xml").as_str());
    assert_eq!(
        (&found["menu_pages"], &found["search"], &found["login"]),
        (&Value::from(3), &Value::from("slow"), &Value::from(true))
    );
    let error_row = run["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"].as_str().unwrap().ends_with(" /error"))
        .unwrap();
    assert_eq!(
        (&error_row["errors"], &error_row["median"]),
        (&Value::from(2), &Value::Null)
    );

    // The options pick from the same list.
    let o = yardstick_cli::commands::http::options::parse(
        vec![
            format!("--base={}", s.base()),
            "--pages=1".into(),
            "--search=two words".into(),
            "--no-admin".into(),
            "--requests=1".into(),
            "-q".into(),
        ],
        None,
    )
    .unwrap();
    let run = yardstick_cli::commands::http::measure(&o).unwrap();
    let settings = run.settings.http().unwrap();
    assert_eq!(settings.pages, ["/", "/slow", "/find?q=two%20words"]);
}

fn compared_servers_are_measured_on_the_pages_of_the_first() {
    let (a, b) = (start(), start());
    let o = yardstick_cli::commands::http::options::parse(
        vec![
            format!("--compare={},{}", a.base(), b.base()),
            "--no-search".into(),
            "--no-admin".into(),
            "--pages=1".into(),
            "--requests=1".into(),
            "-q".into(),
        ],
        None,
    )
    .unwrap();
    let run = yardstick_cli::commands::http::measure(&o).unwrap();
    let keys: Vec<String> = run.rows.iter().map(|r| r.key.clone()).collect();
    assert_eq!(
        keys,
        [
            format!("{} /", a.base()),
            format!("{} /", b.base()),
            format!("{} /slow", a.base()),
            format!("{} /slow", b.base()),
        ]
    );
    // Only the reference was asked for its sitemap (and nothing else before
    // the warm-up): the other server got the measured pages alone.
    let targets = |s: &http_support::TestServer| s.seen.targets.lock().unwrap().clone();
    assert!(targets(&a).contains(&"/sitemap.xml".to_string()));
    assert!(!targets(&b).contains(&"/sitemap.xml".to_string()));
}

fn a_site_without_a_sitemap_is_one_line_exit_2_before_anything_is_measured() {
    let s = start();
    // The test server has no sitemap below /slow.
    let e = http_err(&[&format!("--base={}", s.url("/slow"))]);
    assert_eq!(e.exit_code(), 2);
    let text = e.to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("/slow/sitemap.xml: answered 404") && text.contains("--url"),
        "{text}"
    );
    assert_eq!(s.seen.requests(), 1, "only the sitemap was asked for");
    let e = http_err(&[&format!("--base={}", s.base()), "--url=/", "--no-search"]);
    assert!(e.to_string().contains("--no-search"), "{e}");
    let e = http_err(&[&format!("--base={}", s.base()), "--search=x", "--no-search"]);
    assert!(
        matches!(e, Error::Usage(_)) && e.to_string().contains("give one of them"),
        "{e}"
    );
}

fn cold_clear_is_refused_by_a_server_that_does_not_say_it_cleared_and_off_this_machine() {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "owner-token-0123456789").unwrap();
    let clear = format!("--cold-clear={}", token.display());
    // The test server publishes a purge endpoint that answers 404, with no
    // X-Cache-Cleared: it cleared nothing yardstick knows of.
    let e = http_err(&[&format!("--base={}", s.base()), "--url=/", &clear]);
    assert_eq!(e.exit_code(), 2);
    let text = e.to_string();
    assert!(
        text.contains("answered 404 to the PURGE without an X-Cache-Cleared header")
            && text.contains("nothing was measured"),
        "{text}"
    );
    assert_eq!(
        *s.seen.targets.lock().unwrap(),
        ["/", "/purge-here"],
        "the front page, then the PURGE alone"
    );
    assert!(!text.contains("owner-token"), "{text}");
    // A server off this machine is never sent a PURGE.
    let e = http_err(&[
        "--base=http://example.com",
        "--url=/",
        "--resolve=example.com:80:192.0.2.1",
        "--force",
        &clear,
    ]);
    assert!(e.to_string().contains("not on this machine"), "{e}");
    // Contradictions are usage errors.
    for other in ["--cold", "--tool=ab"] {
        let e = http_err(&[&format!("--base={}", s.base()), "--url=/", &clear, other]);
        assert!(matches!(e, Error::Usage(_)), "{other}: {e}");
    }
    let e = http_err(&[
        &format!("--base={}", s.base()),
        "--url=/",
        &format!("--cold-clear={}", dir.path().join("none").display()),
    ]);
    assert!(e.to_string().contains("none: cannot read"), "{e}");
}

/// `--record` keeps an HTTP run in the history, and `--baseline=history`
/// judges by the newest kept: made slower or faster here, by figures set
/// in a copy of the recorded run, so the verdict does not depend on the
/// machine's load.
fn a_recorded_run_is_kept_and_the_newest_kept_judges_the_next() {
    use yardstick_history::{self as history, Entry, Filter, Location};
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite");
    let url = format!("--url={}", s.url("/slow"));
    let at = format!("--history={}", db.display());
    let code = http(&[&url, "--requests=4", "--concurrency=2", "--record", &at]);
    assert_eq!(code, 0);
    let location = Location::Sqlite(db.clone());
    let mut store = history::open(&location).unwrap();
    let http_runs = Filter {
        mode: Some("http".into()),
        ..Filter::default()
    };
    let listed = store.list(&http_runs).unwrap();
    assert_eq!(listed.len(), 1, "{listed:?}");
    let kept = store.find(&listed[0].id).unwrap();
    // `/slow` answers after a 20 ms sleep, which load can lengthen but
    // never shorten.
    for (ms, verdict) in [(1.0, 1), (60_000.0, 0)] {
        let mut run = yardstick::document::store::parse(&kept.text).unwrap();
        for row in &mut run.rows {
            for v in [&mut row.figures.median, &mut row.figures.p95] {
                *v = v.map(|_| ms);
            }
        }
        let text = yardstick::document::store::saved_text(&run);
        store
            .add(&Entry::new(text, &run, &listed[0].branch))
            .unwrap();
        let code = http(&[
            &url,
            "--requests=4",
            "--concurrency=2",
            "--baseline=history:1",
            &at,
        ]);
        assert_eq!(code, verdict, "against a kept run of {ms} ms");
    }
}

/// `--html` draws the run it made; a page that cannot be written is
/// refused before any request.
fn html_draws_the_run_and_an_unwritable_page_is_refused_first() {
    let s = start();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("run.html");
    let url = format!("--url={}", s.url("/"));
    let code = http(&[
        &url,
        "--requests=4",
        "--concurrency=2",
        &format!("--html={}", page.display()),
    ]);
    assert_eq!(code, 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("every request&#39;s time"), "{html}");
    let blocked = dir.path().join("file");
    std::fs::write(&blocked, "").unwrap();
    let e = http_err(&[
        &url,
        &format!("--html={}", blocked.join("x.html").display()),
    ]);
    assert_eq!(e.exit_code(), 2, "{e}");
    let both = dir.path().join("both");
    let e = http_err(&[
        &url,
        &format!("--save={}", both.display()),
        &format!("--html={}", both.display()),
    ]);
    assert!(e.to_string().contains("which it would replace"), "{e}");
}

fn main() {
    // Each tool's test runs where the tool is found, and is reported
    // ignored elsewhere; .ci/run installs them all (oha from crates.io).
    let found = |tool: &str| yardstick_http::tools::installed(tool).is_some();
    common::run_trials(vec![
        trial!(saved_document_matches_the_schema_and_hides_secrets),
        trial!(a_slower_page_than_the_baseline_exits_1_and_a_faster_one_0),
        trial!(a_bad_baseline_is_refused_before_any_request),
        trial!(the_ab_table_informs_and_a_dead_server_fails_the_run),
        trial!(a_dead_server_fails_a_run_without_a_baseline_and_the_cap_is_checked),
        trial!(refusals_and_usage_errors_exit_2),
        trial!(no_page_at_all_says_how_to_start_the_demo_site),
        trial!(pages_come_from_a_file),
        trial!(ab_measures_the_page, needs "ab" if found("ab")),
        trial!(h2load_measures_the_page, needs "h2load" if found("h2load")),
        trial!(wrk_measures_the_page, needs "wrk" if found("wrk")),
        trial!(oha_measures_the_page, needs "oha" if found("oha")),
        trial!(wrk_gets_credentials_from_a_private_script_and_the_checked_address, needs "wrk" if found("wrk")),
        trial!(tools_that_take_headers_as_arguments_are_refused_credentials, needs "ab" if found("ab")),
        trial!(without_a_page_the_sitemap_gives_the_front_page_menu_pages_search_and_login),
        trial!(compared_servers_are_measured_on_the_pages_of_the_first),
        trial!(a_site_without_a_sitemap_is_one_line_exit_2_before_anything_is_measured),
        trial!(cold_clear_is_refused_by_a_server_that_does_not_say_it_cleared_and_off_this_machine),
        trial!(a_recorded_run_is_kept_and_the_newest_kept_judges_the_next),
        trial!(html_draws_the_run_and_an_unwritable_page_is_refused_first),
    ]);
}
