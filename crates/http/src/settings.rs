//! The run's options as saved in its settings (`HttpSettings`), and the
//! rule that keeps secrets out of them: passwords, cookies and the values
//! of secret headers are saved as `(hidden)`.

use super::job::{Job, Tool};
use super::schedule::Schedule;
use super::tools;
use crate::document::settings::{HttpSettings, PagesFromSite};
use std::collections::BTreeMap;

/// How secrets are saved and shown.
pub(crate) const HIDDEN: &str = "(hidden)";

/// The settings of `job`, measured by `schedule`, whose pages were found
/// from the site as `from_site` says, when they were.
pub(crate) fn of(job: &Job, schedule: &Schedule, from_site: Option<PagesFromSite>) -> HttpSettings {
    let servers: Vec<String> = schedule.servers.iter().map(|s| s.name.clone()).collect();
    let pages = schedule
        .groups
        .iter()
        .map(|g| schedule.visits[g[0]].page.clone())
        .collect();
    let compare =
        (!job.compare.is_empty()).then(|| servers[..job.compare.len().min(servers.len())].to_vec());
    HttpSettings {
        servers,
        pages,
        pages_from_site: from_site,
        compare,
        requests: job.requests,
        warmup: job.warmup,
        warmup_effective: schedule.warmup,
        concurrency: job.concurrency,
        threads: (job.tool == Tool::Builtin)
            .then(|| job.client_threads(schedule.concurrency) as u64),
        rounds: job.rounds,
        cold: job.cold,
        cold_clear: job.cold_clear.is_some(),
        cache_header: job.cache_header.clone(),
        keepalive: job.keepalive,
        http: job.protocol.as_str().to_string(),
        encoding: job.encoding.as_str().to_string(),
        timeout: job.timeout.as_secs_f64(),
        headers: shown_headers(job),
        cookie: job.cookie.as_ref().map(|_| HIDDEN.to_string()),
        auth: job.auth.as_ref().map(|_| HIDDEN.to_string()),
        resolve: job
            .resolve
            .iter()
            .map(|r| format!("{}:{}:{}", r.host, r.port, r.address))
            .collect(),
        insecure: job.insecure,
        tool: job.tool.as_str().to_string(),
        duration: match job.tool {
            Tool::Wrk => Some(job.duration_seconds()),
            Tool::K6 if job.rate.is_some() => Some(job.duration_seconds()),
            Tool::K6 | Tool::Builtin => job.duration,
            _ => None,
        },
        rate: job.rate,
        segments: (job.tool == Tool::K6).then_some(job.segments),
        force: job.force,
        threshold: job.threshold,
        min_delta: job.min_delta,
        max_failures: job.max_failures,
        tools_found: tools_found(),
        other: BTreeMap::new(),
    }
}

/// `Name: value` of every extra header, the value hidden when secret.
fn shown_headers(job: &Job) -> Vec<String> {
    job.headers
        .iter()
        .map(|(name, value)| {
            if job.is_secret(name) {
                format!("{name}: {HIDDEN}")
            } else {
                format!("{name}: {value}")
            }
        })
        .collect()
}

/// The external tools installed on this machine.
fn tools_found() -> Vec<String> {
    Tool::EXTERNAL
        .iter()
        .filter(|t| tools::installed(t.as_str()).is_some())
        .map(|t| t.as_str().to_string())
        .collect()
}

/// The words that mark a header or query parameter as a credential,
/// wherever they appear in its name, in any case: `X-Api-Key`,
/// `access_token`, `PHPSESSID`, `X-Session`, `sig`, `pwd`. Hiding a
/// harmless value costs a `(hidden)` in a saved run; showing a secret one
/// costs the secret. docs/cli.md lists them.
pub(crate) const SECRET_WORDS: &[&str] = &[
    "key",
    "token",
    "secret",
    "auth",
    "pass",
    "pwd",
    "sig",
    "sess",
    "sid",
    "credential",
    "jwt",
    "bearer",
    "csrf",
    "xsrf",
    "nonce",
];

/// Headers whose values are credentials, by name: the ones HTTP defines
/// for them (`Cookie`, which also holds sessions), and any name holding
/// one of [`SECRET_WORDS`]. `--secret-header` marks any other.
pub(crate) fn is_secret_header(name: &str) -> bool {
    let name = name.trim().to_ascii_lowercase();
    [
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
    ]
    .contains(&name.as_str())
        || SECRET_WORDS.iter().any(|word| name.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::Resolve;

    fn headers(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn secrets_are_never_saved() {
        let o = Job {
            urls: vec!["http://user:pw1@localhost:1/".into()],
            auth: Some("me:pw2".into()),
            cookie: Some("session=pw3".into()),
            headers: headers(&[
                ("authorization", "Bearer pw4"),
                ("Cookie", "pw5"),
                ("X-Api-Key", "pw6"),
                ("x-auth-token", "pw7"),
                ("Set-Cookie", "pw8"),
                ("Client-SECRET", "pw9"),
                ("X-Deploy", "pw10"),
                ("X-Trace", "visible"),
            ]),
            secret_headers: vec!["X-Deploy".into()],
            ..Job::default()
        };
        let schedule = Schedule::new(&o, o.urls.clone()).unwrap();
        let text = serde_json::to_string(&of(&o, &schedule, None)).unwrap();
        for secret in [
            "pw1", "pw2", "pw3", "pw4", "pw5", "pw6", "pw7", "pw8", "pw9", "pw10",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(text.contains("X-Trace: visible"), "{text}");
        assert!(text.contains("(hidden)@localhost:1"), "{text}");
        assert!(text.contains("X-Deploy: (hidden)"), "{text}");
    }

    fn saved(job: &Job) -> serde_json::Map<String, serde_json::Value> {
        let schedule = Schedule::new(job, job.urls.clone()).unwrap();
        match serde_json::to_value(of(job, &schedule, None)).unwrap() {
            serde_json::Value::Object(fields) => fields,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn what_was_not_given_is_not_saved_and_the_rest_is() {
        let plain = saved(&Job {
            urls: vec!["http://127.0.0.1:1/a".into()],
            ..Job::default()
        });
        let mut keys: Vec<&str> = plain.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "cache_header",
                "cold",
                "concurrency",
                "encoding",
                "force",
                "http",
                "insecure",
                "keepalive",
                "pages",
                "requests",
                "rounds",
                "servers",
                "threads",
                "timeout",
                "tool",
                "tools_found",
                "warmup",
                "warmup_effective",
            ]
        );
        assert_eq!(plain["http"], "negotiated");
        assert_eq!(plain["timeout"], 30.0);
        let full = saved(&Job {
            compare: vec!["http://127.0.0.1:1".into(), "http://127.0.0.1:2".into()],
            urls: vec!["/a".into()],
            headers: headers(&[("X-A", "b")]),
            resolve: vec![Resolve {
                host: "h".into(),
                port: 80,
                address: "127.0.0.1".parse().unwrap(),
            }],
            cookie: Some("c".into()),
            auth: Some("u:p".into()),
            tool: Tool::Wrk,
            threshold: Some(20.0),
            min_delta: Some(3.0),
            ..Job::default()
        });
        assert_eq!(
            full["compare"],
            serde_json::json!(["http://127.0.0.1:1", "http://127.0.0.1:2"])
        );
        assert_eq!(full["headers"], serde_json::json!(["X-A: b"]));
        assert_eq!(full["resolve"], serde_json::json!(["h:80:127.0.0.1"]));
        assert_eq!(
            (&full["cookie"], &full["auth"]),
            (&HIDDEN.into(), &HIDDEN.into())
        );
        assert_eq!(
            (&full["duration"], &full["threshold"]),
            (&10.into(), &20.0.into())
        );
        assert_eq!(full["min_delta"], 3.0);
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
            "X-Session",
            "pwd",
            "sig",
            "session",
            "PHPSESSID",
            "X-Amz-Signature",
            "X-Hub-Signature-256",
            "sid",
            "id_jwt",
        ] {
            assert!(is_secret_header(name), "{name}");
        }
        for name in [
            "Accept-Encoding",
            "X-Trace",
            "Host",
            "User-Agent",
            "If-None-Match",
            "Accept-Language",
            "page",
            "q",
            "lang",
            "sort",
        ] {
            assert!(!is_secret_header(name), "{name}");
        }
    }
}
