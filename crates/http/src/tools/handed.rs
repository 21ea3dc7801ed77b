//! What an external tool is handed for one page, and what it is refused.
//!
//! A tool's command line is readable by every local user
//! (`/proc/PID/cmdline`), so credentials never go on it: a tool that can
//! read them from a file of mode 0600 (wrk, from a Lua script) gets them
//! there, and a tool that takes headers only as arguments (ab, oha, h2load)
//! is refused any credential, by name.
//!
//! A tool would also resolve a name itself, perhaps to another address than
//! the one the safety caps judged; so it is handed the checked address as
//! the URL's host, and the name as the `Host` header. TLS needs the name
//! (for SNI and the certificate), so a tool is refused an `https` page on a
//! name unless `--force`.

use crate::address;
use crate::error::Error;
use crate::job::{Encoding, Job, Tool};
use crate::schedule::{Schedule, Visit};
use crate::url::{self, Scheme, Url};
use base64::Engine;
use std::net::IpAddr;

/// What one run of a tool is given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Handed {
    /// The URL fetched: the checked address in place of a name.
    pub(crate) url: String,
    /// `Name: value` lines safe on a command line, `Host` among them when
    /// the URL carries an address for a name.
    pub(crate) headers: Vec<String>,
    /// Credentials (name, value): never on a command line.
    pub(crate) secrets: Vec<(String, String)>,
}

/// Refuses what a tool cannot be given safely: credentials to a tool that
/// takes them only as arguments, an `https` page on a name (unless
/// `--force`). Called before any tool runs.
pub(crate) fn check(tool: Tool, schedule: &Schedule, job: &Job) -> Result<(), Error> {
    let name = tool.as_str();
    if !matches!(tool, Tool::Wrk | Tool::K6)
        && let Some(visit) = schedule
            .visits
            .iter()
            .find(|v| !hand(job, v, None).secrets.is_empty())
    {
        return Err(Error::Refused(format!(
            "--tool={name}: {name} takes headers only on its command line, which every local user \
             can read, so it is given no credentials ({} for {}); use the built-in client or --tool=wrk",
            credential_names(job, visit),
            visit.url
        )));
    }
    if let Some(visit) = schedule
        .visits
        .iter()
        .find(|v| !url::query_secrets(&v.url.path).is_empty())
    {
        return Err(Error::Refused(format!(
            "--tool={name}: {} carries a credential in its query ({}), and {name} takes the URL \
             on its command line, which every local user can read; use the built-in client",
            visit.url,
            url::query_secrets(&visit.url.path).join(", ")
        )));
    }
    if !job.force
        && let Some(visit) = schedule
            .visits
            .iter()
            .find(|v| v.url.scheme == Scheme::Https && address::literal(&v.url.host).is_none())
    {
        return Err(Error::Refused(format!(
            "--tool={name}: {} is https on a name, which {name} would resolve itself (TLS needs \
             the name), so the address the caps judged could differ; give the address, or --force",
            visit.url
        )));
    }
    Ok(())
}

/// What `visit` is handed; `address` replaces a name in the URL (the host
/// as written stays when there is none).
pub(crate) fn hand(job: &Job, visit: &Visit, address: Option<IpAddr>) -> Handed {
    let mut headers = Vec::new();
    let mut secrets = Vec::new();
    match job.encoding {
        Encoding::Gzip => headers.push("Accept-Encoding: gzip".to_string()),
        Encoding::Br => headers.push("Accept-Encoding: br".to_string()),
        Encoding::None => {}
    }
    if let Some(auth) = job.auth.as_ref().or(visit.url.userinfo.as_ref()) {
        let encoded = base64::engine::general_purpose::STANDARD.encode(auth);
        secrets.push(("Authorization".to_string(), format!("Basic {encoded}")));
    }
    if let Some(cookie) = &job.cookie {
        secrets.push(("Cookie".to_string(), cookie.clone()));
    }
    for (name, value) in &job.headers {
        if job.is_secret(name) {
            secrets.push((name.clone(), value.clone()));
        } else {
            headers.push(format!("{name}: {value}"));
        }
    }
    let url = &visit.url;
    let named = address::literal(&url.host).is_none();
    let host = match address {
        Some(ip) if named && url.scheme == Scheme::Http => {
            let given = job
                .headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("host"));
            if !given {
                headers.push(format!("Host: {}", url.authority));
            }
            match ip {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            }
        }
        _ => host_as_written(url),
    };
    Handed {
        url: format!("{}://{host}:{}{}", url.scheme.as_str(), url.port, url.path),
        headers,
        secrets,
    }
}

fn host_as_written(url: &Url) -> String {
    match address::literal(&url.host) {
        Some(IpAddr::V6(v6)) => format!("[{v6}]"),
        _ => url.host.clone(),
    }
}

/// The credentials a visit carries, by name, for a refusal.
fn credential_names(job: &Job, visit: &Visit) -> String {
    let names: Vec<String> = hand(job, visit, None)
        .secrets
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The job these options of `yardstick http` describe (those the tests
    /// use), its schedule resolved to loopback.
    fn schedule_of(a: &[&str]) -> (Schedule, Job) {
        let mut o = Job::default();
        for arg in a {
            let (flag, value) = arg.split_once('=').unwrap_or((arg, ""));
            let header = || {
                let (n, v) = value.split_once(':').unwrap();
                (n.trim().to_string(), v.trim().to_string())
            };
            match flag {
                "--url" => o.urls.push(value.into()),
                "--auth" => o.auth = Some(value.into()),
                "--cookie" => o.cookie = Some(value.into()),
                "--header" => o.headers.push(header()),
                "--secret-header" => {
                    o.secret_headers.push(header().0);
                    o.headers.push(header());
                }
                "--encoding" if value == "none" => o.encoding = Encoding::None,
                "--force" => o.force = true,
                other => panic!("not understood here: {other}"),
            }
        }
        let mut schedule = Schedule::new(&o, o.urls.clone()).unwrap();
        schedule.resolve(&o.resolve, &|_, _| vec!["127.0.0.1".parse().unwrap()]);
        (schedule, o)
    }

    #[test]
    fn credentials_are_kept_apart_from_the_command_line() {
        let (schedule, o) = schedule_of(&[
            "--url=http://u:p@localhost:8080/x?y=1",
            "--cookie=a=1",
            "--header=X-A: b",
            "--header=X-Api-Key: k",
            "--secret-header=X-Deploy: d",
            "--encoding=none",
        ]);
        let h = hand(
            &o,
            &schedule.visits[0],
            schedule.servers[0].addresses.first(),
        );
        assert_eq!(h.url, "http://127.0.0.1:8080/x?y=1");
        assert_eq!(h.headers, ["X-A: b", "Host: localhost:8080"]);
        let names: Vec<&str> = h.secrets.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Authorization", "Cookie", "X-Api-Key", "X-Deploy"]);
        assert_eq!(h.secrets[0].1, "Basic dTpw");
    }

    #[test]
    fn literals_stay_and_a_given_host_header_wins() {
        let (schedule, o) = schedule_of(&["--url=http://[::1]:81/", "--header=Host: other"]);
        let h = hand(
            &o,
            &schedule.visits[0],
            schedule.servers[0].addresses.first(),
        );
        assert_eq!(h.url, "http://[::1]:81/");
        assert!(!h.headers.iter().any(|l| l.starts_with("Host: [")), "{h:?}");
        let (schedule, o) = schedule_of(&["--url=http://example.test/", "--header=host: mine"]);
        let h = hand(&o, &schedule.visits[0], Some("127.0.0.1".parse().unwrap()));
        assert_eq!(h.url, "http://127.0.0.1:80/");
        assert_eq!(
            h.headers
                .iter()
                .filter(|l| l.to_lowercase().starts_with("host:"))
                .count(),
            1
        );
    }

    #[test]
    fn tools_that_take_headers_only_as_arguments_get_no_credentials() {
        for (args, what) in [
            (
                &["--url=http://127.0.0.1:1/", "--auth=u:p"][..],
                "Authorization",
            ),
            (&["--url=http://u:p@127.0.0.1:1/"][..], "Authorization"),
            (&["--url=http://127.0.0.1:1/", "--cookie=s=1"][..], "Cookie"),
            (
                &["--url=http://127.0.0.1:1/", "--header=X-Auth-Token: t"][..],
                "X-Auth-Token",
            ),
            (
                &["--url=http://127.0.0.1:1/", "--secret-header=X-D: t"][..],
                "X-D",
            ),
        ] {
            let (schedule, o) = schedule_of(args);
            for tool in [Tool::Ab, Tool::Oha, Tool::H2load] {
                let e = check(tool, &schedule, &o).unwrap_err();
                let m = e.to_string();
                assert_eq!(e.exit_code(), 2);
                assert!(
                    m.starts_with(&format!("REFUSED: --tool={}", tool.as_str())),
                    "{m}"
                );
                assert!(
                    m.contains(what) && !m.contains("u:p") && !m.contains("s=1"),
                    "{m}"
                );
            }
            assert!(check(Tool::Wrk, &schedule, &o).is_ok());
        }
        let (schedule, o) = schedule_of(&["--url=http://127.0.0.1:1/", "--header=X-Trace: t"]);
        assert!(check(Tool::Ab, &schedule, &o).is_ok());
    }

    #[test]
    fn no_tool_is_handed_a_credential_in_a_query() {
        let (schedule, o) = schedule_of(&["--url=http://127.0.0.1:1/p?x=1&access_token=SEKRIT"]);
        for tool in [Tool::Ab, Tool::Oha, Tool::H2load, Tool::Wrk] {
            let m = check(tool, &schedule, &o).unwrap_err().to_string();
            assert!(m.contains("access_token") && !m.contains("SEKRIT"), "{m}");
        }
    }

    #[test]
    fn https_on_a_name_needs_force() {
        let (schedule, o) = schedule_of(&["--url=https://example.test/"]);
        let e = check(Tool::H2load, &schedule, &o).unwrap_err().to_string();
        assert!(
            e.contains("https on a name") && e.contains("--force"),
            "{e}"
        );
        let (schedule, o) = schedule_of(&["--url=https://example.test/", "--force"]);
        assert!(check(Tool::H2load, &schedule, &o).is_ok());
        let h = hand(
            &o,
            &schedule.visits[0],
            schedule.servers[0].addresses.first(),
        );
        assert_eq!(h.url, "https://example.test:443/");
        let (schedule, o) = schedule_of(&["--url=https://127.0.0.1/"]);
        assert!(check(Tool::H2load, &schedule, &o).is_ok());
    }
}
