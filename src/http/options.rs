//! The options of `yardstick http`, parsed from the arguments after `http`.
//! The shared ones (format, save, baseline, threshold, ...) go through
//! [`Common::accept`] so every mode reads them alike.

use crate::commands::common::{Common, Flag, count, path, positive, seconds, string};
use crate::error::Error;
use lexopt::Parser;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The protocol asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// HTTP/1.1 for `http`, HTTP/2 when the server offers it by ALPN.
    Negotiated,
    Http1,
    Http2,
}

/// What the client accepts as `Accept-Encoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Gzip,
    Br,
    None,
}

impl Encoding {
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Gzip => "gzip",
            Encoding::Br => "br",
            Encoding::None => "none",
        }
    }
}

/// Who measures the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Builtin,
    Ab,
    Wrk,
    Oha,
    H2load,
}

impl Tool {
    pub const EXTERNAL: [Tool; 4] = [Tool::Ab, Tool::Wrk, Tool::Oha, Tool::H2load];

    pub fn as_str(self) -> &'static str {
        match self {
            Tool::Builtin => "builtin",
            Tool::Ab => "ab",
            Tool::Wrk => "wrk",
            Tool::Oha => "oha",
            Tool::H2load => "h2load",
        }
    }
}

/// `--resolve=host:port:address`: reach `host:port` at `address`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolve {
    pub host: String,
    pub port: u16,
    pub address: IpAddr,
}

impl Resolve {
    pub fn parse(text: &str) -> Result<Resolve, Error> {
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
        if host.is_empty() {
            return Err(bad());
        }
        Ok(Resolve {
            host: host.to_string(),
            port: port.parse().map_err(|_| bad())?,
            address: address.parse().map_err(|_| bad())?,
        })
    }
}

/// Everything `yardstick http` was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub common: Common,
    /// `--url` values as given: absolute URLs or paths.
    pub urls: Vec<String>,
    pub urls_file: Option<PathBuf>,
    pub base: Option<String>,
    /// `--compare` servers: the first is the reference.
    pub compare: Vec<String>,
    pub requests: u64,
    pub warmup: u64,
    pub concurrency: u64,
    pub rounds: u64,
    pub cold: bool,
    pub cache_header: String,
    pub keepalive: bool,
    pub protocol: Protocol,
    pub encoding: Encoding,
    pub timeout: Duration,
    /// `user:password`; never saved.
    pub auth: Option<String>,
    pub headers: Vec<(String, String)>,
    /// Names of headers given with `--secret-header` (or in
    /// `YARDSTICK_SECRET_HEADERS`): hidden like the deny-list's.
    pub secret_headers: Vec<String>,
    pub cookie: Option<String>,
    pub resolve: Vec<Resolve>,
    pub insecure: bool,
    pub tool: Tool,
    pub duration: u64,
    pub force: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            common: Common::default(),
            urls: Vec::new(),
            urls_file: None,
            base: None,
            compare: Vec::new(),
            requests: 100,
            warmup: 5,
            concurrency: 4,
            rounds: 2,
            cold: false,
            cache_header: "X-Cache".to_string(),
            keepalive: true,
            protocol: Protocol::Negotiated,
            encoding: Encoding::Gzip,
            timeout: Duration::from_secs(30),
            auth: None,
            headers: Vec::new(),
            secret_headers: Vec::new(),
            cookie: None,
            resolve: Vec::new(),
            insecure: false,
            tool: Tool::Builtin,
            duration: 10,
            force: false,
        }
    }
}

impl Options {
    /// True when the value of header `name` is a secret: by the deny-list,
    /// or marked with `--secret-header`.
    pub fn is_secret(&self, name: &str) -> bool {
        super::settings::is_secret_header(name)
            || self
                .secret_headers
                .iter()
                .any(|s| s.eq_ignore_ascii_case(name.trim()))
    }

    /// Adds a header whose value is a secret (`source` names where it came
    /// from, for messages).
    fn secret_header(&mut self, text: &str, source: &str) -> Result<(), Error> {
        let (name, value) = header(text, source)?;
        self.secret_headers.push(name.clone());
        self.headers.push((name, value));
        Ok(())
    }

    /// The secret headers of `YARDSTICK_SECRET_HEADERS`, one `Name: value`
    /// a line: secrets kept off yardstick's own command line.
    pub fn secret_headers_from_env(&mut self, text: Option<String>) -> Result<(), Error> {
        for line in text.iter().flat_map(|t| t.lines()) {
            if !line.trim().is_empty() {
                self.secret_header(line, "YARDSTICK_SECRET_HEADERS")?;
            }
        }
        Ok(())
    }
}

/// Parses the arguments after `http`; `env_auth` is `YARDSTICK_AUTH`, used
/// when `--auth` is not given.
pub fn parse(args: Vec<String>, env_auth: Option<String>) -> Result<Options, Error> {
    let mut o = Options::default();
    let mut parser = Parser::from_args(args);
    while let Some(arg) = parser.next()? {
        let flag = Flag::from(arg);
        if o.common.accept(&flag, &mut parser)? {
            continue;
        }
        let Flag::Long(name) = &flag else {
            return Err(flag.unexpected());
        };
        let option = format!("--{name}");
        let p = &mut parser;
        match name.as_str() {
            "url" => o.urls.push(non_empty(p, &option)?),
            "urls-file" => o.urls_file = Some(path(p, &option)?),
            "base" => o.base = Some(non_empty(p, &option)?),
            "compare" => o.compare = list(&non_empty(p, &option)?, &option)?,
            "requests" | "runs" => o.requests = positive(p, &option)?,
            "warmup" => o.warmup = count(p, &option)?,
            "concurrency" => o.concurrency = concurrency(p, &option)?,
            "rounds" => o.rounds = positive(p, &option)?,
            "cold" => o.cold = true,
            "cache-header" => o.cache_header = header_name(&non_empty(p, &option)?, &option)?,
            "no-keepalive" => o.keepalive = false,
            "http" => o.protocol = protocol(&string(p, &option)?)?,
            "encoding" => o.encoding = encoding(&string(p, &option)?)?,
            "timeout" => o.timeout = seconds(p, &option)?,
            "auth" => o.auth = Some(auth(&string(p, &option)?)?),
            "header" => o.headers.push(header(&string(p, &option)?, &option)?),
            "secret-header" => o.secret_header(&string(p, &option)?, &option)?,
            "cookie" => o.cookie = Some(non_empty(p, &option)?),
            "resolve" => o.resolve.push(Resolve::parse(&string(p, &option)?)?),
            "insecure" => o.insecure = true,
            "tool" => o.tool = tool(&string(p, &option)?)?,
            "duration" => o.duration = positive(p, &option)?,
            "force" => o.force = true,
            _ => return Err(flag.unexpected()),
        }
    }
    if o.auth.is_none()
        && let Some(value) = env_auth.filter(|v| !v.is_empty())
    {
        o.auth =
            Some(auth(&value).map_err(|_| Error::usage("YARDSTICK_AUTH: expected user:password"))?);
    }
    if o.compare.len() == 1 {
        return Err(Error::usage(
            "--compare: name at least two servers, separated by commas",
        ));
    }
    if o.base.is_some() && !o.compare.is_empty() {
        return Err(Error::usage(
            "--base and --compare both name the servers: give one of them",
        ));
    }
    if o.common.max_machine_slowdown.is_some() {
        return Err(Error::usage(
            "yardstick http does not take --max-machine-slowdown: pages are timed without a calibration loop",
        ));
    }
    Ok(o)
}

fn non_empty(p: &mut Parser, option: &str) -> Result<String, Error> {
    let v = string(p, option)?;
    if v.trim().is_empty() {
        return Err(Error::usage(format!("{option}: the value is empty")));
    }
    Ok(v.trim().to_string())
}

/// Most requests at a time one run may hold open: one task and socket each.
pub const MAX_CONCURRENCY: u64 = 10_000;

fn concurrency(p: &mut Parser, option: &str) -> Result<u64, Error> {
    match positive(p, option)? {
        n if n > MAX_CONCURRENCY => Err(Error::usage(format!(
            "{option}: at most {MAX_CONCURRENCY} at a time"
        ))),
        n => Ok(n),
    }
}

fn list(value: &str, option: &str) -> Result<Vec<String>, Error> {
    let items: Vec<String> = value.split(',').map(|s| s.trim().to_string()).collect();
    if items.iter().any(String::is_empty) {
        return Err(Error::usage(format!(
            "{option}: an empty item in `{value}`"
        )));
    }
    Ok(items)
}

fn protocol(value: &str) -> Result<Protocol, Error> {
    match value {
        "1.1" | "1" => Ok(Protocol::Http1),
        "2" => Ok(Protocol::Http2),
        other => Err(Error::usage(format!("--http: `{other}` is not 1.1 or 2"))),
    }
}

fn encoding(value: &str) -> Result<Encoding, Error> {
    match value {
        "gzip" => Ok(Encoding::Gzip),
        "br" => Ok(Encoding::Br),
        "none" => Ok(Encoding::None),
        other => Err(Error::usage(format!(
            "--encoding: `{other}` is not gzip, br or none"
        ))),
    }
}

fn tool(value: &str) -> Result<Tool, Error> {
    [Tool::Builtin, Tool::Ab, Tool::Wrk, Tool::Oha, Tool::H2load]
        .into_iter()
        .find(|t| t.as_str() == value)
        .ok_or_else(|| {
            Error::usage(format!(
                "--tool: `{value}` is not builtin, ab, wrk, oha or h2load"
            ))
        })
}

fn auth(value: &str) -> Result<String, Error> {
    match value.split_once(':') {
        Some((user, _)) if !user.is_empty() => Ok(value.to_string()),
        _ => Err(Error::usage("--auth: expected user:password")),
    }
}

fn header_name(name: &str, option: &str) -> Result<String, Error> {
    http::HeaderName::from_bytes(name.as_bytes())
        .map(|_| name.to_string())
        .map_err(|_| Error::usage(format!("{option}: `{name}` is not a header name")))
}

/// `Name: value`, checked now so a bad header is a usage error, not an
/// error on every request. The value is not echoed: it may be a secret.
fn header(text: &str, option: &str) -> Result<(String, String), Error> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| Error::usage(format!("{option}: expected \"Name: value\"")))?;
    let name = header_name(name.trim(), option)?;
    let value = value.trim();
    http::HeaderValue::from_str(value).map_err(|_| {
        Error::usage(format!(
            "{option}: the value of {name} is not a valid header value"
        ))
    })?;
    Ok((name, value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let o = parse(args(&["--base=http://localhost:8080"]), None).unwrap();
        assert_eq!(
            (o.requests, o.warmup, o.concurrency, o.rounds),
            (100, 5, 4, 2)
        );
        assert_eq!(o.cache_header, "X-Cache");
        assert_eq!(o.timeout, Duration::from_secs(30));
        assert_eq!(
            (o.encoding, o.tool, o.duration),
            (Encoding::Gzip, Tool::Builtin, 10)
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
        assert_eq!(o.common.threshold, Some(20.0));
        assert!(o.cold && !o.keepalive && o.insecure && o.force);
        assert_eq!(o.tool, Tool::Wrk);
    }

    #[test]
    fn auth_comes_from_the_environment_unless_given() {
        let o = parse(args(&["--url=http://h/"]), Some("env:pw".into())).unwrap();
        assert_eq!(o.auth.as_deref(), Some("env:pw"));
        let o = parse(args(&["--auth=cli:pw"]), Some("env:pw".into())).unwrap();
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
            ("--timeout=0", "--timeout"),
            ("--timeout=1e30", "--timeout"),
            ("--http=3", "--http"),
            ("--encoding=zstd", "--encoding"),
            ("--tool=curl", "--tool"),
            ("--header=nocolon", "--header"),
            ("--resolve=h:x:127.0.0.1", "--resolve"),
            ("--resolve=h:80:nohost", "--resolve"),
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
        .unwrap();
        o.secret_headers_from_env(Some("X-Env: e1\n\nx-other: e2\n".into()))
            .unwrap();
        assert!(o.is_secret("x-deploy") && o.is_secret("X-ENV") && o.is_secret("X-Other"));
        assert!(o.is_secret("X-Api-Key") && !o.is_secret("X-Trace"));
        assert_eq!(o.headers.len(), 4);
        let e = o
            .secret_headers_from_env(Some("nocolon-secret".into()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("YARDSTICK_SECRET_HEADERS") && !e.contains("nocolon"),
            "{e}"
        );
    }

    #[test]
    fn resolve_takes_bracketed_ipv6() {
        let r = Resolve::parse("example.test:8443:[::1]").unwrap();
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
