//! The `render_warm` comparison: a full view that lists 20 children,
//! rendered by the kernel's template engine over the content store, against
//! minijinja rendering the same page from the same rows.
//!
//! `cargo run --release -p probes --example full_view_speed [ROUNDS]`
//!
//! Both sides run the same SQL every iteration, through the same store: the
//! node, its object with its attributes, and its first 20 children (ours
//! through `fetch` and the node's `data_map`, minijinja's through the store
//! before it renders). So the comparison is of what each does with the
//! rows: the kernel's lazily fetching template objects against minijinja's
//! context built from them. The two pages are checked to be the same bytes
//! before anything is timed. Rounds alternate the sides; the figures are
//! medians per page.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use minijinja::value::Value as JValue;
use minijinja::{AutoEscape, Environment, context};
use probes::content::{ContentStore, FRONT_PAGE, ListQuery};
use probes::host::ContentSource;
use probes::template::content::{NodeValue, xml_to_html};
use probes::template::ops::escape_html_into;
use probes::template::{Engine, Vars, compile};

const OURS: &str = "<div class=\"content-view-full\"><h1>{$node.name|wash}</h1>\
{foreach $node.data_map as $id => $a}{if eq($a.data_type_string, 'ezxmltext')}<div class=\"attribute-{$id}\">{$a.content}</div>\
{elseif eq($a.data_type_string, 'ezstring')}<div class=\"attribute-{$id}\">{$a.content|wash}</div>\
{/if}{/foreach}<ul>\
{foreach fetch('content', 'list', hash('parent_node_id', $node.node_id, 'limit', 20)) as $child}<li><a href=\"/{$child.url_alias}\">{$child.name|wash}</a> <span>{$child.class_name}</span></li>\
{/foreach}</ul></div>";

const THEIRS: &str = "<div class=\"content-view-full\"><h1>{{ node.name|wash }}</h1>\
{% for a in attributes %}{% if a.kind == 'ezxmltext' %}<div class=\"attribute-{{ a.id }}\">{{ a.content }}</div>\
{% elif a.kind == 'ezstring' %}<div class=\"attribute-{{ a.id }}\">{{ a.content|wash }}</div>\
{% endif %}{% endfor %}<ul>\
{% for child in children %}<li><a href=\"/{{ child.url_alias }}\">{{ child.name|wash }}</a> <span>{{ child.class_name }}</span></li>\
{% endfor %}</ul></div>\n";

fn class_name(identifier: &str) -> &'static str {
    probes::content::classes::CLASSES
        .iter()
        .find(|c| c.identifier == identifier)
        .map_or("", |c| c.name)
}

/// The minijinja page: the same three queries, then the render.
fn theirs(env: &Environment, store: &ContentStore) -> Result<String, String> {
    let node = store
        .node(FRONT_PAGE)
        .map_err(|e| e.to_string())?
        .ok_or("no node")?;
    let object = store
        .object(node.object_id, None)
        .map_err(|e| e.to_string())?
        .ok_or("no object")?;
    let query = ListQuery {
        limit: Some(20),
        ..ListQuery::children(node.node_id)
    };
    let children = store.list(&query).map_err(|e| e.to_string())?;
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
    let template = env.get_template("full.html").map_err(|e| e.to_string())?;
    template
        .render(context! {
            node => context! { name => node.name },
            attributes => JValue::from(attributes),
            children => JValue::from(children),
        })
        .map_err(|e| e.to_string())
}

fn median(v: &[f64]) -> f64 {
    yardstick::stats::median(v).unwrap_or(0.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = std::env::args().nth(1).map_or(Ok(31), |a| a.parse())?;
    let store = Arc::new(ContentStore::open(&probes::kernel::fixture()?)?);
    let engine = Engine::new(vec![]).with_content(store.clone() as Arc<dyn ContentSource>);
    let program = compile("full.tpl", OURS)?;
    let ours = || -> Result<String, String> {
        let node = store
            .node(FRONT_PAGE)
            .map_err(|e| e.to_string())?
            .ok_or("no node")?;
        let source = store.clone() as Arc<dyn ContentSource>;
        let vars = Vars::new().set("node", NodeValue::value(node, &source));
        engine.render(&program, &vars).map_err(|e| e.to_string())
    };
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::None);
    env.add_filter("wash", |s: &str| {
        let mut out = String::with_capacity(s.len() + 8);
        escape_html_into(s, &mut out);
        out
    });
    env.add_template("full.html", THEIRS)?;
    let (a, b) = (ours()?, theirs(&env, &store)?);
    if a != b {
        return Err(format!("the pages differ:\n--- ours\n{a}\n--- minijinja\n{b}").into());
    }
    let children = a.matches("<li>").count();
    const BATCH: u32 = 200;
    let per_page = |f: &dyn Fn() -> Result<String, String>| {
        let start = Instant::now();
        for _ in 0..BATCH {
            black_box(f().ok());
        }
        start.elapsed().as_nanos() as f64 / f64::from(BATCH) / 1e3
    };
    let (mut us, mut them) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        if round % 2 == 0 {
            us.push(per_page(&ours));
            them.push(per_page(&|| theirs(&env, &store)));
        } else {
            them.push(per_page(&|| theirs(&env, &store)));
            us.push(per_page(&ours));
        }
    }
    let (u, t) = (median(&us), median(&them));
    println!(
        "full view of node {FRONT_PAGE} with {children} children listed, {} bytes, {rounds} rounds of {BATCH}:",
        a.len()
    );
    println!("  the kernel's engine over the store   {u:>8.1} µs");
    println!("  minijinja, same rows, same queries   {t:>8.1} µs");
    println!("  ratio kernel / minijinja             {:>8.2}", u / t);
    Ok(())
}
