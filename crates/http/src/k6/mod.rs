//! `--tool=k6`: HTTP load handed to k6. yardstick writes a script from its
//! schedule (`plan`, `script`), runs it as one or more k6 instances, each
//! its execution segment (`instances`), reads their per-request output as
//! it streams (`output`) and makes the same rows the built-in client makes
//! from the pooled samples (`rows`), so medians and percentiles are
//! yardstick's own, never k6's summary. `manifest` writes the resources
//! that run the same script on a cluster through the k6 operator.

mod collect;
pub mod instances;
pub mod manifest;
pub mod output;
pub mod plan;
pub(crate) mod rows;
pub mod script;
pub mod series;

/// Most k6 instances one run starts (on this machine, or as pods).
pub const MAX_SEGMENTS: u64 = 64;

/// The most a ConfigMap holds (Kubernetes refuses more than 1 MiB), less
/// room for its other fields.
const MAX_CONFIG_MAP: usize = 1_000_000;

use super::job::{Job, Protocol, Tool};
use super::schedule::Schedule;
use super::tools::{self, handed, interrupt};
use super::url::Scheme;
use crate::document::run::Row;
use crate::error::Error;
use plan::{GRACE_MS, Plan};
use std::time::Duration;

/// Measures every visit of `schedule` with k6, telling `progress` of each
/// step; rows are in visit order.
pub(crate) fn run(
    schedule: &Schedule,
    job: &Job,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Row>, Error> {
    let plan = Plan::new(schedule, job)?;
    if let Some(dir) = &job.k6_logs {
        let output = collect::read(dir, plan.segments)?;
        return rows::rows(&plan, schedule, job, output);
    }
    check(schedule, job)?;
    let program = tools::require(Tool::K6)?;
    // Before the first instance starts, so that none outlives a signal.
    interrupt::catch()?;
    let limit = time_limit(&plan, schedule, job);
    let script = script::write(&plan, schedule, job, limit.as_secs());
    let dir = crate::private_tempdir().map_err(|e| {
        Error::Refused(format!(
            "--tool=k6: cannot make a folder for the script: {e}"
        ))
    })?;
    let path = dir.path().join("script.js");
    std::fs::write(&path, &script.text)
        .map_err(|e| Error::Refused(format!("--tool=k6: cannot write {}: {e}", path.display())))?;
    progress(&format!(
        "k6: {} blocks, {}, {} virtual users, {} segment(s)",
        plan.blocks.len(),
        plan.executor.as_str(),
        plan.vus,
        plan.segments
    ));
    let output = instances::run(&program, &path, &script.env, plan.segments, limit)?;
    rows::rows(&plan, schedule, job, output)
}

/// `yardstick k6 manifest`: the ConfigMap and TestRun that run `job` as
/// `--segments` pods under the k6 operator, as YAML. The pods resolve the
/// servers' names themselves, so every server counts as off this machine:
/// the safety caps apply unless `--force`. A run with credentials needs
/// the Secret they are read from (`secret`); the variables it must hold
/// are returned beside the YAML.
pub fn manifest(
    job: &Job,
    name: &str,
    secret: Option<&str>,
) -> Result<(String, Vec<String>), Error> {
    let schedule = Schedule::new(job, given_pages(job, "k6 manifest")?)?;
    super::safety::check(&schedule, job)?;
    check(&schedule, job)?;
    let plan = Plan::new(&schedule, job)?;
    let limit = time_limit(&plan, &schedule, job);
    let script = script::write(&plan, &schedule, job, limit.as_secs());
    if script.text.len() > MAX_CONFIG_MAP {
        return Err(Error::usage(format!(
            "k6 manifest: the script is {} bytes, and a ConfigMap holds at most {MAX_CONFIG_MAP}: \
             give fewer pages, servers or rounds",
            script.text.len()
        )));
    }
    let variables: Vec<String> = script
        .env
        .iter()
        .zip(&script.env_headers)
        .map(|((v, _), header)| format!("{v} (the {header} header)"))
        .collect();
    if !variables.is_empty() && secret.is_none() {
        return Err(Error::usage(format!(
            "k6 manifest: the run carries credentials, which pods read from a Secret: create one \
             with the keys {} and name it with --secret=NAME",
            variables.join(", ")
        )));
    }
    let manifest = manifest::Manifest {
        name: name.to_string(),
        parallelism: u32::try_from(plan.segments).unwrap_or(u32::MAX),
        script: script.text,
        secret: secret.map(str::to_string),
    };
    let yaml = manifest.to_yaml().map_err(Error::Refused)?;
    Ok((yaml, variables))
}

/// The pages `--url` and `--urls-file` give: a run on a cluster, or read
/// back from one, never finds them from the site.
pub(crate) fn given_pages(job: &Job, command: &str) -> Result<Vec<String>, Error> {
    let pages = super::given_pages(job)?;
    if pages.is_empty() {
        return Err(Error::usage(format!(
            "{command}: name the pages with --url or --urls-file (the pages of a cluster run \
             are not found from the site)"
        )));
    }
    Ok(pages)
}

/// Refuses what k6 cannot be given safely or cannot do as asked.
fn check(schedule: &Schedule, job: &Job) -> Result<(), Error> {
    tools::check_options(Tool::K6, job)?;
    handed::check(Tool::K6, schedule, job)?;
    // The scheme each protocol cannot be had over, and why.
    let (scheme, why) = match job.protocol {
        Protocol::Negotiated => return Ok(()),
        Protocol::Http2 => (
            Scheme::Http,
            "--http=2 needs https: k6 speaks HTTP/2 only over TLS",
        ),
        Protocol::Http1 => (
            Scheme::Https,
            "--http=1.1 cannot be held to over TLS: k6 offers HTTP/2 whatever it is told; \
             leave --http out, or use another tool",
        ),
    };
    match schedule.visits.iter().find(|v| v.url.scheme == scheme) {
        Some(visit) => Err(Error::usage(format!("--tool=k6: {why} ({})", visit.url))),
        None => Ok(()),
    }
}

/// The longest an instance may run: every request of a virtual user timing
/// out one after the other (counted), or every block's time and grace
/// (timed), plus a minute to start and report.
fn time_limit(plan: &Plan, schedule: &Schedule, job: &Job) -> Duration {
    if plan.executor.is_counted() {
        let warm = plan
            .warm_per_vu
            .saturating_mul(plan.vus)
            .saturating_mul(schedule.visits.len() as u64);
        return tools::invocation::time_limit(job, plan.total().saturating_add(warm), plan.vus);
    }
    let blocks = plan.blocks.len() as u64;
    let ms = blocks.saturating_mul(plan.block_ms + GRACE_MS);
    Duration::from_millis(ms.saturating_add(60_000))
}
