//! The light half of yardstick: what a crate that registers probes links,
//! with no dependency but `inventory`. A probe's descriptor and the
//! registry that collects them, the counting allocator a bench installs
//! ([`alloc`]), and the one way the project replaces a file ([`fs`]). A
//! library that registers probes beside the code they time depends on
//! this crate alone; the harness (crate `yardstick`), which its bench
//! depends on, re-exports all of it.
//!
//! Probes register themselves with [`probe!`](macro@crate::probe) through the
//! `inventory` crate, so a team adds a probe in the file where its work lives
//! and never edits a central list. The harness only sees the type-erased
//! [`Probe`] descriptor; the probe's own types stay inside its
//! [`Instance`].

#![warn(missing_docs)]

pub mod alloc;
#[doc(hidden)]
pub mod build;
mod checksum;
mod closures;
#[doc(hidden)]
pub mod fingerprint;
pub mod fs;
mod macros;
pub mod param;
pub mod process;
mod process_macro;
pub mod variant;

#[doc(hidden)]
pub use build::prepare;
pub use checksum::{Checksum, FingerprintHasher};
pub use closures::Note;
pub use param::{Param, param};
pub use process::{Child, ProcessProbe};
pub use variant::{Role, Variant};

#[doc(hidden)]
pub use inventory;

/// One registered probe: a fixed amount of real work, timed by the harness.
///
/// Built by [`probe!`](macro@crate::probe); read by the runner.
pub struct Probe {
    /// Unique snake_case name, the probe's key in saved runs.
    pub name: &'static str,
    /// Operations one iteration stands for (files parsed, URLs routed, ...).
    pub ops: u64,
    /// The bench target that runs it: [`DEFAULT_SUITE`] unless the probe
    /// says `suite: kernel` (see `yardstick::main!`).
    pub suite: &'static str,
    /// The workload this probe is one implementation of, when it is (see
    /// [`variant`]): its variants are ranked against a reference.
    pub variant: Option<Variant>,
    /// Source location of the registration, to name both sides of a duplicate.
    pub file: &'static str,
    /// Source line of the registration.
    pub line: u32,
    /// Builds the probe's input (untimed) and returns the ready instance.
    pub prepare: fn() -> Result<Box<dyn Instance>, String>,
}

inventory::collect!(Probe);

/// The suite of a probe that names none, and of a bench whose `main!`
/// names none: `cargo bench --bench micro`, or a user's own bench.
pub const DEFAULT_SUITE: &str = "micro";

/// The suite `cargo bench --bench kernel` runs: probes that hold state and
/// whole processes, judged as absolute times (kernel mode).
pub const KERNEL_SUITE: &str = "kernel";

/// A probe whose untimed setup has run: the harness verifies it once, then
/// times batches of its work.
pub trait Instance {
    /// What the probe stands for, shown in the table ("7 settings files, ...").
    fn note(&self) -> String;
    /// Runs the work once and checks its result. A probe that fails here is
    /// reported as failed and never timed: timing a wrong answer measures
    /// nothing.
    fn verify(&mut self) -> Result<(), String>;
    /// The fingerprint of the result [`Instance::verify`] saw (see
    /// [`Checksum`]): one iteration's, so the same work gives the same
    /// figure at any batch. `None` before `verify`, or when the result has
    /// no fingerprint.
    fn checksum(&self) -> Option<u64> {
        None
    }
    /// Makes, untimed, the per-iteration inputs of the next
    /// [`Instance::run`] of up to `iterations` iterations, and returns how
    /// many iterations that run may take: all of them for a probe without
    /// inputs, fewer when their inputs would hold too much memory at once
    /// (the harness then times the batch chunk by chunk).
    fn make_inputs(&mut self, iterations: u64) -> u64 {
        iterations
    }
    /// Runs `iterations` iterations back to back, each result through
    /// `black_box`, consuming inputs [`Instance::make_inputs`] made (and
    /// making, inside the call, any it did not). The harness times the
    /// whole call; there is one dynamic call per sample, not per iteration.
    fn run(&mut self, iterations: u64);
}

/// Every registered probe, in a stable order: by name.
///
/// Refuses duplicate names with a message naming both registrations, because
/// a saved run keys its rows by name and two probes under one key would
/// compare nonsense; and groups of variants that could not be ranked (see
/// [`variant`]).
pub fn registered() -> Result<Vec<&'static Probe>, String> {
    let mut probes: Vec<&'static Probe> = inventory::iter::<Probe>.into_iter().collect();
    probes.sort_by(|a, b| {
        a.name
            .cmp(b.name)
            .then(a.file.cmp(b.file))
            .then(a.line.cmp(&b.line))
    });
    let named: Vec<_> = probes.iter().map(|p| (p.name, p.file, p.line)).collect();
    check_unique(&named)?;
    variant::check_groups(&probes)?;
    Ok(probes)
}

/// Refuses the first name that two neighbours of `sorted` (name, file,
/// line) share, naming both registrations.
fn check_unique(sorted: &[(&str, &str, u32)]) -> Result<(), String> {
    for pair in sorted.windows(2) {
        let ((name, file_a, line_a), (other, file_b, line_b)) = (pair[0], pair[1]);
        if name == other {
            return Err(format!(
                "duplicate probe name `{name}`: registered at {file_a}:{line_a} and at {file_b}:{line_b}"
            ));
        }
    }
    Ok(())
}

/// A probe for the harness's own tests, in this crate and in `yardstick`'s
/// measuring: `name`, one op, prepared by `prepare`, never registered.
#[doc(hidden)]
pub fn fake(name: &'static str, prepare: fn() -> Result<Box<dyn Instance>, String>) -> Probe {
    Probe {
        name,
        ops: 1,
        suite: crate::DEFAULT_SUITE,
        variant: None,
        file: "src/x.rs",
        line: 1,
        prepare,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_names_are_refused_naming_both() {
        fn unused() -> Result<Box<dyn Instance>, String> {
            Err("unused".into())
        }
        let at = |name, line| Probe {
            line,
            ..fake(name, unused)
        };
        let (a, b, c) = (at("same", 3), at("same", 9), at("other", 1));
        let named =
            |ps: &[&Probe]| -> Vec<_> { ps.iter().map(|p| (p.name, p.file, p.line)).collect() };
        let err = check_unique(&named(&[&c, &a, &b])).unwrap_err();
        assert!(err.contains("`same`"), "{err}");
        assert!(
            err.contains("src/x.rs:3") && err.contains("src/x.rs:9"),
            "{err}"
        );
        assert!(check_unique(&named(&[&c, &a])).is_ok());
    }
}
