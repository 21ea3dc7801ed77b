//! `schema/run-v1.json`, made from the run's types. Every type a run is
//! written with derives `schemars::JsonSchema` in tests (no user's bench builds
//! it), its doc comments are the schema's descriptions, and
//! [`the_committed_schema_is_the_one_the_types_make`] holds the committed
//! file to what the types make: after a change to them,
//! `YARDSTICK_WRITE_SCHEMA=1 cargo test -p yardstick-document schema`
//! writes it anew. Format 1 grows only by optional fields, so a file
//! written before still validates: the committed baselines, made by
//! earlier builds, are read against it.
//!
//! The schema is made from what the types *read*; what they *write* is
//! held to it by one maximal run of each kind (`kinds`), built from whole
//! struct literals of every type (`maximal`), so that a field added to a
//! type does not compile until `maximal` gives it a value. Each is
//! validated against the schema made strict (no key it does not
//! describe), which catches a key that a hand-written `Serialize` (the
//! comparison's, the settings') writes and no type declares, and read
//! back: it must equal what was written.

mod kinds;
mod maximal;

use crate::run::{Mode, Run};
use schemars::generate::SchemaSettings;
use serde_json::Value;
use std::path::Path;

/// Where the schema is published, in the repository.
const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schema/run-v1.json");

/// The code of the maximal parts, which must set every field to something.
const MAXIMAL: &str = include_str!("maximal.rs");

/// The schema of a run, as the published JSON text.
fn made() -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<Run>();
    schema.insert(
        "$id".into(),
        "https://yardstick.invalid/schema/run-v1.json".into(),
    );
    schema.insert("title".into(), "yardstick run, format 1".into());
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema is JSON");
    text.push('\n');
    text
}

#[test]
fn the_committed_schema_is_the_one_the_types_make() {
    let made = made();
    let path = Path::new(COMMITTED);
    if std::env::var_os("YARDSTICK_WRITE_SCHEMA").is_some() {
        yardstick_probe::fs::replace_file(
            path,
            made.as_bytes(),
            yardstick_probe::fs::Durability::Synced,
        )
        .expect("schema/run-v1.json is written");
    }
    let committed = std::fs::read_to_string(path).expect("schema/run-v1.json reads");
    assert!(
        committed == made,
        "schema/run-v1.json is not what the run's types make: after a change to them, \
         YARDSTICK_WRITE_SCHEMA=1 cargo test -p yardstick-document schema writes it"
    );
}

/// The schema as the types make it.
fn schema() -> Value {
    serde_json::from_str(&made()).expect("the schema is JSON")
}

/// `schema` with every type it describes closed to keys it does not
/// name: what a run this build writes must keep to. A type's keys may come
/// from the branches of an internally tagged enum flattened into it, so it
/// is closed with `unevaluatedProperties`, which counts them, and only at
/// the type itself (the root and each of `$defs`), never in a branch.
fn strict(mut schema: Value) -> Value {
    fn close(ty: &mut Value) {
        if let Value::Object(fields) = ty
            && fields.contains_key("properties")
            && !fields.contains_key("additionalProperties")
        {
            fields.insert("unevaluatedProperties".into(), false.into());
        }
    }
    close(&mut schema);
    if let Some(Value::Object(defs)) = schema.get_mut("$defs") {
        defs.values_mut().for_each(close);
    }
    schema
}

/// The keys of a newer build that settings keep: a run this build writes
/// has none, and the schema cannot describe them.
fn no_unknown_keys() -> std::collections::BTreeMap<String, Value> {
    std::collections::BTreeMap::new()
}

fn json(run: &Run) -> Value {
    serde_json::to_value(run).expect("a run serialises")
}

#[test]
fn every_property_the_schema_describes_says_what_it_is_for_its_readers() {
    /// A property needs no words of its own where it is a tag (a const),
    /// or the one property of an enum's variant that the variant's own
    /// description describes.
    fn silent(value: &Value, at: &str, described: bool, found: &mut Vec<String>) {
        match value {
            Value::Object(fields) => {
                if let Some(Value::Object(properties)) = fields.get("properties") {
                    let lone = properties.len() == 1 && described;
                    for (name, property) in properties {
                        let said = property.get("description").is_some()
                            || property.get("const").is_some()
                            || lone;
                        if !said {
                            found.push(format!("{at}/properties/{name}"));
                        }
                    }
                }
                for (key, inner) in fields {
                    let branch = matches!(key.as_str(), "oneOf" | "anyOf");
                    let here = format!("{at}/{key}");
                    match inner {
                        Value::Array(items) if branch => {
                            for (index, item) in items.iter().enumerate() {
                                let said = item.get("description").is_some();
                                silent(item, &format!("{here}/{index}"), said, found);
                            }
                        }
                        _ => silent(inner, &here, false, found),
                    }
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    silent(item, &format!("{at}/{index}"), false, found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    silent(&schema(), "#", false, &mut found);
    assert!(
        found.is_empty(),
        "these properties have no description (a doc comment on the field):\n{}",
        found.join("\n")
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

/// The strict schema's validator.
fn validator() -> jsonschema::Validator {
    jsonschema::validator_for(&strict(schema())).expect("the schema compiles")
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
fn a_key_no_type_declares_is_refused_where_it_stands() {
    let validator = validator();
    let mut doc = json(&kinds::runs().swap_remove(0).1);
    doc["environment"]["peak_rss"] = 1.into();
    doc["rows"][1]["memory"]["frees"] = 1.into();
    // A map takes any key.
    doc["rows"][0]["error_messages"]["timeout"] = 1.into();
    let refused: Vec<String> = validator
        .iter_errors(&doc)
        .map(|e| e.instance_path.to_string())
        .collect();
    // Each refusal is named where it stands (the objects that hold it
    // are refused too, as not wholly evaluated).
    for place in ["/environment", "/rows/1/memory"] {
        assert!(refused.iter().any(|r| r == place), "{place}: {refused:?}");
    }
    assert!(
        refused.iter().all(|r| !r.contains("error_messages")),
        "{refused:?}"
    );
}

#[test]
fn the_committed_baselines_written_before_are_valid() {
    let validator = validator();
    let root = crate::repository().join("baselines");
    let mut files = Vec::new();
    json_files(&root, &mut files);
    assert!(!files.is_empty(), "no baselines under {}", root.display());
    let mut wrong = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a committed baseline reads");
        let doc: Value = serde_json::from_str(&text).expect("a committed baseline is JSON");
        let name = file.display();
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
