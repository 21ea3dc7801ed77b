//! Administrators' sessions: a random token in an HttpOnly, SameSite=Strict
//! cookie names a session the server keeps, with the CSRF token every form
//! of that session carries. A session ends when its administrator logs
//! out, after [`IDLE`] without a request, or [`LIFETIME`] after login,
//! whichever comes first. The clock is given, so expiry is tested without
//! waiting.

use super::token::random_hex;
use crate::secret::same;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// A session unused this long has ended.
pub const IDLE: Duration = Duration::from_secs(30 * 60);
/// A session this old has ended, used or not.
pub const LIFETIME: Duration = Duration::from_secs(8 * 60 * 60);
/// Sessions kept at most; the oldest goes first. Only administrators have
/// one, so this is never reached in use.
const MAX_SESSIONS: usize = 64;

/// One administrator's session.
#[derive(Debug, Clone)]
pub struct Session {
    /// The token its forms carry.
    pub csrf: String,
    started: Instant,
    used: Instant,
}

/// Why a request has no session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoSession {
    /// It carries no session cookie, or one the server never gave.
    Unknown,
    /// Its session has ended by time.
    Expired,
}

/// The sessions, by their cookie's token.
#[derive(Default)]
pub struct Sessions {
    by_token: HashMap<String, Session>,
}

impl Sessions {
    /// A new session at `now`: its cookie token and the session.
    pub fn start(&mut self, now: Instant) -> Result<(String, Session), String> {
        self.by_token.retain(|_, s| live(s, now));
        if self.by_token.len() >= MAX_SESSIONS
            && let Some(oldest) = self
                .by_token
                .iter()
                .min_by_key(|(_, s)| s.started)
                .map(|(t, _)| t.clone())
        {
            self.by_token.remove(&oldest);
        }
        let token = random_hex(32)?;
        let session = Session {
            csrf: random_hex(32)?,
            started: now,
            used: now,
        };
        self.by_token.insert(token.clone(), session.clone());
        Ok((token, session))
    }

    /// The session of cookie token `token` at `now`, marked used.
    pub fn get(&mut self, token: &str, now: Instant) -> Result<Session, NoSession> {
        let found = self
            .by_token
            .iter()
            .find(|(t, _)| same(t, token))
            .map(|(t, _)| t.clone());
        let Some(key) = found else {
            return Err(NoSession::Unknown);
        };
        let Some(session) = self.by_token.get_mut(&key) else {
            return Err(NoSession::Unknown);
        };
        if !live(session, now) {
            self.by_token.remove(&key);
            return Err(NoSession::Expired);
        }
        session.used = now;
        Ok(session.clone())
    }

    /// How many sessions are live at `now`: the users online.
    pub fn live(&self, now: Instant) -> usize {
        self.by_token.values().filter(|s| live(s, now)).count()
    }

    /// Ends the session of `token`.
    pub fn end(&mut self, token: &str) {
        self.by_token.retain(|t, _| !same(t, token));
    }
}

fn live(s: &Session, now: Instant) -> bool {
    now.saturating_duration_since(s.used) < IDLE
        && now.saturating_duration_since(s.started) < LIFETIME
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_ends_on_logout_when_idle_and_when_old() {
        let mut s = Sessions::default();
        let t0 = Instant::now();
        let (token, session) = s.start(t0).unwrap();
        assert_eq!(s.get(&token, t0).unwrap().csrf, session.csrf);
        assert_eq!(s.get("not a token", t0).err(), Some(NoSession::Unknown));
        // Used every 20 minutes, it lives until its lifetime is over.
        let mut now = t0;
        while now + Duration::from_secs(20 * 60) < t0 + LIFETIME {
            now += Duration::from_secs(20 * 60);
            assert!(s.get(&token, now).is_ok());
        }
        assert_eq!(s.get(&token, t0 + LIFETIME).err(), Some(NoSession::Expired));
        assert_eq!(s.get(&token, t0 + LIFETIME).err(), Some(NoSession::Unknown));
        // Idle for IDLE: ended.
        let (token, _) = s.start(t0).unwrap();
        assert_eq!(s.get(&token, t0 + IDLE).err(), Some(NoSession::Expired));
        let (token, _) = s.start(t0).unwrap();
        s.end(&token);
        assert_eq!(s.get(&token, t0).err(), Some(NoSession::Unknown));
    }

    #[test]
    fn sessions_are_bounded_and_each_has_its_own_tokens() {
        let mut s = Sessions::default();
        let t0 = Instant::now();
        let (first, a) = s.start(t0).unwrap();
        for i in 0..MAX_SESSIONS as u64 {
            let (_, b) = s.start(t0 + Duration::from_millis(i + 1)).unwrap();
            assert_ne!(a.csrf, b.csrf);
        }
        assert_eq!(s.by_token.len(), MAX_SESSIONS);
        assert_eq!(s.get(&first, t0).err(), Some(NoSession::Unknown));
    }
}
