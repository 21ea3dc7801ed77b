//! The dependency rule of docs/design.md, checked twice: each crate of the
//! workspace depends only on the crates of the layers below it (read from
//! `cargo metadata`), and each folder of the `yardstick` crate's `src/`
//! imports only from the layers
//! below it, never from a peer of its own layer. Data flows one way, from
//! the probes to the exit code, and a crate or module that reached up or
//! sideways would let it flow back.
//!
//! Test code (each item under `#[cfg(test)]`, and `tests.rs` files) may use
//! anything; the production code after a test module is read like the rest.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may import from any lower layer.
const LAYERS: &[&[&str]] = &[&["worker"], &["commands", "macros"]];

/// The crates of the workspace that make yardstick, lowest first. A crate
/// depends only on crates of lower layers; the applications built on them
/// (the reference probes, the rivals, the evaluation harness, the demo
/// site) come above every layer, and no layered crate depends on one.
const CRATE_LAYERS: &[&[&str]] = &[
    &["yardstick-probe", "yardstick-stats", "yardstick-process"],
    &["yardstick-document"],
    &[
        "yardstick-http",
        "yardstick-measure",
        "yardstick-judge",
        "yardstick-test-runs",
    ],
    &["yardstick-baseline", "yardstick-output"],
    &["yardstick-history"],
    &["yardstick"],
    &["yardstick-report"],
    &["yardstick-cli"],
];

/// The `yardstick` crate's sources, whose modules [`LAYERS`] places.
fn user_crate_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/yardstick/src")
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `crate::<module>` a file's non-test code names.
fn imports(code: &str) -> BTreeSet<String> {
    let code = production(code);
    code.match_indices("crate::")
        .map(|(at, m)| {
            code[at + m.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// `code` without its test-only items: each `#[cfg(test)]` (or
/// `#[cfg(all(test, ...))]`) and the item after it, to its `;` or to the
/// brace that closes its block. The code after a test module is read too.
fn production(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = test_attribute(rest) {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let end = match (item.find('{'), item.find(';')) {
            (Some(open), Some(semi)) if semi < open => semi + 1,
            (Some(open), _) => closing(item, open),
            (None, Some(semi)) => semi + 1,
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// Where the next attribute that keeps an item to tests starts.
fn test_attribute(code: &str) -> Option<usize> {
    ["#[cfg(test)]", "#[cfg(all(test"]
        .iter()
        .filter_map(|a| code.find(a))
        .min()
}

/// The index just past the brace that closes the one at `open`.
fn closing(code: &str, open: usize) -> usize {
    let mut depth = 0usize;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The workspace's crates and, for each, the workspace crates its library
/// and binaries depend on (dev-dependencies left out: a test may use
/// anything).
fn workspace_graph() -> Vec<(String, Vec<String>)> {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version=1", "--no-deps", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cargo metadata: {e}"));
    assert!(output.status.success(), "cargo metadata failed");
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}"));
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let members: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(String::from))
        .collect();
    packages
        .iter()
        .map(|p| {
            let name = p["name"].as_str().unwrap_or_default().to_string();
            let deps = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str())
                .filter(|d| members.contains(*d))
                .map(String::from)
                .collect();
            (name, deps)
        })
        .collect()
}

#[test]
fn every_crate_depends_only_on_the_layers_below_it() {
    let crate_layer = |name: &str| CRATE_LAYERS.iter().position(|l| l.contains(&name));
    let graph = workspace_graph();
    let mut wrong = Vec::new();
    for (name, deps) in &graph {
        // An application may use any layer; only layered crates are held.
        let Some(own) = crate_layer(name) else {
            continue;
        };
        for dep in deps {
            match crate_layer(dep) {
                Some(l) if l < own => {}
                _ => wrong.push(format!("{name} depends on {dep}")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "dependencies against the layers:\n{}",
        wrong.join("\n")
    );
    let names: BTreeSet<&str> = graph.iter().map(|(n, _)| n.as_str()).collect();
    for crate_name in CRATE_LAYERS.iter().flat_map(|l| l.iter()) {
        assert!(
            names.contains(crate_name),
            "a layer names a crate that is gone: {crate_name}"
        );
    }
    // A yardstick crate the rule does not name is a crate nobody placed.
    let unplaced: Vec<_> = names
        .iter()
        .filter(|n| n.starts_with("yardstick") && crate_layer(n).is_none())
        .collect();
    assert!(unplaced.is_empty(), "crates in no layer: {unplaced:?}");
}

#[test]
fn code_after_a_test_module_is_read() {
    let code = "use crate::text;\n#[cfg(test)]\nmod tests {\n    use crate::commands;\n    fn f() { if x { y } }\n}\nfn late() { crate::output::x(); }\n#[cfg(test)]\nuse crate::judge;\n";
    let found = imports(code);
    assert_eq!(
        found,
        ["output", "text"].map(String::from).into_iter().collect()
    );
}

#[test]
fn every_module_imports_only_from_the_layers_below_it() {
    let src = user_crate_src();
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut wrong = Vec::new();
    let mut seen = BTreeSet::new();
    for path in &files {
        let relative = path.strip_prefix(&src).unwrap_or(path);
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or("")
            .trim_end_matches(".rs")
            .to_string();
        let Some(own) = layer(&top) else { continue };
        seen.insert(top.clone());
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let code = std::fs::read_to_string(path).unwrap_or_default();
        for module in imports(&code) {
            match layer(&module) {
                Some(l) if module != top && l >= own => {
                    wrong.push(format!("{} imports crate::{module}", relative.display()))
                }
                _ => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
    // A folder the rule does not name is a folder nobody placed.
    let named: BTreeSet<String> = LAYERS
        .iter()
        .flat_map(|l| l.iter())
        .map(|m| m.to_string())
        .collect();
    let top_level: BTreeSet<String> = files
        .iter()
        .filter_map(|p| p.strip_prefix(&src).ok())
        .filter_map(|p| p.components().next())
        .filter_map(|c| {
            c.as_os_str()
                .to_str()
                .map(|s| s.trim_end_matches(".rs").to_string())
        })
        .filter(|m| !matches!(m.as_str(), "lib" | "bin"))
        .collect();
    let unplaced: Vec<_> = top_level.difference(&named).collect();
    assert!(unplaced.is_empty(), "modules in no layer: {unplaced:?}");
    assert_eq!(seen, named, "a layer names a module that is gone");
}

#[test]
fn only_the_commands_know_the_command_line() {
    let src = user_crate_src();
    let mut files = Vec::new();
    sources(&src, &mut files);
    let wrong: Vec<String> = files
        .iter()
        .filter(|p| !p.starts_with(src.join("commands")) && !p.ends_with("lib.rs"))
        .filter(|p| {
            let code = std::fs::read_to_string(p).unwrap_or_default();
            imports(&code).contains("commands")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        wrong.is_empty(),
        "command-line types used outside commands/: {wrong:?}"
    );
}

#[test]
fn settings_are_read_by_field_outside_the_documents() {
    // A key looked up by string goes on compiling when the field it names
    // is renamed, and then reads nothing: pooling once refused runs with an
    // injected slowdown only as long as a string matched a field's name.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let by_key = regex::Regex::new(
        r"settings\s*(\[|\.\s*(get|get_mut|insert|remove|contains_key|entry)\s*\()",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut files = Vec::new();
    for dir in ["src", "crates", "evaluate/src", "evaluate/tests"] {
        sources(&root.join(dir), &mut files);
    }
    let documents = root.join("crates").join("document");
    let wrong: Vec<String> = files
        .iter()
        .filter(|p| !p.starts_with(&documents))
        .flat_map(|p| {
            let code = std::fs::read_to_string(p).unwrap_or_default();
            // Across lines too: `run.settings` and `.get(..)` often part.
            by_key
                .find_iter(&code)
                .map(|m| {
                    let line = code[..m.start()].lines().count().max(1);
                    format!("{}:{line}", p.display())
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "settings read by string key:\n{}",
        wrong.join("\n")
    );
}
