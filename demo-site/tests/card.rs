//! The speed card end to end: a site whose card measures two other demo
//! sites (one with its view cache, one without), an administrator pressing
//! Measure again, and the card, its JSON and `yardstick show` of the kept
//! runs agreeing. Nothing here asserts on a time: counts, statuses, texts.

mod support;

use serde_json::Value;
use std::time::{Duration, Instant};
use support::admin::{body, card_host, log_in, post, press_measure_again, yardstick};
use support::{Response, Site, get};

#[test]
fn measure_again_fills_the_card_once_and_the_card_agrees_with_yardstick_show() {
    let cached = Site::start(&[]);
    let uncached = Site::start(&["--no-cache"]);
    let dir = tempfile::tempdir().unwrap();
    let servers = format!("{},{}", cached.base(), uncached.base());
    let site = card_host(dir.path(), &servers, "/\n/news\n");
    let r = get(site.port, "/speed", &[]);
    assert_eq!(r.status, 200);
    assert!(body(&r).contains("Not measured yet."), "{}", body(&r));
    assert_eq!(get(site.port, "/speed.json", &[]).status, 404);
    // GETs never measure, whoever sends them.
    assert_eq!(
        get(site.port, "/content/dashboard/measure", &[]).status,
        405
    );
    // An anonymous press, and one without the session's token: refused.
    assert_eq!(
        post(site.port, "/content/dashboard/measure", "", "").status,
        403
    );
    let (session, token) = log_in(site.port);
    assert_eq!(
        post(site.port, "/content/dashboard/measure", &session, "csrf=x").status,
        403
    );
    let cookie = format!("Cookie: {session}");
    assert_eq!(
        get(site.port, "/content/dashboard/measure", &[&cookie]).status,
        405
    );
    assert_eq!(
        get(site.port, "/speed.json", &[]).status,
        404,
        "nothing measured yet"
    );
    let pressed = Instant::now();
    // Ten presses at once start one measurement; the others say why not.
    let presses: Vec<Response> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..10)
            .map(|_| {
                s.spawn(|| {
                    post(
                        site.port,
                        "/content/dashboard/measure",
                        &session,
                        &format!("csrf={token}"),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let started = presses.iter().filter(|r| r.status == 200).count();
    assert_eq!(
        started,
        1,
        "{:?}",
        presses.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert!(presses.iter().filter(|r| r.status == 429).all(|r| {
        let b = body(r);
        b.contains("still running") || b.contains("next may start")
    }));
    // GETs never measure: the card waits for the one started.
    let give_up = Instant::now() + Duration::from_secs(150);
    let kept: Value = loop {
        let r = get(site.port, "/speed.json", &[]);
        if r.status == 200 {
            break serde_json::from_slice(&r.body).unwrap();
        }
        assert_eq!(r.status, 404);
        assert!(Instant::now() < give_up, "no measurement in 150 s");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(kept["failure"].is_null(), "{kept}");
    let card = &kept["last_good"];
    assert_eq!(card["servers"][0], cached.base().as_str());
    let lines = card["pages"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{card}");
    for line in lines {
        for side in ["a", "b"] {
            assert_eq!(line["cached"][side]["n"], 20, "{line}");
            assert_eq!(line["rendered"][side]["n"], 8, "{line}");
        }
        // A answered from its cache, B rendered every page.
        assert_eq!(line["cached"]["a"]["cache"]["HIT"], 20, "{line}");
        assert_eq!(line["cached"]["b"]["cache"]["MISS"], 20, "{line}");
    }
    // `yardstick show` of the kept runs gives the card's medians.
    for (run, way) in [
        ("card-cached.json", "cached"),
        ("card-rendered.json", "rendered"),
    ] {
        let out = std::process::Command::new(yardstick())
            .args(["show", "--json"])
            .arg(dir.path().join(run))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
        for row in shown["rows"].as_array().unwrap() {
            let line = lines.iter().find(|l| l["page"] == row["name"]).unwrap();
            let side = if row["target"] == card["servers"][0] {
                "a"
            } else {
                "b"
            };
            assert_eq!(line[way][side]["median"], row["median"], "{run}: {row}");
            assert_eq!(line[way][side]["n"], row["n"], "{run}: {row}");
        }
    }
    // The page shows them, and the dashboard refuses a press within the
    // minute.
    let page = body(&get(site.port, "/speed", &[]));
    let median = lines[0]["cached"]["a"]["median"].as_f64().unwrap();
    assert!(page.contains(&format!("{median:.3} ms")), "{page}");
    assert!(page.contains("measured from the server itself"), "{page}");
    let r = post(
        site.port,
        "/content/dashboard/measure",
        &session,
        &format!("csrf={token}"),
    );
    // Within the minute of the first press it is refused; a loaded
    // machine may have taken longer, and then the press rightly starts
    // another. Either way the answer is checked (the rule itself, with
    // its clock given, is `presses_start_one_measurement_at_a_time_and_one_a_minute`).
    let elapsed = pressed.elapsed();
    if r.status == 429 {
        assert!(
            body(&r).contains("One measurement a minute"),
            "{}",
            body(&r)
        );
        assert!(r.header("retry-after").is_some());
    } else {
        // The server's minute began after `pressed`: no load can make
        // this one shorter.
        assert_eq!(r.status, 200, "{}", body(&r));
        assert!(
            elapsed >= Duration::from_secs(60),
            "started again after {elapsed:?}"
        );
    }
}

#[test]
fn a_damaged_card_file_shows_no_figures_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let card_file = dir.path().join("card.json");
    std::fs::write(&card_file, "{\"last_good\": {\"pages\": 3").unwrap();
    let site = Site::start(&[&format!("--card-file={}", card_file.display())]);
    let r = get(site.port, "/speed", &[]);
    assert_eq!(r.status, 200);
    let page = body(&r);
    assert!(
        page.contains("damaged") && !page.contains("Not measured yet"),
        "{page}"
    );
    // The damage is the server's to log: visitors are not shown its path.
    assert!(!page.contains(&card_file.display().to_string()), "{page}");
    let r = get(site.port, "/speed.json", &[]);
    assert_eq!(r.status, 500);
    assert!(body(&r).contains("damaged"), "{}", body(&r));
}

#[test]
fn a_server_that_is_down_fails_the_measurement_and_the_card_says_why() {
    let up = Site::start(&[]);
    // A port nothing listens on: taken and let go.
    let down = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let servers = format!("{},http://127.0.0.1:{down}", up.base());
    let site = card_host(dir.path(), &servers, "/\n");
    let r = press_measure_again(site.port);
    assert_eq!(r.status, 200, "{}", body(&r));
    let give_up = Instant::now() + Duration::from_secs(150);
    let kept: Value = loop {
        let r = get(site.port, "/speed.json", &[]);
        if r.status == 200 {
            break serde_json::from_slice(&r.body).unwrap();
        }
        assert!(Instant::now() < give_up, "no outcome in 150 s");
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(kept["last_good"].is_null(), "{kept}");
    let failure = kept["failure"]["message"].as_str().unwrap_or("");
    assert!(failure.contains(&format!("127.0.0.1:{down}")), "{kept}");
    let page = body(&get(site.port, "/speed", &[]));
    assert!(page.contains("failed"), "{page}");
}

/// A site stopped (SIGTERM) while Measure again runs stops the measurement
/// with it: its child is killed, its working folder removed, and the card
/// left as it was.
#[test]
fn a_site_stopped_while_it_measures_leaves_no_child_and_no_folder() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    // A yardstick that says who it is, then takes its time.
    let slow = dir.path().join("slow-yardstick");
    std::fs::write(
        &slow,
        format!(
            "#!/bin/sh\necho $$ > {}\nexec sleep 600\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&slow, std::fs::Permissions::from_mode(0o755)).unwrap();
    let password = dir.path().join("password");
    std::fs::write(&password, support::admin::PASSWORD).unwrap();
    let card = dir.path().join("card.json");
    let mut site = Site::start(&[
        &format!("--admin-password-file={}", password.display()),
        "--card-servers=http://127.0.0.1:9,http://127.0.0.1:10",
        &format!("--card-file={}", card.display()),
        &format!("--yardstick={}", slow.display()),
    ]);
    let r = press_measure_again(site.port);
    assert_eq!(r.status, 200, "{}", body(&r));
    let patience = Instant::now() + Duration::from_secs(60);
    let pid: i32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            break pid;
        }
        assert!(Instant::now() < patience, "the measurement never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    let status = site.terminate(Duration::from_secs(60));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let alive = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !stat.contains(") Z "))
    };
    let patience = Instant::now() + Duration::from_secs(10);
    while alive() && Instant::now() < patience {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!alive(), "the measurement's child {pid} outlived the site");
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".measuring"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(
        !card.exists(),
        "a stopped measurement has no outcome to keep"
    );
}
