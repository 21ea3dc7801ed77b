//! The administrators over HTTP, against the real server: the login form
//! and its token, a login, the dashboard, logging out, and the refusals.

mod support;

use support::{Response, Site, get, request};

const PASSWORD: &str = "the owner's own password";

fn site() -> (Site, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("password");
    std::fs::write(&file, format!("{PASSWORD}\n")).unwrap();
    let site = Site::start(&[&format!("--admin-password-file={}", file.display())]);
    (site, dir)
}

fn body(r: &Response) -> String {
    String::from_utf8_lossy(&r.body).into_owned()
}

/// The value of the hidden field `csrf` in a page.
fn csrf(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    page[at..].split('"').next().unwrap().to_string()
}

/// `name=value` of the cookie `name` a response sets.
fn cookie(r: &Response, name: &str) -> String {
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

fn post(site: &Site, target: &str, cookies: &str, form: &str) -> Response {
    request(
        site.port,
        "POST",
        target,
        &[
            &format!("Cookie: {cookies}"),
            "Content-Type: application/x-www-form-urlencoded",
        ],
        form.as_bytes(),
    )
}

/// A login's form, from a fresh GET: its cookie and token.
fn login_form(site: &Site) -> (String, String) {
    let r = get(site.port, "/user/login", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    (cookie(&r, "ys_login"), csrf(&body(&r)))
}

fn encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[test]
fn an_administrator_logs_in_and_out_through_the_forms() {
    let (site, _dir) = site();
    let (nonce, token) = login_form(&site);
    // Each visitor's form has its own token: the page is never cached.
    assert_ne!(login_form(&site).1, token);
    let form = format!("Login=admin&Password={}&csrf={token}", encode(PASSWORD));
    let r = post(&site, "/index.php/user/login", &nonce, &form);
    assert_eq!(r.status, 303, "{}", body(&r));
    assert_eq!(r.header("location"), Some("/content/dashboard"));
    let set = r
        .headers
        .iter()
        .find(|(n, v)| n == "set-cookie" && v.starts_with("ys_session="))
        .map(|(_, v)| v.clone())
        .unwrap();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    let session = cookie(&r, "ys_session");
    let r = get(
        site.port,
        "/content/dashboard",
        &[&format!("Cookie: {session}")],
    );
    assert_eq!(r.status, 200);
    let page = body(&r);
    assert!(page.contains("Log out"), "{page}");
    let r = post(
        &site,
        "/user/logout",
        &session,
        &format!("csrf={}", csrf(&page)),
    );
    assert_eq!((r.status, r.header("location")), (303, Some("/user/login")));
    let r = get(
        site.port,
        "/content/dashboard",
        &[&format!("Cookie: {session}")],
    );
    assert_eq!(r.status, 403);
    assert!(body(&r).contains("Log in to see the administration."));
}

#[test]
fn wrong_passwords_and_forged_forms_are_refused_with_a_message() {
    let (site, _dir) = site();
    let (nonce, token) = login_form(&site);
    let r = post(
        &site,
        "/user/login",
        &nonce,
        &format!("Login=admin&Password=guess&csrf={token}"),
    );
    assert_eq!(r.status, 403);
    assert!(body(&r).contains("Wrong user name or password."));
    assert!(r.headers.iter().all(|(_, v)| !v.starts_with("ys_session=")));
    // The right password, but no token, or no cookie to match it.
    let right = format!("Login=admin&Password={}", encode(PASSWORD));
    for (cookies, form) in [
        (nonce.as_str(), right.clone()),
        ("", format!("{right}&csrf={token}")),
    ] {
        let r = post(&site, "/user/login", cookies, &form);
        assert_eq!(r.status, 403, "{form}");
        assert!(body(&r).contains("did not come from this site"), "{form}");
    }
    // An anonymous logout, and a dashboard without a session.
    assert_eq!(post(&site, "/user/logout", "", "csrf=x").status, 403);
    assert_eq!(get(site.port, "/content/dashboard", &[]).status, 403);
    // A body past the form's bound.
    let big = "a".repeat(10_000);
    assert_eq!(post(&site, "/user/login", &nonce, &big).status, 413);
}

#[test]
fn without_a_password_nobody_logs_in() {
    let site = Site::start(&[]);
    let (nonce, token) = login_form(&site);
    let r = post(
        &site,
        "/user/login",
        &nonce,
        &format!("Login=admin&Password=x&csrf={token}"),
    );
    assert_eq!(r.status, 403);
    assert!(body(&r).contains("without an administrators"));
}

#[test]
fn a_bad_password_option_is_one_line_and_exit_2() {
    let out = support::run(&["--admin-password=short"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: --admin-password: ") && err.lines().count() == 1,
        "{err}"
    );
    let out = support::run(&["--admin-password-file=/no/such/file"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--admin-password-file: /no/such/file"));
}
