//! The demo site end to end: the real binary, measured by the real
//! `yardstick http` code. No assertion is on a time: only counts of
//! responses, statuses, headers and exit codes, which no load can change.

mod support;

use support::{Site, get, options, pages_file, run};
use yardstick::document::run::Run;
use yardstick_cli::commands::http::measure;

/// Measures pages.txt on `site` with `extra` options.
fn measure_pages(site: &Site, extra: &[&str]) -> Run {
    let mut args = vec![
        format!("--base={}", site.base()),
        format!("--urls-file={}", pages_file().display()),
        "--requests=8".to_string(),
        "--warmup=2".to_string(),
        "--concurrency=2".to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    measure(&options(&args)).expect("measured")
}

/// Every row of `run` answered all its requests, each with `cache`; the
/// login form, made for each visitor, with `BYPASS`.
fn all(run: &Run, cache: &str) {
    assert_eq!(run.rows.len(), 6, "pages.txt has six pages");
    for row in &run.rows {
        assert_eq!(
            (row.figures.n, row.errors),
            (8, 0),
            "{}: {:?}",
            row.name,
            row.error_messages
        );
        let cache = if row.name.contains("/user/login") {
            "BYPASS"
        } else {
            cache
        };
        assert_eq!(
            row.page.cache.get(cache),
            Some(&8),
            "{}: {:?}",
            row.name,
            row.page.cache
        );
    }
}

#[test]
fn warm_pages_hit_the_cache_and_cold_ones_miss() {
    let site = Site::start(&[]);
    // After the warm-up has rendered each page once, every measured
    // request is served from the cache.
    all(&measure_pages(&site, &[]), "HIT");
    // --cold makes every target new: all misses, rendered again.
    all(&measure_pages(&site, &["--cold"]), "MISS");
}

#[test]
fn without_the_cache_every_request_misses() {
    let site = Site::start(&["--no-cache"]);
    all(&measure_pages(&site, &[]), "MISS");
}

#[test]
fn an_unknown_page_is_a_404_page() {
    let site = Site::start(&[]);
    let r = get(site.port, "/no/such/page", &[]);
    assert_eq!(r.status, 404);
    let body = String::from_utf8_lossy(&r.body);
    assert!(
        body.contains("Page not found") && body.contains("</html>"),
        "{body}"
    );
    let run = measure(&options(&[
        format!("--url={}/content/view/full/999999", site.base()),
        "--requests=4".to_string(),
    ]))
    .unwrap();
    assert_eq!(run.rows[0].error_messages.get("HTTP 404"), Some(&4));
}

/// The first row of `sql` over the kernel's store, read directly.
fn query<T: rusqlite::types::FromSql>(sql: &str) -> Vec<T> {
    let path = probes::kernel::fixture().unwrap();
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let db = rusqlite::Connection::open_with_flags(&path, flags).unwrap();
    let mut statement = db.prepare(sql).unwrap();
    let columns = statement.column_count();
    statement
        .query_row([], |r| (0..columns).map(|i| r.get(i)).collect())
        .unwrap()
}

#[test]
fn an_old_alias_redirects_to_the_current_one() {
    // The first alias a node no longer has, as a whole path from the root.
    let old: Vec<String> = query(
        "WITH RECURSIVE up(id, parent, path, action) AS ( \
           SELECT id, parent, text, action FROM ( \
             SELECT * FROM url_alias WHERE is_original = 0 ORDER BY id LIMIT 1) \
           UNION ALL \
           SELECT a.id, a.parent, a.text || '/' || up.path, up.action \
           FROM url_alias a JOIN up ON a.id = up.parent) \
         SELECT path, action FROM up WHERE parent = 0",
    );
    let node = old[1].strip_prefix("eznode:").unwrap().to_string();
    let current: Vec<String> = query(&format!(
        "SELECT path_identification_string FROM content_node WHERE node_id = {node}"
    ));
    let site = Site::start(&[]);
    let r = get(site.port, &format!("/{}", old[0]), &[]);
    assert_eq!(r.status, 301, "/{}", old[0]);
    let to = r.header("location").unwrap_or_default();
    assert!(to.ends_with(&format!("/{}", current[0])), "{to}");
}

#[test]
fn a_hidden_node_is_not_found() {
    let hidden: Vec<i64> =
        query("SELECT node_id FROM content_node WHERE is_invisible = 1 ORDER BY node_id LIMIT 1");
    let site = Site::start(&[]);
    let r = get(site.port, &format!("/content/view/full/{}", hidden[0]), &[]);
    assert_eq!(r.status, 404);
}

#[test]
fn pages_are_gzipped_when_the_request_allows_it() {
    let site = Site::start(&[]);
    let plain = get(site.port, "/news", &[]);
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.header("vary"), Some("Accept-Encoding"));
    let packed = get(site.port, "/news", &["Accept-Encoding: br, gzip"]);
    assert_eq!(packed.header("content-encoding"), Some("gzip"));
    assert_eq!(packed.header("x-cache"), Some("HIT"));
    let mut unpacked = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&packed.body[..]),
        &mut unpacked,
    )
    .unwrap();
    assert_eq!(unpacked, plain.body);
    let refused = get(site.port, "/news", &["Accept-Encoding: gzip;q=0"]);
    assert_eq!(refused.header("content-encoding"), None);
}

#[test]
fn the_sitemap_names_the_front_page_then_the_menu_pages_each_of_which_answers() {
    let site = Site::start(&[]);
    let r = get(site.port, "/sitemap.xml", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type"),
        Some("application/xml; charset=utf-8")
    );
    let body = String::from_utf8(r.body).unwrap();
    let locs: Vec<&str> = body
        .split("<loc>")
        .skip(1)
        .filter_map(|rest| rest.split("</loc>").next())
        .collect();
    assert_eq!(locs.first(), Some(&"http://127.0.0.1/"), "{body}");
    assert!(locs.len() > 2, "{body}");
    for loc in &locs {
        let path = loc.trim_start_matches("http://127.0.0.1");
        assert_eq!(get(site.port, path, &[]).status, 200, "{path}");
    }
}

#[test]
fn the_front_page_links_a_search_description_and_a_login_page_that_answer() {
    let site = Site::start(&[]);
    for _ in 0..2 {
        // Rendered, then from the cache: the links come with both.
        let front = get(site.port, "/", &[]);
        assert_eq!(front.status, 200);
        let links = front.header("link").unwrap_or_default().to_string();
        assert!(
            links.contains("</opensearch.xml>; rel=\"search\""),
            "{links}"
        );
        assert!(links.contains("</user/login>; rel=\"login\""), "{links}");
        // Started without a purge token: no purge endpoint is published.
        assert!(!links.contains("rel=\"purge\""), "{links}");
    }
    assert_eq!(get(site.port, "/news", &[]).header("link"), None);
    let r = get(site.port, "/opensearch.xml", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(
        r.header("content-type"),
        Some("application/opensearchdescription+xml; charset=utf-8")
    );
    let body = String::from_utf8(r.body).unwrap();
    let template = "http://127.0.0.1/content/search?SearchText={searchTerms}";
    assert!(body.contains(&format!("template=\"{template}\"")), "{body}");
    let search = get(site.port, "/content/search?SearchText=news", &[]);
    assert_eq!(search.status, 200);
    assert_eq!(get(site.port, "/user/login", &[]).status, 200);
}

#[test]
fn every_stylesheet_and_logo_the_layouts_link_answers() {
    let site = Site::start(&[]);
    let mut seen = 0;
    for page in ["/", "/user/login"] {
        let html = String::from_utf8(get(site.port, page, &[]).body).unwrap();
        let linked = html
            .split("=\"/design/")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .map(|rest| format!("/design/{rest}"));
        for file in linked {
            let r = get(site.port, &file, &[]);
            let kind = r.header("content-type").unwrap_or_default().to_string();
            assert_eq!(r.status, 200, "{page} links {file}");
            assert!(
                kind == "image/png" || kind.starts_with("text/css"),
                "{file}: {kind}"
            );
            seen += 1;
        }
    }
    // The public layout's nine stylesheets and logo, the administration's
    // ten and its logo.
    assert_eq!(seen, 21);
}

#[test]
fn the_pages_are_the_kernel_s() {
    let site = Site::start(&[]);
    let text = |target: &str| {
        let r = get(site.port, target, &[]);
        assert_eq!(r.status, 200, "{target}");
        String::from_utf8(r.body).unwrap()
    };
    assert!(text("/").contains("<h1>Home</h1>"));
    assert!(text("/news").contains("<h1>News</h1>"));
    assert!(text("/index.php/news").contains("<h1>News</h1>"));
    let search = text("/content/search?SearchText=harbour");
    assert!(
        search.contains("Search for \"harbour\" returned"),
        "{search}"
    );
    assert!(text("/user/login").contains("name=\"Password\""));
}

#[test]
fn sigterm_stops_it_cleanly_with_a_connection_open() {
    let mut site = Site::start(&[]);
    // A kept-alive connection, idle after one answer: the stop closes it.
    let mut tcp = std::net::TcpStream::connect(("127.0.0.1", site.port)).unwrap();
    std::io::Write::write_all(&mut tcp, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut first = [0u8; 12];
    std::io::Read::read_exact(&mut tcp, &mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    let pid = i32::try_from(site.child.id()).unwrap();
    // SAFETY: kill(2) on the process this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = site.child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
}

#[test]
fn a_port_in_use_is_one_line_naming_it_and_exit_2() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let out = run(&[&format!("--port={port}")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("127.0.0.1:{port}")), "{err}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"this is not an SQLite database at all").unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"").unwrap();
    let missing = dir.path().join("missing.db");
    let cache = format!("--cache-dir={}", file.join("cache").display());
    for (args, names) in [
        (
            vec![format!("--database={}", missing.display())],
            "missing.db",
        ),
        (vec![format!("--database={}", junk.display())], "junk.db"),
        (vec![cache], "plain-file"),
        (vec!["--workers=0".to_string()], "--workers"),
        (vec!["--bogus".to_string()], "--bogus"),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(names), "{args:?}: {err}");
    }
    let help = run(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("--no-cache"));
}

#[test]
fn without_a_page_yardstick_measures_the_list_the_content_store_gives() {
    let site = Site::start(&[]);
    let run = measure(&options(&[
        format!("--base={}", site.base()),
        "--requests=2".to_string(),
        "--warmup=1".to_string(),
        "--concurrency=1".to_string(),
    ]))
    .expect("measured");
    // The same list, from the content store's tables: the front page, the
    // first three children of the front page that have a URL alias (by
    // priority, then node id), the search page with the first menu page's
    // word, and the login page.
    let db = rusqlite::Connection::open(probes::kernel::fixture().unwrap()).unwrap();
    let mut query = db
        .prepare(
            "SELECT a.text FROM content_node n
             JOIN url_alias a ON a.action = 'eznode:' || n.node_id AND a.is_original = 1
             WHERE n.parent_node_id = ?1 AND n.is_invisible = 0
             ORDER BY n.priority, n.node_id LIMIT 3",
        )
        .unwrap();
    let menu: Vec<String> = query
        .query_map([probes::content::FRONT_PAGE], |row| row.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(menu.len(), 3, "{menu:?}");
    let word = menu[0]
        .split(|c: char| !c.is_alphabetic())
        .find(|w| w.chars().count() >= 3)
        .unwrap();
    let mut expected = vec!["/".to_string()];
    expected.extend(menu.iter().map(|alias| format!("/{alias}")));
    expected.push(format!("/content/search?SearchText={word}"));
    expected.push("/user/login".to_string());
    let settings = run.settings.http().unwrap();
    assert_eq!(settings.pages, expected);
    let found = settings.pages_from_site.as_ref().unwrap();
    assert_eq!(found.search.as_deref(), Some(word));
    assert!(found.login);
    for row in &run.rows {
        assert_eq!((row.figures.n, row.errors), (2, 0), "{}", row.key);
    }
}

#[test]
fn cold_clear_empties_the_cache_so_each_page_s_first_request_is_rendered() {
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, "a-token-of-the-owner-0123\n").unwrap();
    let site = Site::start(&[&format!("--purge-token-file={}", token.display())]);
    // Warm: every page of the list is cached.
    all(&measure_pages(&site, &[]), "HIT");
    let measure_cleared = |token: &std::path::Path| {
        measure(&options(&[
            format!("--base={}", site.base()),
            format!("--urls-file={}", pages_file().display()),
            format!("--cold-clear={}", token.display()),
            "--requests=3".to_string(),
            "--concurrency=1".to_string(),
        ]))
    };
    let run = measure_cleared(&token).expect("measured");
    let settings = run.settings.http().unwrap();
    assert!(settings.cold_clear);
    assert_eq!(settings.warmup_effective, 0);
    for row in &run.rows {
        if row.key.ends_with("/user/login") {
            // Made for each visitor, cleared or not.
            assert_eq!(row.page.cache.get("BYPASS"), Some(&3), "{}", row.key);
            continue;
        }
        // One at a time: the first request renders, the others hit.
        assert_eq!(row.page.cache.get("MISS"), Some(&1), "{}", row.key);
        assert_eq!(row.page.cache.get("HIT"), Some(&2), "{}", row.key);
    }
    // Another token is refused before anything is measured.
    let other = dir.path().join("other");
    std::fs::write(&other, "not-the-token-of-the-owner").unwrap();
    let e = measure_cleared(&other).unwrap_err().to_string();
    assert!(
        e.contains("answered 401") && e.contains("nothing was measured"),
        "{e}"
    );
    // A site started without a token publishes no purge endpoint, and is
    // sent no PURGE.
    let plain = Site::start(&[]);
    let e = measure(&options(&[
        format!("--base={}", plain.base()),
        "--url=/".to_string(),
        format!("--cold-clear={}", token.display()),
    ]))
    .unwrap_err()
    .to_string();
    assert!(e.contains("publishes no purge endpoint"), "{e}");
}
