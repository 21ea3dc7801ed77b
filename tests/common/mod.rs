//! Helpers shared by the integration tests: running binaries and checking
//! every document they write against the published JSON Schema.
#![allow(dead_code)]

use libtest_mimic::{Failed, Trial};
use serde_json::Value;
use std::borrow::BorrowMut;
use std::path::Path;
use std::process::{Command, Output};

/// The root `yardstick` binary.
pub fn yardstick() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yardstick"));
    // A width the developer's shell exports would wrap the output tests read.
    cmd.env_remove("COLUMNS");
    // A history configured for the developer's own runs records none of
    // the tests'.
    cmd.env_remove("YARDSTICK_HISTORY");
    cmd
}

/// This test binary started again as a yardstick binary in `role` (what
/// its `main` reads from `YARDSTICK_E2E_CHILD`), timed by the scripted
/// clock `script`, with none of the variables that would change what it
/// prints or measures (CI annotations, the slowdown knob, the counting
/// switch) inherited from the test's own environment.
pub fn own_child(role: &str, script: &str) -> Command {
    let mut cmd = Command::new(std::env::current_exe().expect("own path"));
    cmd.env("YARDSTICK_E2E_CHILD", role)
        .env("YARDSTICK_FAKE_CLOCK", script)
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("YARDSTICK_INJECT")
        .env_remove("YARDSTICK_ALLOC")
        .env_remove("YARDSTICK_HISTORY")
        .env_remove("COLUMNS");
    cmd
}

/// What a finished command left behind.
pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(mut cmd: impl BorrowMut<Command>) -> Ran {
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.borrow_mut().output().expect("the binary runs");
    Ran {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// `dir/baselines/<this test binary's bench name>/`, made: where a test
/// binary run as a bench (`YARDSTICK_E2E_CHILD=bench`, with
/// `CARGO_MANIFEST_DIR=dir`) looks for its committed baselines. Cargo names
/// the binary `<name>-<hash>`.
pub fn committed_dir(dir: &Path) -> std::io::Result<std::path::PathBuf> {
    let program = std::env::current_exe()?;
    let stem = program.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let bench = stem.rsplit_once('-').map_or(stem, |(n, _)| n);
    let path = dir.join("baselines").join(bench);
    std::fs::create_dir_all(&path)?;
    Ok(path)
}

/// `text` as JSON; panics with the text when it is not.
pub fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Fails a `libtest_mimic` trial with `what` and everything `ran` printed,
/// unless `cond` holds.
pub fn check(cond: bool, what: &str, ran: &Ran) -> Result<(), libtest_mimic::Failed> {
    if cond {
        Ok(())
    } else {
        Err(format!(
            "{what}\nexit {}\nstdout:\n{}\nstderr:\n{}",
            ran.code, ran.stdout, ran.stderr
        )
        .into())
    }
}

/// Panics with the schema's complaints unless `doc` is a valid run.
pub fn assert_valid_run(doc: &Value) {
    let errors = schema_errors(doc);
    assert!(
        errors.is_empty(),
        "document does not match schema/run-v1.json: {errors:#?}"
    );
}

/// What the published schema says is wrong with `doc`.
pub fn schema_errors(doc: &Value) -> Vec<String> {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/run-v1.json");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).expect("schema readable"))
            .expect("schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect()
}

/// Whether `YARDSTICK_REQUIRE_TOOLS` (set by `.ci/run` to the tools it
/// installs) names `tool`: there a missing tool fails its tests.
fn required(tool: &str) -> bool {
    std::env::var("YARDSTICK_REQUIRE_TOOLS")
        .is_ok_and(|list| list.split([' ', ',']).any(|t| t == tool))
}

/// A test that needs `tool`, run where it was `found`. Where it was not,
/// the test is reported `ignored`, the tool named in brackets before its
/// name (`test [needs k6] name ... ignored`): a test that did not run never
/// passes. Where `YARDSTICK_REQUIRE_TOOLS` names the tool, it fails instead.
pub fn needing<R>(tool: &'static str, found: bool, name: &str, runner: R) -> Trial
where
    R: FnOnce() -> Result<(), Failed> + Send + 'static,
{
    if found {
        Trial::test(name, runner)
    } else if required(tool) {
        Trial::test(name, move || {
            Err(
                format!("{tool} is required here (YARDSTICK_REQUIRE_TOOLS) but not installed")
                    .into(),
            )
        })
    } else {
        Trial::test(name, runner)
            .with_ignored_flag(true)
            .with_kind(format!("needs {tool}"))
    }
}

/// A test of the standard form (it passes unless it panics) as a trial.
pub fn unit(test: fn()) -> impl FnOnce() -> Result<(), Failed> + Send + 'static {
    move || {
        test();
        Ok(())
    }
}

/// `trial!(name)`: test `name` (a `fn()`) as a trial of that name;
/// `trial!(name, needs "k6" if found)`: one that needs a tool ([`needing`]).
#[allow(unused_macros)]
macro_rules! trial {
    ($test:ident) => {
        libtest_mimic::Trial::test(stringify!($test), common::unit($test))
    };
    ($test:ident, needs $tool:literal if $found:expr) => {
        common::needing($tool, $found, stringify!($test), common::unit($test))
    };
}

/// Runs `trials` as libtest runs tests, with its arguments, and exits.
pub fn run_trials(trials: Vec<Trial>) -> ! {
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit()
}
