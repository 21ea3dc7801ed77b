//! `fetch(module, function, hash(...))` and `treemenu(...)`: the operators
//! that read the content store.
//!
//! The functions and their parameters are the CMS's: `content/node`
//! (`node_id`), `content/object` (`object_id`), `content/list`,
//! `content/list_count` and `content/tree_count` (`parent_node_id`,
//! `sort_by`, `limit`, `offset`, `class_filter_type`, `class_filter_array`,
//! `depth`). An unknown module, function or parameter is a positioned
//! warning when the template is compiled ([`check`]) and yields nothing
//! when it is rendered, as the CMS does.

use std::sync::Arc;

use super::{Env, Operands};
use crate::content::{ClassFilter, ListQuery, SortKey};
use crate::host::ContentSource;
use crate::template::content::NodeValue;
use crate::template::value::{Map, Value};

/// Every function of the `content` module, with the parameters it takes.
const FUNCTIONS: [(&str, &[&str]); 5] = [
    ("node", &["node_id"]),
    ("object", &["object_id"]),
    ("list", &LIST),
    ("list_count", &LIST),
    ("tree_count", &LIST),
];

const LIST: [&str; 7] = [
    "parent_node_id",
    "sort_by",
    "limit",
    "offset",
    "class_filter_type",
    "class_filter_array",
    "depth",
];

/// What is wrong with a `fetch` whose module, function and parameter
/// names are constants, if anything: the compiler's warning.
pub fn check(
    module: Option<&Value>,
    function: Option<&Value>,
    params: Option<&Value>,
) -> Option<String> {
    let module = module?.to_text();
    if module != "content" {
        return Some(format!(
            "fetch: unknown module `{module}`: it fetches nothing"
        ));
    }
    let function = function?.to_text();
    let Some((_, known)) = FUNCTIONS.iter().find(|(f, _)| *f == function) else {
        return Some(format!(
            "fetch('content', '{function}'): unknown function: it fetches nothing"
        ));
    };
    let Some(Value::Hash(params)) = params else {
        return None;
    };
    let unknown: Vec<&str> = params
        .iter()
        .map(|(k, _)| &**k)
        .filter(|k| !known.contains(k))
        .collect();
    (!unknown.is_empty()).then(|| {
        format!(
            "fetch('content', '{function}'): unknown parameter `{}`: it fetches nothing",
            unknown.join("`, `")
        )
    })
}

/// `fetch(module, function, params)`.
pub fn fetch(ops: &Operands, env: &Env) -> Value {
    let Some(source) = env.content else {
        return Value::Null;
    };
    let (module, function, params) = (ops.get(0), ops.get(1), ops.get(2));
    if check(Some(&module), Some(&function), Some(&params)).is_some() {
        return Value::Null;
    }
    let empty = Map::new();
    let params = match &*params {
        Value::Hash(map) => &**map,
        _ => &empty,
    };
    let int = |name: &str| params.get(name).map(Value::to_int);
    match &*function.to_text() {
        "node" => match int("node_id").map(|id| source.node(id)) {
            Some(Ok(Some(node))) => NodeValue::value(node, source),
            _ => Value::Null,
        },
        "object" => match int("object_id").map(|id| source.object(id, None)) {
            Some(Ok(Some(object))) => {
                Value::Object(Arc::new(crate::template::content::ObjectValue::new(object)))
            }
            _ => Value::Null,
        },
        "list" => match list_query(params, Some(1)).map(|q| source.list(&q)) {
            Some(Ok(nodes)) => nodes_value(nodes, source),
            _ => Value::Null,
        },
        "list_count" => count(source, list_query(params, Some(1))),
        _ => count(source, list_query(params, None)),
    }
}

fn count(source: &Arc<dyn ContentSource>, query: Option<ListQuery>) -> Value {
    match query.map(|q| source.count(&q)) {
        Some(Ok(n)) => Value::Int(n.min(i64::MAX as u64) as i64),
        _ => Value::Null,
    }
}

fn nodes_value(nodes: Vec<crate::content::Node>, source: &Arc<dyn ContentSource>) -> Value {
    Value::from(
        nodes
            .into_iter()
            .map(|n| NodeValue::value(n, source))
            .collect::<Vec<_>>(),
    )
}

/// The list a `fetch` hash asks for; `None` without a parent. `depth`
/// is the function's own default (1 for a list, the whole subtree for a
/// tree count).
fn list_query(params: &Map, depth: Option<u64>) -> Option<ListQuery> {
    let parent = params.get("parent_node_id")?.to_int();
    let non_negative = |name: &str| params.get(name).map(|v| v.to_int().max(0) as u64);
    let class_filter = params.get("class_filter_array").map(|classes| ClassFilter {
        include: params
            .get("class_filter_type")
            .is_none_or(|t| t.to_text() != "exclude"),
        classes: items(classes)
            .iter()
            .map(|c| c.to_text().into_owned())
            .collect(),
    });
    Some(ListQuery {
        parent,
        depth: non_negative("depth").filter(|d| *d > 0).or(depth),
        sort_by: params.get("sort_by").map(sort_by).unwrap_or_default(),
        limit: non_negative("limit").filter(|l| *l > 0),
        offset: non_negative("offset").unwrap_or(0),
        class_filter,
    })
}

/// `array('priority', true())`, or an array of such pairs.
fn sort_by(value: &Value) -> Vec<(SortKey, bool)> {
    let pairs = items(value);
    let one = |pair: &[Value]| {
        let key = SortKey::named(&pair.first()?.to_text())?;
        Some((key, pair.get(1).is_none_or(Value::truthy)))
    };
    match pairs.first() {
        Some(Value::Array(_)) => pairs.iter().filter_map(|p| one(&items(p))).collect(),
        _ => one(&pairs).into_iter().collect(),
    }
}

fn items(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.to_vec(),
        Value::Null => Vec::new(),
        other => vec![other.clone()],
    }
}

/// `treemenu(path, node_id, class_filter, depth_skip, max_level)`: the menu
/// leading to `node_id`: the items of each level from the front page's
/// children down, the open item's children after it, as hashes of `id`,
/// `level`, `url_alias`, `text`, `is_selected` and `class_identifier`.
pub fn treemenu(ops: &Operands, env: &Env) -> Value {
    let Some(source) = env.content else {
        return Value::Null;
    };
    let node_id = ops.get(1).to_int();
    let Ok(Some(node)) = source.node(node_id) else {
        return Value::Null;
    };
    let ancestors: Vec<i64> = node
        .path_string
        .split('/')
        .filter_map(|n| n.parse().ok())
        .skip(1)
        .collect();
    let classes: Vec<String> = items(&ops.get(2))
        .iter()
        .map(|c| c.to_text().into_owned())
        .collect();
    let skip = ops.get(3).to_int().max(0) as usize;
    let max_level = match ops.get(4).to_int() {
        n if n > 0 => n as usize,
        _ => 10,
    };
    let Some(&start) = ancestors.get(skip) else {
        return Value::from(Vec::new());
    };
    let menu = Menu {
        source: &**source,
        ancestors: &ancestors,
        classes: &classes,
        max_level,
    };
    let mut out = Vec::new();
    menu.level(start, 0, &mut out);
    Value::from(out)
}

struct Menu<'a> {
    source: &'a dyn ContentSource,
    ancestors: &'a [i64],
    classes: &'a [String],
    max_level: usize,
}

impl Menu<'_> {
    fn level(&self, parent: i64, level: usize, out: &mut Vec<Value>) {
        let query = ListQuery {
            class_filter: (!self.classes.is_empty()).then(|| ClassFilter {
                include: true,
                classes: self.classes.to_vec(),
            }),
            ..ListQuery::children(parent)
        };
        for child in self.source.list(&query).unwrap_or_default() {
            let selected = self.ancestors.contains(&child.node_id);
            let mut item = Map::with_capacity(6);
            item.insert("id", child.node_id.into());
            item.insert("level", (level as i64).into());
            item.insert("url_alias", Value::str(&child.url_alias));
            item.insert("text", Value::str(&child.name));
            item.insert("is_selected", selected.into());
            item.insert("class_identifier", Value::str(&child.class_identifier));
            out.push(Value::from(item));
            if selected && level + 1 < self.max_level {
                self.level(child.node_id, level + 1, out);
            }
        }
    }
}
