//! `yardstick http`'s command line, defined once: every option's name,
//! value, help and what it sets in [`HttpOptions`]. The parser takes
//! options by it and `--help` is made from it (see
//! [`crate::commands::flags`]).

use super::options::{
    HttpOptions, auth, encoding, header, header_name, list, non_empty, protocol, rate, resolve,
    secret_header, share, tool,
};
use crate::commands::common::{self, Common};
use crate::commands::flags::{Def, Entry, Number, Options, Preset, Seconds, Section, Set, Spec};
use crate::document::comparison::Method;
use crate::judge::{default_min_delta, default_threshold};

/// HTTP's `--min-delta` default, as the judge states it.
const MIN_DELTA: f64 = match default_min_delta(&Method::Http) {
    Some(ms) => ms,
    None => panic!("HTTP times take a minimum delta"),
};
use crate::http::discover::{SearchWords, Seed};
use crate::http::job::Job;
use crate::http::k6::MAX_SEGMENTS;

/// `yardstick http`'s command line: what `--help` prints, and what the
/// parser takes.
pub(crate) static SPEC: Spec<HttpOptions> = Spec {
    command: "http",
    usage: "usage: yardstick http [OPTIONS]",
    about: "Measures pages as a visitor gets them, with the statistics, formats and
baseline comparison of micro mode.",
    sections: &[
        Section {
            title: Some("Pages and servers"),
            entries: &[
                Entry::Own(Def {
                    long: "url",
                    short: None,
                    value: Some("URL_OR_PATH"),
                    help: "a page (repeatable; an absolute URL names its own server)",
                    set: Set::Text(|o, v, option| {
                        o.job.urls.push(non_empty(v, option)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "urls-file",
                    short: None,
                    value: Some("FILE"),
                    help: "pages one per line, # comments",
                    set: Set::Path(|o, p| o.job.urls_file = Some(p)),
                }),
                Entry::Own(Def {
                    long: "base",
                    short: None,
                    value: Some("URL"),
                    help: "the server of relative pages; without --url, its pages are found from its sitemap",
                    set: Set::Text(|o, v, option| {
                        o.job.base = Some(non_empty(v, option)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "compare",
                    short: None,
                    value: Some("A,B[,C...]"),
                    help: "measure several servers back to back, each later one compared with the first (information)",
                    set: Set::Text(|o, v, option| {
                        o.job.compare = list(&non_empty(v, option)?, option)?;
                        Ok(())
                    }),
                }),
            ],
        },
        Section {
            title: Some("Pages found from the site (no --url given)"),
            entries: &[
                Entry::Own(Def {
                    long: "pages",
                    short: None,
                    value: Some("N"),
                    help: "menu pages after the front page, by the sitemap's priority; 0: none",
                    set: Set::Number(PAGES, |o, n, option| {
                        o.job.seed.pages = n;
                        o.seed_given(option);
                    }),
                }),
                Entry::Own(Def {
                    long: "search",
                    short: None,
                    value: Some("WORDS"),
                    help: "the search page's words (default: a word of the first menu page's URL alias, else the site's short name)",
                    set: Set::Text(|o, v, option| {
                        if o.job.seed.search == SearchWords::Off {
                            return Err(search_twice());
                        }
                        o.job.seed.search = SearchWords::Given(non_empty(v, option)?);
                        o.seed_given(option);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "no-search",
                    short: None,
                    value: None,
                    help: "leave the search page out",
                    set: Set::Flag(|o, option| {
                        if matches!(o.job.seed.search, SearchWords::Given(_)) {
                            return Err(search_twice());
                        }
                        o.job.seed.search = SearchWords::Off;
                        o.seed_given(option);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "no-admin",
                    short: None,
                    value: None,
                    help: "leave the login page out",
                    set: Set::Flag(|o, option| {
                        o.job.seed.admin = false;
                        o.seed_given(option);
                        Ok(())
                    }),
                }),
            ],
        },
        Section {
            title: Some("How to measure"),
            entries: &[
                Entry::Own(Def {
                    long: "requests",
                    short: None,
                    value: Some("N"),
                    help: "measured requests per page and server; also --runs",
                    set: Set::Number(REQUESTS, |o, n, _| o.job.requests = n),
                }),
                Entry::Own(Def {
                    long: "runs",
                    short: None,
                    value: Some("N"),
                    help: "",
                    set: Set::Number(REQUESTS, |o, n, _| o.job.requests = n),
                }),
                Entry::Own(Def {
                    long: "warmup",
                    short: None,
                    value: Some("N"),
                    help: "unmeasured requests first, at least one per connection",
                    set: Set::Number(WARMUP, |o, n, _| o.job.warmup = n),
                }),
                Entry::Own(Def {
                    long: "concurrency",
                    short: None,
                    value: Some("N"),
                    help: "requests in flight",
                    set: Set::Number(CONCURRENCY, |o, n, _| o.job.concurrency = n),
                }),
                Entry::OwnStating(
                    Def {
                        long: "threads",
                        short: None,
                        value: Some("N"),
                        help: "the built-in client's worker threads, never more than --concurrency; by default one per so many connections, up to the machine's CPUs: a thread the load does not need takes a core from a server on the same machine",
                        set: Set::Text(|o, v, option| {
                            let n =
                                crate::commands::flags::bounded(v, option, 1, Job::MAX_THREADS)?;
                            o.job.threads = Some(n);
                            Ok(())
                        }),
                    },
                    &[Preset::when("one per", Job::CONNECTIONS_PER_THREAD as f64)],
                ),
                Entry::Own(Def {
                    long: "rounds",
                    short: None,
                    value: Some("N"),
                    help: "rounds; the order of servers is reversed every other round",
                    set: Set::Number(ROUNDS, |o, n, _| o.job.rounds = n),
                }),
                Entry::Own(Def {
                    long: "cold",
                    short: None,
                    value: None,
                    help: "a unique _bench= query parameter on every request, so caches pass it by",
                    set: Set::Switch(|o| o.job.cold = true),
                }),
                Entry::Own(Def {
                    long: "cold-clear",
                    short: None,
                    value: Some("TOKEN_FILE"),
                    help: "clear each server's cache once first (a PURGE with the token in the file, to the purge endpoint a server on this machine publishes), then no warm-up: each page's first request is rendered from scratch",
                    set: Set::Path(|o, p| o.job.cold_clear = Some(p)),
                }),
                Entry::Own(Def {
                    long: "cache-header",
                    short: None,
                    value: Some("NAME"),
                    help: "the header whose values are counted per row (default X-Cache)",
                    set: Set::Text(|o, v, option| {
                        o.job.cache_header = header_name(&non_empty(v, option)?, option)?;
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "no-keepalive",
                    short: None,
                    value: None,
                    help: "a new connection for every request",
                    set: Set::Switch(|o| o.job.keepalive = false),
                }),
                Entry::Own(Def {
                    long: "http",
                    short: None,
                    value: Some("1.1|2"),
                    help: "the protocol (default: negotiated)",
                    set: Set::Text(|o, v, _| {
                        o.job.protocol = protocol(v)?;
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "encoding",
                    short: None,
                    value: Some("gzip|br|none"),
                    help: "Accept-Encoding (default gzip)",
                    set: Set::Text(|o, v, _| {
                        o.job.encoding = encoding(v)?;
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "timeout",
                    short: None,
                    value: Some("SECONDS"),
                    help: "per request",
                    set: Set::Seconds(
                        Seconds {
                            default: Job::TIMEOUT.as_secs(),
                            max: Seconds::DAY,
                        },
                        |o, d| o.job.timeout = d,
                    ),
                }),
                Entry::Own(Def {
                    long: "auth",
                    short: None,
                    value: Some("USER:PASSWORD"),
                    help: "basic auth (or YARDSTICK_AUTH); never saved",
                    set: Set::Text(|o, v, _| {
                        o.job.auth = Some(auth(v)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "header",
                    short: None,
                    value: Some("\"Name: value\""),
                    help: "an extra header (repeatable)",
                    set: Set::Text(|o, v, option| {
                        o.job.headers.push(header(v, option)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "secret-header",
                    short: None,
                    value: Some("\"Name: value\""),
                    help: "a header whose value is hidden in saves and output (repeatable; or YARDSTICK_SECRET_HEADERS, one a line)",
                    set: Set::Text(|o, v, option| {
                        secret_header(&mut o.job, v, option)?;
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "cookie",
                    short: None,
                    value: Some("COOKIE"),
                    help: "the Cookie header (hidden)",
                    set: Set::Text(|o, v, option| {
                        o.job.cookie = Some(non_empty(v, option)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "resolve",
                    short: None,
                    value: Some("HOST:PORT:ADDRESS"),
                    help: "connect to ADDRESS for HOST:PORT (repeatable)",
                    set: Set::Text(|o, v, _| {
                        o.job.resolve.push(resolve(v)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "insecure",
                    short: None,
                    value: None,
                    help: "accept any TLS certificate",
                    set: Set::Switch(|o| o.job.insecure = true),
                }),
                Entry::Own(Def {
                    long: "tool",
                    short: None,
                    value: Some("TOOL"),
                    help: "builtin, ab, wrk, oha, h2load or k6 (default builtin)",
                    set: Set::Text(|o, v, _| {
                        o.job.tool = tool(v)?;
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "duration",
                    short: None,
                    value: Some("SECONDS"),
                    help: "seconds of load per page and server: wrk always, k6 and the built-in client when given (k6's constant-vus); the other tools refuse it",
                    set: Set::Number(
                        Number {
                            default: Job::DURATION,
                            min: 1,
                            max: Seconds::DAY,
                        },
                        |o, seconds, _| o.job.duration = Some(seconds),
                    ),
                }),
                Entry::Own(Def {
                    long: "rate",
                    short: None,
                    value: Some("PER_SECOND"),
                    help: "start this many requests a second, whatever the server's pace, each timed from its planned start (an open model): the built-in client for --duration or until --requests are sent, k6 for --duration",
                    set: Set::Text(|o, v, _| {
                        o.job.rate = Some(rate(v)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "segments",
                    short: None,
                    value: Some("N"),
                    help: "with --tool=k6: split the load over N k6 instances, each its execution segment",
                    set: Set::Number(
                        Number {
                            default: Job::SEGMENTS,
                            min: 1,
                            max: MAX_SEGMENTS,
                        },
                        |o, n, _| o.job.segments = n,
                    ),
                }),
                Entry::Own(Def {
                    long: "force",
                    short: None,
                    value: None,
                    help: "lift the caps on servers that are not loopback (on requests per page, at a time, of warm-up and in all: a refusal names the one met) and allow an https name with a tool",
                    set: Set::Switch(|o| o.job.force = true),
                }),
            ],
        },
        Section {
            title: Some("How to judge"),
            entries: &[
                Entry::SharedAs(
                    &common::BASELINE,
                    "judge against this saved HTTP run (default: none)",
                ),
                Entry::SharedAs(&common::NO_BASELINE, "judge against nothing"),
                Entry::Stating(
                    &common::THRESHOLD,
                    "how much slower the median or p95 regresses",
                    &[Preset::always(default_threshold(&Method::Http))],
                ),
                Entry::Stating(
                    &common::MIN_DELTA,
                    "and by how many milliseconds at least",
                    &[Preset::always(MIN_DELTA)],
                ),
                Entry::SharedAs(
                    &common::CROSS_MACHINE,
                    "judge loopback times against a run of another machine class too",
                ),
                Entry::OwnStating(
                    Def {
                        long: "max-failures",
                        short: None,
                        value: Some("PCT"),
                        help: "fail the run when more than PCT % of its requests failed; with a baseline and no PCT, failures are judged against the baseline's",
                        set: Set::Text(|o, v, option| {
                            o.job.max_failures = Some(share(v, option)?);
                            Ok(())
                        }),
                    },
                    &[Preset::when("without a baseline", Job::MAX_FAILURES_ALONE)],
                ),
                Entry::Shared(&common::CROSS_TOOL),
                Entry::Shared(&common::ALL_CHECKS),
            ],
        },
        Section {
            title: Some("Output"),
            entries: &[
                Entry::SharedGroup(common::OUTPUT),
                Entry::Shared(&common::SAVE),
                Entry::Shared(&common::EXPORT_MARKDOWN),
                Entry::Shared(&common::RECORD),
                Entry::Shared(&common::HISTORY),
                Entry::Shared(&common::HTML),
            ],
        },
    ],
    notes: "",
    exit: common::EXIT_CODES,
    refuses: &[(
        "max-machine-slowdown",
        "pages are timed without a calibration loop",
    )],
};

impl Options for HttpOptions {
    fn common(&mut self) -> Option<&mut Common> {
        Some(&mut self.common)
    }
}

/// `--search` and `--no-search` both given.
fn search_twice() -> crate::error::Error {
    crate::error::Error::usage(
        "--search names the search page's words, --no-search leaves it out: give one of them",
    )
}

/// `--pages`: menu pages found from the site after the front page.
const PAGES: Number = Number {
    default: Seed::PAGES,
    min: 0,
    max: u64::MAX,
};

/// `--requests` (and `--runs`): measured requests per page and server.
const REQUESTS: Number = Number {
    default: Job::REQUESTS,
    min: 1,
    max: u64::MAX,
};

/// `--warmup`: unmeasured requests per page and server first (raised to
/// one per connection).
const WARMUP: Number = Number {
    default: Job::WARMUP,
    min: 0,
    max: u64::MAX,
};

/// `--concurrency`: requests in flight. Each is a connection, a task and
/// its buffers; far past this the client measures itself.
const CONCURRENCY: Number = Number {
    default: Job::CONCURRENCY,
    min: 1,
    max: 10_000,
};

/// `--rounds`: the parts the requests are split into.
const ROUNDS: Number = Number {
    default: Job::ROUNDS,
    min: 1,
    max: u64::MAX,
};
