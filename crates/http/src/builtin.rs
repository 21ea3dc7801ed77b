//! Measuring a schedule with the built-in client: sets up TLS and the
//! worker threads, runs the session, and turns its results into rows.

use super::client::Client;
use super::connect::Connector;
use super::job::Job;
use super::rows::{self, Labels};
use super::schedule::Schedule;
use super::session;
use crate::document::run::Row;
use crate::error::Error;
use std::sync::Arc;

/// Measures every visit of `schedule` as `job` asks, telling `progress` of
/// each step; rows are in visit order. Connections go only to the
/// addresses the schedule holds, so a caller that resolved it decides
/// where every request goes.
pub fn run(
    schedule: &Schedule,
    job: &Job,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Row>, Error> {
    let connector = Connector::of(job, schedule)?;
    let client = Arc::new(Client::new(job, connector).map_err(Error::Usage)?);
    let session = session::run(
        schedule,
        &client,
        (job.client_threads(schedule.concurrency), job.rate),
        progress,
    )?;
    for (server, n) in schedule.servers.iter().zip(&session.opened) {
        progress(&format!("{}: {n} connections opened", server.name));
    }
    let rows = schedule
        .visits
        .iter()
        .zip(session.visits)
        .map(|(visit, fetched)| rows::row(Labels::of(visit, schedule), fetched))
        .collect();
    Ok(rows)
}
