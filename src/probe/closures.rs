//! How a probe written as closures becomes an [`Instance`]: the generic
//! half of [`probe!`](macro@crate::probe). The builder (`build`) puts the
//! closures together; this file runs them. One iteration is a [`Work`]:
//! [`Plain`] calls `run(&state)`.

use super::Instance;
use std::hint::black_box;

/// The note of a probe: a fixed text, or one computed from its prepared state
/// ("`<file>`, 2,034 KB, 8,412 messages").
pub enum Note<S> {
    /// The same text every run.
    Fixed(&'static str),
    /// Computed from the state the set-up built.
    Computed(fn(&S) -> String),
}

/// What one iteration of a probe does, with its state.
pub trait Work<S> {
    /// The result of one iteration.
    type Output;
    /// One iteration, input made and all, for the check.
    fn once(&mut self, state: &S) -> Self::Output;
    /// `iterations` iterations, each result through `black_box`.
    fn run(&mut self, state: &S, iterations: u64);
}

/// An iteration without an input of its own: `run(&state)`.
pub struct Plain<R>(pub(super) R);

impl<S, T, R: Fn(&S) -> T> Work<S> for Plain<R> {
    type Output = T;

    fn once(&mut self, state: &S) -> T {
        (self.0)(state)
    }

    #[inline]
    fn run(&mut self, state: &S, iterations: u64) {
        for _ in 0..iterations {
            black_box((self.0)(black_box(state)));
        }
    }
}

/// A probe's set-up state and closures behind [`Instance`]: the harness
/// sees only the trait, the probe keeps its own types.
pub struct Closures<S, W: Work<S>, C> {
    pub(super) state: S,
    pub(super) work: W,
    pub(super) check: C,
    /// Whether `check` verifies anything; without, the note says so.
    pub(super) checked: bool,
    pub(super) note: Note<S>,
    pub(super) fingerprint: fn(&W::Output) -> Option<u64>,
    /// The fingerprint of the result `verify` saw.
    pub(super) checksum: Option<u64>,
}

impl<S, W, C> Instance for Closures<S, W, C>
where
    W: Work<S>,
    C: Fn(&S, &W::Output) -> Result<(), String>,
{
    fn note(&self) -> String {
        let note = match &self.note {
            Note::Fixed(text) => (*text).to_string(),
            Note::Computed(f) => f(&self.state),
        };
        match (self.checked, note.is_empty()) {
            (true, _) => note,
            (false, true) => "unchecked".to_string(),
            (false, false) => format!("{note} (unchecked)"),
        }
    }

    fn verify(&mut self) -> Result<(), String> {
        let output = self.work.once(&self.state);
        self.checksum = (self.fingerprint)(&output);
        (self.check)(&self.state, &output)
    }

    fn checksum(&self) -> Option<u64> {
        self.checksum
    }

    #[inline(never)]
    fn run(&mut self, iterations: u64) {
        self.work.run(&self.state, iterations);
    }
}
