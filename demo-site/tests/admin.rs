//! The administrators over HTTP, against the real server: the login form
//! and its token, a login, the dashboard, logging out, and the refusals.

mod support;

use support::admin::{PASSWORD, body, cookie, encode, field, login_form, post};
use support::{Site, get};

fn site() -> (Site, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("password");
    std::fs::write(&file, format!("{PASSWORD}\n")).unwrap();
    let site = Site::start(&[&format!("--admin-password-file={}", file.display())]);
    (site, dir)
}

#[test]
fn an_administrator_logs_in_and_out_through_the_forms() {
    let (site, _dir) = site();
    let (nonce, token) = login_form(site.port);
    // Each visitor's form has its own token: the page is never cached.
    assert_ne!(login_form(site.port).1, token);
    let form = format!("Login=admin&Password={}&csrf={token}", encode(PASSWORD));
    let r = post(site.port, "/index.php/user/login", &nonce, &form);
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
    // The layout names who is logged in, and counts what is there: the
    // administrator, online, on a site that has nodes.
    assert!(
        page.contains("Logged in as admin") && !page.contains("anonymous"),
        "{page}"
    );
    assert!(
        page.contains(" 1 users online") && !page.contains(">0 nodes"),
        "{page}"
    );
    let r = post(
        site.port,
        "/user/logout",
        &session,
        &format!("csrf={}", field(&page, "csrf")),
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
    let (nonce, token) = login_form(site.port);
    let r = post(
        site.port,
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
        let r = post(site.port, "/user/login", cookies, &form);
        assert_eq!(r.status, 403, "{form}");
        assert!(body(&r).contains("did not come from this site"), "{form}");
    }
    // An anonymous logout, and a dashboard without a session.
    assert_eq!(post(site.port, "/user/logout", "", "csrf=x").status, 403);
    assert_eq!(get(site.port, "/content/dashboard", &[]).status, 403);
    // A body past the form's bound.
    let big = "a".repeat(10_000);
    assert_eq!(post(site.port, "/user/login", &nonce, &big).status, 413);
}

#[test]
fn without_a_password_nobody_logs_in() {
    let site = Site::start(&[]);
    let (nonce, token) = login_form(site.port);
    let r = post(
        site.port,
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
