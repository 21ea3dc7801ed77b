//! The administrators: a login with the password the site's owner set, a
//! session cookie, a CSRF token on every form, logging out, and failed
//! logins limited per address. Without a password the site has no
//! administrators, and its login form says so.
//!
//! - [`password`]: the password, kept as its Argon2 hash;
//! - [`token`]: random tokens, and the login form's signed token;
//! - [`session`]: sessions and their expiry;
//! - [`throttle`]: failed logins per address.
//!
//! [`Admin::answer`] decides a request to the administration's paths from
//! its method, path, cookies and form, and says what to show; `respond`
//! reads the request and renders the view through the kernel's engine.

pub mod password;
pub mod reply;
pub mod session;
pub mod throttle;
pub mod token;

use crate::secret::same;
use password::Password;
use session::{NoSession, Sessions};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use throttle::Throttle;
use token::{FORM_LIFETIME, FormKey, random_hex};

/// The login form, as the CMS has it.
pub const LOGIN: &str = "/user/login";
/// Where an administrator logs out (a POST).
pub const LOGOUT: &str = "/user/logout";
/// The administrators' dashboard, where a login leads.
pub const DASHBOARD: &str = "/content/dashboard";
/// Measure again (a POST from the dashboard): the speed card's pages
/// measured anew.
pub const MEASURE: &str = "/content/dashboard/measure";

/// The session cookie.
const SESSION_COOKIE: &str = "ys_session";
/// The login form's nonce cookie.
const FORM_COOKIE: &str = "ys_login";
/// The one administrator's user name.
pub const USER: &str = "admin";

/// The administration's path `path` names, with or without the front
/// controller the layouts' links carry (`/index.php/user/login`): answered
/// by [`Admin::answer`], never cached.
pub fn owned(path: &str) -> Option<&'static str> {
    let path = path.strip_prefix("/index.php").unwrap_or(path);
    [LOGIN, LOGOUT, DASHBOARD, MEASURE]
        .into_iter()
        .find(|p| *p == path)
}

/// A request to the administration, as far as it decides the answer.
#[derive(Debug, Clone, Default)]
pub struct Asked {
    /// `GET`, `POST`, ...
    pub method: String,
    pub path: String,
    /// The request's cookies, by name.
    pub cookies: HashMap<String, String>,
    /// The form's fields (a POST's body), by name.
    pub form: HashMap<String, String>,
    /// The peer's address (failed logins are counted by it).
    pub peer: Option<IpAddr>,
    /// Whether the visitor's connection is TLS (a proxy in front says
    /// `X-Forwarded-Proto: https`): the cookies are then `Secure`.
    pub https: bool,
}

/// What to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// The login form, with its token and a message (empty: none).
    Login { csrf: String, message: String },
    /// The dashboard, with its session's token and a message.
    Dashboard { csrf: String, message: String },
    /// A redirect.
    SeeOther(&'static str),
    /// A method the path does not take.
    NotAllowed(&'static str),
}

/// The answer: its status, what it shows, and the cookies it sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub view: View,
    pub set_cookies: Vec<String>,
    /// Seconds before another login may be tried (a 429's `Retry-After`).
    pub retry_after: Option<u64>,
    /// An administrator pressed Measure again, with the session's token:
    /// the caller starts the measurement and says how that went.
    pub measure: bool,
}

impl Reply {
    fn new(status: u16, view: View) -> Reply {
        Reply {
            status,
            view,
            set_cookies: Vec::new(),
            retry_after: None,
            measure: false,
        }
    }
}

/// The administration of one server process.
pub struct Admin {
    password: Option<Password>,
    key: FormKey,
    /// The clock login forms' expiries count from.
    started: Instant,
    state: Mutex<State>,
    /// Password checks running now.
    checking: AtomicUsize,
}

/// Password checks at a time.
const MAX_CHECKS: usize = 2;

/// One running password check, counted in `Admin::checking` while held.
struct Check<'a>(&'a AtomicUsize);

impl<'a> Check<'a> {
    fn take(count: &'a AtomicUsize) -> Option<Check<'a>> {
        let before = count.fetch_add(1, Ordering::SeqCst);
        let check = Check(count);
        (before < MAX_CHECKS).then_some(check)
    }
}

impl Drop for Check<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(Default)]
struct State {
    sessions: Sessions,
    throttle: Throttle,
}

impl Admin {
    /// The administration, with the owner's password or none.
    pub fn new(password: Option<Password>) -> Result<Admin, String> {
        Ok(Admin {
            password,
            key: FormKey::new()?,
            started: Instant::now(),
            state: Mutex::new(State::default()),
            checking: AtomicUsize::new(0),
        })
    }

    /// The answer to `asked` at `now`. An error is the server's own (no
    /// random bytes), a 500.
    pub fn answer(&self, asked: &Asked, now: Instant) -> Result<Reply, String> {
        match (asked.path.as_str(), asked.method.as_str()) {
            (LOGIN, "GET" | "HEAD") => self.login_page(asked, now),
            (LOGIN, "POST") => self.log_in(asked, now),
            (LOGOUT, "POST") => self.log_out(asked, now),
            (MEASURE, "POST") => self.measure(asked, now),
            (DASHBOARD, "GET" | "HEAD") => self.dashboard(asked, now),
            (LOGOUT | MEASURE, _) => Ok(Reply::new(405, View::NotAllowed("POST"))),
            (DASHBOARD, _) => Ok(Reply::new(405, View::NotAllowed("GET, HEAD"))),
            _ => Ok(Reply::new(405, View::NotAllowed("GET, HEAD, POST"))),
        }
    }

    /// How many administrators are logged in at `now`.
    pub fn online(&self, now: Instant) -> usize {
        self.state().sessions.live(now)
    }

    /// The session of the request, if it has a live one.
    pub fn session(&self, asked: &Asked, now: Instant) -> Result<session::Session, NoSession> {
        let token = asked
            .cookies
            .get(SESSION_COOKIE)
            .ok_or(NoSession::Unknown)?;
        self.state().sessions.get(token, now)
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while it was held leaves sessions and counts whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn login_page(&self, asked: &Asked, now: Instant) -> Result<Reply, String> {
        if self.session(asked, now).is_ok() {
            return Ok(Reply::new(303, View::SeeOther(DASHBOARD)));
        }
        let message = if self.password.is_none() { OFF } else { "" };
        self.form(asked, now, 200, message)
    }

    /// The login form at `status` with `message`, and its nonce cookie.
    fn form(
        &self,
        asked: &Asked,
        now: Instant,
        status: u16,
        message: &str,
    ) -> Result<Reply, String> {
        let nonce = random_hex(16)?;
        let expires = self.seconds(now) + FORM_LIFETIME.as_secs();
        let mut reply = Reply::new(
            status,
            View::Login {
                csrf: self.key.sign(&nonce, expires),
                message: message.to_string(),
            },
        );
        // Path=/: the form posts to the login as the layouts spell it,
        // `/index.php/user/login`.
        reply.set_cookies.push(cookie(
            FORM_COOKIE,
            &nonce,
            "/",
            FORM_LIFETIME.as_secs(),
            asked.https,
        ));
        Ok(reply)
    }

    fn log_in(&self, asked: &Asked, now: Instant) -> Result<Reply, String> {
        let Some(password) = &self.password else {
            return self.form(asked, now, 403, OFF);
        };
        let peer = asked.peer.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        let field = |name: &str| asked.form.get(name).map_or("", String::as_str);
        let nonce = asked.cookies.get(FORM_COOKIE).map_or("", String::as_str);
        {
            let mut state = self.state();
            if let Some(wait) = state.throttle.wait(peer, now) {
                drop(state);
                return self.too_many(asked, now, wait);
            }
            if !self.key.verify(nonce, field("csrf"), self.seconds(now)) {
                drop(state);
                return self.form(asked, now, 403, STALE_FORM);
            }
            // Counted as failed before the hash is checked, under the lock
            // that checked the wait: logins sent at once are that many
            // failures, never more guesses than the limit.
            state.throttle.failed(peer, now);
        }
        // Each check holds some 19 MiB for some milliseconds: a few at a
        // time, the others refused, so a flood cannot take the memory.
        let Some(_check) = Check::take(&self.checking) else {
            return self.form(asked, now, 503, BUSY);
        };
        // The password is checked whatever the name, so a wrong name takes
        // the time a wrong password does.
        let right = password.matches(field("Password")) & same(field("Login"), USER);
        if !right {
            return self.form(asked, now, 403, "Wrong user name or password.");
        }
        let mut state = self.state();
        state.throttle.succeeded(peer);
        let (token, _) = state.sessions.start(now)?;
        let mut reply = Reply::new(303, View::SeeOther(DASHBOARD));
        reply.set_cookies = vec![
            cookie(
                SESSION_COOKIE,
                &token,
                "/",
                session::LIFETIME.as_secs(),
                asked.https,
            ),
            cookie(FORM_COOKIE, "", "/", 0, asked.https),
        ];
        Ok(reply)
    }

    /// The session of a dashboard form's POST, whose token must be the
    /// session's: else the refusal to answer with.
    fn posted(
        &self,
        asked: &Asked,
        now: Instant,
    ) -> Result<session::Session, Result<Reply, String>> {
        let session = match self.session(asked, now) {
            Ok(s) => s,
            Err(why) => return Err(self.form(asked, now, 403, no_session(why))),
        };
        let given = asked.form.get("csrf").map_or("", String::as_str);
        if !same(given, &session.csrf) {
            return Err(Ok(Reply::new(
                403,
                View::Dashboard {
                    csrf: session.csrf,
                    message: STALE_FORM.to_string(),
                },
            )));
        }
        Ok(session)
    }

    fn measure(&self, asked: &Asked, now: Instant) -> Result<Reply, String> {
        let session = match self.posted(asked, now) {
            Ok(s) => s,
            Err(refusal) => return refusal,
        };
        let mut reply = Reply::new(
            200,
            View::Dashboard {
                csrf: session.csrf,
                message: String::new(),
            },
        );
        reply.measure = true;
        Ok(reply)
    }

    /// The login form, refused for `wait` more.
    fn too_many(&self, asked: &Asked, now: Instant, wait: Duration) -> Result<Reply, String> {
        let seconds = wait.as_secs().max(1);
        let message = format!(
            "Too many failed logins from your address: try again in {} minutes.",
            seconds.div_ceil(60)
        );
        let mut reply = self.form(asked, now, 429, &message)?;
        reply.retry_after = Some(seconds);
        Ok(reply)
    }

    fn log_out(&self, asked: &Asked, now: Instant) -> Result<Reply, String> {
        if let Err(refusal) = self.posted(asked, now) {
            return refusal;
        }
        if let Some(token) = asked.cookies.get(SESSION_COOKIE) {
            self.state().sessions.end(token);
        }
        let mut reply = Reply::new(303, View::SeeOther(LOGIN));
        reply
            .set_cookies
            .push(cookie(SESSION_COOKIE, "", "/", 0, asked.https));
        Ok(reply)
    }

    fn dashboard(&self, asked: &Asked, now: Instant) -> Result<Reply, String> {
        match self.session(asked, now) {
            Ok(s) => Ok(Reply::new(
                200,
                View::Dashboard {
                    csrf: s.csrf,
                    message: String::new(),
                },
            )),
            Err(why) => self.form(asked, now, 403, no_session(why)),
        }
    }

    /// Seconds on the process's own clock.
    fn seconds(&self, now: Instant) -> u64 {
        now.saturating_duration_since(self.started).as_secs()
    }
}

/// The login form's message when the site has no administrators.
const OFF: &str = "This site was started without an administrators' password \
                   (--admin-password-file): nobody can log in.";
/// The message of a login refused because others are being checked.
const BUSY: &str = "Other logins are being checked: send the form again in a moment.";
/// The message of a form whose token is missing, forged or expired.
const STALE_FORM: &str = "This form has expired or did not come from this site: \
                          send it again from this page.";

fn no_session(why: NoSession) -> &'static str {
    match why {
        NoSession::Unknown => "Log in to see the administration.",
        NoSession::Expired => "Your session has expired: log in again.",
    }
}

/// A `Set-Cookie` value: HttpOnly and SameSite=Strict always, Secure over
/// TLS; `max_age` 0 removes the cookie.
fn cookie(name: &str, value: &str, path: &str, max_age: u64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{name}={value}; Path={path}; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}")
}

/// The cookies of a `Cookie` header's value, by name (the first of a name
/// wins).
pub fn cookies(header: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for pair in header.split(';') {
        if let Some((name, value)) = pair.split_once('=') {
            out.entry(name.trim().to_string())
                .or_insert_with(|| value.trim().to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests;
