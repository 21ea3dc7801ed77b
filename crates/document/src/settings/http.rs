//! The settings of an HTTP run: enough to repeat it and to read its table,
//! and never a secret (passwords, cookies and the values of secret headers
//! are saved as `(hidden)`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings of an HTTP run. Every field has a default, so that a run
/// saved before a field existed still reads.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default)]
pub struct HttpSettings {
    /// Every server, as given (credentials hidden).
    pub servers: Vec<String>,
    /// Every page, once, in order.
    pub pages: Vec<String>,
    /// How `pages` was found from the site, when no page was given: a
    /// baseline whose list differs measured other pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages_from_site: Option<PagesFromSite>,
    /// The servers of `--compare`, the reference first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<Vec<String>>,
    /// `--requests`: requests measured per page and server.
    pub requests: u64,
    /// `--warmup`: the warm-up requests asked for.
    pub warmup: u64,
    /// The warm-up made: one per connection at least.
    pub warmup_effective: u64,
    /// `--concurrency`: requests in flight at once.
    pub concurrency: u64,
    /// The built-in client's worker threads (`--threads`, or its rule):
    /// on a machine shared with the server they move its figures. Absent
    /// for the other tools, and in runs older than the option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<u64>,
    /// `--rounds`: how often the servers took turns.
    pub rounds: u64,
    /// `--cold`: whether every request asked for an uncached page.
    pub cold: bool,
    /// `--cold-clear`: whether every server's cache was cleared before the
    /// run, which then had no warm-up.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cold_clear: bool,
    /// `--cache-header`: the header read for a cache hit or miss.
    pub cache_header: String,
    /// On unless turned off, so a run that does not say kept its
    /// connections.
    #[serde(default = "on")]
    pub keepalive: bool,
    /// `negotiated`, `1.1` or `2`.
    pub http: String,
    /// `--encoding`: the content encoding asked for.
    pub encoding: String,
    /// Seconds.
    pub timeout: f64,
    /// `Name: value`, secret values hidden.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<String>,
    /// Only whether one was sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cookie: Option<String>,
    /// Only whether it was sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auth: Option<String>,
    /// `host:port:address`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resolve: Vec<String>,
    /// `--insecure`: whether certificates went unchecked.
    pub insecure: bool,
    /// The load tool: `builtin` or an external one.
    pub tool: String,
    /// Seconds of load per page and server, for a tool that ran for a
    /// time: wrk, and k6 under `--duration` or `--rate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<u64>,
    /// `--rate`: requests started per second, by k6 or the built-in
    /// client, whatever the server's pace (an open model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f64>,
    /// `--segments`: the k6 instances the load was split over, each its
    /// execution segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segments: Option<u64>,
    /// `--force`: whether a server off loopback was measured anyway.
    pub force: bool,
    /// `--threshold`, percent, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// `--min-delta`, milliseconds, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_delta: Option<f64>,
    /// The share of failed requests, in percent, above which the run
    /// failed (`--max-failures`; 0 for a run no baseline judged). Absent
    /// in older runs and imports, which no such cap judges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_failures: Option<f64>,
    /// The load tools installed, whether used or not.
    pub tools_found: Vec<String>,
    /// Keys this build does not know (a newer build's), kept as they were.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

/// The page list a run made from what the site publishes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default)]
pub struct PagesFromSite {
    /// The sitemap read.
    pub sitemap: String,
    /// `--pages`: the menu pages asked for.
    pub menu_pages: u64,
    /// The words the search page searched for; none when no search page
    /// was measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// Whether the login page was measured.
    pub login: bool,
    /// Keys this build does not know, kept as they were.
    #[serde(flatten)]
    pub other: BTreeMap<String, Value>,
}

fn on() -> bool {
    true
}
