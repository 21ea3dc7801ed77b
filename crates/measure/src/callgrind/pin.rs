//! The library choices a counted child is given, and what it was counted
//! on, read back under the same valgrind.
//!
//! glibc picks its copy and fill routines at start-up from the CPU it sees.
//! Under valgrind that is valgrind's synthetic CPU, and with `rep movsb`
//! (ERMS) callgrind counts one instruction per byte copied, so a count
//! followed the bytes a probe's allocator happened to move rather than its
//! work: template_compile counted +1.0 % more on one machine than on
//! another for the same code (docs/evaluation.md, "What moves a count").
//! The counted child therefore runs with `rep movsb`/`rep stosb` off and the
//! size thresholds fixed ([`pin`]), joined to the user's own
//! `GLIBC_TUNABLES` so that the pin wins where both speak. Timed runs are
//! left alone: their wall time should see the machine's real library.
//!
//! glibc ignores an unknown tunable or a value out of range without a word,
//! so the pin is read back (`ld.so --list-diagnostics`, under valgrind, with
//! the child's `GLIBC_TUNABLES`) before anything is counted. What cannot be
//! pinned is recorded instead: the CPU valgrind shows (the features code
//! dispatches on, such as memchr's AVX2 path) and the C library's build.
//! The run saves all of it as its [`Platform`]; a baseline counted on
//! another gives information, not a verdict (`document::setup`).

mod diagnostics;
mod loaded;
mod tunables;

pub use crate::document::platform::Platform;
use std::process::Command;
use std::sync::OnceLock;

/// The hardware capabilities the counted child's glibc must not use: ERMS
/// and FSRM, so that it copies and fills with vector loops, never with
/// `rep movsb`/`rep stosb`. Read back by the same names.
const HWCAPS_OFF: [&str; 2] = ["ERMS", "FSRM"];

/// The tunable that takes [`HWCAPS_OFF`].
const HWCAPS: &str = "glibc.cpu.hwcaps";

/// [`Platform::pin`] when glibc took the pin.
const HELD: &str = "held";
/// [`Platform::pin`] when there was none to take.
const OFF: &str = "off";

/// The thresholds that otherwise follow the CPU, fixed at the values
/// valgrind 3.19's CPU gives them: (tunable after `glibc.cpu.x86_`, value),
/// as `--list-diagnostics` also names them.
const THRESHOLDS: [(&str, u64); 3] = [
    ("rep_movsb_threshold", 0x2000),
    ("rep_stosb_threshold", 0x800),
    ("non_temporal_threshold", 0x20_0000),
];

/// The pin as `GLIBC_TUNABLES` text, for a child that has no tunables of
/// its own.
pub fn pin() -> String {
    with_pin("")
}

/// `user`'s tunables (`name=value`, `:`-separated) with the pin: its
/// hwcaps joined to the user's own `glibc.cpu.hwcaps` if there is one (glibc
/// keeps only the last value of a tunable), and the thresholds after
/// everything, so that they win.
fn with_pin(user: &str) -> String {
    let off = HWCAPS_OFF.map(|name| format!("-{name}")).join(",");
    let mut joined = false;
    let mut parts: Vec<String> = user
        .split(':')
        .filter(|t| !t.is_empty())
        .map(|t| match t.split_once('=') {
            Some((HWCAPS, value)) => {
                joined = true;
                format!("{HWCAPS}={value},{off}")
            }
            _ => t.to_string(),
        })
        .collect();
    if !joined {
        parts.push(format!("{HWCAPS}={off}"));
    }
    parts.extend(
        THRESHOLDS
            .iter()
            .map(|(name, value)| format!("glibc.cpu.x86_{name}={value:#x}")),
    );
    parts.join(":")
}

/// Turns the pin off (`YARDSTICK_COUNT_PIN=off`), to measure what it does.
pub const VARIABLE: &str = "YARDSTICK_COUNT_PIN";

/// The variable glibc reads its tunables from.
const TUNABLES: &str = "GLIBC_TUNABLES";

/// How the counted child's library is set up for one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinning {
    /// `GLIBC_TUNABLES` for the child; `None` leaves it unset.
    pub tunables: Option<String>,
    /// Whether the pin is part of it.
    pub pinned: bool,
    /// The user's own tunables, checked on read-back.
    user: Option<String>,
}

/// This process's pinning and what reading it back gave.
pub struct Here {
    /// The child's `GLIBC_TUNABLES`.
    pub pinning: Pinning,
    /// What the child is counted on, as the run records it.
    pub platform: Platform,
    /// What a counted run says about it: the pin not held, a user's tunable
    /// glibc did not take.
    pub warnings: Vec<String>,
}

impl Pinning {
    /// From the environment: the user's `GLIBC_TUNABLES`, and
    /// `YARDSTICK_COUNT_PIN=off`. The pin is x86-64 glibc's (other
    /// libraries read no tunables, and other CPUs have no ERMS); elsewhere
    /// the user's own tunables pass unchanged.
    pub fn from_env() -> Pinning {
        let user = std::env::var(TUNABLES).ok().filter(|t| !t.is_empty());
        let off = std::env::var(VARIABLE).is_ok_and(|v| v == "off");
        let glibc_x86 = cfg!(all(target_env = "gnu", target_arch = "x86_64"));
        Pinning::new(user, !off && glibc_x86)
    }

    /// The user's tunables `user`, with the pin joined to them when `pin`.
    pub fn new(user: Option<String>, pin: bool) -> Pinning {
        let tunables = match (&user, pin) {
            (user, true) => Some(with_pin(user.as_deref().unwrap_or(""))),
            (user, false) => user.clone(),
        };
        Pinning {
            tunables,
            pinned: pin,
            user,
        }
    }

    /// Sets the child's `GLIBC_TUNABLES` on `command` (and clears it when
    /// there is none, whatever this process has).
    pub fn apply(&self, command: &mut Command) {
        match &self.tunables {
            Some(t) => command.env(TUNABLES, t),
            None => command.env_remove(TUNABLES),
        };
    }

    /// Reads back, under valgrind, what the child will be counted on, and
    /// what it says about it.
    pub fn read_back(&self) -> Here {
        let loaded = loaded::Loaded::find();
        let listed = |flag: &str| {
            let loader = loaded.loader.as_ref()?;
            let mut ld = Command::new("valgrind");
            ld.arg("-q");
            self.apply(&mut ld);
            ld.arg(loader)
                .arg(flag)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        };
        let platform = self.platform(
            listed("--list-diagnostics").as_deref(),
            &loaded.libc_identity(),
        );
        let mut warnings: Vec<String> = warning(&platform).into_iter().collect();
        if let (Some(user), Some(list)) = (&self.user, listed("--list-tunables")) {
            warnings.extend(tunables::ignored(user, &list));
        }
        Here {
            pinning: self.clone(),
            platform,
            warnings,
        }
    }

    /// The platform `diagnostics` (the loader's `--list-diagnostics`, when
    /// it gave any) describe, for a C library of `libc` (its build).
    pub(crate) fn platform(&self, diagnostics: Option<&str>, libc: &str) -> Platform {
        let read = diagnostics.map(diagnostics::Diagnostics::parse);
        let version = read.as_ref().and_then(|d| d.get("version.version"));
        let pin = match (&read, self.pinned) {
            (_, false) => OFF.to_string(),
            (None, true) => "not read back: the loader gave no --list-diagnostics".to_string(),
            (Some(d), true) => d
                .check_pin(&HWCAPS_OFF, &THRESHOLDS)
                .map_or_else(|why| why, |()| HELD.to_string()),
        };
        Platform {
            tunables: self.tunables.clone().unwrap_or_else(|| "none".to_string()),
            pin,
            cpu: read
                .as_ref()
                .map_or_else(|| "unread".to_string(), diagnostics::Diagnostics::cpu),
            libc: match version {
                Some(v) => format!("glibc {v}, {libc}"),
                None => libc.to_string(),
            },
        }
    }
}

/// How this process's counted children are pinned, and what that gave,
/// read back once (it runs valgrind, about half a second).
pub fn here() -> &'static Here {
    static HERE: OnceLock<Here> = OnceLock::new();
    HERE.get_or_init(|| Pinning::from_env().read_back())
}

/// A number as glibc prints one: hexadecimal (`0x1f`) or decimal.
fn glibc_number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The warning a run carries when the pin did not hold.
fn warning(platform: &Platform) -> Option<String> {
    (platform.pin != HELD && platform.pin != OFF).then(|| {
        format!(
            "GLIBC_TUNABLES: the counted child's library pin did not hold ({}); \
             its counts follow the bytes copied, and judge only counts of the same set-up",
            platform.pin
        )
    })
}

#[cfg(test)]
mod tests;
