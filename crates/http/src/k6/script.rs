//! The k6 script of a plan: `script.js` with the plan's pages and k6's
//! options filled in as JSON. Credentials stay out of it: each is named
//! by an environment variable the script reads (`__ENV`), and handed to k6
//! in its environment, never on its command line or on disk.

use super::plan::{Block, Executor, GRACE_MS, Plan};
use crate::job::Job;
use crate::schedule::Schedule;
use crate::tools::handed;
use serde_json::{Map, Value, json};

/// The script's text, before its two constants are filled in.
const TEMPLATE: &str = include_str!("script.js");

/// k6's tags kept on each point: what the output's reader needs, and no
/// URL (a cold run's are all different). A timed run keeps the scenario
/// too: the iterations an arrival rate drops carry no other tag.
const SYSTEM_TAGS: [&str; 5] = ["status", "error", "expected_response", "name", "proto"];

/// A script and the environment it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    /// The script's text.
    pub text: String,
    /// Variables k6 must be given (credentials).
    pub env: Vec<(String, String)>,
    /// For each of `env`, the header it is the value of.
    pub env_headers: Vec<String>,
}

/// The script of `plan`, whose blocks are visits of `schedule`; `limit`
/// is the longest a counted scenario may run, in seconds.
pub fn write(plan: &Plan, schedule: &Schedule, job: &Job, limit: u64) -> Script {
    let mut env: Vec<(String, String)> = Vec::new();
    let mut env_headers = Vec::new();
    let blocks: Vec<Value> = plan
        .blocks
        .iter()
        .map(|b| block(b, schedule, job, &mut env, &mut env_headers))
        .collect();
    let plan_json = json!({
        "blocks": blocks,
        "ends": plan.ends(),
        "perVu": plan.executor == Executor::PerVuIterations,
        "warm": plan.warm_per_vu,
        "cold": job.cold,
        "timeout": format!("{}ms", job.timeout.as_millis().max(1)),
    });
    let options = json!({
        "discardResponseBodies": true,
        "insecureSkipTLSVerify": job.insecure,
        "noConnectionReuse": !job.keepalive,
        "systemTags": system_tags(plan),
        "scenarios": scenarios(plan, schedule, limit),
    });
    let (head, rest) = TEMPLATE.split_once("__PLAN__").unwrap_or((TEMPLATE, ""));
    let (middle, tail) = rest.split_once("__OPTIONS__").unwrap_or((rest, ""));
    let text = format!("{head}{plan_json}{middle}{options:#}{tail}");
    Script {
        text,
        env,
        env_headers,
    }
}

/// One block as the script reads it; its credentials are added to `env`
/// (once each) and named by their variables.
fn block(
    b: &Block,
    schedule: &Schedule,
    job: &Job,
    env: &mut Vec<(String, String)>,
    env_headers: &mut Vec<String>,
) -> Value {
    let visit = &schedule.visits[b.visit];
    let server = &schedule.servers[visit.server];
    let handed = handed::hand(job, visit, server.addresses.first());
    let mut headers = Map::new();
    for line in &handed.headers {
        if let Some((name, value)) = line.split_once(':') {
            headers.insert(name.trim().to_string(), Value::from(value.trim()));
        }
    }
    let secrets: Vec<Value> = handed
        .secrets
        .into_iter()
        .map(|(name, value)| {
            let index = match env.iter().position(|(_, v)| *v == value) {
                Some(i) => i,
                None => {
                    env.push((format!("YARDSTICK_K6_SECRET_{}", env.len()), value));
                    env_headers.push(name.clone());
                    env.len() - 1
                }
            };
            json!([name, env[index].0])
        })
        .collect();
    json!({
        "visit": b.visit,
        "url": handed.url,
        "headers": headers,
        "secrets": secrets,
        "tags": tags(b, schedule),
    })
}

/// The tags every request of block `b` carries: its series. The server is
/// tagged by its place in the run, not its name: two servers may share a
/// name (a server compared with itself), never a place.
fn tags(b: &Block, schedule: &Schedule) -> Value {
    let visit = &schedule.visits[b.visit];
    json!({
        "name": visit.page,
        "server": visit.server.to_string(),
        "round": b.round.to_string(),
    })
}

fn system_tags(plan: &Plan) -> Vec<&'static str> {
    let mut tags = SYSTEM_TAGS.to_vec();
    if !plan.executor.is_counted() {
        tags.push("scenario");
    }
    tags
}

/// k6's scenarios: one for a counted run, one per block for a timed one.
fn scenarios(plan: &Plan, schedule: &Schedule, limit: u64) -> Value {
    let mut out = Map::new();
    match plan.executor {
        Executor::SharedIterations | Executor::PerVuIterations => {
            let ends = plan.ends();
            let iterations = ends.last().copied().unwrap_or(0);
            let vus = match plan.executor {
                // k6 refuses more users than iterations to share.
                Executor::SharedIterations => plan.vus.min(iterations).max(1),
                _ => plan.vus,
            };
            out.insert(
                "requests".into(),
                json!({
                    "executor": plan.executor.as_str(),
                    "vus": vus,
                    "iterations": iterations,
                    "maxDuration": format!("{limit}s"),
                }),
            );
        }
        Executor::ConstantVus | Executor::ConstantArrivalRate => {
            for (k, b) in plan.blocks.iter().enumerate() {
                out.insert(scenario(k), timed_scenario(plan, k as u64, b, schedule));
            }
            // One iteration on each instance (a virtual user a segment),
            // once every block has had its time and grace.
            let blocks = plan.blocks.len() as u64;
            out.insert(
                END.into(),
                json!({
                    "executor": "per-vu-iterations",
                    "vus": plan.segments.max(1),
                    "iterations": 1,
                    "startTime": format!("{}ms", blocks * (plan.block_ms + GRACE_MS) + END_AFTER_MS),
                    "maxDuration": "30s",
                    "exec": "end",
                }),
            );
        }
    }
    Value::Object(out)
}

/// The scenario of a timed run's end mark.
pub(crate) const END: &str = "end";

/// Milliseconds between the last block's grace and the end mark, so that
/// the iterations the grace interrupted have ended.
const END_AFTER_MS: u64 = 200;

/// The name of a timed run's scenario of block `k`, which the script reads
/// back (`timed()`) and k6 tags its dropped iterations with.
pub(crate) fn scenario(k: usize) -> String {
    format!("b{k}")
}

/// The scenario of block `b`, the `k`-th: it starts once the blocks before
/// it have had their time and their grace.
fn timed_scenario(plan: &Plan, k: u64, b: &Block, schedule: &Schedule) -> Value {
    let mut s = json!({
        "executor": plan.executor.as_str(),
        "duration": format!("{}ms", plan.block_ms),
        "startTime": format!("{}ms", k * (plan.block_ms + GRACE_MS)),
        "gracefulStop": format!("{GRACE_MS}ms"),
        "exec": "timed",
        "tags": tags(b, schedule),
    });
    match plan.rate {
        Some(rate) => {
            // k6's rate is a whole number per time unit.
            let (rate, unit) = if rate.fract() == 0.0 {
                (rate as u64, "1s")
            } else {
                ((rate * 1000.0).round() as u64, "1000s")
            };
            s["rate"] = json!(rate.max(1));
            s["timeUnit"] = json!(unit);
            s["preAllocatedVUs"] = json!(plan.vus);
            s["maxVUs"] = json!(plan.vus);
        }
        None => s["vus"] = json!(plan.vus),
    }
    s
}

#[cfg(test)]
mod tests;
