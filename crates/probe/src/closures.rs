//! How a probe written as closures becomes an [`Instance`]: the generic
//! half of [`probe!`](macro@crate::probe). The builder (`build`) puts the
//! closures together; this file runs them.
//!
//! One iteration is a [`Work`]: [`Plain`] calls `run(&state)`; [`Fed`]
//! first makes a fresh input with `setup_each(&state)`, untimed, and calls
//! `run(&state, input)`. Fed inputs are made before the timed section, a
//! chunk at a time (see [`Fed`]), and each iteration consumes one.

use super::Instance;
use std::hint::black_box;
use std::time::{Duration, Instant};

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
    /// Makes the inputs of up to `iterations` iterations; returns how many
    /// the next [`Work::run`] may take.
    fn make_inputs(&mut self, state: &S, iterations: u64) -> u64;
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

    fn make_inputs(&mut self, _: &S, iterations: u64) -> u64 {
        iterations
    }

    #[inline]
    fn run(&mut self, state: &S, iterations: u64) {
        for _ in 0..iterations {
            black_box((self.0)(black_box(state)));
        }
    }
}

/// Inputs alive at once, at most: one chunk of a batch.
pub(crate) const MAX_INPUTS: u64 = 1 << 16;
/// Bytes of inputs alive at once, at most, counting each input's own size
/// (`size_of`; what it owns on the heap is bounded by [`INPUT_TIME`]).
pub(crate) const INPUT_BYTES: usize = 16 << 20;
/// A chunk stops growing once making it took this long. Making an input
/// writes the memory it holds, and a core writes a few GB a second, so this
/// bounds a chunk's heap to some tens of MB.
pub(crate) const INPUT_TIME: Duration = Duration::from_millis(5);

/// An iteration with an input of its own: `setup_each(&state)` makes it,
/// untimed, and `run(&state, input)` consumes it.
///
/// A batch lasts about a millisecond, so a fast iteration makes for a large
/// batch, and a batch's inputs all made at once could hold gigabytes. So
/// they are made a chunk at a time: at most [`MAX_INPUTS`] inputs, at most
/// [`INPUT_BYTES`] of them by their own size, and no more than take
/// [`INPUT_TIME`] to make. The harness times each chunk's iterations and
/// adds the times up (see `measure::sample`); the batch stays the batch.
pub struct Fed<I, M, R> {
    pub(super) make: M,
    pub(super) run: R,
    /// Inputs made and not yet consumed, in order.
    pub(super) inputs: Vec<I>,
}

impl<I, M, R> Fed<I, M, R> {
    /// The most inputs one chunk holds.
    fn chunk_limit() -> u64 {
        let by_size = INPUT_BYTES / std::mem::size_of::<I>().max(1);
        MAX_INPUTS.min(by_size.max(1) as u64)
    }
}

impl<S, I, T, M, R> Work<S> for Fed<I, M, R>
where
    M: Fn(&S) -> I,
    R: Fn(&S, I) -> T,
{
    type Output = T;

    fn once(&mut self, state: &S) -> T {
        let input = (self.make)(state);
        (self.run)(state, input)
    }

    fn make_inputs(&mut self, state: &S, iterations: u64) -> u64 {
        let wanted = iterations.min(Self::chunk_limit());
        let started = Instant::now();
        while (self.inputs.len() as u64) < wanted {
            self.inputs.push((self.make)(state));
            if started.elapsed() >= INPUT_TIME {
                break;
            }
        }
        (self.inputs.len() as u64).min(iterations)
    }

    #[inline]
    fn run(&mut self, state: &S, iterations: u64) {
        let ready = self.inputs.len().min(iterations as usize);
        for input in self.inputs.drain(..ready) {
            black_box((self.run)(black_box(state), input));
        }
        // Inputs nobody made beforehand (a caller that skipped
        // `make_inputs`, such as a test's single run) are made here.
        for _ in ready as u64..iterations {
            let input = (self.make)(state);
            black_box((self.run)(black_box(state), input));
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

    fn make_inputs(&mut self, iterations: u64) -> u64 {
        self.work.make_inputs(&self.state, iterations)
    }

    #[inline(never)]
    fn run(&mut self, iterations: u64) {
        self.work.run(&self.state, iterations);
    }
}
