//! Measuring a plan with the built-in client: sets up TLS and the tokio
//! runtime, runs the session, and turns its results into rows and pairs.

use super::client::Client;
use super::connect::{self, Connector};
use super::measure;
use super::options::Options;
use super::plan::Plan;
use super::session;
use super::tls;
use super::url::Scheme;
use crate::document::run::{Row, ServerPair};
use crate::error::Error;
use std::sync::Arc;

/// Measures every job of `plan`; rows are in job order.
pub fn run(
    plan: &Plan,
    o: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<Row>, Vec<ServerPair>), Error> {
    let needs_tls = plan.servers.iter().any(|s| s.url.scheme == Scheme::Https);
    let tls = if needs_tls {
        Some(tls::config(o.insecure, o.protocol).map_err(Error::Refused)?)
    } else {
        None
    };
    let connector = Connector {
        protocol: o.protocol,
        addresses: connect::addresses_of(plan),
        tls,
    };
    let client = Arc::new(Client::new(o, connector).map_err(Error::Usage)?);
    let runtime = runtime(plan.concurrency)?;
    let (results, opened) = runtime.block_on(session::run(plan, client, &mut *progress));
    for (server, n) in plan.servers.iter().zip(&opened) {
        progress(&format!("{}: {n} connections opened", server.name));
    }
    let rows: Vec<Row> = plan
        .jobs
        .iter()
        .zip(&results)
        .map(|(job, result)| {
            measure::row(
                job.key(plan),
                job.page.clone(),
                plan.servers[job.server].name.clone(),
                job.url.to_string(),
                result,
            )
        })
        .collect();
    let pairs = measure::pairs(plan, &rows);
    Ok((rows, pairs))
}

/// A runtime with as many worker threads as requests can be in flight, up
/// to the machine's CPUs: more would only add hand-overs between threads.
fn runtime(concurrency: u64) -> Result<tokio::runtime::Runtime, Error> {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = usize::try_from(concurrency)
        .unwrap_or(usize::MAX)
        .clamp(1, cpus);
    let built = if workers == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build()
    };
    built.map_err(|e| Error::Refused(format!("cannot start the HTTP client: {e}")))
}
