//! A counted matrix: each configuration runs once as a counted bench run
//! (`BENCH --bench --metric=...`, which runs each probe under callgrind),
//! and its rows are read back from the JSON it prints. A count is exact,
//! so one run per configuration is all the evidence there is; a bench that
//! ends without a run is its configuration's lost worker.

use super::Measurement;
use super::options::MatrixOptions;
use crate::commands::interleave::Configuration;
use crate::document::run::{Metric, Row};
use crate::document::store;
use crate::error::Error;
use crate::judge::matrix::{Evidence, Given, Observed};
use std::process::{Command, Stdio};

/// Counts every configuration in turn, the base first.
pub(super) fn measure(
    o: &MatrixOptions,
    configurations: &[Configuration],
    metric: Metric,
) -> Result<Measurement, Error> {
    let mut given = Vec::new();
    let mut rows = Vec::new();
    for (c, configuration) in configurations.iter().enumerate() {
        if !o.common.quiet {
            eprintln!(
                "counting {} ({} of {})",
                configuration.name,
                c + 1,
                configurations.len()
            );
        }
        let (probes, lost) = match count(o, configuration, metric) {
            Ok(counted) => {
                let probes = counted.iter().map(|row| observed(row, metric)).collect();
                if c == 0 {
                    rows = counted;
                }
                (probes, None)
            }
            Err(why) => (Default::default(), Some(why)),
        };
        given.push(Given {
            name: configuration.name.clone(),
            probes,
            lost,
        });
    }
    Ok(Measurement {
        given,
        rows,
        samples_per_round: Vec::new(),
    })
}

/// A counted row as the rule takes it.
fn observed(row: &Row, metric: Metric) -> (String, Observed) {
    let failure = (row.errors > 0).then(|| {
        row.error_messages
            .keys()
            .next()
            .cloned()
            .unwrap_or_else(|| row.note.clone())
    });
    let observed = Observed {
        evidence: Evidence::Count(row.figure(metric)),
        checksum: row.checksum,
        failure,
    };
    (row.key.clone(), observed)
}

/// One counted run of `configuration`: its rows, or why it gave none.
fn count(o: &MatrixOptions, c: &Configuration, metric: Metric) -> Result<Vec<Row>, String> {
    let mut cmd = Command::new(&c.path);
    cmd.args(["--bench", "-q", "--no-baseline", "--json"])
        .arg(format!("--metric={}", metric.as_str()))
        .args(o.sampling.probes.iter().map(|p| format!("--probe={p}")))
        .args(o.sampling.min_batch.map(|k| format!("--min-batch={k}")))
        .arg(format!(
            "--probe-timeout={}",
            o.sampling.probe_timeout.as_secs_f64()
        ))
        .args(&c.args)
        .envs(c.env.iter().map(|(k, v)| (k, v)))
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null());
    let out = cmd
        .output()
        .map_err(|e| format!("{}: cannot run: {e}", c.path.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    // 0, or 1 for a probe that failed (its row says which); anything else
    // is a run that did not finish, whatever it printed.
    let finished = matches!(out.status.code(), Some(0 | 1));
    match store::parse(&stdout) {
        Ok(run) if finished => Ok(run.rows),
        parsed => {
            let why = parsed
                .err()
                .unwrap_or_else(|| "it did not finish".to_string());
            let stderr = String::from_utf8_lossy(&out.stderr);
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
            Err(format!(
                "{} gave no finished run ({}): {}",
                c.path.display(),
                out.status,
                last.map_or(why, str::to_string)
            ))
        }
    }
}
