//! The builder [`probe!`](macro@crate::probe) expands to: one call per
//! field, in a fixed order whatever the order written, so that each
//! closure's argument types are known when it is type-checked.
//!
//! ```text
//! setup(f) | stateless()          Start
//!   [.each(make)]                 Each        per-iteration inputs
//!   .run(run)                     Ran
//!   .fingerprint(f)               Ran         chosen by the macro (see `fingerprint`)
//!   .check(check) | .unchecked()  Ready
//!   .note(note)                   Ready
//!   .build()                      Result<Box<dyn Instance>, String>
//! ```
//!
//! The closures' shapes follow from what the probe has, as
//! [`probe!`](crate::probe!) documents for its users.

use super::Instance;
use super::closures::{Closures, Fed, Note, Plain, Work};
use std::fmt::Display;
use std::marker::PhantomData;

/// The probe has a `setup`: its closures take `&state`.
pub struct Stateful;
/// The probe has no `setup`: its closures take no state.
pub struct Stateless;

/// The set-up has run (or there is none).
pub struct Start<S, K> {
    state: Result<S, String>,
    kind: PhantomData<K>,
}

/// A probe with per-iteration inputs, before its `run`.
pub struct Each<S, K, I, M> {
    state: Result<S, String>,
    make: M,
    kind: PhantomData<(K, fn() -> I)>,
}

/// A probe with its work, before its check.
pub struct Ran<S, K, W: Work<S>> {
    state: Result<S, String>,
    work: W,
    fingerprint: fn(&W::Output) -> Option<u64>,
    kind: PhantomData<K>,
}

/// A probe with everything but, perhaps, its note.
pub struct Ready<S, W: Work<S>, C> {
    state: Result<S, String>,
    work: W,
    fingerprint: fn(&W::Output) -> Option<u64>,
    check: C,
    checked: bool,
    note: Note<S>,
}

/// A probe without `setup`.
pub fn stateless() -> Start<(), Stateless> {
    Start {
        state: Ok(()),
        kind: PhantomData,
    }
}

/// A probe with `setup`, which runs now (untimed); its error fails the
/// probe.
pub fn setup<S, E: Display>(setup: impl FnOnce() -> Result<S, E>) -> Start<S, Stateful> {
    Start {
        state: setup().map_err(|e| format!("setup failed: {e}")),
        kind: PhantomData,
    }
}

impl<S, K> Start<S, K> {
    fn ran<W: Work<S>>(self, work: W) -> Ran<S, K, W> {
        Ran {
            state: self.state,
            work,
            fingerprint: |_| None,
            kind: PhantomData,
        }
    }

    fn each<I, M>(self, make: M) -> Each<S, K, I, M> {
        Each {
            state: self.state,
            make,
            kind: PhantomData,
        }
    }
}

impl<S> Start<S, Stateful> {
    /// `setup_each: |state| input`.
    pub fn setup_each<I, M: Fn(&S) -> I>(self, make: M) -> Each<S, Stateful, I, M> {
        self.each(make)
    }

    /// `run: |state| result`.
    pub fn run<T, R: Fn(&S) -> T>(self, run: R) -> Ran<S, Stateful, Plain<R>> {
        self.ran(Plain(run))
    }
}

impl Start<(), Stateless> {
    /// `setup_each: || input`.
    pub fn setup_each<I>(self, make: impl Fn() -> I) -> Each<(), Stateless, I, impl Fn(&()) -> I> {
        self.each(move |_: &()| make())
    }

    /// `run: || result`.
    pub fn run<T>(self, run: impl Fn() -> T) -> Ran<(), Stateless, Plain<impl Fn(&()) -> T>> {
        self.ran(Plain(move |_: &()| run()))
    }
}

impl<S, K, I, M> Each<S, K, I, M> {
    fn fed<T, R>(self, run: R) -> Ran<S, K, Fed<I, M, R>>
    where
        M: Fn(&S) -> I,
        R: Fn(&S, I) -> T,
    {
        let work = Fed {
            make: self.make,
            run,
            inputs: Vec::new(),
        };
        Start::<S, K> {
            state: self.state,
            kind: PhantomData,
        }
        .ran(work)
    }
}

impl<S, I, M: Fn(&S) -> I> Each<S, Stateful, I, M> {
    /// `run: |state, input| result`.
    pub fn run<T, R: Fn(&S, I) -> T>(self, run: R) -> Ran<S, Stateful, Fed<I, M, R>> {
        self.fed(run)
    }
}

impl<I, M: Fn(&()) -> I> Each<(), Stateless, I, M> {
    /// `run: |input| result`.
    pub fn run<T>(self, run: impl Fn(I) -> T) -> StatelessFed<I, M, impl Fn(&(), I) -> T> {
        self.fed(move |_: &(), input: I| run(input))
    }
}

/// What a check returns: `Ok(())`, or why the result is wrong.
type Verdict = Result<(), String>;
type CheckFn<S, T> = fn(&S, &T) -> Verdict;
/// A probe without state, with per-iteration inputs.
type StatelessFed<I, M, R> = Ran<(), Stateless, Fed<I, M, R>>;

impl<S, K, W: Work<S>> Ran<S, K, W> {
    /// How the result is fingerprinted (the macro picks it by type).
    pub fn fingerprint(mut self, fingerprint: fn(&W::Output) -> Option<u64>) -> Self {
        self.fingerprint = fingerprint;
        self
    }

    /// No check: the probe is timed unverified, and its note says so.
    pub fn unchecked(self) -> Ready<S, W, CheckFn<S, W::Output>> {
        self.ready(|_, _| Ok(()), false)
    }

    fn ready<C>(self, check: C, checked: bool) -> Ready<S, W, C> {
        Ready {
            state: self.state,
            work: self.work,
            fingerprint: self.fingerprint,
            check,
            checked,
            note: Note::Fixed(""),
        }
    }
}

impl<S, W: Work<S>> Ran<S, Stateful, W> {
    /// `check: |state, result| Ok(())`.
    pub fn check<C>(self, check: C) -> Ready<S, W, C>
    where
        C: Fn(&S, &W::Output) -> Result<(), String>,
    {
        self.ready(check, true)
    }
}

impl<W: Work<()>> Ran<(), Stateless, W> {
    /// `check: |result| Ok(())`.
    pub fn check(
        self,
        check: impl Fn(&W::Output) -> Verdict,
    ) -> Ready<(), W, impl Fn(&(), &W::Output) -> Verdict> {
        self.ready(move |_: &(), out: &W::Output| check(out), true)
    }
}

impl<S, W: Work<S>, C> Ready<S, W, C> {
    /// `note: "text"` or `note: |state| text`.
    pub fn note(mut self, note: Note<S>) -> Self {
        self.note = note;
        self
    }

    /// The probe, ready to be verified and timed; the error is its
    /// set-up's.
    pub fn build(self) -> Result<Box<dyn Instance>, String>
    where
        S: 'static,
        W: 'static,
        C: Fn(&S, &W::Output) -> Result<(), String> + 'static,
    {
        Ok(Box::new(Closures {
            state: self.state?,
            work: self.work,
            check: self.check,
            checked: self.checked,
            note: self.note,
            fingerprint: self.fingerprint,
            checksum: None,
        }))
    }
}

/// The six-field form in one call, for the harness's own tests: `setup`,
/// `run`, `check`, `note`, fingerprinted by [`Checksum`](super::Checksum).
#[doc(hidden)]
pub fn prepare<S, E, T, R, C>(
    setup_fn: impl FnOnce() -> Result<S, E>,
    run: R,
    check: C,
    note: Note<S>,
) -> Result<Box<dyn Instance>, String>
where
    S: 'static,
    E: Display,
    T: super::Checksum + 'static,
    R: Fn(&S) -> T + 'static,
    C: Fn(&S, &T) -> Result<(), String> + 'static,
{
    setup(setup_fn)
        .run(run)
        .fingerprint(|out| Some(out.checksum()))
        .check(check)
        .note(note)
        .build()
}
