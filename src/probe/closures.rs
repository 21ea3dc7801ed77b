//! How a probe written as closures (set-up, run, check) becomes an
//! [`Instance`]: the generic half of [`probe!`](macro@crate::probe).

use super::{Checksum, Instance};
use std::fmt::Display;
use std::hint::black_box;

/// The note of a probe: a fixed text, or one computed from its prepared state
/// ("`<file>`, 2,034 KB, 8,412 messages").
pub enum Note<S> {
    /// The same text every run.
    Fixed(&'static str),
    /// Computed from the state the set-up built.
    Computed(fn(&S) -> String),
}

/// A probe's set-up state and closures behind [`Instance`]: the harness
/// sees only the trait, the probe keeps its own types.
struct Closures<S, T, R, C>
where
    R: Fn(&S) -> T,
    C: Fn(&S, &T) -> Result<(), String>,
{
    state: S,
    run: R,
    check: C,
    note: Note<S>,
}

impl<S, T, R, C> Instance for Closures<S, T, R, C>
where
    T: Checksum,
    R: Fn(&S) -> T,
    C: Fn(&S, &T) -> Result<(), String>,
{
    fn note(&self) -> String {
        match &self.note {
            Note::Fixed(text) => (*text).to_string(),
            Note::Computed(f) => f(&self.state),
        }
    }

    fn verify(&mut self) -> Result<(), String> {
        let output = (self.run)(&self.state);
        (self.check)(&self.state, &output)
    }

    #[inline(never)]
    fn run(&mut self, iterations: u64) -> u64 {
        let mut sum = 0u64;
        for _ in 0..iterations {
            let output = black_box((self.run)(black_box(&self.state)));
            sum = sum.wrapping_add(output.checksum());
        }
        sum
    }
}

/// Called by [`probe!`](macro@crate::probe): runs the setup and wraps the probe's
/// closures behind [`Instance`]. Generic so that the closures' types are
/// inferred from the setup's output.
#[doc(hidden)]
pub fn prepare<S, E, T, R, C>(
    setup: impl FnOnce() -> Result<S, E>,
    run: R,
    check: C,
    note: Note<S>,
) -> Result<Box<dyn Instance>, String>
where
    S: 'static,
    E: Display,
    T: Checksum + 'static,
    R: Fn(&S) -> T + 'static,
    C: Fn(&S, &T) -> Result<(), String> + 'static,
{
    let state = setup().map_err(|e| format!("setup failed: {e}"))?;
    Ok(Box::new(Closures {
        state,
        run,
        check,
        note,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepared_probe_runs_verifies_and_folds() {
        let mut inst = prepare(
            || Ok::<_, String>(vec![3u64, 1, 2]),
            |v: &Vec<u64>| v.iter().sum::<u64>(),
            |_, out: &u64| {
                if *out == 6 {
                    Ok(())
                } else {
                    Err(format!("sum {out}"))
                }
            },
            Note::Computed(|v: &Vec<u64>| format!("{} numbers", v.len())),
        )
        .unwrap();
        assert_eq!(inst.note(), "3 numbers");
        assert!(inst.verify().is_ok());
        assert_eq!(inst.run(4), 24);
    }

    #[test]
    fn failing_check_and_setup_are_reported() {
        let mut inst = prepare(
            || Ok::<_, String>(1u32),
            |v: &u32| *v,
            |_, _: &u32| Err("wrong".to_string()),
            Note::Fixed("x"),
        )
        .unwrap();
        assert_eq!(inst.verify().unwrap_err(), "wrong");
        let err = prepare(
            || Err::<u32, _>("no file"),
            |v: &u32| *v,
            |_, _: &u32| Ok(()),
            Note::Fixed("x"),
        )
        .err()
        .unwrap();
        assert_eq!(err, "setup failed: no file");
    }
}
