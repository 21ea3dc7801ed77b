//! A walk of a JSON value against the hand-written schema: which of its
//! keys the schema does not describe where they stand, and which of the
//! schema's descriptions the value reached.
//!
//! A key is described when a `properties` entry names it, or an
//! `additionalProperties` schema takes any key (maps such as `status`), in
//! a schema that applies at its place: the place's own, and what that one
//! brings in by `$ref`, `allOf`, the branch of `if` that the value takes,
//! and the branch of `anyOf`/`oneOf` that describes the most of it.

use serde_json::Value;
use std::collections::BTreeSet;

/// Where a walk is in the value: the JSON pointer, for messages, and the
/// place's shape (array indices as `[]`, keys of maps as `*`), which skips
/// match.
#[derive(Debug, Clone, Default)]
struct Place {
    pointer: String,
    shape: String,
}

impl Place {
    fn field(&self, key: &str, named: bool) -> Place {
        Place {
            pointer: format!("{}/{key}", self.pointer),
            shape: format!("{}/{}", self.shape, if named { key } else { "*" }),
        }
    }

    fn item(&self, index: usize) -> Place {
        Place {
            pointer: format!("{}/{index}", self.pointer),
            shape: format!("{}/[]", self.shape),
        }
    }
}

/// One walk, or several whose findings add up.
pub(super) struct Walk<'s> {
    schema: &'s Value,
    /// JSON pointers of keys the schema does not describe where they stand.
    pub undescribed: Vec<String>,
    /// Schema locations (`#/$defs/row/properties/key`) of every property a
    /// key matched.
    pub used: BTreeSet<String>,
}

impl<'s> Walk<'s> {
    /// A walk against `schema`, a whole schema document.
    pub fn new(schema: &'s Value) -> Walk<'s> {
        Walk {
            schema,
            undescribed: Vec::new(),
            used: BTreeSet::new(),
        }
    }

    /// Walks `value` as a whole document, from the schema's root.
    pub fn document(&mut self, value: &Value) {
        self.value_at(value, "#");
    }

    /// Walks `value` against the schema at `location` (`#/$defs/row`), so
    /// that any part of a document can be walked on its own.
    pub fn value_at(&mut self, value: &Value, location: &str) {
        self.walk(value, vec![location.to_string()], &Place::default());
    }

    /// Every property the schema describes at a place a walk can reach,
    /// by location: the inside of skipped places, and the conditions of
    /// `if`, left out.
    pub fn described(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.describe("#", "", &mut out, 0);
        out
    }

    fn node(&self, location: &str) -> &'s Value {
        let pointer = location.strip_prefix('#').unwrap_or_else(|| {
            panic!("{location}: only references within the schema are followed")
        });
        self.schema
            .pointer(pointer)
            .unwrap_or_else(|| panic!("{location}: no such place in the schema"))
    }

    fn walk(&mut self, value: &Value, locations: Vec<String>, place: &Place) {
        let applicable = self.applicable(locations, value, place);
        match value {
            Value::Object(fields) => {
                for (key, inner) in fields {
                    self.field(key, inner, &applicable, place);
                }
            }
            Value::Array(items) => {
                let inner: Vec<String> = applicable
                    .iter()
                    .filter(|at| self.node(at).get("items").is_some())
                    .map(|at| format!("{at}/items"))
                    .collect();
                for (index, item) in items.iter().enumerate() {
                    self.walk(item, inner.clone(), &place.item(index));
                }
            }
            _ => {}
        }
    }

    fn field(&mut self, key: &str, value: &Value, applicable: &[String], place: &Place) {
        let mut inner = Vec::new();
        let mut named = false;
        for at in applicable {
            let node = self.node(at);
            if node.get("properties").and_then(|p| p.get(key)).is_some() {
                let property = format!("{at}/properties/{key}");
                self.used.insert(property.clone());
                inner.push(property);
                named = true;
            } else if node
                .get("additionalProperties")
                .is_some_and(Value::is_object)
            {
                inner.push(format!("{at}/additionalProperties"));
            }
        }
        let place = place.field(key, named);
        if inner.is_empty() {
            self.undescribed.push(place.pointer);
        } else {
            self.walk(value, inner, &place);
        }
    }

    /// The schemas that apply to `value` at `place`: `locations` and what
    /// they bring in.
    fn applicable(&self, mut todo: Vec<String>, value: &Value, place: &Place) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(at) = todo.pop() {
            let node = self.node(&at);
            if let Some(target) = node.get("$ref").and_then(Value::as_str) {
                todo.push(target.to_string());
            }
            for (index, _) in members(node, "allOf") {
                todo.push(format!("{at}/allOf/{index}"));
            }
            if let Some(condition) = node.get("if") {
                let branch = if holds(condition, value) {
                    "then"
                } else {
                    "else"
                };
                if node.get(branch).is_some() {
                    todo.push(format!("{at}/{branch}"));
                }
            }
            for keyword in ["anyOf", "oneOf"] {
                if let Some(best) = self.best_branch(&at, keyword, value, place) {
                    todo.push(best);
                }
            }
            out.push(at);
        }
        out
    }

    /// The branch of `at`'s `keyword` that leaves the fewest keys of
    /// `value` undescribed, the first of equals.
    fn best_branch(&self, at: &str, keyword: &str, value: &Value, place: &Place) -> Option<String> {
        members(self.node(at), keyword)
            .map(|(index, _)| {
                let branch = format!("{at}/{keyword}/{index}");
                let mut trial = Walk::new(self.schema);
                trial.walk(value, vec![branch.clone()], place);
                (trial.undescribed.len(), index, branch)
            })
            .min()
            .map(|(_, _, branch)| branch)
    }

    fn describe(&self, at: &str, shape: &str, out: &mut BTreeSet<String>, depth: usize) {
        assert!(
            depth < 64,
            "{at}: the schema nests past 64 levels (a cycle?)"
        );
        let node = self.node(at);
        let mut inner: Vec<(String, String)> = Vec::new();
        if let Some(target) = node.get("$ref").and_then(Value::as_str) {
            inner.push((target.to_string(), shape.to_string()));
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for (index, _) in members(node, keyword) {
                inner.push((format!("{at}/{keyword}/{index}"), shape.to_string()));
            }
        }
        for branch in ["then", "else"]
            .into_iter()
            .filter(|b| node.get(b).is_some())
        {
            inner.push((format!("{at}/{branch}"), shape.to_string()));
        }
        if let Some(properties) = node.get("properties").and_then(Value::as_object) {
            for name in properties.keys() {
                let property = format!("{at}/properties/{name}");
                let place = format!("{shape}/{name}");
                out.insert(property.clone());
                inner.push((property, place));
            }
        }
        if node.get("items").is_some() {
            inner.push((format!("{at}/items"), format!("{shape}/[]")));
        }
        if node
            .get("additionalProperties")
            .is_some_and(Value::is_object)
        {
            inner.push((format!("{at}/additionalProperties"), format!("{shape}/*")));
        }
        for (location, place) in inner {
            self.describe(&location, &place, out, depth + 1);
        }
    }
}

/// The members of `node`'s array `keyword` (`allOf`, ...), with their
/// indices.
fn members<'v>(node: &'v Value, keyword: &str) -> impl Iterator<Item = (usize, &'v Value)> {
    node.get(keyword)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

/// Whether `value` meets `condition`, an `if` of the schema; conditions
/// stand alone (no `$ref`), so they are checked by themselves.
fn holds(condition: &Value, value: &Value) -> bool {
    jsonschema::validator_for(condition)
        .unwrap_or_else(|e| panic!("an `if` of the schema does not compile alone: {e}"))
        .is_valid(value)
}
