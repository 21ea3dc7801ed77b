use super::*;
use std::time::Duration;

const PASSWORD: &str = "a long enough password";

fn admin() -> Admin {
    Admin::new(Some(Password::of(PASSWORD).unwrap())).unwrap()
}

fn asked(method: &str, path: &str) -> Asked {
    Asked {
        method: method.into(),
        path: path.into(),
        peer: Some("10.1.2.3".parse().unwrap()),
        ..Asked::default()
    }
}

/// The cookies a reply sets, as a browser would send them back (a
/// removed one dropped).
fn jar(reply: &Reply, into: &mut HashMap<String, String>) {
    for c in &reply.set_cookies {
        let (pair, _) = c.split_once(';').unwrap();
        let (name, value) = pair.split_once('=').unwrap();
        if c.contains("Max-Age=0") {
            into.remove(name);
        } else {
            into.insert(name.into(), value.into());
        }
    }
}

/// The login form's token and the cookies of a fresh GET of it.
fn login_form(a: &Admin, now: Instant) -> (String, HashMap<String, String>) {
    let reply = a.answer(&asked("GET", LOGIN), now).unwrap();
    assert_eq!(reply.status, 200);
    let View::Login { csrf, .. } = &reply.view else {
        panic!("{reply:?}");
    };
    let mut cookies = HashMap::new();
    jar(&reply, &mut cookies);
    (csrf.clone(), cookies)
}

fn post_login(
    a: &Admin,
    now: Instant,
    csrf: &str,
    cookies: &HashMap<String, String>,
    password: &str,
) -> Reply {
    let mut r = asked("POST", LOGIN);
    r.cookies = cookies.clone();
    r.form = [("Login", USER), ("Password", password), ("csrf", csrf)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    a.answer(&r, now).unwrap()
}

fn message(reply: &Reply) -> &str {
    match &reply.view {
        View::Login { message, .. } | View::Dashboard { message, .. } => message,
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_administrator_logs_in_sees_the_dashboard_and_logs_out() {
    let a = admin();
    let t0 = Instant::now();
    let (csrf, mut cookies) = login_form(&a, t0);
    let reply = post_login(&a, t0, &csrf, &cookies, PASSWORD);
    assert_eq!(
        (reply.status, &reply.view),
        (303, &View::SeeOther(DASHBOARD))
    );
    let session = reply
        .set_cookies
        .iter()
        .find(|c| c.starts_with("ys_session="))
        .unwrap();
    for flag in ["HttpOnly", "SameSite=Strict", "Path=/;"] {
        assert!(session.contains(flag), "{session}");
    }
    assert!(!session.contains("Secure"), "{session}");
    jar(&reply, &mut cookies);
    let mut get = asked("GET", DASHBOARD);
    get.cookies = cookies.clone();
    let reply = a.answer(&get, t0).unwrap();
    let View::Dashboard { csrf, .. } = reply.view.clone() else {
        panic!("{reply:?}");
    };
    assert_eq!(reply.status, 200);
    // Logging out needs the session's token.
    let mut out = asked("POST", LOGOUT);
    out.cookies = cookies.clone();
    assert_eq!(a.answer(&out, t0).unwrap().status, 403);
    out.form.insert("csrf".into(), csrf);
    let reply = a.answer(&out, t0).unwrap();
    assert_eq!((reply.status, &reply.view), (303, &View::SeeOther(LOGIN)));
    // The old cookie no longer opens the dashboard.
    let reply = a.answer(&get, t0).unwrap();
    assert_eq!(reply.status, 403);
    assert!(message(&reply).contains("Log in"), "{reply:?}");
}

#[test]
fn a_wrong_password_a_missing_or_stale_token_and_an_expired_session_are_refused() {
    let a = admin();
    let t0 = Instant::now();
    let (csrf, cookies) = login_form(&a, t0);
    let wrong = post_login(&a, t0, &csrf, &cookies, "a long enough passwore");
    assert_eq!(wrong.status, 403);
    assert_eq!(message(&wrong), "Wrong user name or password.");
    assert!(
        wrong
            .set_cookies
            .iter()
            .all(|c| !c.starts_with("ys_session"))
    );
    // No token, another form's token, a form past its lifetime.
    let (other, _) = login_form(&a, t0);
    for (token, at) in [
        ("", t0),
        (other.as_str(), t0),
        (csrf.as_str(), t0 + FORM_LIFETIME),
    ] {
        let reply = post_login(&a, at, token, &cookies, PASSWORD);
        assert_eq!(reply.status, 403, "{token}");
        assert!(
            message(&reply).contains("expired or did not come"),
            "{reply:?}"
        );
    }
    // A session idle past its time.
    let reply = post_login(&a, t0, &csrf, &cookies, PASSWORD);
    let mut cookies = cookies.clone();
    jar(&reply, &mut cookies);
    let mut get = asked("GET", DASHBOARD);
    get.cookies = cookies;
    let reply = a
        .answer(&get, t0 + session::IDLE + Duration::from_secs(1))
        .unwrap();
    assert_eq!(reply.status, 403);
    assert_eq!(message(&reply), "Your session has expired: log in again.");
}

#[test]
fn failed_logins_are_limited_per_address() {
    let a = admin();
    let t0 = Instant::now();
    let (csrf, cookies) = login_form(&a, t0);
    for _ in 0..throttle::MAX_FAILURES {
        assert_eq!(
            post_login(&a, t0, &csrf, &cookies, "not the password!").status,
            403
        );
    }
    // Even the right password waits now.
    let reply = post_login(&a, t0, &csrf, &cookies, PASSWORD);
    assert_eq!(reply.status, 429);
    assert_eq!(reply.retry_after, Some(throttle::WINDOW.as_secs()));
    assert!(
        message(&reply).contains("try again in 15 minutes"),
        "{reply:?}"
    );
    // Another address is not held back.
    let mut r = asked("POST", LOGIN);
    r.peer = Some("10.9.9.9".parse().unwrap());
    r.cookies = cookies.clone();
    r.form = [
        ("Login", USER),
        ("Password", PASSWORD),
        ("csrf", csrf.as_str()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(a.answer(&r, t0).unwrap().status, 303);
}

#[test]
fn without_a_password_nobody_logs_in() {
    let a = Admin::new(None).unwrap();
    let t0 = Instant::now();
    let (csrf, cookies) = login_form(&a, t0);
    for password in ["", "anything at all", PASSWORD] {
        let reply = post_login(&a, t0, &csrf, &cookies, password);
        assert_eq!(reply.status, 403);
        assert!(message(&reply).contains("without an administrators' password"));
    }
}

#[test]
fn cookies_are_secure_over_tls_and_other_methods_are_not_allowed() {
    let a = admin();
    let mut get = asked("GET", LOGIN);
    get.https = true;
    let reply = a.answer(&get, Instant::now()).unwrap();
    assert!(
        reply.set_cookies.iter().all(|c| c.ends_with("; Secure")),
        "{reply:?}"
    );
    assert_eq!(
        a.answer(&asked("GET", LOGOUT), Instant::now())
            .unwrap()
            .status,
        405
    );
    assert_eq!(
        a.answer(&asked("PUT", LOGIN), Instant::now())
            .unwrap()
            .status,
        405
    );
    assert_eq!(
        a.answer(&asked("POST", DASHBOARD), Instant::now())
            .unwrap()
            .status,
        405
    );
}

#[test]
fn a_cookie_header_is_read_by_name() {
    let c = cookies("a=1; ys_session=abc ; b ; ys_session=later; =x");
    assert_eq!(c.get("ys_session").map(String::as_str), Some("abc"));
    assert_eq!(c.get("a").map(String::as_str), Some("1"));
    assert!(!c.contains_key("b"));
}

#[test]
fn the_paths_are_known_with_or_without_the_front_controller() {
    assert_eq!(owned("/user/login"), Some(LOGIN));
    assert_eq!(owned("/index.php/user/logout"), Some(LOGOUT));
    assert_eq!(owned("/index.php/content/dashboard"), Some(DASHBOARD));
    for other in [
        "/",
        "/user/login/",
        "/index.php",
        "/x/user/login",
        "/user/loginx",
    ] {
        assert_eq!(owned(other), None, "{other}");
    }
}

#[test]
fn logins_sent_at_once_never_make_more_guesses_than_the_limit() {
    let a = admin();
    let t0 = Instant::now();
    let (csrf, cookies) = login_form(&a, t0);
    let replies: Vec<Reply> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..12)
            .map(|_| s.spawn(|| post_login(&a, t0, &csrf, &cookies, "not the password!")))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let guesses = replies
        .iter()
        .filter(|r| message(r) == "Wrong user name or password.")
        .count();
    assert!(guesses <= throttle::MAX_FAILURES, "{guesses}");
    assert!(replies.iter().all(|r| [403, 429, 503].contains(&r.status)));
    assert_eq!(
        replies.iter().filter(|r| r.status == 429).count(),
        12 - throttle::MAX_FAILURES
    );
}
