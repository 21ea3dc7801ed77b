//! What one render may spend besides loop steps: the bytes its operators
//! make and its output holds, and how deeply the values it builds nest.
//!
//! The step limit bounds time, not memory: forty `{set $s=concat($s,$s)}`
//! lines double a string forty times within forty steps. So every value an
//! operator makes is charged here, and the operators that can make more
//! than their operands hold (`concat`, `repeat`, `indent`, `merge`, ...)
//! ask first whether what they would make still fits, and make nothing
//! when it does not. Charges are never refunded: what a render has made is
//! an upper bound on what it holds, and it costs one addition to keep.
//!
//! Nesting is bounded for another reason: dropping, comparing or encoding a
//! value recurses through it, so `{set $a=array($a)}` in a long loop would
//! overflow the stack however few bytes it took.
//!
//! Operators cannot return errors, so an overspent budget is recorded and
//! the operator yields null; the renderer checks after each instruction
//! and stops with a positioned error.

use std::cell::Cell;

/// Values nested deeper than any design builds; guards every recursion
/// over a value.
pub const MAX_VALUE_DEPTH: u32 = 64;

/// Why a render was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overspent {
    Bytes(u64),
    Depth,
}

impl Overspent {
    /// The message for `budget`, which must have been overspent.
    pub fn message_of(budget: &Budget) -> String {
        budget
            .overspent()
            .unwrap_or(Overspent::Bytes(budget.limit))
            .message()
    }

    pub fn message(self) -> String {
        match self {
            Overspent::Bytes(limit) => format!(
                "render stopped: operators and output would take more than {limit} bytes (limit)"
            ),
            Overspent::Depth => format!(
                "render stopped: a value nested deeper than {MAX_VALUE_DEPTH} levels (limit)"
            ),
        }
    }
}

#[derive(Debug)]
pub struct Budget {
    limit: u64,
    /// What may still be made: one subtraction a charge.
    left: Cell<u64>,
    overspent: Cell<Option<Overspent>>,
}

impl Budget {
    pub fn new(limit: u64) -> Budget {
        Budget {
            limit,
            left: Cell::new(limit),
            overspent: Cell::new(None),
        }
    }

    /// Whether `bytes` more would still fit; records the overspend when
    /// not, so the caller can make nothing and return.
    #[inline]
    pub fn fits(&self, bytes: usize) -> bool {
        let fits = bytes as u64 <= self.left.get();
        if !fits {
            self.overspend();
        }
        fits
    }

    /// Whether what `exact` counts would fit, counted only when the cheap
    /// `upper` bound does not: the count is a pass over the operands,
    /// which an ordinary page should not pay for.
    #[inline]
    pub fn fits_within(&self, upper: usize, exact: impl FnOnce() -> usize) -> bool {
        upper as u64 <= self.left.get() || self.fits(exact())
    }

    /// What may still be made.
    pub fn remaining(&self) -> usize {
        usize::try_from(self.left.get()).unwrap_or(usize::MAX)
    }

    /// Takes `bytes` that were just made; false (and recorded) when they
    /// overspend the budget.
    #[inline]
    pub fn take(&self, bytes: usize) -> bool {
        let left = self.left.get();
        match left.checked_sub(bytes as u64) {
            Some(rest) => {
                self.left.set(rest);
                true
            }
            None => {
                self.overspend();
                false
            }
        }
    }

    #[cold]
    fn overspend(&self) {
        self.overspent.set(Some(Overspent::Bytes(self.limit)));
    }

    /// Records a value nested deeper than [`MAX_VALUE_DEPTH`].
    pub fn too_deep(&self) {
        self.overspent.set(Some(Overspent::Depth));
    }

    #[inline]
    pub fn overspent(&self) -> Option<Overspent> {
        self.overspent.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_add_up_to_the_limit_and_no_further() {
        let b = Budget::new(10);
        assert!(b.take(6));
        assert!(b.fits(4));
        assert_eq!(b.overspent(), None);
        assert!(!b.fits(5));
        assert_eq!(b.overspent(), Some(Overspent::Bytes(10)));
    }

    #[test]
    fn a_huge_request_does_not_wrap() {
        let b = Budget::new(10);
        assert!(b.take(5));
        assert!(!b.fits(usize::MAX));
    }
}
