//! How [`probe!`](macro@crate::probe) picks a result's fingerprint without
//! specialisation: by method resolution at the result's concrete type
//! ("autoref specialisation").
//!
//! The macro writes `(&&&Of(result)).fingerprint()` with the three traits
//! below in scope. The compiler tries the receiver `&&&Of` first, where
//! only [`ByChecksum`] applies (if the result implements
//! [`Checksum`](super::Checksum)); then, one reference fewer, [`ByHash`]
//! (if it implements `Hash`); then [`Unfingerprinted`], which always
//! applies. So a type with both takes its `Checksum` (floats and the
//! collections of them have no `Hash`; a result with a cheap `Checksum`
//! keeps it), and a type with neither still compiles, unfingerprinted.
//!
//! This works only where the type is concrete, which is why the choice is
//! made in the macro's expansion and handed to the generic code as a plain
//! `fn(&T) -> Option<u64>`.

use super::checksum::{Checksum, hash_fingerprint};
use std::hash::Hash;

/// A result, wrapped so that the three traits can be tried in order.
pub struct Of<'a, T: ?Sized>(pub &'a T);

/// First choice: the result's own [`Checksum`].
pub trait ByChecksum {
    /// The result's fingerprint.
    fn fingerprint(&self) -> Option<u64>;
}

impl<T: Checksum + ?Sized> ByChecksum for &&Of<'_, T> {
    fn fingerprint(&self) -> Option<u64> {
        Some(self.0.checksum())
    }
}

/// Second choice: the result's `Hash`, through the fixed
/// [`FingerprintHasher`](super::FingerprintHasher).
pub trait ByHash {
    /// The result's fingerprint.
    fn fingerprint(&self) -> Option<u64>;
}

impl<T: Hash + ?Sized> ByHash for &Of<'_, T> {
    fn fingerprint(&self) -> Option<u64> {
        Some(hash_fingerprint(self.0))
    }
}

/// Last choice: a result with neither has no fingerprint.
pub trait Unfingerprinted {
    /// Nothing.
    fn fingerprint(&self) -> Option<u64>;
}

impl<T: ?Sized> Unfingerprinted for Of<'_, T> {
    fn fingerprint(&self) -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    #[allow(unused_imports)]
    use super::{ByChecksum, ByHash, Of, Unfingerprinted};
    use crate::Checksum;

    #[derive(Hash)]
    struct Hashed(u32, String);
    struct Opaque;
    /// Both: its `Checksum` wins.
    #[derive(Hash)]
    struct Both;
    impl Checksum for Both {
        fn checksum(&self) -> u64 {
            7
        }
    }

    /// What `probe!` writes, at `value`'s concrete type.
    macro_rules! fingerprint {
        ($value:expr) => {
            (&&&Of(&$value)).fingerprint()
        };
    }

    #[test]
    fn checksum_first_then_hash_then_nothing() {
        assert_eq!(fingerprint!(2.5f64), Some(2.5f64.to_bits()));
        assert_eq!(fingerprint!(Both), Some(7));
        let hashed = fingerprint!(Hashed(1, "a".into()));
        assert!(hashed.is_some());
        assert_ne!(hashed, fingerprint!(Hashed(1, "b".into())));
        assert_eq!(fingerprint!(Opaque), None);
        // Collections of Hash-only types go by Hash as a whole.
        assert!(fingerprint!(vec![Hashed(1, "a".into())]).is_some());
    }
}
