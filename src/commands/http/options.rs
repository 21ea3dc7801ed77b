//! The options of `yardstick http`, parsed from the arguments after `http`
//! into the shared ones (format, save, baseline, threshold, ..., defined in
//! [`common`] so every mode reads them alike) and the [`Job`] the
//! HTTP slice measures. Secrets may also come from the environment
//! (`YARDSTICK_AUTH`, `YARDSTICK_SECRET_HEADERS`), kept off the command
//! line that every local user can read.

use crate::commands::common::Common;
use crate::error::Error;
use crate::http::job::{Encoding, Job, Protocol, Resolve, Tool};
pub(super) use crate::http::job::{header, header_name};
use lexopt::Parser;

/// Everything `yardstick http` was asked to do: what to measure, and what
/// to do with the run (judge, print, save).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HttpOptions {
    /// The options every mode shares.
    pub(crate) common: Common,
    /// What to measure and how.
    pub job: Job,
    /// The first option given (as written) that picks pages found from the
    /// site: it contradicts `--url`, and the refusal names it.
    pub(super) seed_option: Option<String>,
}

impl HttpOptions {
    /// Notes an option that picks pages found from the site.
    pub(super) fn seed_given(&mut self, option: &str) {
        self.seed_option.get_or_insert_with(|| option.to_string());
    }
}

/// Parses the arguments after `http`; `env_auth` is `YARDSTICK_AUTH`, used
/// when `--auth` is not given.
pub fn parse(args: Vec<String>, env_auth: Option<String>) -> Result<HttpOptions, Error> {
    let mut o = HttpOptions::default();
    let mut parser = Parser::from_args(args);
    if let Some(flag) = super::cli::SPEC.next(&mut parser, &mut o)? {
        return Err(super::cli::SPEC.unexpected(&flag));
    }
    auth_from_env(&mut o.job, env_auth)?;
    o.job.threshold = o.common.threshold;
    o.job.min_delta = o.common.min_delta;
    check(&o)?;
    Ok(o)
}

/// A share in percent, 0 to 100 (`--max-failures`).
pub(super) fn share(text: &str, option: &str) -> Result<f64, Error> {
    match crate::commands::flags::non_negative(text, option)? {
        v if v > 100.0 => Err(Error::usage(format!(
            "{option}: must be at most 100 (percent)"
        ))),
        v => Ok(v),
    }
}

/// `YARDSTICK_AUTH`, when `--auth` was not given. Its value is not echoed.
fn auth_from_env(job: &mut Job, env_auth: Option<String>) -> Result<(), Error> {
    if job.auth.is_none()
        && let Some(value) = env_auth.filter(|v| !v.is_empty())
    {
        job.auth =
            Some(auth(&value).map_err(|_| Error::usage("YARDSTICK_AUTH: expected user:password"))?);
    }
    Ok(())
}

/// Refuses options that contradict each other or do not apply to HTTP.
fn check(o: &HttpOptions) -> Result<(), Error> {
    if o.job.compare.len() == 1 {
        return Err(Error::usage(
            "--compare: name at least two servers, separated by commas",
        ));
    }
    if let Some(option) = &o.seed_option {
        if !o.job.urls.is_empty() || o.job.urls_file.is_some() {
            return Err(Error::usage(format!(
                "{option} picks pages found from the site, but --url or --urls-file gives \
                 the pages: give one of them"
            )));
        }
        if o.job.base.is_none() && o.job.compare.is_empty() {
            return Err(Error::usage(format!(
                "{option} picks pages found from a site: name it with --base or --compare"
            )));
        }
    }
    if o.job.cold_clear.is_some() {
        if o.job.cold {
            return Err(Error::usage(
                "--cold-clear renders each page's first request from scratch, --cold every \
                 request: give one of them",
            ));
        }
        if o.job.tool != Tool::Builtin {
            return Err(Error::usage(format!(
                "--cold-clear: only the built-in client measures after a cleared cache, not \
                 --tool={}",
                o.job.tool.as_str()
            )));
        }
    }
    check_tool_only(o)?;
    if o.job.base.is_some() && !o.job.compare.is_empty() {
        return Err(Error::usage(
            "--base and --compare both name the servers: give one of them",
        ));
    }
    Ok(())
}

/// Refuses an option given to a tool that does not take it: it would be
/// dropped unsaid.
fn check_tool_only(o: &HttpOptions) -> Result<(), Error> {
    let tool = o.job.tool;
    if tool != Tool::K6 && o.job.segments > 1 {
        return Err(Error::usage(format!(
            "--segments works with --tool=k6 only, not --tool={}",
            tool.as_str()
        )));
    }
    if o.job.threads.is_some() && tool != Tool::Builtin {
        return Err(Error::usage(format!(
            "--threads sets the built-in client's threads; --tool={} runs its own",
            tool.as_str()
        )));
    }
    if o.job.rate.is_some() && !matches!(tool, Tool::Builtin | Tool::K6) {
        return Err(Error::usage(format!(
            "--rate works with the built-in client or --tool=k6, not --tool={}",
            tool.as_str()
        )));
    }
    // The other tools make a count of requests.
    if o.job.duration.is_some() && !matches!(tool, Tool::Builtin | Tool::Wrk | Tool::K6) {
        return Err(Error::usage(format!(
            "--duration works with the built-in client, --tool=wrk or --tool=k6, not --tool={}: \
             give --requests",
            tool.as_str()
        )));
    }
    Ok(())
}

/// Adds a header whose value is a secret (`source` names where it came
/// from, for messages).
pub(super) fn secret_header(job: &mut Job, text: &str, source: &str) -> Result<(), Error> {
    let (name, value) = header(text, source)?;
    job.secret_headers.push(name.clone());
    job.headers.push((name, value));
    Ok(())
}

/// The secret headers of `YARDSTICK_SECRET_HEADERS`, one `Name: value`
/// a line: secrets kept off yardstick's own command line.
pub(crate) fn secret_headers_from_env(job: &mut Job, text: Option<String>) -> Result<(), Error> {
    for line in text.iter().flat_map(|t| t.lines()) {
        if !line.trim().is_empty() {
            secret_header(job, line, "YARDSTICK_SECRET_HEADERS")?;
        }
    }
    Ok(())
}

pub(super) fn non_empty(v: &str, option: &str) -> Result<String, Error> {
    if v.trim().is_empty() {
        return Err(Error::usage(format!("{option}: the value is empty")));
    }
    Ok(v.trim().to_string())
}

pub(super) fn list(value: &str, option: &str) -> Result<Vec<String>, Error> {
    let items: Vec<String> = value.split(',').map(|s| s.trim().to_string()).collect();
    if items.iter().any(String::is_empty) {
        return Err(Error::usage(format!(
            "{option}: an empty item in `{value}`"
        )));
    }
    Ok(items)
}

pub(super) fn protocol(value: &str) -> Result<Protocol, Error> {
    match value {
        "1.1" | "1" => Ok(Protocol::Http1),
        "2" => Ok(Protocol::Http2),
        other => Err(Error::usage(format!("--http: `{other}` is not 1.1 or 2"))),
    }
}

pub(super) fn encoding(value: &str) -> Result<Encoding, Error> {
    match value {
        "gzip" => Ok(Encoding::Gzip),
        "br" => Ok(Encoding::Br),
        "none" => Ok(Encoding::None),
        other => Err(Error::usage(format!(
            "--encoding: `{other}` is not gzip, br or none"
        ))),
    }
}

pub(super) fn tool(value: &str) -> Result<Tool, Error> {
    std::iter::once(Tool::Builtin)
        .chain(Tool::EXTERNAL)
        .find(|t| t.as_str() == value)
        .ok_or_else(|| {
            Error::usage(format!(
                "--tool: `{value}` is not builtin, ab, wrk, oha, h2load or k6"
            ))
        })
}

/// `--rate`: requests started per second, a positive finite number.
pub(super) fn rate(value: &str) -> Result<f64, Error> {
    match value.trim().parse::<f64>() {
        Ok(r) if r.is_finite() && r >= Job::MIN_RATE => Ok(r),
        _ => Err(Error::usage(format!(
            "--rate: `{value}` is not a number of requests per second of at least {}",
            Job::MIN_RATE
        ))),
    }
}

pub(super) fn auth(value: &str) -> Result<String, Error> {
    match value.split_once(':') {
        Some((user, _)) if !user.is_empty() => Ok(value.to_string()),
        _ => Err(Error::usage("--auth: expected user:password")),
    }
}

/// `--resolve=host:port:address`, the address of IPv6 in brackets or not.
pub(super) fn resolve(text: &str) -> Result<Resolve, Error> {
    let bad = || {
        Error::usage(format!(
            "--resolve: `{text}` is not host:port:address (e.g. example.com:443:127.0.0.1)"
        ))
    };
    let (host, rest) = text.split_once(':').ok_or_else(bad)?;
    let (port, address) = rest.split_once(':').ok_or_else(bad)?;
    let address = address
        .strip_prefix('[')
        .and_then(|a| a.strip_suffix(']'))
        .unwrap_or(address);
    if host.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    if literal.parse::<std::net::IpAddr>().is_ok() {
        return Err(Error::usage(format!(
            "--resolve: `{host}` is an address already; --resolve gives a host name's address"
        )));
    }
    Ok(Resolve {
        host: host.to_string(),
        port: port.parse().map_err(|_| bad())?,
        address: address.parse().map_err(|_| bad())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::net::IpAddr;
    use std::time::Duration;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let o = parse(args(&["--base=http://localhost:8080"]), None)
            .unwrap()
            .job;
        // The numbers' defaults are the ones --help prints.
        let help = super::super::cli::SPEC.help();
        for (head, value) in [
            ("--requests=N", o.requests),
            ("--warmup=N", o.warmup),
            ("--concurrency=N", o.concurrency),
            ("--rounds=N", o.rounds),
        ] {
            let said = help
                .split("\n  --")
                .find(|entry| entry.starts_with(&head[2..]))
                .map(|entry| entry.split_whitespace().collect::<Vec<_>>().join(" "));
            assert!(
                said.as_deref()
                    .is_some_and(|s| s.contains(&format!("(default {value}"))),
                "{head}: {said:?}"
            );
        }
        assert_eq!(o.cache_header, "X-Cache");
        assert_eq!(o.timeout, crate::http::job::Job::TIMEOUT);
        assert_eq!(
            (o.encoding, o.tool, o.duration),
            (Encoding::Gzip, Tool::Builtin, None)
        );
        assert!(o.keepalive && !o.cold && !o.insecure && !o.force);
    }

    #[test]
    fn every_option_parses() {
        let o = parse(
            args(&[
                "--url=/a",
                "--url",
                "http://h/b",
                "--urls-file=pages.txt",
                "--compare=http://a:1, http://b:2",
                "--runs=7",
                "--warmup=0",
                "--concurrency=3",
                "--rounds=4",
                "--cold",
                "--cache-header=CF-Cache-Status",
                "--no-keepalive",
                "--http=2",
                "--encoding=br",
                "--timeout=0.5",
                "--auth=u:p",
                "--header=X-A: 1",
                "--cookie=s=1",
                "--resolve=example.test:443:127.0.0.1",
                "--insecure",
                "--tool=wrk",
                "--duration=3",
                "--force",
                "--json",
                "--threshold=20",
            ]),
            None,
        )
        .unwrap();
        assert_eq!(o.common.threshold, Some(20.0));
        let o = o.job;
        assert_eq!(o.threshold, Some(20.0));
        assert_eq!(o.urls, ["/a", "http://h/b"]);
        assert_eq!(o.compare, ["http://a:1", "http://b:2"]);
        assert_eq!(
            (o.requests, o.warmup, o.concurrency, o.rounds),
            (7, 0, 3, 4)
        );
        assert_eq!(o.protocol, Protocol::Http2);
        assert_eq!(o.timeout, Duration::from_millis(500));
        assert_eq!(o.headers, [("X-A".to_string(), "1".to_string())]);
        assert_eq!(o.resolve[0].address, "127.0.0.1".parse::<IpAddr>().unwrap());
        assert!(o.cold && !o.keepalive && o.insecure && o.force);
        assert_eq!(o.tool, Tool::Wrk);
    }

    #[test]
    fn a_duration_goes_only_to_the_tools_that_run_for_one() {
        for tool in ["builtin", "wrk", "k6"] {
            let given = args(&["--url=http://h/", "--duration=3", &format!("--tool={tool}")]);
            assert!(parse(given, None).is_ok(), "{tool}");
        }
        for tool in ["ab", "oha", "h2load"] {
            let given = args(&["--url=http://h/", "--duration=3", &format!("--tool={tool}")]);
            let e = parse(given, None).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains("--duration works with"), "{e}");
        }
    }

    #[test]
    fn threads_are_the_built_in_client_s_and_follow_the_connections() {
        let o = parse(args(&["--url=http://h/", "--threads=3"]), None).unwrap();
        assert_eq!(o.job.threads, Some(3));
        // Never more threads than connections, nor none.
        assert_eq!(o.job.client_threads(2), 2);
        assert_eq!(o.job.client_threads(8), 3);
        let rule = Job::default();
        assert_eq!(rule.client_threads(1), 1);
        assert_eq!(rule.client_threads(Job::CONNECTIONS_PER_THREAD), 1);
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(
            rule.client_threads(Job::CONNECTIONS_PER_THREAD + 1),
            2.min(cpus)
        );
        assert_eq!(rule.client_threads(10_000), 40.min(cpus));
        for tool in ["wrk", "h2load", "k6"] {
            let given = args(&["--url=http://h/", "--threads=2", &format!("--tool={tool}")]);
            let e = parse(given, None).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains("--threads sets the built-in"), "{e}");
        }
    }

    #[test]
    fn auth_comes_from_the_environment_unless_given() {
        let o = parse(args(&["--url=http://h/"]), Some("env:pw".into()))
            .unwrap()
            .job;
        assert_eq!(o.auth.as_deref(), Some("env:pw"));
        let o = parse(args(&["--auth=cli:pw"]), Some("env:pw".into()))
            .unwrap()
            .job;
        assert_eq!(o.auth.as_deref(), Some("cli:pw"));
        let e = parse(args(&[]), Some("nocolon".into()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("YARDSTICK_AUTH") && !e.contains("nocolon"),
            "{e}"
        );
    }

    #[test]
    fn bad_values_name_the_option() {
        for (a, want) in [
            ("--requests=0", "--requests"),
            ("--concurrency=10001", "--concurrency"),
            ("--threads=0", "--threads: must be at least 1"),
            ("--threads=1025", "--threads: must be at most 1024"),
            ("--timeout=0", "--timeout"),
            ("--timeout=1e30", "--timeout"),
            ("--http=3", "--http"),
            ("--encoding=zstd", "--encoding"),
            ("--tool=curl", "--tool"),
            ("--header=nocolon", "--header"),
            ("--resolve=h:x:127.0.0.1", "--resolve"),
            ("--resolve=h:80:nohost", "--resolve"),
            ("--resolve=h:+80:127.0.0.1", "--resolve"),
            ("--resolve=127.0.0.1:80:127.0.0.2", "an address already"),
            ("--compare=http://a", "--compare"),
            ("--auth=nopassword", "--auth"),
            ("--bogus", "--bogus"),
            ("--cache-header=bad name", "--cache-header"),
            ("--max-machine-slowdown=50", "--max-machine-slowdown"),
        ] {
            let e = parse(args(&[a]), None).unwrap_err();
            assert!(matches!(e, Error::Usage(_)), "{a}");
            assert!(e.to_string().contains(want), "{a}: {e}");
        }
        let e = parse(args(&["--header=Authorization: sec\u{7}ret"]), None).unwrap_err();
        assert!(!e.to_string().contains("sec"), "{e}");
        let e = parse(args(&["--secret-header=X-A"]), None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("error: --secret-header: expected"),
            "{e}"
        );
    }

    #[test]
    fn secret_headers_come_from_the_option_or_the_environment() {
        let mut o = parse(
            args(&["--secret-header=X-Deploy: d1", "--header=X-Trace: t"]),
            None,
        )
        .unwrap()
        .job;
        secret_headers_from_env(&mut o, Some("X-Env: e1\n\nx-other: e2\n".into())).unwrap();
        assert!(o.is_secret("x-deploy") && o.is_secret("X-ENV") && o.is_secret("X-Other"));
        assert!(o.is_secret("X-Api-Key") && !o.is_secret("X-Trace"));
        assert_eq!(o.headers.len(), 4);
        let e = secret_headers_from_env(&mut o, Some("nocolon-secret".into()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("YARDSTICK_SECRET_HEADERS") && !e.contains("nocolon"),
            "{e}"
        );
    }

    #[test]
    fn resolve_takes_bracketed_ipv6() {
        let r = resolve("example.test:8443:[::1]").unwrap();
        assert_eq!((r.host.as_str(), r.port), ("example.test", 8443));
        assert!(r.address.is_loopback());
    }

    proptest! {
        #[test]
        fn parsing_never_panics(a in proptest::collection::vec("\\PC{0,20}", 0..6)) {
            let _ = parse(a, None);
        }
    }
}
