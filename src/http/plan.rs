//! What is measured and in which order: pages × servers, split into rounds.
//!
//! Servers are measured back to back, page by page, so two servers compared
//! see the same minute of the machine; the server order is reversed every
//! other round so neither always goes first (and always meets the other's
//! after-effects).

use super::address::{self, Addresses, Lookup};
use super::options::{Options, Resolve};
use super::pages;
use super::url::Url;
use crate::error::Error;

/// One (server, page) measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Index into [`Plan::servers`].
    pub server: usize,
    /// The page as given (a path, or the path of an absolute URL).
    pub page: String,
    pub url: Url,
}

impl Job {
    /// The row key: server and page, unique within a run.
    pub fn key(&self, plan: &Plan) -> String {
        format!("{} {}", plan.servers[self.server].name, self.page)
    }
}

/// A server: where connections go.
#[derive(Debug, Clone, PartialEq)]
pub struct Server {
    /// As given (credentials hidden).
    pub name: String,
    /// Any URL of the server: its scheme, host and port.
    pub url: Url,
    /// Where its connections go: empty until [`Plan::resolve`].
    pub addresses: Addresses,
}

/// A share of one job's measured requests within a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Batch {
    pub job: usize,
    pub count: u64,
}

/// The whole measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub servers: Vec<Server>,
    pub jobs: Vec<Job>,
    /// Jobs of the same page on different servers, in server order.
    pub groups: Vec<Vec<usize>>,
    pub requests: u64,
    /// Unmeasured requests per job: at least one per connection.
    pub warmup: u64,
    pub concurrency: u64,
    pub rounds: u64,
}

impl Plan {
    /// Builds the plan from the options and the pages (from `--url` and
    /// `--urls-file`, in that order).
    pub fn new(o: &Options, mut page_list: Vec<String>) -> Result<Plan, Error> {
        let mut plan = Plan {
            servers: Vec::new(),
            jobs: Vec::new(),
            groups: Vec::new(),
            requests: o.requests,
            warmup: o.warmup.max(o.concurrency),
            concurrency: o.concurrency,
            rounds: o.rounds,
        };
        let bases: Vec<&String> = o.base.iter().chain(o.compare.iter()).collect();
        for base in &bases {
            let url = Url::parse(base).map_err(|m| option_error(o, m))?;
            plan.server_of(&url, Some(super::url::hide_userinfo(base)));
        }
        let n_bases = plan.servers.len();
        if page_list.is_empty() {
            if n_bases == 0 {
                return Err(Error::usage(
                    "no page to measure: give --url, --urls-file, --base or --compare",
                ));
            }
            page_list.push("/".to_string());
        }
        for page in page_list {
            pages::check(&page).map_err(|m| Error::usage(format!("--url: {m}")))?;
            if pages::is_absolute(&page) {
                let url = Url::parse(&page).map_err(|m| Error::usage(format!("--url: {m}")))?;
                let server = plan.server_of(&url, None);
                plan.push_group(vec![(server, url.path.clone(), url)]);
            } else if n_bases == 0 {
                return Err(Error::usage(format!(
                    "`{page}` is a path: give --base or --compare for its server"
                )));
            } else {
                let name = if page.starts_with('/') {
                    page.clone()
                } else {
                    format!("/{page}")
                };
                let jobs = (0..n_bases)
                    .map(|s| (s, name.clone(), plan.servers[s].url.join(&page)))
                    .collect();
                plan.push_group(jobs);
            }
        }
        Ok(plan)
    }

    /// The index of the server of `url`, adding it when new.
    fn server_of(&mut self, url: &Url, name: Option<String>) -> usize {
        let same = |s: &Server| {
            s.url.scheme == url.scheme
                && s.url.host.eq_ignore_ascii_case(&url.host)
                && s.url.port == url.port
        };
        // Servers named by --compare stay distinct even if equal: comparing
        // a server with itself is a valid check of the method's noise.
        if name.is_none()
            && let Some(i) = self.servers.iter().position(same)
        {
            return i;
        }
        self.servers.push(Server {
            name: name.unwrap_or_else(|| url.origin()),
            url: url.clone(),
            addresses: Addresses::default(),
        });
        self.servers.len() - 1
    }

    fn push_group(&mut self, jobs: Vec<(usize, String, Url)>) {
        let mut group = Vec::new();
        for (server, page, url) in jobs {
            let job = Job { server, page, url };
            // The same page named twice is measured once.
            if self
                .jobs
                .iter()
                .any(|j| j.server == server && j.page == job.page)
            {
                continue;
            }
            group.push(self.jobs.len());
            self.jobs.push(job);
        }
        if !group.is_empty() {
            self.groups.push(group);
        }
    }

    /// Finds every server's addresses, asking `lookup` once per host and
    /// port: servers that share them share the answer.
    pub fn resolve(&mut self, resolve: &[Resolve], lookup: Lookup<'_>) {
        let mut seen: Vec<((String, u16), Addresses)> = Vec::new();
        for server in &mut self.servers {
            let key = (server.url.host.to_ascii_lowercase(), server.url.port);
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

    /// The measured requests of every job, round by round: each round gives
    /// every server its share of a page back to back, in server order on
    /// even rounds and reversed on odd ones.
    pub fn rounds(&self) -> Vec<Vec<Batch>> {
        // Rounds past the number of requests would be empty.
        (0..self.rounds.min(self.requests))
            .map(|round| {
                let share =
                    self.requests / self.rounds + u64::from(round < self.requests % self.rounds);
                let mut batches = Vec::new();
                if share == 0 {
                    return batches;
                }
                for group in &self.groups {
                    let mut order = group.clone();
                    if round % 2 == 1 {
                        order.reverse();
                    }
                    batches.extend(order.into_iter().map(|job| Batch { job, count: share }));
                }
                batches
            })
            .filter(|r| !r.is_empty())
            .collect()
    }

    /// Every request the plan sends to the jobs for which `pick` is true,
    /// warm-up included.
    pub fn total_requests(&self, pick: impl Fn(&Job) -> bool) -> u64 {
        let per_job = self.requests.saturating_add(self.warmup);
        self.jobs
            .iter()
            .filter(|j| pick(j))
            .fold(0u64, |sum, _| sum.saturating_add(per_job))
    }
}

fn option_error(o: &Options, m: String) -> Error {
    let option = if o.base.is_some() {
        "--base"
    } else {
        "--compare"
    };
    Error::usage(format!("{option}: {m}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(f: impl FnOnce(&mut Options), pages: &[&str]) -> Result<Plan, Error> {
        let mut o = Options::default();
        f(&mut o);
        Plan::new(&o, pages.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn paths_run_on_every_compared_server_and_urls_on_their_own() {
        let p = plan(
            |o| o.compare = vec!["http://127.0.0.1:1".into(), "http://localhost:2/app".into()],
            &["/", "about", "http://127.0.0.1:3/x?y=1"],
        )
        .unwrap();
        assert_eq!(p.servers.len(), 3);
        assert_eq!(p.jobs.len(), 5);
        assert_eq!(p.groups, [vec![0, 1], vec![2, 3], vec![4]]);
        assert_eq!(p.jobs[3].url.to_string(), "http://localhost:2/app/about");
        assert_eq!(p.jobs[3].key(&p), "http://localhost:2/app /about");
        assert_eq!(p.jobs[4].key(&p), "http://127.0.0.1:3 /x?y=1");
    }

    #[test]
    fn the_base_alone_measures_its_root_page() {
        let p = plan(|o| o.base = Some("http://localhost:8080".into()), &[]).unwrap();
        assert_eq!(p.jobs.len(), 1);
        assert_eq!(p.jobs[0].page, "/");
        let e = plan(|_| {}, &[]).unwrap_err().to_string();
        assert!(e.contains("no page"), "{e}");
        let e = plan(|_| {}, &["/x"]).unwrap_err().to_string();
        assert!(e.contains("--base"), "{e}");
    }

    #[test]
    fn urls_of_one_server_share_it() {
        let p = plan(
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
            p.jobs.iter().map(|j| j.server).collect::<Vec<_>>(),
            [0, 0, 1]
        );
    }

    #[test]
    fn warmup_covers_every_connection() {
        let p = plan(
            |o| {
                o.warmup = 1;
                o.concurrency = 8;
                o.base = Some("http://h".into())
            },
            &[],
        )
        .unwrap();
        assert_eq!(p.warmup, 8);
        let p = plan(
            |o| {
                o.warmup = 20;
                o.base = Some("http://h".into())
            },
            &[],
        )
        .unwrap();
        assert_eq!(p.warmup, 20);
    }

    #[test]
    fn rounds_alternate_the_server_order_and_split_the_requests() {
        let p = plan(
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
                .map(|b| p.jobs[b.job].server)
                .collect::<Vec<_>>()
        };
        assert_eq!(order(&r[0]), [0, 1, 0, 1]);
        assert_eq!(order(&r[1]), [1, 0, 1, 0]);
        assert_eq!(order(&r[2]), [0, 1, 0, 1]);
        let counts: Vec<u64> = r.iter().map(|round| round[0].count).collect();
        assert_eq!(counts, [3, 2, 2]);
        for job in 0..p.jobs.len() {
            let total: u64 = r
                .iter()
                .flatten()
                .filter(|b| b.job == job)
                .map(|b| b.count)
                .sum();
            assert_eq!(total, 7);
        }
        let huge = plan(
            |o| {
                o.requests = 3;
                o.rounds = u64::MAX;
                o.base = Some("http://a".into())
            },
            &[],
        )
        .unwrap();
        assert_eq!(huge.rounds().len(), 3);
        let few = plan(
            |o| {
                o.requests = 1;
                o.rounds = 4;
                o.base = Some("http://a".into())
            },
            &[],
        )
        .unwrap();
        assert_eq!(few.rounds().len(), 1);
    }

    #[test]
    fn each_host_and_port_is_looked_up_once() {
        let mut p = plan(
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
        let p = plan(
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
        assert_eq!(p.total_requests(|j| j.server == 0), 30);
    }
}
