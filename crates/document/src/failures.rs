//! The requests of a page that got no page, counted by kind, and whether
//! the server was overloaded.
//!
//! One failure count says little of a server under more load than it
//! takes: a refused connection (no room), a connection closed under a
//! request (dropped), a timeout (kept waiting) and an error page (answered,
//! badly) each tell something else. So a row counts them apart, and a row
//! whose failures pass the run's limit (`--max-failures`) is marked
//! overloaded: its times and req/s say what the server sustained for the
//! requests it did answer, and no comparison judges them as a speed.

use serde::{Deserialize, Serialize};

/// A page's failed requests by kind. Each request is counted once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Failures {
    /// No connection: refused, unreachable, or its TLS handshake failed.
    #[serde(skip_serializing_if = "is_zero")]
    pub connect: u64,
    /// The connection was reset or closed before the answer's end.
    #[serde(skip_serializing_if = "is_zero")]
    pub closed: u64,
    /// No answer within the timeout.
    #[serde(skip_serializing_if = "is_zero")]
    pub timeout: u64,
    /// An answer of status 400 or above.
    #[serde(skip_serializing_if = "is_zero")]
    pub http: u64,
    /// Anything else: an answer that is not HTTP, a body cut short.
    #[serde(skip_serializing_if = "is_zero")]
    pub other: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What failed: one of the counts of [`Failures`]. Every measurer (the
/// built-in client, each load tool's output, k6's) names its failures by
/// this one list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Counted as [`Failures::connect`].
    Connect,
    /// Counted as [`Failures::closed`].
    Closed,
    /// Counted as [`Failures::timeout`].
    Timeout,
    /// Counted as [`Failures::http`].
    Http,
    /// Counted as [`Failures::other`].
    Other,
}

impl Kind {
    /// Every kind, in the order a table shows them.
    pub const ALL: [Kind; 5] = [
        Kind::Connect,
        Kind::Closed,
        Kind::Timeout,
        Kind::Http,
        Kind::Other,
    ];

    /// Its name: the row's field, and the word the table uses.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Connect => "connect",
            Kind::Closed => "closed",
            Kind::Timeout => "timeout",
            Kind::Http => "http",
            Kind::Other => "other",
        }
    }
}

impl Failures {
    /// Every failed request.
    pub fn total(&self) -> u64 {
        Kind::ALL
            .iter()
            .fold(0u64, |sum, k| sum.saturating_add(self.get(*k)))
    }

    /// Failures of one kind.
    pub fn get(&self, kind: Kind) -> u64 {
        match kind {
            Kind::Connect => self.connect,
            Kind::Closed => self.closed,
            Kind::Timeout => self.timeout,
            Kind::Http => self.http,
            Kind::Other => self.other,
        }
    }

    /// Counts `n` more failures of `kind`.
    pub fn add(&mut self, kind: Kind, n: u64) {
        let count = match kind {
            Kind::Connect => &mut self.connect,
            Kind::Closed => &mut self.closed,
            Kind::Timeout => &mut self.timeout,
            Kind::Http => &mut self.http,
            Kind::Other => &mut self.other,
        };
        *count = count.saturating_add(n);
    }

    /// Each kind's name and its count, in the order a table shows them.
    pub fn kinds(&self) -> [(&'static str, u64); 5] {
        Kind::ALL.map(|k| (k.name(), self.get(k)))
    }
}

/// `failed` of `requests`, in percent; all of none (100) when no request
/// was made, since nothing was measured.
pub fn share(failed: u64, requests: u64) -> f64 {
    if requests == 0 {
        100.0
    } else {
        failed as f64 * 100.0 / requests as f64
    }
}

/// Whether `failed` of `requests` is more than `limit` percent: the rule
/// that marks a row overloaded and fails a run. A row that made no request
/// measured nothing, and is over any limit.
pub fn over_limit(failed: u64, requests: u64, limit: f64) -> bool {
    requests == 0 || share(failed, requests) > limit
}

impl std::fmt::Display for Failures {
    /// The kinds that happened, `closed 29000, timeout 64`, as the table
    /// and the verdict say them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let said: Vec<String> = self
            .kinds()
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        f.write_str(&said.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_add_up_and_only_counted_kinds_are_written() {
        let f = Failures {
            connect: 2,
            closed: 5,
            http: 1,
            ..Failures::default()
        };
        assert_eq!(f.total(), 8);
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(json, r#"{"connect":2,"closed":5,"http":1}"#);
        assert_eq!(serde_json::from_str::<Failures>(&json).unwrap(), f);
        assert_eq!(f.to_string(), "connect 2, closed 5, http 1");
    }

    #[test]
    fn the_limit_is_a_share_strictly_passed() {
        assert!(!over_limit(0, 100, 0.0));
        assert!(over_limit(1, 100, 0.0));
        assert!(!over_limit(10, 100, 10.0));
        assert!(over_limit(11, 100, 10.0));
        assert!(over_limit(0, 0, 100.0));
        assert_eq!((share(1, 4), share(0, 0)), (25.0, 100.0));
    }

    #[test]
    fn each_kind_is_counted_under_the_field_of_its_name() {
        for kind in Kind::ALL {
            let mut f = Failures::default();
            f.add(kind, 2);
            f.add(kind, u64::MAX);
            assert_eq!((f.get(kind), f.total()), (u64::MAX, u64::MAX));
            let json = serde_json::to_value(f).unwrap();
            assert_eq!(json, serde_json::json!({ kind.name(): u64::MAX }));
        }
    }
}
