//! The guard of `schema/run-v1.json`. The schema is written by hand, for
//! its readers; these tests keep it true to the types that write runs.
//!
//! One maximal run of each kind (`kinds`) is built from whole struct
//! literals of every type (`maximal`), serialised, and walked key by key
//! against the schema (`walk`): a key the schema does not describe at its
//! place fails, named by its JSON path, and so does a property the schema
//! describes that no run writes. A field added to `Row`, `Environment` or
//! any other type of a run does not compile until `maximal` gives it a
//! value, and a value of nothing is refused twice over: in `maximal`'s
//! code (no `None`, `false`, empty string or collection) and in the
//! serialised runs (no null, no empty array or object). A field that a
//! hand-written `Serialize` (the comparison's) or `serde(skip)` leaves
//! unwritten is caught by reading the runs back: they must equal what was
//! written. Every property the schema describes must also say in words what
//! it is: that is what the schema is for.
//! The settings are walked like the rest, each kind against the
//! description of its mode.

mod kinds;
mod maximal;
mod walk;

use crate::run::{Mode, Run};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use walk::Walk;

/// The schema, as published.
const SCHEMA: &str = include_str!("../../../../schema/run-v1.json");

/// The code of the maximal parts, which must set every field to something.
const MAXIMAL: &str = include_str!("maximal.rs");

fn schema() -> Value {
    serde_json::from_str(SCHEMA).expect("schema/run-v1.json is JSON")
}

fn walk(schema: &Value) -> Walk<'_> {
    Walk::new(schema)
}

/// The keys of a newer build that settings keep: a run this build writes
/// has none, and the schema cannot describe them.
fn no_unknown_keys() -> BTreeMap<String, Value> {
    BTreeMap::new()
}

fn json(run: &Run) -> Value {
    serde_json::to_value(run).expect("a run serialises")
}

#[test]
fn every_key_the_types_write_is_described_at_its_place() {
    let schema = schema();
    let mut undescribed = Vec::new();
    for (kind, run) in kinds::runs() {
        let mut walk = walk(&schema);
        walk.document(&json(&run));
        undescribed.extend(
            walk.undescribed
                .iter()
                .map(|at| format!("{kind} run: {at}")),
        );
    }
    assert!(
        undescribed.is_empty(),
        "schema/run-v1.json does not describe these keys where the types write them:\n{}",
        undescribed.join("\n")
    );
}

#[test]
fn every_property_the_schema_describes_is_written() {
    let schema = schema();
    let mut written = BTreeSet::new();
    for (_, run) in kinds::runs() {
        let mut walk = walk(&schema);
        walk.document(&json(&run));
        written.extend(walk.used);
    }
    let stale: Vec<String> = walk(&schema)
        .described()
        .difference(&written)
        .cloned()
        .collect();
    assert!(
        stale.is_empty(),
        "schema/run-v1.json describes properties no maximal run writes (stale descriptions, \
         or a field the maximal runs leave empty):\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_property_the_schema_describes_says_what_it_is_for_its_readers() {
    let schema = schema();
    let silent: Vec<String> = Walk::new(&schema)
        .described()
        .into_iter()
        .filter(|at| {
            let property = at.strip_prefix('#').and_then(|p| schema.pointer(p));
            property.and_then(|p| p.get("description")).is_none()
        })
        .collect();
    assert!(
        silent.is_empty(),
        "schema/run-v1.json describes these properties without a description:\n{}",
        silent.join("\n")
    );
}

#[test]
fn the_maximal_runs_write_every_field() {
    let mut empty = Vec::new();
    for (kind, run) in kinds::runs() {
        empty_places(&json(&run), String::new(), &mut |at| {
            empty.push(format!("{kind} run: {at}"));
        });
    }
    for (number, line) in MAXIMAL.lines().enumerate() {
        let code = if line.trim_start().starts_with("//") {
            ""
        } else {
            line
        };
        for nothing in [
            "None", "false", "\"\"", "::new()", "Default", "vec![]", "..",
        ] {
            if code.contains(nothing) {
                empty.push(format!("maximal.rs:{}: {nothing}", number + 1));
            }
        }
    }
    assert!(
        empty.is_empty(),
        "the maximal runs must set every field, so that each is written and walked:\n{}",
        empty.join("\n")
    );
}

/// Calls `found` with the JSON pointer of every null, empty array and empty
/// object in `value`.
fn empty_places(value: &Value, pointer: String, found: &mut dyn FnMut(&str)) {
    let inner: Vec<(String, &Value)> = match value {
        Value::Null => vec![(String::new(), value)],
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(index, item)| (index.to_string(), item))
            .collect(),
        Value::Object(fields) => fields.iter().map(|(k, v)| (k.clone(), v)).collect(),
        _ => return,
    };
    if value.is_null() || inner.is_empty() {
        found(&pointer);
        return;
    }
    for (step, item) in inner {
        empty_places(item, format!("{pointer}/{step}"), found);
    }
}

/// The comparison of a maximal run.
fn comparison(run: &mut Run) -> &mut crate::comparison::Comparison {
    run.comparison.as_mut().expect("a maximal run compares")
}

/// What the schema's validator says is wrong with `doc`.
fn refusals(validator: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    validator
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect()
}

fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&schema()).expect("schema/run-v1.json compiles")
}

#[test]
fn the_maximal_runs_are_valid_and_read_back_the_same() {
    let validator = validator();
    for (kind, run) in kinds::runs() {
        let doc = json(&run);
        assert_eq!(
            refusals(&validator, &doc),
            Vec::<String>::new(),
            "{kind} run"
        );
        let back: Run = serde_json::from_value(doc).expect("a written run reads back");
        assert_eq!(back, run, "{kind} run");
    }
}

#[test]
fn every_value_of_the_runs_enums_is_one_the_schema_allows() {
    let validator = validator();
    let base = kinds::runs().swap_remove(0).1;
    let mut refused = Vec::new();
    let mut try_run = |what: String, edit: &dyn Fn(&mut Run)| {
        let mut run = base.clone();
        edit(&mut run);
        for refusal in refusals(&validator, &json(&run)) {
            refused.push(format!("{what}: {refusal}"));
        }
    };
    for mode in kinds::modes() {
        try_run(format!("mode {mode:?}"), &|r| {
            r.mode = mode;
            // Each mode with settings of its own kind.
            r.settings = match mode {
                Mode::Http => maximal::http_settings(),
                Mode::Micro | Mode::Kernel => maximal::micro_settings(),
            };
        });
    }
    for metric in kinds::metrics() {
        try_run(format!("metric {metric:?}"), &|r| r.metric = metric);
    }
    for kind in kinds::row_kinds() {
        try_run(format!("row kind {kind:?}"), &|r| r.rows[0].kind = kind);
    }
    for method in kinds::methods() {
        try_run(format!("method {method:?}"), &|r| {
            comparison(r).method = method.clone();
        });
    }
    for judged in kinds::judgements() {
        try_run(format!("machines judged {judged:?}"), &|r| {
            comparison(r).machines.as_mut().expect("maximal").judged = judged;
        });
    }
    for figure in kinds::figures() {
        try_run(format!("figure {figure}"), &|r| {
            comparison(r).checks[0].metric = figure.clone();
        });
    }
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

#[test]
fn a_key_out_of_its_place_is_named_by_its_path() {
    let schema = schema();
    let mut doc = json(&kinds::runs().swap_remove(0).1);
    // The drift this guard was made for: `peak_rss` described under the
    // environment, while the rows write it.
    doc["environment"]["peak_rss"] = 1.into();
    doc["rows"][1]["memory"]["frees"] = 1.into();
    doc["comparison"]["checks"][0]["verdict"] = "ok".into();
    // A map takes any key.
    doc["rows"][0]["status"]["404"] = 1.into();
    let mut walk = walk(&schema);
    walk.document(&doc);
    walk.undescribed.sort();
    assert_eq!(
        walk.undescribed,
        [
            "/comparison/checks/0/verdict",
            "/environment/peak_rss",
            "/rows/1/memory/frees"
        ]
    );
}

#[test]
fn settings_are_walked_against_the_description_of_their_mode() {
    use serde_json::json;
    let schema = schema();
    let undescribed = |mode: &str, settings: Value| {
        let mut walk = Walk::new(&schema);
        walk.document(&json!({ "mode": mode, "settings": settings }));
        walk.undescribed.sort();
        walk.undescribed
    };
    let none = Vec::<String>::new();
    let probes = json!({ "repeat": 30, "count_platform": { "pin": "held" }, "pooled_runs": 5 });
    assert_eq!(undescribed("micro", probes.clone()), none);
    assert_eq!(undescribed("kernel", probes), none);
    let paired = json!({ "old": "a", "new": "b", "pairs": 3, "samples_per_round": { "p": 3 } });
    assert_eq!(undescribed("micro", paired.clone()), none);
    assert_eq!(
        undescribed("kernel", paired),
        [
            "/settings/new",
            "/settings/old",
            "/settings/pairs",
            "/settings/samples_per_round"
        ]
    );
    assert_eq!(
        undescribed("http", json!({ "servers": [], "repeat": 30 })),
        ["/settings/repeat"]
    );
    // Any part of a document walks on its own.
    let mut walk = Walk::new(&schema);
    walk.value_at(
        &json!({ "tunables": "none", "extra": 1 }),
        "#/$defs/probe_settings/properties/count_platform",
    );
    assert_eq!(walk.undescribed, ["/extra"]);
}

#[test]
fn the_committed_baselines_are_valid_and_described_settings_and_all() {
    let schema = schema();
    let validator = validator();
    let root = crate::repository().join("baselines");
    let mut files = Vec::new();
    json_files(&root, &mut files);
    assert!(!files.is_empty(), "no baselines under {}", root.display());
    let mut wrong = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a committed baseline reads");
        let doc: Value = serde_json::from_str(&text).expect("a committed baseline is JSON");
        let mut walk = Walk::new(&schema);
        walk.document(&doc);
        let name = file.display();
        wrong.extend(
            walk.undescribed
                .iter()
                .map(|at| format!("{name}: {at} undescribed")),
        );
        wrong.extend(
            refusals(&validator, &doc)
                .iter()
                .map(|r| format!("{name}: {r}")),
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every `.json` file under `dir`, at any depth.
fn json_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a directory of baselines reads") {
        let path = entry.expect("a directory entry reads").path();
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}
