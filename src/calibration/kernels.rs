//! Narrow calibration kernels, each stressing one part of the machine.
//!
//! The mixed loop stands for "the machine's speed" as a whole, but a shared
//! machine does not slow down evenly: a neighbour that thrashes the memory
//! bus slows a probe that chases pointers far more than one that adds
//! integers. Each kernel here is timed next to every probe sample too, so a
//! baseline built from several runs can learn which one moves with each
//! probe (see `baseline`) and divide by that one.
//!
//! Each kernel takes well under a millisecond on a current machine, is
//! deterministic, and has its checksum pinned by a test: a kernel the
//! compiler optimised away would make every ratio over it meaningless.

use std::hint::black_box;

/// One kind of work a kernel does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kernel {
    /// Integer multiply, add, rotate: four dependent chains.
    Alu,
    /// A data-dependent branch that no predictor guesses.
    Branchy,
    /// A dependent walk over a 64 MiB table: memory latency and the TLB.
    Memory,
    /// Allocating and freeing blocks of varied sizes.
    Alloc,
}

impl Kernel {
    pub const ALL: [Kernel; 4] = [Kernel::Alu, Kernel::Branchy, Kernel::Memory, Kernel::Alloc];

    /// The kernel's name in runs and baselines.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Alu => "alu",
            Kernel::Branchy => "branchy",
            Kernel::Memory => "memory",
            Kernel::Alloc => "alloc",
        }
    }

    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The checksum one run of the kernel must give.
    pub fn expected(self) -> u64 {
        match self {
            Kernel::Alu => 7_138_337_771_068_902_681,
            Kernel::Branchy => 6_345_625_184_970_730_800,
            Kernel::Memory => 4_074_343_999_303_584_201,
            Kernel::Alloc => 4_535_792,
        }
    }
}

const ALU_STEPS: u64 = 360_000;
const BRANCHY_STEPS: u64 = 50_000;
/// Entries of the memory kernel's table: 8 Mi × 8 bytes = 64 MiB, more than
/// any cache, whatever size the machine reports.
const TABLE_ENTRIES: usize = 8 << 20;
const MEMORY_STEPS: u64 = 10_000;
const ALLOCATIONS: u64 = 12_000;
/// Blocks kept alive at once by the allocation kernel.
const LIVE: usize = 512;

/// The kernels with what they need prepared: the memory kernel's table is
/// filled once, not timed.
pub struct Kernels {
    table: Vec<u64>,
}

impl Kernels {
    pub fn new() -> Kernels {
        let table = (0..TABLE_ENTRIES as u64).map(splitmix).collect();
        Kernels { table }
    }

    /// Runs `kernel` once and returns its checksum.
    pub fn run(&self, kernel: Kernel) -> u64 {
        match kernel {
            Kernel::Alu => alu(black_box(ALU_STEPS)),
            Kernel::Branchy => branchy(black_box(BRANCHY_STEPS)),
            Kernel::Memory => walk(&self.table, black_box(MEMORY_STEPS)),
            Kernel::Alloc => alloc(black_box(ALLOCATIONS)),
        }
    }
}

impl Default for Kernels {
    fn default() -> Self {
        Kernels::new()
    }
}

fn splitmix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn xorshift(mut x: u64) -> u64 {
    x ^= x << 13;
    x ^= x >> 7;
    x ^ (x << 17)
}

fn alu(steps: u64) -> u64 {
    let (mut a, mut b, mut c, mut d) = (1u64, 2u64, 3u64, 4u64);
    for n in 0..steps {
        a = a.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(n);
        b = b.rotate_left(13) ^ a;
        c = c.wrapping_add(b.wrapping_mul(0x2545_f491_4f6c_dd1d));
        d ^= c >> 7;
    }
    a ^ b ^ c ^ d
}

fn branchy(steps: u64) -> u64 {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut acc: u64 = 0;
    for n in 0..steps {
        x = xorshift(x);
        // Two unpredictable binary branches rather than one `match`, which
        // the compiler could turn into a table or conditional moves.
        if x & 1 == 1 {
            acc = acc.wrapping_add(x >> 3);
            if x & 2 == 2 {
                acc = acc.rotate_left(7);
            }
        } else if x & 4 == 4 {
            acc ^= n.wrapping_mul(x);
        } else {
            acc = acc.wrapping_sub(n);
        }
        black_box(&acc);
    }
    acc
}

fn walk(table: &[u64], steps: u64) -> u64 {
    let mask = table.len() - 1;
    let mut at = 0usize;
    let mut sum = 0u64;
    for n in 0..steps {
        let v = table.get(at).copied().unwrap_or(0);
        sum = sum.wrapping_add(v);
        // The next place depends on what was read: one miss at a time.
        at = ((v ^ n) as usize) & mask;
    }
    sum
}

fn alloc(count: u64) -> u64 {
    let mut live: Vec<Vec<u8>> = vec![Vec::new(); LIVE];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut sum = 0u64;
    for n in 0..count {
        x = xorshift(x);
        let size = 16 + (x >> 20) as usize % 480;
        let block = vec![n as u8; size];
        sum = sum.wrapping_add(block.len() as u64);
        let slot = (x % LIVE as u64) as usize;
        if let Some(old) = live.get_mut(slot) {
            sum = sum.wrapping_add(old.first().copied().unwrap_or(0) as u64);
            *old = black_box(block);
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_are_pinned_and_repeatable() {
        let kernels = Kernels::new();
        for k in Kernel::ALL {
            let first = kernels.run(k);
            assert_eq!(first, kernels.run(k), "{}", k.name());
            assert_eq!(first, k.expected(), "kernel {} changed: {first}", k.name());
        }
    }

    #[test]
    fn names_round_trip() {
        for k in Kernel::ALL {
            assert_eq!(Kernel::from_name(k.name()), Some(k));
        }
        assert_eq!(Kernel::from_name("calib"), None);
    }

    #[test]
    fn the_walk_visits_many_places() {
        let kernels = Kernels::new();
        let mask = kernels.table.len() - 1;
        let mut at = 0usize;
        let mut seen = std::collections::HashSet::new();
        for n in 0..MEMORY_STEPS {
            seen.insert(at);
            at = ((kernels.table[at] ^ n) as usize) & mask;
        }
        assert!(seen.len() as u64 > MEMORY_STEPS * 9 / 10, "{}", seen.len());
    }
}
