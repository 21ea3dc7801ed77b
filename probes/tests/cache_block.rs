//! `{cache-block}` stores its output in the file cache: the same keys get
//! the stored output, other keys their own, and a content change or
//! `expire` makes it stale, unless the block ignores content expiry.

use probes::filecache::FileCache;
use probes::template::{Engine, Vars, compile};
use std::time::{Duration, SystemTime};

const SRC: &str = "<{cache-block keys=array($k)}{$x}{/cache-block}|\
                   {cache-block keys=$k ignore_content_expiry expiry=0}{$x}{/cache-block}>";

fn engine(dir: &std::path::Path, changed: Option<SystemTime>) -> Engine {
    let cache = FileCache::open(&dir.join("cache")).unwrap();
    Engine::new(vec![]).with_block_cache(cache, changed)
}

fn render(engine: &Engine, k: &str, x: i64) -> String {
    let program = compile("page.tpl", SRC).unwrap();
    let vars = Vars::new().set("k", k).set("x", x);
    engine.render(&program, &vars).unwrap()
}

#[test]
fn without_a_cache_the_body_renders_every_time() {
    let engine = Engine::new(vec![]);
    assert_eq!(render(&engine, "a", 1), "<1|1>");
    assert_eq!(render(&engine, "a", 2), "<2|2>");
}

#[test]
fn the_stored_output_is_served_per_key_until_the_content_changes() {
    let dir = tempfile::tempdir().unwrap();
    let first = engine(dir.path(), None);
    assert_eq!(render(&first, "a", 1), "<1|1>");
    // Stored: the same keys give the stored output.
    assert_eq!(render(&first, "a", 2), "<1|1>");
    // Other keys, their own.
    assert_eq!(render(&first, "b", 3), "<3|3>");
    // Content changed after the blocks were stored: the first block is
    // stale, the one that ignores content expiry is not.
    let later = SystemTime::now() + Duration::from_secs(60);
    let changed = engine(dir.path(), Some(later));
    assert_eq!(render(&changed, "a", 4), "<4|1>");
    // A block stored after the change is fresh again.
    let after = engine(
        dir.path(),
        Some(SystemTime::now() - Duration::from_secs(60)),
    );
    assert_eq!(render(&after, "a", 5), "<4|1>");
}

#[test]
fn a_block_in_a_compiled_cache_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("page.tpl"), SRC).unwrap();
    let engine = Engine::new(vec![dir.path().to_path_buf()])
        .with_cache(FileCache::open(&dir.path().join("compiled")).unwrap());
    let vars = Vars::new().set("k", "a").set("x", 1);
    let first = engine.render_uri("design:page.tpl", &vars).unwrap();
    // A second engine reads the compiled program back from disk.
    let again = Engine::new(vec![dir.path().to_path_buf()])
        .with_cache(FileCache::open(&dir.path().join("compiled")).unwrap());
    assert_eq!(again.render_uri("design:page.tpl", &vars).unwrap(), first);
    assert_eq!(first, "<1|1>");
}
