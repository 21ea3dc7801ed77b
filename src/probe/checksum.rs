//! What a probe's result is folded into, so the optimiser cannot drop the
//! work that made it.

/// A value a probe's work produces, folded into the run's checksum so that
/// the optimiser cannot drop the work that made it.
///
/// Implement it for a probe's own result type with something cheap (a length,
/// a count): the fold runs inside the timed loop.
pub trait Checksum {
    /// A cheap fingerprint of the value (its length, its bits).
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
