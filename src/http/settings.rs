//! The run's options as saved in its `settings`: enough to repeat the run
//! and to read its table, and never a secret (passwords, cookies and the
//! values of secret headers are saved as `(hidden)`).

use super::options::{Options, Protocol, Tool};
use super::plan::Plan;
use super::tools;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// How secrets are saved and shown.
pub const HIDDEN: &str = "(hidden)";

/// The settings block of an HTTP run.
pub fn of(o: &Options, plan: &Plan) -> BTreeMap<String, Value> {
    let mut s = BTreeMap::new();
    let mut put = |k: &str, v: Value| {
        s.insert(k.to_string(), v);
    };
    let servers: Vec<&str> = plan.servers.iter().map(|s| s.name.as_str()).collect();
    let pages: Vec<&str> = plan
        .groups
        .iter()
        .map(|g| plan.jobs[g[0]].page.as_str())
        .collect();
    put("servers", json!(servers));
    put("pages", json!(pages));
    if !o.compare.is_empty() {
        put(
            "compare",
            json!(servers[..o.compare.len().min(servers.len())]),
        );
    }
    put("requests", json!(o.requests));
    put("warmup", json!(o.warmup));
    put("warmup_effective", json!(plan.warmup));
    put("concurrency", json!(o.concurrency));
    put("rounds", json!(o.rounds));
    put("cold", json!(o.cold));
    put("cache_header", json!(o.cache_header));
    put("keepalive", json!(o.keepalive));
    put(
        "http",
        json!(match o.protocol {
            Protocol::Negotiated => "negotiated",
            Protocol::Http1 => "1.1",
            Protocol::Http2 => "2",
        }),
    );
    put("encoding", json!(o.encoding.as_str()));
    put("timeout", json!(o.timeout.as_secs_f64()));
    let headers: Vec<String> = o
        .headers
        .iter()
        .map(|(name, value)| {
            if o.is_secret(name) {
                format!("{name}: {HIDDEN}")
            } else {
                format!("{name}: {value}")
            }
        })
        .collect();
    if !headers.is_empty() {
        put("headers", json!(headers));
    }
    if o.cookie.is_some() {
        put("cookie", json!(HIDDEN));
    }
    if o.auth.is_some() {
        put("auth", json!(HIDDEN));
    }
    if !o.resolve.is_empty() {
        let r: Vec<String> = o
            .resolve
            .iter()
            .map(|r| format!("{}:{}:{}", r.host, r.port, r.address))
            .collect();
        put("resolve", json!(r));
    }
    put("insecure", json!(o.insecure));
    put("tool", json!(o.tool.as_str()));
    if o.tool == Tool::Wrk {
        put("duration", json!(o.duration));
    }
    put("force", json!(o.force));
    if let Some(t) = o.common.threshold {
        put("threshold", json!(t));
    }
    if let Some(d) = o.common.min_delta {
        put("min_delta", json!(d));
    }
    let found: Vec<&str> = Tool::EXTERNAL
        .iter()
        .filter(|t| tools::installed(t.as_str()).is_some())
        .map(|t| t.as_str())
        .collect();
    put("tools_found", json!(found));
    s
}

/// Headers whose values are credentials, by name: the ones HTTP defines
/// for them, and any name that says it holds a key, a token, a secret or
/// auth (`X-Api-Key`, `X-Auth-Token`, `Client-Secret`), case-insensitive.
/// Hiding a harmless header costs a `(hidden)` in a saved run; showing a
/// secret one costs the secret. `--secret-header` marks any other.
pub fn is_secret_header(name: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    [
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
    ]
    .contains(&name.as_str())
        || ["key", "token", "secret", "auth"]
            .iter()
            .any(|word| name.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::options::parse;

    #[test]
    fn secrets_are_never_saved() {
        let o = parse(
            [
                "--url=http://user:pw1@localhost:1/",
                "--auth=me:pw2",
                "--cookie=session=pw3",
                "--header=authorization: Bearer pw4",
                "--header=Cookie: pw5",
                "--header=X-Api-Key: pw6",
                "--header=x-auth-token: pw7",
                "--header=Set-Cookie: pw8",
                "--header=Client-SECRET: pw9",
                "--secret-header=X-Deploy: pw10",
                "--header=X-Trace: visible",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            None,
        )
        .unwrap();
        let plan = Plan::new(&o, o.urls.clone()).unwrap();
        let text = serde_json::to_string(&of(&o, &plan)).unwrap();
        for secret in [
            "pw1", "pw2", "pw3", "pw4", "pw5", "pw6", "pw7", "pw8", "pw9", "pw10",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(text.contains("X-Trace: visible"), "{text}");
        assert!(text.contains("(hidden)@localhost:1"), "{text}");
        assert!(text.contains("X-Deploy: (hidden)"), "{text}");
    }

    #[test]
    fn the_deny_list_reads_names_as_words_in_any_case() {
        for name in [
            "Authorization",
            "PROXY-AUTHORIZATION",
            "cookie",
            "Set-Cookie",
            "X-Api-Key",
            "X-Auth-Token",
            "x-csrftoken",
            "Client-Secret",
            "Keycloak-Session",
            "WWW-Authenticate",
        ] {
            assert!(is_secret_header(name), "{name}");
        }
        for name in [
            "Accept-Encoding",
            "X-Trace",
            "Host",
            "User-Agent",
            "If-None-Match",
        ] {
            assert!(!is_secret_header(name), "{name}");
        }
    }
}
