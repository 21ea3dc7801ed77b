//! The caps that keep a benchmark from turning into an attack on someone
//! else's server. Loopback is decided by addresses, never by a name: a
//! server is exempt only when every address it resolved to (once, in
//! `address.rs`; the connections then go to those and no others) is a
//! loopback address. `localhost.` and `*.localhost` are resolved like any
//! name, and `127.0.0.1.example.com` is whatever its answers are.

use super::job::{Job, Tool};
use super::schedule::{Schedule, Visit};
use crate::error::Error;

/// Requests per URL allowed against a host that is not loopback.
pub(crate) const MAX_REQUESTS_PER_URL: u64 = 1_000;
/// Requests at the same time allowed against a host that is not loopback.
pub(crate) const MAX_CONCURRENCY: u64 = 16;
/// Unmeasured requests per URL allowed against a host that is not loopback.
pub(crate) const MAX_WARMUP: u64 = 100;
/// Requests in all (warm-up included) allowed to hosts that are not loopback.
pub(crate) const MAX_TOTAL: u64 = 20_000;

/// Refuses a schedule that goes past a cap against a server that is not
/// loopback, unless `--force`. Called after [`Schedule::resolve`] and
/// before any connection is made.
pub(crate) fn check(schedule: &Schedule, job: &Job) -> Result<(), Error> {
    if job.force {
        return Ok(());
    }
    let remote = |v: &Visit| !schedule.servers[v.server].addresses.is_loopback();
    let Some(first) = schedule.visits.iter().find(|v| remote(v)) else {
        return Ok(());
    };
    let host = schedule.servers[first.server].name.as_str();
    let refuse = |what: String| {
        Err(Error::Refused(format!(
            "{host} is not a loopback host and {what}; --force lifts the caps"
        )))
    };
    if job.tool == Tool::Wrk {
        return refuse(
            "wrk runs for a duration, so its request count cannot be capped".to_string(),
        );
    }
    if job.tool == Tool::K6 && (job.duration.is_some() || job.rate.is_some()) {
        return refuse(
            "k6 under --duration or --rate runs for a time, so its request count cannot be capped"
                .to_string(),
        );
    }
    if job.tool == Tool::Builtin && job.duration.is_some() {
        return refuse(
            "--duration runs for a time, so its request count cannot be capped".to_string(),
        );
    }
    if job.requests > MAX_REQUESTS_PER_URL {
        return refuse(format!(
            "{} requests per URL is above the cap of {MAX_REQUESTS_PER_URL}",
            job.requests
        ));
    }
    if job.concurrency > MAX_CONCURRENCY {
        return refuse(format!(
            "{} requests at a time is above the cap of {MAX_CONCURRENCY}",
            job.concurrency
        ));
    }
    if job.warmup > MAX_WARMUP {
        return refuse(format!(
            "a warm-up of {} is above the cap of {MAX_WARMUP}",
            job.warmup
        ));
    }
    let total = schedule.total_requests(remote);
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
    use crate::job::Resolve;

    fn opts(f: impl FnOnce(&mut Job)) -> (Schedule, Job) {
        let mut o = Job {
            urls: vec!["https://example.invalid/".into()],
            ..Job::default()
        };
        f(&mut o);
        let mut schedule = Schedule::new(&o, o.urls.clone()).unwrap();
        // No name resolves here: only literals and --resolve are loopback.
        schedule.resolve(&o.resolve, &|_, _| Vec::new());
        (schedule, o)
    }

    fn refused(f: impl FnOnce(&mut Job)) -> Option<String> {
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
        let timed = refused(|o| o.duration = Some(3));
        assert!(timed.unwrap().contains("--duration runs for a time"));
        assert!(refused(|o| o.tool = Tool::K6).is_none());
        let timed = refused(|o| {
            o.tool = Tool::K6;
            o.rate = Some(10.0)
        });
        assert!(timed.unwrap().contains("k6 under --duration or --rate"));
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
    fn a_name_is_capped_unless_every_address_it_has_is_loopback() {
        let (mut p, o) = opts(|o| {
            o.urls = vec!["http://localhost./".into(), "http://app.localhost/".into()];
            o.requests = 100_000
        });
        p.resolve(&[], &|host, _| match host {
            "localhost." => vec!["127.0.0.1".parse().unwrap(), "192.0.2.1".parse().unwrap()],
            _ => Vec::new(),
        });
        let e = check(&p, &o).unwrap_err().to_string();
        assert!(
            e.contains("localhost.") && e.contains("not a loopback"),
            "{e}"
        );
        p.resolve(&[], &|_, _| {
            vec!["127.0.0.1".parse().unwrap(), "::1".parse().unwrap()]
        });
        assert!(check(&p, &o).is_ok());
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
                o.resolve = vec![Resolve {
                    host: "example.invalid".into(),
                    port: 443,
                    address: "::1".parse().unwrap(),
                }];
                o.concurrency = 64;
            })
            .is_none()
        );
    }
}
