//! The kernel suite's rivals: its database layer against rusqlite used
//! directly, and a full view rendered by the kernel's engine against
//! minijinja rendering the same page from the same rows.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use minijinja::value::Value as JValue;
use minijinja::{Environment, context};
use rusqlite::{Connection, OpenFlags};

use probes::content::{ContentStore, ListQuery, NODE_SELECT, Node};
use probes::host::ContentSource;
use probes::kernel::{fixture, node};
use probes::template::content::{NodeValue, xml_to_html};
use probes::template::{Engine, Program, Vars, compile};

/// The database and the node the kernel suite reads (`--node`,
/// `--database`), as the kernel's store reads it.
struct Chosen {
    path: PathBuf,
    id: i64,
    node: Node,
}

fn chosen() -> Result<Chosen, String> {
    let path = fixture()?;
    let id = node(&path)?;
    let store = ContentStore::open(&path).map_err(|e| e.to_string())?;
    let found = store.node(id).map_err(|e| e.to_string())?;
    let node = found.ok_or_else(|| format!("node {id} is gone"))?;
    Ok(Chosen { path, id, node })
}

/// A plain read-only connection, beside what the probe looks for.
pub struct Direct {
    conn: Connection,
    chosen: Chosen,
}

fn direct() -> Result<Direct, String> {
    let chosen = chosen()?;
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(&chosen.path, flags).map_err(|e| e.to_string())?;
    Ok(Direct { conn, chosen })
}

/// `db_query`'s SELECT prepared once and run on the plain connection,
/// mapped to a `Node` by the store's own function: what differs is the
/// store's layer (its lock, its statement cache, its error mapping).
fn node_directly(d: &Direct) -> rusqlite::Result<Node> {
    let sql = format!("{NODE_SELECT} WHERE n.node_id = ?1");
    d.conn
        .prepare_cached(&sql)?
        .query_row([d.chosen.id], Node::from_row)
}

/// What `db_query` gives: the node's name.
fn query_directly(d: &Direct) -> rusqlite::Result<Option<String>> {
    node_directly(d).map(|n| Some(n.name))
}

/// The name `db_query` finds, and the whole node (every column of the
/// join) as the kernel's store reads it, so a wrong join is caught even
/// where the name agrees.
fn same_node(d: &Direct, found: &rusqlite::Result<Option<String>>) -> Result<(), String> {
    match found {
        Ok(Some(name)) if *name == d.chosen.node.name => {}
        other => return Err(format!("{other:?}")),
    }
    let node = node_directly(d).map_err(|e| e.to_string())?;
    if node == d.chosen.node {
        Ok(())
    } else {
        Err(format!(
            "node {} differs from the store's: {node:?}",
            d.chosen.id
        ))
    }
}

yardstick_probe::probe! {
    suite: kernel,
    name: db_query_rusqlite,
    group: node_query,
    variant: rusqlite,
    note: "db_query's SELECT on a plain rusqlite connection, prepared once",
    setup: direct,
    run: query_directly,
    check: same_node,
}

/// The full view both engines render: the node's title, its text
/// attributes, and its first 20 children.
const KERNEL_VIEW: &str = "<div class=\"content-view-full\"><h1>{$node.name|wash}</h1>\
{foreach $node.data_map as $id => $a}{if eq($a.data_type_string, 'ezxmltext')}<div class=\"attribute-{$id}\">{$a.content}</div>\
{elseif eq($a.data_type_string, 'ezstring')}<div class=\"attribute-{$id}\">{$a.content|wash}</div>\
{/if}{/foreach}<ul>\
{foreach fetch('content', 'list', hash('parent_node_id', $node.node_id, 'limit', 20)) as $child}<li><a href=\"/{$child.url_alias}\">{$child.name|wash}</a> <span>{$child.class_name}</span></li>\
{/foreach}</ul></div>";

const JINJA_VIEW: &str = "<div class=\"content-view-full\"><h1>{{ node.name|wash }}</h1>\
{% for a in attributes %}{% if a.kind == 'ezxmltext' %}<div class=\"attribute-{{ a.id }}\">{{ a.content }}</div>\
{% elif a.kind == 'ezstring' %}<div class=\"attribute-{{ a.id }}\">{{ a.content|wash }}</div>\
{% endif %}{% endfor %}<ul>\
{% for child in children %}<li><a href=\"/{{ child.url_alias }}\">{{ child.name|wash }}</a> <span>{{ child.class_name }}</span></li>\
{% endfor %}</ul></div>\n";

/// The store both engines read, the node they show and the page a
/// correct render gives (the kernel's, checked against minijinja's).
pub struct Views {
    store: Arc<ContentStore>,
    id: i64,
    engine: Engine,
    program: Arc<Program>,
    env: Environment<'static>,
}

fn views() -> Result<Views, String> {
    let chosen = chosen()?;
    let store = Arc::new(ContentStore::open(&chosen.path).map_err(|e| e.to_string())?);
    let engine = Engine::new(vec![]).with_content(store.clone() as Arc<dyn ContentSource>);
    let program = Arc::new(compile("full.tpl", KERNEL_VIEW).map_err(|e| e.to_string())?);
    let mut env = crate::jinja_environment();
    env.add_template("full.html", JINJA_VIEW)
        .map_err(|e| e.to_string())?;
    Ok(Views {
        store,
        id: chosen.id,
        engine,
        program,
        env,
    })
}

/// The kernel's page: its lazily fetching template objects over the store.
fn kernel_view(v: &Views) -> Result<String, String> {
    let node = v.store.node(v.id).map_err(|e| e.to_string())?;
    let node = node.ok_or_else(|| format!("node {} is gone", v.id))?;
    let source = v.store.clone() as Arc<dyn ContentSource>;
    let vars = Vars::new().set("node", NodeValue::value(node, &source));
    v.engine
        .render(&v.program, &vars)
        .map_err(|e| e.to_string())
}

fn class_name(identifier: &str) -> &'static str {
    probes::content::classes::CLASSES
        .iter()
        .find(|c| c.identifier == identifier)
        .map_or("", |c| c.name)
}

/// minijinja's page: the same three queries through the same store, a
/// context built from their rows, then the render.
fn jinja_view(v: &Views) -> Result<String, String> {
    let node = v.store.node(v.id).map_err(|e| e.to_string())?;
    let node = node.ok_or_else(|| format!("node {} is gone", v.id))?;
    let object = v
        .store
        .object(node.object_id, None)
        .map_err(|e| e.to_string())?;
    let object = object.ok_or("no object")?;
    let query = ListQuery {
        limit: Some(20),
        ..ListQuery::children(node.node_id)
    };
    let children = v.store.list(&query).map_err(|e| e.to_string())?;
    let attributes: Vec<JValue> = object
        .attributes
        .iter()
        .map(|a| {
            let text = a.text.clone().unwrap_or_default();
            let content = if a.data_type == "ezxmltext" {
                xml_to_html(&text)
            } else {
                text
            };
            JValue::from(BTreeMap::from([
                ("id", JValue::from(a.identifier.clone())),
                ("kind", JValue::from(a.data_type.clone())),
                ("content", JValue::from(content)),
            ]))
        })
        .collect();
    let children: Vec<JValue> = children
        .iter()
        .map(|c| {
            JValue::from(BTreeMap::from([
                ("url_alias", JValue::from(c.url_alias.clone())),
                ("name", JValue::from(c.name.clone())),
                ("class_name", JValue::from(class_name(&c.class_identifier))),
            ]))
        })
        .collect();
    let template = v.env.get_template("full.html").map_err(|e| e.to_string())?;
    template
        .render(context! {
            node => context! { name => node.name },
            attributes => JValue::from(attributes),
            children => JValue::from(children),
        })
        .map_err(|e| e.to_string())
}

/// A page with the node's title, as both engines write it.
fn is_full_view(v: &Views, page: &Result<String, String>) -> Result<(), String> {
    let page = page.as_ref().map_err(Clone::clone)?;
    let theirs = jinja_view(v)?;
    let ours = kernel_view(v)?;
    if ours != theirs {
        return Err(format!(
            "the engines' pages differ ({} and {} bytes)",
            ours.len(),
            theirs.len()
        ));
    }
    if *page == ours && page.contains("<h1>") {
        Ok(())
    } else {
        Err(format!(
            "a page of {} bytes without the node's title",
            page.len()
        ))
    }
}

yardstick_probe::probe! {
    suite: kernel,
    name: full_view_kernel,
    group: full_view,
    variant: kernel,
    role: reference,
    note: "a full view listing 20 children, the kernel's engine over the store",
    setup: views,
    run: kernel_view,
    check: is_full_view,
}

yardstick_probe::probe! {
    suite: kernel,
    name: full_view_minijinja,
    group: full_view,
    variant: minijinja,
    note: "the same page from the same rows and queries, by minijinja",
    setup: views,
    run: jinja_view,
    check: is_full_view,
}
