//! Regressions planted on purpose, each in one function of a probe: the
//! evidence that a counted verdict names the function that moved
//! (`scripts/attribution.py`, docs/evaluation.md, "Where a count moved").
//!
//! They exist only in a build with the feature `faults`, and only the one
//! that `PROBES_FAULT` names runs; in any other build [`on`] is a constant
//! `false` and the planted code is gone. Most are work of the function's
//! own, inlined into it ([`hash`], [`quadratic`]); two call the C library
//! (a copy, an allocation), whose routines' own counts then grow a part
//! each in the function's stead, and the verdict names the function as
//! the call subtree the change lies within.

/// The regressions, by the name `PROBES_FAULT` gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A copy of each text the template compiler emits.
    CompilerCopy,
    /// An extra hash of each key the catalogue looks up.
    CatalogueHash,
    /// A loop quadratic in the module's name, in the router.
    RouterQuadratic,
    /// A second scan of each settings line as it is classified.
    SettingsRescan,
    /// The date validator going over its fields again.
    DateRecheck,
    /// The class-map reader hashing each string it reads.
    ClassMapHash,
    /// The autoloader going over each candidate path again.
    CandidateRescan,
    /// The translation loader going over each location line again.
    LocationRecheck,
    /// The template scope hashing each name it resolves.
    ScopeHash,
    /// An allocation for each text the HTML escaper writes.
    EscapeAlloc,
}

impl Fault {
    /// Every fault, as `PROBES_FAULT` names it.
    pub const ALL: [(Fault, &'static str); 10] = [
        (Fault::CompilerCopy, "compiler_copy"),
        (Fault::CatalogueHash, "catalogue_hash"),
        (Fault::RouterQuadratic, "router_quadratic"),
        (Fault::SettingsRescan, "settings_rescan"),
        (Fault::DateRecheck, "date_recheck"),
        (Fault::ClassMapHash, "class_map_hash"),
        (Fault::CandidateRescan, "candidate_rescan"),
        (Fault::LocationRecheck, "location_recheck"),
        (Fault::ScopeHash, "scope_hash"),
        (Fault::EscapeAlloc, "escape_alloc"),
    ];
}

/// Whether `fault` runs: built with `faults`, and named by `PROBES_FAULT`.
#[cfg(feature = "faults")]
#[inline(always)]
pub fn on(fault: Fault) -> bool {
    static CHOSEN: std::sync::OnceLock<Option<Fault>> = std::sync::OnceLock::new();
    let chosen = CHOSEN.get_or_init(|| {
        let named = std::env::var("PROBES_FAULT").ok()?;
        Fault::ALL
            .iter()
            .find(|(_, n)| *n == named)
            .map(|(f, _)| *f)
    });
    *chosen == Some(fault)
}

/// Whether `fault` runs: never, in a build without `faults`.
#[cfg(not(feature = "faults"))]
#[inline(always)]
pub const fn on(_fault: Fault) -> bool {
    false
}

/// An FNV-1a hash of `bytes`, `rounds` times over: work inlined into the
/// function that calls it, so its counts are that function's own.
#[inline(always)]
pub fn hash(bytes: &[u8], rounds: usize) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for _ in 0..rounds {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    std::hint::black_box(h)
}

/// Pairs of equal bytes in `bytes`, found by comparing each with every one
/// before it: quadratic in the length, inlined as [`hash`] is.
#[inline(always)]
pub fn quadratic(bytes: &[u8]) -> u64 {
    let mut pairs = 0u64;
    for (i, &b) in bytes.iter().enumerate() {
        for &before in &bytes[..i] {
            pairs += u64::from(before == b);
        }
    }
    std::hint::black_box(pairs)
}
