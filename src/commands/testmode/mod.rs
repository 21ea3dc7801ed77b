//! `cargo test` runs the bench target without `--bench`: then every probe
//! runs once with its check, as one test each, with libtest's command line
//! and output (`harness`), so a broken probe fails the test suite long
//! before anyone times it. Each process probe runs one child, which must
//! signal ready and exit 0.

mod harness;

use crate::error::Error;
use crate::measure::process::run_child;
use crate::probe::{self, Probe, ProcessProbe};
use harness::{Args, Trial};
use std::process::Command;
use std::time::Duration;

/// How long a process probe's one child may run: micro mode's default
/// `--probe-timeout`.
const CHILD_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs every registered probe of `suite` once as a test; returns the
/// process exit code. `args` are libtest's, after the program's name.
pub fn run(args: Vec<String>, suite: &str) -> Result<i32, Error> {
    let args = Args::parse(args)?;
    let registered = probe::registered().and_then(|p| Ok((p, probe::process::registered()?)));
    let (probes, processes) = match registered {
        Ok(both) => both,
        Err(err) => return Err(Error::input(err)),
    };
    let ours = |s: &str| s == suite;
    let mut trials: Vec<Trial> = probes
        .into_iter()
        .filter(|p| ours(p.suite))
        .map(trial)
        .collect();
    trials.extend(
        processes
            .into_iter()
            .filter(|p| ours(p.suite))
            .map(process_trial),
    );
    Ok(if harness::run(&args, trials) { 0 } else { 101 })
}

fn trial(p: &'static Probe) -> Trial {
    Trial {
        name: p.name,
        run: Box::new(move || verify_once(p)),
    }
}

/// Prepares and verifies one probe, then runs one more iteration through the
/// timed path so that path is exercised too.
fn verify_once(p: &Probe) -> Result<(), String> {
    let mut instance = (p.prepare)()?;
    instance
        .verify()
        .map_err(|e| format!("check failed: {e}"))?;
    instance.run(1);
    Ok(())
}

fn process_trial(p: &'static ProcessProbe) -> Trial {
    Trial {
        name: p.name,
        run: Box::new(move || child_once(p)),
    }
}

/// Starts one child of a process probe, as `cargo bench` would, and
/// fails unless it signals ready and exits 0.
fn child_once(p: &ProcessProbe) -> Result<(), String> {
    let program = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    let mut command = Command::new(program);
    command.args(["--bench", &format!("--process-child={}", p.name)]);
    run_child(command, CHILD_TIMEOUT)?;
    Ok(())
}
