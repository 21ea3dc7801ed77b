//! `cargo test` runs the bench target without `--bench`: then every probe
//! runs once with its check, as one test each, through libtest-mimic, so a
//! broken probe fails the test suite long before anyone times it.

use crate::probe::{self, Probe};
use libtest_mimic::{Arguments, Failed, Trial};

/// Runs every registered probe once as a test; returns the process exit code.
pub fn run(args: Vec<String>) -> i32 {
    let args = Arguments::from_iter(args);
    let probes = match probe::registered() {
        Ok(p) => p,
        Err(err) => {
            eprintln!("error: {err}");
            return 2;
        }
    };
    let trials = probes.into_iter().map(trial).collect();
    if libtest_mimic::run(&args, trials).has_failed() {
        101
    } else {
        0
    }
}

fn trial(p: &'static Probe) -> Trial {
    Trial::test(p.name, move || verify_once(p))
}

/// Prepares and verifies one probe, then runs one more iteration through the
/// timed path so that path is exercised too.
fn verify_once(p: &Probe) -> Result<(), Failed> {
    let mut instance = (p.prepare)().map_err(Failed::from)?;
    instance
        .verify()
        .map_err(|e| Failed::from(format!("check failed: {e}")))?;
    instance.run(1);
    Ok(())
}
