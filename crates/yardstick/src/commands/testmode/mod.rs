//! `cargo test` runs the bench target without `--bench`: then every probe
//! runs once with its check, as one test each, with libtest's command line
//! and output (`harness`), so a broken probe fails the test suite long
//! before anyone times it. A contender of a group must also give its
//! reference's result. Each process probe runs one child, which must
//! signal ready and exit 0.

mod harness;

use crate::error::Error;
use crate::measure::process::run_child;
use crate::probe::{self, Probe, ProcessProbe, Role};
use harness::{Args, Trial};
use std::process::Command;
use std::time::Duration;

/// How long a process probe's one child may run: micro mode's default
/// `--probe-timeout`.
const CHILD_TIMEOUT: Duration = Duration::from_secs(120);

/// Runs every registered probe of `suite` once as a test; returns the
/// process exit code. `args` are libtest's, after the program's name.
pub(crate) fn run(args: Vec<String>, suite: &str) -> Result<i32, Error> {
    let args = Args::parse(args)?;
    let registered = probe::registered().and_then(|p| Ok((p, probe::process::registered()?)));
    let (probes, processes) = match registered {
        Ok(both) => both,
        Err(err) => return Err(Error::input(err)),
    };
    let ours = |s: &str| s == suite;
    let reference_of = |p: &Probe| {
        let v = p.variant.filter(|v| v.role == Role::Contender)?;
        let is_reference = |r: &&&Probe| {
            r.variant
                .is_some_and(|w| w.group == v.group && w.role == Role::Reference)
        };
        probes.iter().find(is_reference).copied()
    };
    let mut trials: Vec<Trial> = probes
        .iter()
        .filter(|p| ours(p.suite))
        .map(|p| trial(p, reference_of(p)))
        .collect();
    trials.extend(
        processes
            .into_iter()
            .filter(|p| ours(p.suite))
            .map(process_trial),
    );
    Ok(if harness::run(&args, trials) { 0 } else { 101 })
}

fn trial(p: &'static Probe, reference: Option<&'static Probe>) -> Trial {
    Trial {
        name: p.name,
        run: Box::new(move || verify_once(p, reference)),
    }
}

/// Prepares and verifies one probe, then runs one more iteration through the
/// timed path so that path is exercised too; a contender's result must
/// then be its `reference`'s.
fn verify_once(p: &Probe, reference: Option<&Probe>) -> Result<(), String> {
    let mut instance = (p.prepare)()?;
    instance
        .verify()
        .map_err(|e| format!("check failed: {e}"))?;
    let checksum = instance.checksum();
    instance.run(1);
    if let Some(r) = reference {
        let mut theirs = (r.prepare)().map_err(|e| format!("reference {}: {e}", r.name))?;
        theirs
            .verify()
            .map_err(|e| format!("reference {}: check failed: {e}", r.name))?;
        let name = r.variant.map_or(r.name, |v| v.name);
        probe::variant::agreement(checksum, theirs.checksum(), name)?;
    }
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
