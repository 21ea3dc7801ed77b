//! Every kind of page, loaded in a real Chromium over the DevTools
//! protocol: no console error, the elements a reader looks for, and a
//! screenshot with something on it. Without Chromium the test is
//! reported ignored, and fails instead where `YARDSTICK_REQUIRE_TOOLS`
//! names it (`.ci/run`).

use super::common::{Ran, check, run, yardstick};
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::protocol::cdp::Runtime::ConsoleAPICalledEventTypeOption;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::{Browser, LaunchOptions, Tab};
use libtest_mimic::Failed;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Debian's browser, where `.ci/run` installs it.
pub fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// What a page must show, found by CSS selector, each at least once.
pub type Wanted = &'static [&'static str];

/// The texts of the page's charts that begin left of their chart's box
/// (by more than a pixel), where a row's name is cut; joined, empty when
/// none is. (A tick number past the right edge is not looked for yet.)
const CLIPPED_LABELS: &str = r#"(() => {
    const cut = [];
    for (const svg of document.querySelectorAll('svg')) {
        const frame = svg.getBoundingClientRect();
        for (const text of svg.querySelectorAll('text')) {
            const box = text.getBoundingClientRect();
            if (box.width > 0 && box.left < frame.left - 1) {
                cut.push(text.textContent.trim());
            }
        }
    }
    return cut.join(' | ');
})()"#;

/// Loads each of `pages` with the elements it must show.
pub fn pages_load_cleanly(pages: &[(PathBuf, Wanted)]) -> Result<(), Failed> {
    let Some(path) = chromium() else {
        return Err("the test runs only where chromium was found".into());
    };
    let profile = tempfile::tempdir()?;
    // As root, Chromium runs only without its sandbox; a fresh profile
    // and no background networking, so it reaches nothing.
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .sandbox(false)
        .user_data_dir(Some(profile.path().to_path_buf()))
        .window_size(Some((1000, 800)))
        .args(vec![
            OsStr::new("--no-first-run"),
            OsStr::new("--disable-background-networking"),
            OsStr::new("--disable-gpu"),
        ])
        .build()
        .map_err(|e| format!("chromium's options: {e}"))?;
    let browser = Browser::new(options).map_err(|e| format!("chromium starts: {e}"))?;
    let tab = browser.new_tab().map_err(|e| format!("a tab: {e}"))?;
    let blank = screenshot(&tab, "about:blank")?.len();
    // The check itself is checked: a page that logs an error fails it.
    let broken = profile.path().join("broken.html");
    std::fs::write(
        &broken,
        "<h1>x</h1><script>console.error('broken')</script>",
    )?;
    match one(&tab, &broken, &["h1"], 0) {
        Err(e) if format!("{e:?}").contains("console errors") => {}
        other => return Err(format!("a console error went unseen: {other:?}").into()),
    }
    for (page, wanted) in pages {
        one(&tab, page, wanted, blank)?;
    }
    Ok(())
}

/// One page: loaded, with no error on its console, every wanted element,
/// and a screenshot that holds more than a blank page's.
fn one(tab: &Arc<Tab>, page: &Path, wanted: Wanted, blank: usize) -> Result<(), Failed> {
    let errors: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen = Arc::clone(&errors);
    tab.enable_log()
        .and_then(|t| t.enable_runtime())
        .map_err(|e| format!("the console: {e}"))?;
    let listener = tab
        .add_event_listener(Arc::new(move |event: &Event| {
            let error = match event {
                Event::RuntimeExceptionThrown(e) => {
                    Some(format!("{:?}", e.params.exception_details))
                }
                Event::RuntimeConsoleAPICalled(c)
                    if c.params.Type == ConsoleAPICalledEventTypeOption::Error =>
                {
                    Some(format!("{:?}", c.params.args))
                }
                Event::LogEntryAdded(l) if format!("{:?}", l.params.entry.level) == "Error" => {
                    Some(l.params.entry.text.clone())
                }
                _ => None,
            };
            if let (Some(e), Ok(mut all)) = (error, seen.lock()) {
                all.push(e);
            }
        }))
        .map_err(|e| format!("a listener: {e}"))?;
    let url = format!("file://{}", page.display());
    let shot = screenshot(tab, &url)?;
    let named = page.display().to_string();
    for selector in wanted {
        // Counted in the page, in one round trip.
        let found = tab
            .evaluate(
                &format!("document.querySelectorAll('{selector}').length"),
                false,
            )
            .ok()
            .and_then(|r| r.value)
            .and_then(|v| v.as_u64())
            .unwrap_or(0);
        if found == 0 {
            return Err(format!("{named}: no {selector}").into());
        }
    }
    // No chart's row name is cut at the left: each label's box, as laid
    // out, begins within its chart's.
    let clipped = tab
        .evaluate(CLIPPED_LABELS, false)
        .ok()
        .and_then(|r| r.value)
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "the check did not run".to_string());
    if !clipped.is_empty() {
        return Err(format!("{named}: labels cut at a chart's edge: {clipped}").into());
    }
    let _ = tab.remove_event_listener(&listener);
    let errors = errors.lock().map(|e| e.clone()).unwrap_or_default();
    if !errors.is_empty() {
        return Err(format!("{named}: console errors: {errors:?}").into());
    }
    if shot.len() < 10 * blank {
        return Err(format!(
            "{named}: a screenshot of {} bytes, hardly more than a blank page's {blank}",
            shot.len()
        )
        .into());
    }
    Ok(())
}

fn screenshot(tab: &Arc<Tab>, url: &str) -> Result<Vec<u8>, Failed> {
    tab.navigate_to(url)
        .and_then(|t| t.wait_until_navigated())
        .map_err(|e| format!("{url}: {e}"))?;
    Ok(tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .map_err(|e| format!("{url}: a screenshot: {e}"))?)
}

/// `yardstick ARGS`, which must exit 0.
pub fn made(args: &[&str]) -> Result<Ran, Failed> {
    let ran = run(yardstick().args(args));
    check(ran.code == 0, &format!("{args:?} exits 0"), &ran)?;
    Ok(ran)
}
