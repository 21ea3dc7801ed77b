//! A bench's own parameters: `--node=57` or `--content-size=2000` on
//! `cargo bench --bench kernel -- ...`, declared by the bench's
//! `yardstick::main!` and read by its probes with [`param`].
//!
//! A probe is a fixed amount of work, but which work is sometimes the
//! user's to choose: the node a full view renders, the size of the
//! database it reads. A parameter says so on the command line, where the
//! run's settings record it, instead of in an edited source file that a
//! baseline knows nothing of. Two runs made with other parameters did other
//! work, so they are compared as information, never judged.
//!
//! The harness parses the values (checked against each parameter's type,
//! a bad one being a usage error) and gives them to [`param`] in its own
//! process, and to a process probe's children through the environment
//! (`YARDSTICK_PARAM_NODE=57`), which a user may also set by hand.

use std::sync::OnceLock;

/// One parameter a bench declares (see `yardstick::main!`).
#[derive(Clone, Copy)]
pub struct Param {
    /// The name as the probes read it, snake_case (`content_size`); on the
    /// command line with dashes (`--content-size`).
    pub name: &'static str,
    /// The value's type as `--help` shows it (`i64`).
    pub kind: &'static str,
    /// One line for `--help`: what the value chooses, and its default.
    pub help: &'static str,
    /// Checks a value: it parses as the declared type.
    pub check: fn(&str) -> Result<(), String>,
}

impl Param {
    /// The option that sets it: `--content-size`.
    pub fn option(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }
}

impl Param {
    /// What `--help` shows for the value: `N` for a number, else `VALUE`.
    pub fn metavar(&self) -> &'static str {
        const NUMBERS: [&str; 12] = [
            "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        ];
        if NUMBERS.contains(&self.kind) {
            "N"
        } else {
            "VALUE"
        }
    }
}

impl std::fmt::Debug for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Param")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// The values the harness parsed from the command line; set once, before
/// any probe's set-up runs.
static GIVEN: OnceLock<Vec<(String, String)>> = OnceLock::new();

/// The value of parameter `name` (snake_case, as declared), if the run was
/// given one: on the command line, or through `YARDSTICK_PARAM_<NAME>` in
/// the environment (how a process probe's child receives it). `None`
/// means the probe's own default. A bench declares its parameters in
/// `main!` (`params: [node: i64 = "..."]`); a probe reads one in its set-up:
///
/// ```
/// fn node() -> i64 {
///     yardstick_probe::param("node").and_then(|v| v.parse().ok()).unwrap_or(2)
/// }
///
/// yardstick_probe::probe! {
///     name: render_node,
///     setup: || Ok::<_, String>(node()),
///     run: |node: &i64| node * 2,
/// }
/// # fn main() { assert_eq!(node(), 2); }
/// ```
pub fn param(name: &str) -> Option<String> {
    if let Some((_, value)) = GIVEN.get().and_then(|g| g.iter().find(|(n, _)| n == name)) {
        return Some(value.clone());
    }
    std::env::var(env_name(name)).ok()
}

/// The environment variable that carries parameter `name` to a child.
pub fn env_name(name: &str) -> String {
    format!("YARDSTICK_PARAM_{}", name.to_ascii_uppercase())
}

/// Records the values parsed from the command line (the harness calls it
/// once; a second call is ignored, as the first values already shaped the
/// run).
#[doc(hidden)]
pub fn set_given(values: Vec<(String, String)>) {
    let _ = GIVEN.set(values);
}

/// The values given on the command line, for the harness to pass on to
/// children.
#[doc(hidden)]
pub fn given() -> &'static [(String, String)] {
    GIVEN.get().map_or(&[], Vec::as_slice)
}

/// Gives the values of the command line to `child`, a copy of this bench
/// (a process probe's child, a counted run), through its environment.
#[doc(hidden)]
pub fn pass_to(child: &mut std::process::Command) {
    for (name, value) in given() {
        child.env(env_name(name), value);
    }
}

/// Checks `value` as a `T`, for [`Param::check`].
#[doc(hidden)]
pub fn check_as<T: std::str::FromStr>(value: &str) -> Result<(), String>
where
    T::Err: std::fmt::Display,
{
    value.parse::<T>().map(|_| ()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_use_dashes_and_the_environment_capitals() {
        let p = Param {
            name: "content_size",
            kind: "u64",
            help: "",
            check: check_as::<u64>,
        };
        assert_eq!(p.option(), "--content-size");
        assert_eq!(env_name("content_size"), "YARDSTICK_PARAM_CONTENT_SIZE");
    }

    #[test]
    fn a_value_is_checked_as_its_type() {
        assert!(check_as::<i64>("57").is_ok());
        assert!(check_as::<i64>("-3").is_ok());
        assert!(check_as::<u64>("-3").is_err());
        assert!(check_as::<i64>("abc").is_err());
    }
}
