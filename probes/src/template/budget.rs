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
//! Neither bounds work that makes nothing: `{while true()}` testing an
//! 8 MB string with `|contains` each turn makes a boolean a turn, and
//! thirty levels of templates each including the next twice run 2^30
//! includes. So a render also has fuel: an operator that reads an operand
//! whole and makes little of it (`contains`, `eq`, `count`, `begins_with`,
//! `int`, a `hash` key) burns the bytes (or entries) of that operand past
//! [`SMALL_OPERAND`],
//! and every include burns [`INCLUDE_FUEL`] and its template's length in
//! instructions. Small operands burn nothing: the step limit bounds how
//! often an operator runs, as it always did, and an ordinary page pays one
//! comparison an operand of those operators.
//!
//! Operators cannot return errors, so an overspent budget is recorded and
//! the operator yields null; the renderer checks at each loop turn, each
//! include and the end, and stops with a positioned error.

use std::cell::Cell;

/// Values nested deeper than any design builds; guards every recursion
/// over a value.
pub const MAX_VALUE_DEPTH: u32 = 64;

/// What one include burns besides its instructions: the lookup, the
/// scope it binds and unbinds.
pub const INCLUDE_FUEL: u64 = 1024;

/// Operands of at most this many bytes burn no fuel.
pub const SMALL_OPERAND: usize = 256;

/// Why a render was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overspent {
    Bytes(u64),
    Depth,
    Fuel(u64),
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
            Overspent::Fuel(limit) => format!(
                "render stopped: its operators and includes would touch more than {limit} \
                 bytes of values and instructions (limit)"
            ),
        }
    }
}

#[derive(Debug)]
pub struct Budget {
    limit: u64,
    /// What may still be made: one subtraction a charge.
    left: Cell<u64>,
    fuel_limit: u64,
    /// What may still be touched.
    fuel: Cell<u64>,
    overspent: Cell<Option<Overspent>>,
}

impl Budget {
    /// A budget of `limit` bytes made, and fuel without end.
    pub fn new(limit: u64) -> Budget {
        Budget {
            limit,
            left: Cell::new(limit),
            fuel_limit: u64::MAX,
            fuel: Cell::new(u64::MAX),
            overspent: Cell::new(None),
        }
    }

    /// The same budget with `fuel` units to burn.
    pub fn with_fuel(mut self, fuel: u64) -> Budget {
        self.fuel_limit = fuel;
        self.fuel.set(fuel);
        self
    }

    /// Burns the fuel of an operand of `bytes`: nothing for a small one.
    #[inline]
    pub fn burn_operand(&self, bytes: usize) {
        if bytes > SMALL_OPERAND {
            self.burn(bytes as u64);
        }
    }

    /// Burns `units` of fuel; false (and recorded) once there is none.
    #[inline]
    pub fn burn(&self, units: u64) -> bool {
        match self.fuel.get().checked_sub(units) {
            Some(rest) => {
                self.fuel.set(rest);
                true
            }
            None => {
                self.fuel.set(0);
                self.overspent.set(Some(Overspent::Fuel(self.fuel_limit)));
                false
            }
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
    fn fuel_burns_to_its_limit_and_no_further() {
        let b = Budget::new(10).with_fuel(100);
        assert!(b.burn(60) && b.burn(40));
        assert_eq!(b.overspent(), None);
        assert!(!b.burn(1));
        assert_eq!(b.overspent(), Some(Overspent::Fuel(100)));
        assert!(
            Overspent::Fuel(100)
                .message()
                .contains("more than 100 bytes")
        );
    }

    #[test]
    fn a_huge_request_does_not_wrap() {
        let b = Budget::new(10);
        assert!(b.take(5));
        assert!(!b.fits(usize::MAX));
    }
}
