//! `fetch` and `treemenu` in templates, checked against the content store
//! read directly, and the full view rendering real content.

use probes::content::{self, ClassFilter, ContentStore, FRONT_PAGE, ListQuery, Shape, SortKey};
use probes::host::ContentSource;
use probes::template::{Engine, Vars, compile};
use std::path::PathBuf;
use std::sync::Arc;

struct Site {
    _dir: tempfile::TempDir,
    store: Arc<ContentStore>,
    engine: Engine,
}

fn site() -> Site {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("content.db");
    content::generate(
        &path,
        &Shape {
            nodes: 800,
            depth: 6,
            seed: 3,
        },
    )
    .unwrap();
    let store = Arc::new(ContentStore::open(&path).unwrap());
    let design = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/design");
    let engine = Engine::new(vec![design]).with_content(store.clone() as Arc<dyn ContentSource>);
    Site {
        _dir: dir,
        store,
        engine,
    }
}

fn render(site: &Site, source: &str) -> String {
    let program = compile("t.tpl", source).unwrap();
    site.engine.render(&program, &Vars::new()).unwrap()
}

fn ids(nodes: &[content::Node]) -> String {
    nodes.iter().map(|n| format!("{},", n.node_id)).collect()
}

#[test]
fn a_node_and_an_object_are_fetched_by_id() {
    let site = site();
    assert_eq!(
        render(&site, "{fetch('content', 'node', hash('node_id', 2)).name}"),
        "Home"
    );
    let front = site.store.node(FRONT_PAGE).unwrap().unwrap();
    let src = format!(
        "{{fetch('content', 'object', hash('object_id', {})).data_map.name.content}}",
        front.object_id
    );
    assert_eq!(render(&site, &src), "Home");
    assert_eq!(
        render(
            &site,
            "{fetch('content', 'node', hash('node_id', 99999))|is_null}"
        ),
        "1"
    );
}

#[test]
fn lists_and_counts_are_the_stores() {
    let site = site();
    let src = "{foreach fetch('content', 'list', hash('parent_node_id', 2, 'limit', 7, 'offset', 1, \
               'sort_by', array('priority', false()))) as $n}{$n.node_id},{/foreach}";
    let want = site
        .store
        .list(&ListQuery {
            sort_by: vec![(SortKey::Priority, false)],
            limit: Some(7),
            offset: 1,
            ..ListQuery::children(FRONT_PAGE)
        })
        .unwrap();
    assert_eq!(render(&site, src), ids(&want));

    let articles = ListQuery {
        depth: None,
        class_filter: Some(ClassFilter {
            include: true,
            classes: vec!["article".into()],
        }),
        ..ListQuery::children(FRONT_PAGE)
    };
    let src = "{fetch('content', 'tree_count', hash('parent_node_id', 2, \
               'class_filter_type', 'include', 'class_filter_array', array('article')))}";
    assert_eq!(
        render(&site, src),
        site.store.count(&articles).unwrap().to_string()
    );
    let src = "{fetch('content', 'list_count', hash('parent_node_id', 2))}";
    let children = site.store.count(&ListQuery::children(FRONT_PAGE)).unwrap();
    assert_eq!(render(&site, src), children.to_string());
    let src = "{fetch('content', 'list', hash('parent_node_id', 2, 'sort_by', \
               array(array('name', true()), array('priority', false()))))|count}";
    assert_eq!(render(&site, src), children.to_string());
}

#[test]
fn wrong_parameters_warn_at_their_position_and_fetch_nothing() {
    let site = site();
    let cases = [
        (
            "{fetch('contents', 'node', hash('node_id', 2))}",
            "unknown module `contents`",
        ),
        (
            "{fetch('content', 'nodes', hash('node_id', 2))}",
            "unknown function",
        ),
        (
            "{fetch('content', 'node', hash('id', 2))}",
            "unknown parameter `id`",
        ),
    ];
    for (src, want) in cases {
        let program = compile("t.tpl", src).unwrap();
        let warning = program
            .warnings
            .first()
            .map(ToString::to_string)
            .unwrap_or_default();
        assert!(
            warning.starts_with("t.tpl:1:2: warning: fetch") && warning.contains(want),
            "{warning}"
        );
        assert_eq!(site.engine.render(&program, &Vars::new()).unwrap(), "");
    }
}

#[test]
fn the_treemenu_opens_the_path_to_a_node() {
    let site = site();
    // A node three levels below the front page.
    let deep = site
        .store
        .list(&ListQuery {
            depth: None,
            ..ListQuery::children(FRONT_PAGE)
        })
        .unwrap()
        .into_iter()
        .find(|n| n.depth == 4)
        .unwrap();
    let src = format!(
        "{{foreach treemenu(array(), {}, array(), 0, 9) as $i}}{{$i.level}}:{{$i.id}}{{if $i.is_selected}}*{{/if}} {{/foreach}}",
        deep.node_id
    );
    let out = render(&site, &src);
    let ancestors: Vec<&str> = deep
        .path_string
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    // Every ancestor below the front page, and the node, are open.
    for (level, id) in ancestors[2..].iter().enumerate() {
        assert!(
            out.contains(&format!("{level}:{id}*")),
            "{id} at {level}: {out}"
        );
    }
    // The first level is the front page's children.
    let first = site.store.count(&ListQuery::children(FRONT_PAGE)).unwrap();
    assert_eq!(out.matches("0:").count() as u64, first);
}

#[test]
fn the_full_view_renders_a_real_node() {
    let site = site();
    let menu = site.store.list(&ListQuery::children(FRONT_PAGE)).unwrap();
    let node = menu
        .into_iter()
        .find(|n| {
            n.class_identifier == "folder"
                && site.store.count(&ListQuery::children(n.node_id)).unwrap() > 2
        })
        .unwrap();
    let src = format!(
        "{{node_view_gui content_node=fetch('content', 'node', hash('node_id', {})) view=full}}",
        node.node_id
    );
    let out = render(&site, &src);
    assert!(out.contains(&format!("<h1>{}</h1>", node.name)), "{out}");
    let children = site.store.list(&ListQuery::children(node.node_id)).unwrap();
    assert!(
        out.contains(&format!(
            "/{}\">{}</a>",
            children[0].url_alias, children[0].name
        )),
        "{out}"
    );
    assert!(out.contains("<p>"), "the rich text is rendered: {out}");
}
