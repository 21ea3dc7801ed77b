//! What is requested and in which order: pages × servers, split into
//! rounds.
//!
//! Servers are measured back to back, page by page, so two servers compared
//! see the same minute of the machine; the server order is reversed every
//! other round so neither always goes first (and always meets the other's
//! after-effects).

use super::address::{self, Addresses, Lookup};
use super::job::{Job, Resolve, Tool};
use super::pages;
use super::url::{self, Url};
use crate::error::Error;
use std::time::Duration;

/// One page on one server, requested again and again: one row of the run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Visit {
    /// Index into [`Schedule::servers`].
    pub(crate) server: usize,
    /// The page as given (a path, or the path of an absolute URL).
    pub(crate) page: String,
    /// The URL requested.
    pub(crate) url: Url,
}

impl Visit {
    /// The row key: server and page, unique within a run.
    pub(crate) fn key(&self, schedule: &Schedule) -> String {
        format!("{} {}", schedule.servers[self.server].name, self.page)
    }
}

/// A server: where connections go.
#[derive(Debug, Clone, PartialEq)]
pub struct Server {
    /// As given (credentials hidden).
    pub(crate) name: String,
    /// Any URL of the server: its scheme, host and port.
    pub(crate) url: Url,
    /// Where its connections go: empty until [`Schedule::resolve`].
    pub addresses: Addresses,
}

/// A share of one visit's measured requests within a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Batch {
    /// Index into [`Schedule::visits`].
    pub(crate) visit: usize,
    /// Requests of the batch (none when it is timed).
    pub(crate) count: u64,
    /// How long the batch runs, in a timed run (`--duration`).
    pub(crate) time: Option<Duration>,
}

/// Every request of a run, and their order: the servers, the visits of
/// each page to each server, and how the requests are split into rounds.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    /// Every server, those of `--base` or `--compare` first, in order.
    pub servers: Vec<Server>,
    /// Every page on every server it is measured on.
    pub(crate) visits: Vec<Visit>,
    /// Visits of the same page on different servers, in server order.
    pub(crate) groups: Vec<Vec<usize>>,
    /// Measured requests per visit.
    pub(crate) requests: u64,
    /// Unmeasured requests per visit: at least one per connection.
    pub(crate) warmup: u64,
    /// Requests in flight at a time on each server.
    pub(crate) concurrency: u64,
    /// How many parts the measured requests are split into.
    pub(crate) rounds: u64,
    /// The built-in client's `--duration`: each visit is measured for
    /// this long, shared out among the rounds, not for `requests`.
    pub(crate) duration: Option<Duration>,
}

/// The error of a command that names no page, which says where to find
/// one: the repository's demo site and its page set.
const NO_PAGE: &str = "no page to measure: give --base=URL (its pages are found from its \
     sitemap) or --url (or --urls-file, --compare); for a site to try, run \
     `cargo run --release -p demo-site` and then `yardstick http --base=http://127.0.0.1:8080`";

impl Schedule {
    /// The schedule of `job` for `page_list` (from `--url` and
    /// `--urls-file`, in that order); no address is found yet.
    pub fn new(job: &Job, page_list: Vec<String>) -> Result<Schedule, Error> {
        let mut schedule = Schedule {
            servers: Vec::new(),
            visits: Vec::new(),
            groups: Vec::new(),
            requests: job.requests,
            // A cleared cache is measured from its first request.
            warmup: if job.cold_clear.is_some() {
                0
            } else {
                job.warmup.max(job.concurrency)
            },
            concurrency: job.concurrency,
            rounds: job.rounds,
            duration: job
                .duration
                .filter(|_| job.tool == Tool::Builtin)
                .map(Duration::from_secs),
        };
        let bases: Vec<&String> = job.base.iter().chain(job.compare.iter()).collect();
        for base in &bases {
            let url = Url::parse(base).map_err(|m| option_error(job, m))?;
            schedule.server_of(&url, Some(super::url::hide_userinfo(base)));
        }
        let n_bases = schedule.servers.len();
        if page_list.is_empty() {
            return Err(Error::usage(NO_PAGE));
        }
        for page in page_list {
            schedule.add_page(&page, n_bases)?;
        }
        Ok(schedule)
    }

    /// Adds `page`: an absolute URL on its own server, or a path on each
    /// of the first `n_bases` servers.
    fn add_page(&mut self, page: &str, n_bases: usize) -> Result<(), Error> {
        pages::check(page).map_err(|m| Error::usage(format!("--url: {m}")))?;
        if pages::is_absolute(page) {
            let url = Url::parse(page).map_err(|m| Error::usage(format!("--url: {m}")))?;
            let server = self.server_of(&url, None);
            let page = url::hide_query_secrets(&url.path);
            self.push_group(vec![Visit { server, page, url }]);
        } else if n_bases == 0 {
            return Err(Error::usage(format!(
                "`{page}` is a path: give --base or --compare for its server"
            )));
        } else {
            let name = url::hide_query_secrets(&if page.starts_with('/') {
                page.to_string()
            } else {
                format!("/{page}")
            });
            let visits = (0..n_bases)
                .map(|server| Visit {
                    server,
                    page: name.clone(),
                    url: self.servers[server].url.join(page),
                })
                .collect();
            self.push_group(visits);
        }
        Ok(())
    }

    /// The index of the server of `url`, adding it when new.
    fn server_of(&mut self, url: &Url, name: Option<String>) -> usize {
        let same = |s: &Server| s.url.same_server(url);
        // Servers named by --compare stay distinct even if equal: comparing
        // a server with itself is a valid check of the method's noise.
        if name.is_none()
            && let Some(i) = self.servers.iter().position(same)
        {
            return i;
        }
        // Each server's rows are keyed by its name, so a server given twice
        // is named apart: `URL (2)`.
        let mut name = name.unwrap_or_else(|| url.origin());
        let taken = |n: &str, servers: &[Server]| servers.iter().any(|s| s.name == n);
        if taken(&name, &self.servers) {
            let given = name.clone();
            name = (2..)
                .map(|k| format!("{given} ({k})"))
                .find(|n| !taken(n, &self.servers))
                .unwrap_or(given);
        }
        self.servers.push(Server {
            name,
            url: url.clone(),
            addresses: Addresses::default(),
        });
        self.servers.len() - 1
    }

    fn push_group(&mut self, visits: Vec<Visit>) {
        let mut group = Vec::new();
        for visit in visits {
            // The same page named twice is measured once.
            if self
                .visits
                .iter()
                .any(|v| v.server == visit.server && v.page == visit.page)
            {
                continue;
            }
            group.push(self.visits.len());
            self.visits.push(visit);
        }
        if !group.is_empty() {
            self.groups.push(group);
        }
    }

    /// Finds every server's addresses, asking `lookup` once per host and
    /// port: servers that share them share the answer.
    pub fn resolve(&mut self, resolve: &[Resolve], lookup: Lookup<'_>) {
        let mut seen: Vec<(HostPort, Addresses)> = Vec::new();
        for server in &mut self.servers {
            let key = HostPort {
                host: server.url.host.to_ascii_lowercase(),
                port: server.url.port,
            };
            server.addresses = match seen.iter().find(|(k, _)| *k == key) {
                Some((_, a)) => a.clone(),
                None => {
                    let a = address::of(&server.url.host, server.url.port, resolve, lookup);
                    seen.push((key, a.clone()));
                    a
                }
            };
        }
    }

    /// The measured requests of every visit, round by round: each round
    /// gives every server its share of a page back to back, in server order
    /// on even rounds and reversed on odd ones.
    pub(crate) fn rounds(&self) -> Vec<Vec<Batch>> {
        if let Some(duration) = self.duration {
            // At least a millisecond a round.
            let millis = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
            let parts = u32::try_from(self.rounds.min(millis).max(1)).unwrap_or(u32::MAX);
            let each = duration / parts;
            return (0..u64::from(parts))
                .map(|round| self.in_order(round, 0, Some(each)))
                .collect();
        }
        // Rounds past the number of requests would be empty.
        (0..self.rounds.min(self.requests))
            .map(|round| {
                let share =
                    self.requests / self.rounds + u64::from(round < self.requests % self.rounds);
                if share == 0 {
                    return Vec::new();
                }
                self.in_order(round, share, None)
            })
            .filter(|r| !r.is_empty())
            .collect()
    }

    /// Round `round`'s batches: each page's visits in server order, the
    /// order reversed every other round.
    fn in_order(&self, round: u64, count: u64, time: Option<Duration>) -> Vec<Batch> {
        let mut batches = Vec::new();
        for group in &self.groups {
            let mut order = group.clone();
            if round % 2 == 1 {
                order.reverse();
            }
            batches.extend(order.into_iter().map(|visit| Batch { visit, count, time }));
        }
        batches
    }

    /// Every request the schedule sends to the visits for which `pick` is
    /// true, warm-up included.
    pub(crate) fn total_requests(&self, pick: impl Fn(&Visit) -> bool) -> u64 {
        let per_visit = self.requests.saturating_add(self.warmup);
        self.visits
            .iter()
            .filter(|v| pick(v))
            .fold(0u64, |sum, _| sum.saturating_add(per_visit))
    }
}

/// A host (lower-case) and port: what one lookup answers for.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HostPort {
    host: String,
    port: u16,
}

fn option_error(job: &Job, m: String) -> Error {
    let option = if job.base.is_some() {
        "--base"
    } else {
        "--compare"
    };
    Error::usage(format!("{option}: {m}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule_of(f: impl FnOnce(&mut Job), pages: &[&str]) -> Result<Schedule, Error> {
        let mut o = Job::default();
        f(&mut o);
        Schedule::new(&o, pages.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn paths_run_on_every_compared_server_and_urls_on_their_own() {
        let p = schedule_of(
            |o| o.compare = vec!["http://127.0.0.1:1".into(), "http://localhost:2/app".into()],
            &["/", "about", "http://127.0.0.1:3/x?y=1"],
        )
        .unwrap();
        assert_eq!(p.servers.len(), 3);
        assert_eq!(p.visits.len(), 5);
        assert_eq!(p.groups, [vec![0, 1], vec![2, 3], vec![4]]);
        assert_eq!(p.visits[3].url.to_string(), "http://localhost:2/app/about");
        assert_eq!(p.visits[3].key(&p), "http://localhost:2/app /about");
        assert_eq!(p.visits[4].key(&p), "http://127.0.0.1:3 /x?y=1");
    }

    #[test]
    fn a_server_compared_with_itself_is_named_apart() {
        let p = schedule_of(|o| o.compare = vec!["http://127.0.0.1:1".into(); 3], &["/"]).unwrap();
        let keys: Vec<String> = p.visits.iter().map(|v| v.key(&p)).collect();
        assert_eq!(
            keys,
            [
                "http://127.0.0.1:1 /",
                "http://127.0.0.1:1 (2) /",
                "http://127.0.0.1:1 (3) /"
            ]
        );
    }

    #[test]
    fn a_schedule_needs_a_page_and_a_path_needs_a_server() {
        // The pages of a server named alone are found before (`discover`).
        for base in [None, Some("http://localhost:8080".to_string())] {
            let e = schedule_of(|o| o.base = base.clone(), &[])
                .unwrap_err()
                .to_string();
            assert!(e.contains("no page"), "{e}");
        }
        let e = schedule_of(|_| {}, &["/x"]).unwrap_err().to_string();
        assert!(e.contains("--base"), "{e}");
    }

    #[test]
    fn urls_of_one_server_share_it() {
        let p = schedule_of(
            |_| {},
            &[
                "http://localhost:1/a",
                "http://LOCALHOST:1/b",
                "https://localhost:1/c",
            ],
        )
        .unwrap();
        assert_eq!(p.servers.len(), 2);
        assert_eq!(
            p.visits.iter().map(|j| j.server).collect::<Vec<_>>(),
            [0, 0, 1]
        );
    }

    #[test]
    fn warmup_covers_every_connection() {
        let p = schedule_of(
            |o| {
                o.warmup = 1;
                o.concurrency = 8;
                o.base = Some("http://h".into())
            },
            &["/"],
        )
        .unwrap();
        assert_eq!(p.warmup, 8);
        let p = schedule_of(
            |o| {
                o.warmup = 20;
                o.base = Some("http://h".into())
            },
            &["/"],
        )
        .unwrap();
        assert_eq!(p.warmup, 20);
    }

    #[test]
    fn a_timed_run_shares_its_duration_among_the_rounds() {
        let p = schedule_of(
            |o| {
                o.compare = vec!["http://a".into(), "http://b".into()];
                o.duration = Some(3);
                o.rounds = 3;
            },
            &["/"],
        )
        .unwrap();
        let r = p.rounds();
        assert_eq!(r.len(), 3);
        assert!(
            r.iter()
                .flatten()
                .all(|b| b.time == Some(Duration::from_secs(1)))
        );
        assert_eq!(p.visits[r[1][0].visit].server, 1);
        // Not for a tool: wrk and k6 are given the duration themselves.
        let wrk = schedule_of(
            |o| {
                o.base = Some("http://a".into());
                o.duration = Some(3);
                o.tool = Tool::Wrk;
            },
            &["/"],
        )
        .unwrap();
        assert!(wrk.rounds().iter().flatten().all(|b| b.time.is_none()));
    }

    #[test]
    fn rounds_alternate_the_server_order_and_split_the_requests() {
        let p = schedule_of(
            |o| {
                o.compare = vec!["http://a".into(), "http://b".into()];
                o.requests = 7;
                o.rounds = 3;
            },
            &["/", "/x"],
        )
        .unwrap();
        let r = p.rounds();
        let order = |round: &Vec<Batch>| {
            round
                .iter()
                .map(|b| p.visits[b.visit].server)
                .collect::<Vec<_>>()
        };
        assert_eq!(order(&r[0]), [0, 1, 0, 1]);
        assert_eq!(order(&r[1]), [1, 0, 1, 0]);
        assert_eq!(order(&r[2]), [0, 1, 0, 1]);
        let counts: Vec<u64> = r.iter().map(|round| round[0].count).collect();
        assert_eq!(counts, [3, 2, 2]);
        for visit in 0..p.visits.len() {
            let total: u64 = r
                .iter()
                .flatten()
                .filter(|b| b.visit == visit)
                .map(|b| b.count)
                .sum();
            assert_eq!(total, 7);
        }
        let huge = schedule_of(
            |o| {
                o.requests = 3;
                o.rounds = u64::MAX;
                o.base = Some("http://a".into())
            },
            &["/"],
        )
        .unwrap();
        assert_eq!(huge.rounds().len(), 3);
        let few = schedule_of(
            |o| {
                o.requests = 1;
                o.rounds = 4;
                o.base = Some("http://a".into())
            },
            &["/"],
        )
        .unwrap();
        assert_eq!(few.rounds().len(), 1);
    }

    #[test]
    fn each_host_and_port_is_looked_up_once() {
        let mut p = schedule_of(
            |o| {
                o.compare = vec![
                    "http://a:1".into(),
                    "http://A:1".into(),
                    "http://a:2".into(),
                ]
            },
            &["/"],
        )
        .unwrap();
        let asked = std::cell::RefCell::new(Vec::new());
        p.resolve(&[], &|host, port| {
            asked.borrow_mut().push((host.to_string(), port));
            vec!["127.0.0.1".parse().unwrap()]
        });
        assert_eq!(
            *asked.borrow(),
            [("a".to_string(), 1), ("a".to_string(), 2)]
        );
        assert!(p.servers.iter().all(|s| s.addresses.is_loopback()));
    }

    #[test]
    fn totals_include_the_warmup() {
        let p = schedule_of(
            |o| {
                o.requests = 10;
                o.warmup = 5;
                o.concurrency = 2;
                o.compare = vec!["http://a".into(), "http://b".into()]
            },
            &["/", "/x"],
        )
        .unwrap();
        assert_eq!(p.total_requests(|_| true), 60);
        assert_eq!(p.total_requests(|v| v.server == 0), 30);
    }
}
