//! The caps that keep a benchmark from turning into an attack on someone
//! else's server. Loopback is judged from the host as written, before any
//! name is resolved: a name that merely resolves to 127.0.0.1 today may not
//! tomorrow, and `127.0.0.1.example.com` is nobody's loopback.

use super::options::{Options, Resolve, Tool};
use super::plan::{Job, Plan};
use crate::error::Error;
use std::net::IpAddr;

/// Requests per URL allowed against a host that is not loopback.
pub const MAX_REQUESTS_PER_URL: u64 = 1_000;
/// Requests at the same time allowed against a host that is not loopback.
pub const MAX_CONCURRENCY: u64 = 16;
/// Unmeasured requests per URL allowed against a host that is not loopback.
pub const MAX_WARMUP: u64 = 100;
/// Requests in all (warm-up included) allowed to hosts that are not loopback.
pub const MAX_TOTAL: u64 = 20_000;

/// True when `host` as written names this machine: `localhost`,
/// `*.localhost`, a literal address in 127.0.0.0/8, or `::1`.
pub fn is_loopback_name(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(&host);
    bare.parse::<IpAddr>().is_ok_and(|a| a.is_loopback())
}

/// True when connections to `host:port` stay on this machine: a loopback
/// name, or a `--resolve` that maps it to a loopback address.
pub fn is_loopback(host: &str, port: u16, resolve: &[Resolve]) -> bool {
    match resolve_of(host, port, resolve) {
        Some(address) => address.is_loopback(),
        None => is_loopback_name(host),
    }
}

/// The address `--resolve` gives `host:port`, if any (the last one given).
pub fn resolve_of(host: &str, port: u16, resolve: &[Resolve]) -> Option<IpAddr> {
    resolve
        .iter()
        .rev()
        .find(|r| r.port == port && r.host.eq_ignore_ascii_case(host))
        .map(|r| r.address)
}

/// Refuses a plan that goes past a cap against a host that is not loopback,
/// unless `--force`. Called before any connection is made.
pub fn check(plan: &Plan, o: &Options) -> Result<(), Error> {
    if o.force {
        return Ok(());
    }
    let remote = |j: &Job| !is_loopback(&j.url.host, j.url.port, &o.resolve);
    let Some(first) = plan.jobs.iter().find(|j| remote(j)) else {
        return Ok(());
    };
    let host = plan.servers[first.server].name.as_str();
    let refuse = |what: String| {
        Err(Error::Refused(format!(
            "{host} is not a loopback host and {what}; --force lifts the caps"
        )))
    };
    if o.tool == Tool::Wrk {
        return refuse(
            "wrk runs for a duration, so its request count cannot be capped".to_string(),
        );
    }
    if o.requests > MAX_REQUESTS_PER_URL {
        return refuse(format!(
            "{} requests per URL is above the cap of {MAX_REQUESTS_PER_URL}",
            o.requests
        ));
    }
    if o.concurrency > MAX_CONCURRENCY {
        return refuse(format!(
            "{} requests at a time is above the cap of {MAX_CONCURRENCY}",
            o.concurrency
        ));
    }
    if o.warmup > MAX_WARMUP {
        return refuse(format!(
            "a warm-up of {} is above the cap of {MAX_WARMUP}",
            o.warmup
        ));
    }
    let total = plan.total_requests(remote);
    if total > MAX_TOTAL {
        return refuse(format!(
            "{total} requests in all is above the cap of {MAX_TOTAL}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_judged_as_written() {
        for host in [
            "localhost",
            "LocalHost",
            "app.localhost",
            "127.0.0.1",
            "127.9.8.7",
            "::1",
            "[::1]",
            "localhost.",
        ] {
            assert!(is_loopback_name(host), "{host}");
        }
        for host in [
            "127.0.0.1.example.com",
            "localhost.example.com",
            "example.invalid",
            "10.0.0.1",
            "0.0.0.0",
            "127.1",
            "::2",
            "notlocalhost",
            "",
        ] {
            assert!(!is_loopback_name(host), "{host}");
        }
    }

    #[test]
    fn resolve_decides_for_its_host_and_port() {
        let r = vec![Resolve::parse("site.invalid:443:127.0.0.1").unwrap()];
        assert!(is_loopback("site.invalid", 443, &r));
        assert!(!is_loopback("site.invalid", 80, &r));
        let away = vec![Resolve::parse("localhost:80:192.0.2.1").unwrap()];
        assert!(!is_loopback("localhost", 80, &away));
    }

    fn opts(f: impl FnOnce(&mut Options)) -> (Plan, Options) {
        let mut o = Options::default();
        o.url_defaults();
        f(&mut o);
        (Plan::new(&o, o.urls.clone()).unwrap(), o)
    }

    impl Options {
        fn url_defaults(&mut self) {
            self.urls = vec!["https://example.invalid/".into()];
        }
    }

    fn refused(f: impl FnOnce(&mut Options)) -> Option<String> {
        let (p, o) = opts(f);
        check(&p, &o).err().map(|e| {
            assert!(matches!(e, Error::Refused(_)));
            e.to_string()
        })
    }

    #[test]
    fn caps_apply_to_hosts_that_are_not_loopback() {
        assert_eq!(refused(|_| {}), None);
        let m = refused(|o| o.requests = 1001).unwrap();
        assert!(
            m.starts_with("REFUSED: https://example.invalid") && m.contains("1000"),
            "{m}"
        );
        assert!(refused(|o| o.requests = 1000).is_none());
        assert!(
            refused(|o| o.concurrency = 17)
                .unwrap()
                .contains("at a time")
        );
        assert!(refused(|o| o.warmup = 101).unwrap().contains("warm-up"));
        assert!(refused(|o| o.tool = Tool::Wrk).unwrap().contains("wrk"));
        let many: Vec<String> = (0..25)
            .map(|i| format!("https://example.invalid/{i}"))
            .collect();
        let m = refused(|o| {
            o.urls = many.clone();
            o.requests = 800
        })
        .unwrap();
        assert!(m.contains("in all"), "{m}");
        assert!(
            refused(|o| {
                o.urls = many;
                o.requests = 800;
                o.force = true
            })
            .is_none()
        );
    }

    #[test]
    fn loopback_servers_have_no_caps() {
        assert!(
            refused(|o| {
                o.urls = vec!["http://127.0.0.1:9/".into()];
                o.requests = 100_000;
                o.concurrency = 64
            })
            .is_none()
        );
        assert!(
            refused(|o| {
                o.resolve = vec![Resolve::parse("example.invalid:443:::1").unwrap()];
                o.concurrency = 64;
            })
            .is_none()
        );
    }
}
