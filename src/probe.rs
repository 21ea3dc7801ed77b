//! A probe's descriptor and the registry that collects them.
//!
//! Probes register themselves with [`probe!`](crate::probe) through the
//! `inventory` crate, so a team adds a probe in the file where its work lives
//! and never edits a central list. The harness only sees the type-erased
//! [`Probe`] descriptor; the probe's own types stay inside its
//! [`Instance`].

use std::fmt::Display;
use std::hint::black_box;

/// One registered probe: a fixed amount of real work, timed by the harness.
///
/// Built by [`probe!`](crate::probe); read by the runner.
pub struct Probe {
    /// Unique snake_case name, the probe's key in saved runs.
    pub name: &'static str,
    /// Operations one iteration stands for (files parsed, URLs routed, ...).
    pub ops: u64,
    /// Source location of the registration, to name both sides of a duplicate.
    pub file: &'static str,
    pub line: u32,
    /// Builds the probe's input (untimed) and returns the ready instance.
    pub prepare: fn() -> Result<Box<dyn Instance>, String>,
}

inventory::collect!(Probe);

/// A probe whose untimed setup has run: the harness verifies it once, then
/// times batches of its work.
pub trait Instance {
    /// What the probe stands for, shown in the table ("7 settings files, ...").
    fn note(&self) -> String;
    /// Runs the work once and checks its result. A probe that fails here is
    /// reported as failed and never timed: timing a wrong answer measures
    /// nothing.
    fn verify(&mut self) -> Result<(), String>;
    /// Runs `iterations` iterations back to back and returns the folded
    /// checksum of their results. The harness times the whole call; there is
    /// one dynamic call per sample, not per iteration.
    fn run(&mut self, iterations: u64) -> u64;
}

/// A value a probe's work produces, folded into the run's checksum so that
/// the optimiser cannot drop the work that made it.
///
/// Implement it for a probe's own result type with something cheap (a length,
/// a count): the fold runs inside the timed loop.
pub trait Checksum {
    fn checksum(&self) -> u64;
}

macro_rules! checksum_as_u64 {
    ($($t:ty),*) => {$(
        impl Checksum for $t {
            fn checksum(&self) -> u64 { *self as u64 }
        }
    )*};
}
checksum_as_u64!(
    u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, bool, char
);

impl Checksum for f64 {
    fn checksum(&self) -> u64 {
        self.to_bits()
    }
}

impl Checksum for f32 {
    fn checksum(&self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Checksum for () {
    fn checksum(&self) -> u64 {
        0
    }
}

impl Checksum for String {
    fn checksum(&self) -> u64 {
        self.len() as u64
    }
}

impl Checksum for str {
    fn checksum(&self) -> u64 {
        self.len() as u64
    }
}

impl<T> Checksum for Vec<T> {
    fn checksum(&self) -> u64 {
        self.len() as u64
    }
}

impl<T> Checksum for [T] {
    fn checksum(&self) -> u64 {
        self.len() as u64
    }
}

impl<T: Checksum + ?Sized> Checksum for &T {
    fn checksum(&self) -> u64 {
        (**self).checksum()
    }
}

impl<T: Checksum + ?Sized> Checksum for Box<T> {
    fn checksum(&self) -> u64 {
        (**self).checksum()
    }
}

impl<T: Checksum> Checksum for Option<T> {
    fn checksum(&self) -> u64 {
        self.as_ref().map_or(u64::MAX, Checksum::checksum)
    }
}

impl<T: Checksum, E> Checksum for Result<T, E> {
    fn checksum(&self) -> u64 {
        self.as_ref().map_or(u64::MAX - 1, Checksum::checksum)
    }
}

macro_rules! checksum_tuple {
    ($($name:ident),+) => {
        impl<$($name: Checksum),+> Checksum for ($($name,)+) {
            #[allow(non_snake_case)]
            fn checksum(&self) -> u64 {
                let ($($name,)+) = self;
                let mut sum = 0u64;
                $( sum = sum.rotate_left(7) ^ $name.checksum(); )+
                sum
            }
        }
    };
}
checksum_tuple!(A);
checksum_tuple!(A, B);
checksum_tuple!(A, B, C);
checksum_tuple!(A, B, C, D);

/// The note of a probe: a fixed text, or one computed from its prepared state
/// ("<file>, 2,034 KB, 8,412 messages").
pub enum Note<S> {
    Fixed(&'static str),
    Computed(fn(&S) -> String),
}

struct Prepared<S, T, R, C>
where
    R: Fn(&S) -> T,
    C: Fn(&S, &T) -> Result<(), String>,
{
    state: S,
    run: R,
    check: C,
    note: Note<S>,
}

impl<S, T, R, C> Instance for Prepared<S, T, R, C>
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

/// Called by [`probe!`](crate::probe): runs the setup and wraps the probe's
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
    Ok(Box::new(Prepared {
        state,
        run,
        check,
        note,
    }))
}

/// Every registered probe, in a stable order: by name.
///
/// Refuses duplicate names with a message naming both registrations, because
/// a saved run keys its rows by name and two probes under one key would
/// compare nonsense.
pub fn registered() -> Result<Vec<&'static Probe>, String> {
    let mut probes: Vec<&'static Probe> = inventory::iter::<Probe>.into_iter().collect();
    probes.sort_by(|a, b| {
        a.name
            .cmp(b.name)
            .then(a.file.cmp(b.file))
            .then(a.line.cmp(&b.line))
    });
    check_unique(&probes)?;
    Ok(probes)
}

fn check_unique(sorted: &[&Probe]) -> Result<(), String> {
    for pair in sorted.windows(2) {
        if pair[0].name == pair[1].name {
            return Err(format!(
                "duplicate probe name `{}`: registered at {}:{} and at {}:{}",
                pair[0].name, pair[0].file, pair[0].line, pair[1].file, pair[1].line
            ));
        }
    }
    Ok(())
}

/// Registers a probe. One call, in the file where the probe's work lives.
///
/// ```
/// fn words(n: usize) -> Vec<String> {
///     (0..n).rev().map(|i| format!("w{i:04}")).collect()
/// }
///
/// yardstick::probe! {
///     name: words_sort,
///     ops: 1000,
///     note: "1,000 words sorted",
///     setup: || Ok::<_, String>(words(1000)),
///     run: |words: &Vec<String>| { let mut w = words.clone(); w.sort(); w },
///     check: |_, sorted: &Vec<String>| {
///         if sorted.windows(2).all(|p| p[0] <= p[1]) { Ok(()) } else { Err("not sorted".into()) }
///     },
/// }
/// # fn main() {
/// #     let p = yardstick::probe::registered().unwrap();
/// #     assert!(p.iter().any(|p| p.name == "words_sort"));
/// # }
/// ```
///
/// - `setup` runs once, untimed, and returns `Result<State, impl Display>`.
/// - `run` is the timed work, one iteration; its result goes through
///   `black_box` and into the run's checksum (see [`Checksum`]).
/// - `check` verifies one result before anything is timed.
/// - `note` is a string literal, or `|state| String` to describe the input.
#[macro_export]
macro_rules! probe {
    (
        name: $name:ident,
        ops: $ops:expr,
        note: $note:literal,
        setup: $setup:expr,
        run: $run:expr,
        check: $check:expr $(,)?
    ) => {
        $crate::probe!(@register $name, $ops, $crate::probe::Note::Fixed($note), $setup, $run, $check);
    };
    (
        name: $name:ident,
        ops: $ops:expr,
        note: $note:expr,
        setup: $setup:expr,
        run: $run:expr,
        check: $check:expr $(,)?
    ) => {
        $crate::probe!(@register $name, $ops, $crate::probe::Note::Computed($note), $setup, $run, $check);
    };
    (@register $name:ident, $ops:expr, $note:expr, $setup:expr, $run:expr, $check:expr) => {
        const _: () = {
            fn __yardstick_prepare()
                -> ::core::result::Result<::std::boxed::Box<dyn $crate::probe::Instance>, ::std::string::String>
            {
                $crate::probe::prepare($setup, $run, $check, $note)
            }
            $crate::inventory::submit! {
                $crate::probe::Probe {
                    name: ::core::stringify!($name),
                    ops: $ops,
                    file: ::core::file!(),
                    line: ::core::line!(),
                    prepare: __yardstick_prepare,
                }
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(name: &'static str, line: u32) -> Probe {
        fn prepare() -> Result<Box<dyn Instance>, String> {
            Err("unused".into())
        }
        Probe {
            name,
            ops: 1,
            file: "src/x.rs",
            line,
            prepare,
        }
    }

    #[test]
    fn duplicate_names_are_refused_naming_both() {
        let a = fake("same", 3);
        let b = fake("same", 9);
        let c = fake("other", 1);
        let err = check_unique(&[&c, &a, &b]).unwrap_err();
        assert!(err.contains("`same`"), "{err}");
        assert!(
            err.contains("src/x.rs:3") && err.contains("src/x.rs:9"),
            "{err}"
        );
        assert!(check_unique(&[&c, &a]).is_ok());
    }

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
