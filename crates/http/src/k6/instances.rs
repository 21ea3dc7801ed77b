//! Running a script as N k6 instances on this machine, each given its
//! execution segment and the shared sequence, their per-request output
//! read as it streams ([`output::Reader`]) and merged into one set of
//! series. A failed instance fails the run: a merge of the instances that
//! did run is never presented as the whole; the others are stopped.

use super::output::Reader;
use super::series::Output;
use crate::error::Error;
use crate::process::{Stopped, run_within};
use crate::tools::interrupt;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The arguments every instance runs k6 with: its points on its standard
/// output, nothing else there, and no report sent anywhere.
pub const ARGUMENTS: [&str; 6] = [
    "--quiet",
    "--no-summary",
    "--no-usage-report",
    "--out",
    "json=/dev/stdout",
    "--log-output=stderr",
];

/// Segment `index` of `of` as k6 writes it (`1/3:2/3`, its fractions
/// reduced: `1/4:1/2`), and the sequence of `of` equal segments
/// (`0,1/3,2/3,1`).
pub fn segment(index: u64, of: u64) -> (String, String) {
    let fraction = |i: u64| match i {
        0 => "0".to_string(),
        i if i == of => "1".to_string(),
        i => {
            let g = gcd(i, of);
            format!("{}/{}", i / g, of / g)
        }
    };
    let sequence: Vec<String> = (0..=of).map(fraction).collect();
    (
        format!("{}:{}", fraction(index), fraction(index + 1)),
        sequence.join(","),
    )
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

/// The command line of instance `index` of `of` running `script`.
pub fn args(script: &Path, index: u64, of: u64) -> Vec<String> {
    let mut a = vec!["run".to_string()];
    a.extend(ARGUMENTS.iter().map(|s| s.to_string()));
    if of > 1 {
        let (segment, sequence) = segment(index, of);
        a.push(format!("--execution-segment={segment}"));
        a.push(format!("--execution-segment-sequence={sequence}"));
    }
    a.push(script.display().to_string());
    a
}

/// Runs `script` as `of` instances of `program` at once, each within
/// `limit`, with `env` added to its environment, and merges their series.
pub fn run(
    program: &Path,
    script: &Path,
    env: &[(String, String)],
    of: u64,
    limit: Duration,
) -> Result<Output, Error> {
    let failed = AtomicBool::new(false);
    let results: Vec<Result<Output, Ended>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..of)
            .map(|index| {
                let failed = &failed;
                s.spawn(move || {
                    let r = instance(program, script, env, index, of, limit, failed);
                    if r.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Ended::Failed("its reader stopped".to_string())))
            })
            .collect()
    });
    if let Some(signal) = interrupt::caught() {
        return Err(Error::Refused(format!(
            "k6: stopped by {}: its processes were killed",
            interrupt::name(signal)
        )));
    }
    // The first instance that failed on its own says why; the others were
    // stopped because of it.
    let mut merged = Output::default();
    let mut stopped = None;
    for (index, result) in results.into_iter().enumerate() {
        let name = if of > 1 {
            format!("k6 segment {}", segment(index as u64, of).0)
        } else {
            "k6".to_string()
        };
        match result {
            Ok(output) => merged.merge(output),
            Err(Ended::Stopped) => stopped = Some(name),
            Err(Ended::Failed(m)) => {
                return Err(Error::Refused(format!("{name}: {m}; nothing was saved")));
            }
        }
    }
    match stopped {
        Some(name) => Err(Error::Refused(format!("{name}: stopped"))),
        None => Ok(merged),
    }
}

/// How an instance ended short of its output.
enum Ended {
    /// Stopped because another instance failed (or a signal came).
    Stopped,
    /// Failed on its own, for this reason.
    Failed(String),
}

/// Runs instance `index` of `of`; `failed` says another has failed (and
/// stops this one).
fn instance(
    program: &Path,
    script: &Path,
    env: &[(String, String)],
    index: u64,
    of: u64,
    limit: Duration,
    failed: &AtomicBool,
) -> Result<Output, Ended> {
    let mut command = Command::new(program);
    command.args(args(script, index, of));
    for (name, value) in env {
        command.env(name, value);
    }
    let stop = || interrupt::caught().is_some() || failed.load(Ordering::SeqCst);
    let done = run_within(&mut command, limit, &stop, Reader::new()).map_err(|e| match e {
        Stopped::Asked => Ended::Stopped,
        other => Ended::Failed(other.to_string()),
    })?;
    if !done.status.success() {
        let stderr = String::from_utf8_lossy(&done.stderr);
        let why = stderr
            .lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty())
            .unwrap_or("no message");
        return Err(Ended::Failed(format!("exited with {}: {why}", done.status)));
    }
    done.stdout
        .finish()
        .map_err(|e| Ended::Failed(format!("its output, {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_equal_parts_of_one_sequence() {
        assert_eq!(segment(0, 1), ("0:1".to_string(), "0,1".to_string()));
        assert_eq!(
            segment(1, 3),
            ("1/3:2/3".to_string(), "0,1/3,2/3,1".to_string())
        );
        assert_eq!(segment(2, 3).0, "2/3:1");
        // As k6 reports a segment: reduced.
        assert_eq!(
            segment(1, 4),
            ("1/4:1/2".to_string(), "0,1/4,1/2,3/4,1".to_string())
        );
        let a = args(Path::new("s.js"), 1, 2);
        assert!(
            a.contains(&"--execution-segment=1/2:1".to_string()),
            "{a:?}"
        );
        assert!(
            a.contains(&"--execution-segment-sequence=0,1/2,1".to_string()),
            "{a:?}"
        );
        assert_eq!(a.last().map(String::as_str), Some("s.js"));
        assert!(
            !args(Path::new("s.js"), 0, 1)
                .iter()
                .any(|a| a.contains("segment"))
        );
    }
}
