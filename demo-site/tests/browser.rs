//! The speed card in a real browser: headless Chromium, over the DevTools
//! protocol, loads the card, logs in through the form, presses Measure
//! again, sees the card fill, and is refused a second press. No script
//! error on the way, and a screenshot with something on it. Without
//! Chromium the test is reported ignored (`test [needs chromium] ...`),
//! and fails instead where `YARDSTICK_REQUIRE_TOOLS` names it (`.ci/run`).
//!
//! `SPEED_CARD_SCREENSHOT=FILE` keeps the card's screenshot (docs/ holds
//! one).

mod support;

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::protocol::cdp::Runtime::ConsoleAPICalledEventTypeOption;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::{Browser, LaunchOptions, Tab};
use libtest_mimic::{Arguments, Trial};
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::Site;
use support::admin::{PASSWORD, card_host};

/// Debian's browser, where `.ci/run` installs it.
fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// Script errors the page raises: exceptions and `console.error`. (A
/// refused press is an answer with its status, which Chromium logs as a
/// failed resource: that is the page working, not an error of it.)
fn watch(tab: &Arc<Tab>) -> Arc<Mutex<Vec<String>>> {
    let errors: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&errors);
    tab.enable_runtime().expect("the console");
    tab.add_event_listener(Arc::new(move |event: &Event| {
        let error = match event {
            Event::RuntimeExceptionThrown(e) => Some(format!("{:?}", e.params.exception_details)),
            Event::RuntimeConsoleAPICalled(c)
                if c.params.Type == ConsoleAPICalledEventTypeOption::Error =>
            {
                Some(format!("{:?}", c.params.args))
            }
            _ => None,
        };
        if let (Some(e), Ok(mut all)) = (error, seen.lock()) {
            all.push(e);
        }
    }))
    .expect("a listener");
    errors
}

fn text(tab: &Arc<Tab>) -> String {
    tab.evaluate("document.body.innerText", false)
        .ok()
        .and_then(|r| r.value)
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn go(tab: &Arc<Tab>, url: &str) {
    tab.navigate_to(url)
        .and_then(|t| t.wait_until_navigated())
        .unwrap_or_else(|e| panic!("{url}: {e}"));
}

/// Clicks `selector`, then waits until the page says one of `any` (a
/// click's navigation may not have begun when it returns).
fn click(tab: &Arc<Tab>, selector: &str, any: &[&str]) -> String {
    tab.wait_for_element(selector)
        .and_then(|e| e.click().map(|_| ()))
        .unwrap_or_else(|e| panic!("{selector}: {e}"));
    let give_up = Instant::now() + Duration::from_secs(60);
    loop {
        let said = text(tab);
        if any.iter().any(|a| said.contains(a)) {
            return said;
        }
        assert!(
            Instant::now() < give_up,
            "after {selector}, none of {any:?}: {said}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn screenshot(tab: &Arc<Tab>) -> Vec<u8> {
    tab.capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("a screenshot")
}

fn an_administrator_measures_again_and_sees_the_card_fill() {
    let path = chromium().expect("the test runs only where chromium was found");
    let cached = Site::start(&[]);
    let uncached = Site::start(&["--no-cache"]);
    let dir = tempfile::tempdir().unwrap();
    let servers = format!("{},{}", cached.base(), uncached.base());
    let site = card_host(
        dir.path(),
        &servers,
        "/\n/news\n/content/search?SearchText=harbour\n",
    );
    let base = site.base();
    let profile = tempfile::tempdir().unwrap();
    // As root, Chromium runs only without its sandbox; a fresh profile and
    // no background networking, so it reaches nothing but the site.
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .sandbox(false)
        .user_data_dir(Some(profile.path().to_path_buf()))
        .window_size(Some((1100, 900)))
        .args(vec![
            OsStr::new("--no-first-run"),
            OsStr::new("--disable-background-networking"),
            OsStr::new("--disable-gpu"),
        ])
        .build()
        .expect("chromium's options");
    let browser = Browser::new(options).expect("chromium starts");
    let tab = browser.new_tab().expect("a tab");
    go(&tab, "about:blank");
    let blank = screenshot(&tab).len();
    let errors = watch(&tab);
    go(&tab, &format!("{base}/speed"));
    assert!(text(&tab).contains("Not measured yet."), "{}", text(&tab));
    go(&tab, &format!("{base}/user/login"));
    let type_into = |selector: &str, what: &str| {
        tab.wait_for_element(selector)
            .and_then(|e| e.click().map(|_| ()))
            .and_then(|()| tab.type_str(what).map(|_| ()))
            .unwrap_or_else(|e| panic!("{selector}: {e}"));
    };
    type_into("input[name=Login]", "admin");
    type_into("input[name=Password]", PASSWORD);
    click(&tab, "input[name=LoginButton]", &["You are logged in"]);
    click(&tab, "input[name=MeasureButton]", &["Measuring:"]);
    // A second press, from the page the first led to: refused, saying why.
    click(
        &tab,
        "input[name=MeasureButton]",
        &["still running", "One measurement a minute"],
    );
    // The card fills once the measurement is done; visitors' loads of it
    // never measure.
    let give_up = Instant::now() + Duration::from_secs(150);
    loop {
        go(&tab, &format!("{base}/speed"));
        if text(&tab).contains("Measured at") {
            break;
        }
        assert!(
            Instant::now() < give_up,
            "the card did not fill: {}",
            text(&tab)
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    let card = text(&tab);
    for page in [
        "/news",
        "/content/search?SearchText=harbour",
        "20 req.",
        "8 req.",
        " ms",
    ] {
        assert!(card.contains(page), "{page}: {card}");
    }
    let shot = screenshot(&tab);
    assert!(
        shot.len() > 10 * blank,
        "a screenshot of {} bytes, blank {blank}",
        shot.len()
    );
    if let Some(keep) = std::env::var_os("SPEED_CARD_SCREENSHOT") {
        std::fs::write(keep, &shot).unwrap();
    }
    let errors = errors.lock().map(|e| e.clone()).unwrap_or_default();
    assert!(errors.is_empty(), "script errors: {errors:?}");
}

fn main() {
    let name = "an_administrator_measures_again_and_sees_the_card_fill";
    let test = || {
        an_administrator_measures_again_and_sees_the_card_fill();
        Ok(())
    };
    let required = std::env::var("YARDSTICK_REQUIRE_TOOLS")
        .is_ok_and(|list| list.split([' ', ',']).any(|t| t == "chromium"));
    let trial = match chromium() {
        Some(_) => Trial::test(name, test),
        None if required => Trial::test(name, || {
            Err("chromium is required here (YARDSTICK_REQUIRE_TOOLS) but not installed".into())
        }),
        // Not run, so never passed: ignored, the browser named.
        None => Trial::test(name, test)
            .with_ignored_flag(true)
            .with_kind("needs chromium"),
    };
    libtest_mimic::run(&Arguments::from_args(), vec![trial]).exit();
}
