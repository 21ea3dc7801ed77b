//! A user's crate, `examples/user-crate`, driven as its owner would drive
//! it: `cargo test` runs each probe once with its check, `cargo bench`
//! measures them, and its library pulls in nothing but the probe registry.
//!
//! The crate builds in a target folder of its own (a first build takes
//! about a minute on two cores); the bench runs in the dev profile, since
//! what is tested is that the probes register and run, not their times.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/user-crate")
}

fn cargo(args: &[&str]) -> Output {
    cargo_in(args, None)
}

/// `cargo` with `args`, its bench keeping runs under `home` if given.
fn cargo_in(args: &[&str], home: Option<&Path>) -> Output {
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/user-crate");
    let mut cmd = Command::new(env!("CARGO"));
    if let Some(home) = home {
        cmd.env("YARDSTICK_HOME", home);
    }
    cmd.args(args)
        .current_dir(example())
        .env("CARGO_TARGET_DIR", target)
        .env_remove("YARDSTICK_INJECT")
        .env_remove("YARDSTICK_FAKE_CLOCK")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("YARDSTICK_HISTORY")
        .output()
        .expect("cargo runs")
}

/// `cargo bench` of the crate's bench in the dev profile, with `args`.
fn cargo_bench(args: &[&str]) -> Output {
    cargo_bench_in(args, None)
}

/// [`cargo_bench`], keeping runs under `home` if given.
fn cargo_bench_in(args: &[&str], home: Option<&Path>) -> Output {
    let cargo_args = [
        "bench",
        "--locked",
        "--profile=dev",
        "--bench",
        "speed",
        "--",
    ];
    cargo_in(&[&cargo_args[..], args].concat(), home)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_users_crate_tests_and_benches_its_probes() {
    let test = cargo(&["test", "--locked"]);
    let out = text(&test.stdout);
    assert!(test.status.success(), "{out}\n{}", text(&test.stderr));
    for probe in ["user_words", "user_distinct", "user_join"] {
        assert!(out.contains(&format!("test {probe}")), "{probe}: {out}");
    }

    let bench = cargo_bench(&[
        "--no-baseline",
        "--repeat=2",
        "--warmup=0",
        "--format=json",
        "-q",
    ]);
    let stderr = text(&bench.stderr);
    assert_eq!(bench.status.code(), Some(0), "{stderr}");
    // A bench builds no plotting unless it links the report: a page is
    // refused, with the way to one, before anything is measured.
    let page = cargo_bench(&["--html=p.html"]);
    let refusal = text(&page.stderr);
    assert!(
        refusal.contains("--html: this bench draws no page: link the crate yardstick-report")
            && refusal.contains("exit status: 2")
            && !example().join("p.html").exists(),
        "{refusal}"
    );
    // Nor a history: a record, a history and a baseline from one are
    // refused as the page is, before anything is measured.
    for (args, option) in [
        (&["--record"][..], "--record"),
        (&["--history=h.sqlite"], "--history"),
        (&["--baseline=history"], "--baseline=history"),
    ] {
        let refused = cargo_bench(args);
        let refusal = text(&refused.stderr);
        assert!(
            refusal.contains(&format!(
                "{option}: this bench keeps no history: link the crate yardstick-history"
            )) && refusal.contains("exit status: 2"),
            "{refusal}"
        );
    }
    // The runs it keeps are files, one per run, under its own name.
    let home = tempfile::tempdir().expect("a scratch folder");
    let kept = cargo_bench_in(&["--repeat=2", "--warmup=0", "-q"], Some(home.path()));
    assert_eq!(kept.status.code(), Some(0), "{}", text(&kept.stderr));
    let files: Vec<PathBuf> = std::fs::read_dir(home.path())
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|class| {
            std::fs::read_dir(class.path().join("speed"))
                .into_iter()
                .flatten()
        })
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}: {}", text(&kept.stderr));
    let run: serde_json::Value = serde_json::from_slice(&bench.stdout).expect("a run document");
    let mut rows: Vec<(String, u64)> = run["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["key"].as_str().unwrap_or("").to_string(),
                r["n"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            ("user_distinct".to_string(), 2),
            ("user_join".to_string(), 2),
            ("user_words".to_string(), 2)
        ]
    );
    for row in run["rows"].as_array().expect("rows") {
        // Every result is fingerprinted, though the crate wrote no Checksum.
        let checksum = row["checksum"].as_str().unwrap_or("");
        assert_eq!(checksum.len(), 16, "{row}");
        // Only the probe without a check says so.
        let unchecked = row["note"].as_str().unwrap_or("").contains("unchecked");
        assert_eq!(unchecked, row["key"] == "user_join", "{row}");
        // The bench installs the counting allocator: making 1,000 words
        // allocates each of them.
        let allocs = row["memory"]["allocs"].as_u64().unwrap_or(0);
        assert!(allocs >= 1, "{row}");
    }
    loop_crates_are_the_users(&run["environment"]["calibration_crates"]);
}

/// The calibration loop's crates are recorded as the user's lock (the
/// first above the package the bench runs for) resolves them.
fn loop_crates_are_the_users(recorded: &serde_json::Value) {
    let lock = std::fs::read_to_string(example().join("Cargo.lock")).expect("the example's lock");
    for name in ["memchr", "regex", "regex-automata", "regex-syntax", "sha2"] {
        let version = recorded[name].as_str().unwrap_or("");
        let entry = format!("name = \"{name}\"\nversion = \"{version}\"\n");
        assert!(
            !version.is_empty() && lock.contains(&entry),
            "{name}: {recorded}"
        );
    }
}

#[test]
fn a_library_that_registers_probes_pulls_in_only_the_registry() {
    let tree = cargo(&[
        "tree",
        "--locked",
        "--edges=normal",
        "--prefix=none",
        "--format={p}",
    ]);
    assert!(tree.status.success(), "{}", text(&tree.stderr));
    let mut crates: Vec<String> = text(&tree.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    crates.sort();
    crates.dedup();
    // The light library is yardstick-probe and inventory, nothing more.
    assert_eq!(crates, ["inventory", "user-crate", "yardstick-probe"]);
}

#[test]
fn the_readme_shows_the_crates_code_in_full() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    for file in ["src/lib.rs", "benches/speed.rs"] {
        let code = std::fs::read_to_string(example().join(file)).expect("the example's file");
        assert!(
            readme.contains(&format!("```rust\n{code}```")),
            "README.md does not show examples/user-crate/{file} as it is"
        );
    }
}
