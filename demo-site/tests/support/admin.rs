//! The administration as its tests drive it over HTTP: forms and cookies
//! read off a response, a form posted, a login, and a site whose speed
//! card measures two others.

use super::{Response, Site, get, request};
use std::path::{Path, PathBuf};

/// The administrators' password the tests' sites are started with.
pub const PASSWORD: &str = "the owner's own password";

/// A response's body as text.
pub fn body(r: &Response) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

/// The value of the form field `name` in a page.
pub fn field(page: &str, name: &str) -> String {
    let key = format!("name=\"{name}\" value=\"");
    let at = page.find(&key).unwrap_or_else(|| panic!("no field {name}")) + key.len();
    page[at..].split('"').next().unwrap().to_string()
}

/// `name=value` of the cookie `name` a response sets.
pub fn cookie(r: &Response, name: &str) -> String {
    r.headers
        .iter()
        .filter(|(n, _)| n == "set-cookie")
        .find_map(|(_, v)| {
            v.split(';')
                .next()
                .filter(|c| c.starts_with(&format!("{name}=")))
        })
        .unwrap_or_else(|| panic!("no cookie {name}: {:?}", r.headers))
        .to_string()
}

/// POSTs `form` (urlencoded) to `target` with `cookies`.
pub fn post(port: u16, target: &str, cookies: &str, form: &str) -> Response {
    request(
        port,
        "POST",
        target,
        &[
            &format!("Cookie: {cookies}"),
            "Content-Type: application/x-www-form-urlencoded",
        ],
        form.as_bytes(),
    )
}

/// `s` as a form's value.
pub fn encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// A fresh GET of the login form: its nonce cookie and its token.
pub fn login_form(port: u16) -> (String, String) {
    let r = get(port, "/user/login", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    (cookie(&r, "ys_login"), field(&body(&r), "csrf"))
}

/// Logs in to the site on `port`: the session cookie and the dashboard's
/// form token.
pub fn log_in(port: u16) -> (String, String) {
    let (nonce, token) = login_form(port);
    let form = format!("Login=admin&Password={}&csrf={token}", encode(PASSWORD));
    let r = post(port, "/user/login", &nonce, &form);
    assert_eq!(r.status, 303, "{}", body(&r));
    let session = cookie(&r, "ys_session");
    let r = get(port, "/content/dashboard", &[&format!("Cookie: {session}")]);
    assert_eq!(r.status, 200);
    (session, field(&body(&r), "csrf"))
}

/// The `yardstick` program cargo built beside the demo site, which
/// Measure again runs.
pub fn yardstick() -> PathBuf {
    let program = Path::new(super::BINARY).with_file_name("yardstick");
    assert!(
        program.is_file(),
        "{} is not built: run the workspace's tests (cargo test)",
        program.display()
    );
    program
}

/// A site with [`PASSWORD`] whose speed card measures `servers` (`A,B`)
/// over `pages` (one a line), its files in `dir` (the card's is
/// `card.json`).
pub fn card_host(dir: &Path, servers: &str, pages: &str) -> Site {
    let password = dir.join("password");
    std::fs::write(&password, PASSWORD).unwrap();
    let list = dir.join("pages.txt");
    std::fs::write(&list, pages).unwrap();
    Site::start(&[
        &format!("--admin-password-file={}", password.display()),
        &format!("--card-servers={servers}"),
        &format!("--card-pages={}", list.display()),
        &format!("--card-file={}", dir.join("card.json").display()),
        &format!("--yardstick={}", yardstick().display()),
    ])
}

/// Logs in on the site at `port` and presses Measure again with the
/// session's token: the dashboard's answer.
pub fn press_measure_again(port: u16) -> Response {
    let (session, token) = log_in(port);
    post(
        port,
        "/content/dashboard/measure",
        &session,
        &format!("csrf={token}"),
    )
}
