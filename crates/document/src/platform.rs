//! What a run of counts was counted on besides its build: the platform of
//! the counted child. `measure::callgrind::pin` reads it; `document::setup`
//! compares it; a run saves it in its settings (`CountSettings`).

use serde::{Deserialize, Serialize};

/// What a run of counts was counted on, beyond the build: saved in its
/// settings and compared by `document::setup`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Platform {
    /// `GLIBC_TUNABLES` as the counted child got it, whole: the user's own,
    /// then the pin; `none` when it had none.
    pub tunables: String,
    /// Whether glibc took the pin, read back: `held`, `off`, or why not.
    pub pin: String,
    /// The CPU valgrind showed the child: vendor kind, family, model and
    /// stepping, and the features code dispatches on (bits valgrind passes
    /// through from the host, such as RDRAND, left out).
    pub cpu: String,
    /// The C library: its version and the build-id of the loaded file, since
    /// distributions backport fixes without changing the version.
    pub libc: String,
}
