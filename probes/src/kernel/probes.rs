//! The kernel suite's probes.

use super::{Site, fixture};
use crate::content::classes::CLASSES;
use crate::content::image::{AliasDefinition, AliasDefinitions, lookup};
use crate::content::{ListQuery, Node};
use crate::filecache::{Expiry, FileCache};
use crate::settings::{Found, SettingsCache};
use std::time::{Duration, Instant};

/// Checks a node's full view: its title, and its children when it has any.
fn check_full_view(site: &Site, id: i64, html: &str) -> Result<(), String> {
    let node = site.store.node(id).map_err(|e| e.to_string())?;
    let node = node.ok_or_else(|| format!("node {id} is gone"))?;
    let children = site
        .store
        .count(&ListQuery::children(id))
        .map_err(|e| e.to_string())?;
    let title = format!("<h1>{}</h1>", escape(&node.name));
    if html.contains(&title) && (children == 0 || html.contains("class=\"children\"")) {
        Ok(())
    } else {
        Err(format!(
            "node {id}'s full view is wrong ({} bytes, {children} children)",
            html.len()
        ))
    }
}

/// Text as the template's `wash` writes it into HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#039;")
}

yardstick_probe::process_probe! {
    suite: kernel,
    name: kernel,
    note: "boot: the node chosen (--node), content store opened, settings read; render_cold: its full view, first in the process",
    setup: || fixture().map(|_| ()),
    child: |child| {
        let path = super::built_fixture()?;
        let node = super::node(&path)?;
        let site = Site::boot(&path)?;
        child.ready();
        let started = Instant::now();
        let html = site.full_view(node)?;
        child.report("render_cold", started.elapsed());
        child.note(&format!("node {node}, {}", file_name(&path)));
        check_full_view(&site, node, &html)
    },
}

/// The database file's name, for the notes.
fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The parts of a page the in-process probes time, booted once.
struct Booted {
    site: Site,
    /// The node rendered and fetched (`--node`, else the default).
    node: Node,
    /// The database file, for the notes.
    file: String,
}

fn booted() -> Result<Booted, String> {
    let path = fixture()?;
    let file = file_name(&path);
    let id = super::node(&path)?;
    let site = Site::boot(&path)?;
    let node = site.store.node(id).map_err(|e| e.to_string())?;
    let node = node.ok_or_else(|| format!("node {id} is gone"))?;
    Ok(Booted { site, node, file })
}

yardstick_probe::probe! {
    suite: kernel,
    name: render_warm,
    note: |b: &Booted| format!("node {}'s full view, warm, in {}", b.node.node_id, b.file),
    setup: booted,
    run: |b| b.site.full_view(b.node.node_id),
    check: |b, html| {
        let html = html.as_ref().map_err(Clone::clone)?;
        check_full_view(&b.site, b.node.node_id, html)
    },
}

/// The fixture site's settings directories, as `Site::boot` reads them.
fn settings_dirs() -> Vec<std::path::PathBuf> {
    ["settings", "settings/siteaccess/eng", "settings/override"]
        .map(crate::fixtures::path)
        .to_vec()
}

/// A settings cache in a folder of its own, primed.
struct CachedSettings {
    _dir: tempfile::TempDir,
    cache: SettingsCache,
    dirs: Vec<std::path::PathBuf>,
}

yardstick_probe::probe! {
    suite: kernel,
    name: ini_load,
    note: "content.ini over its 3 directories, from the settings cache",
    setup: || -> Result<CachedSettings, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let files = FileCache::open(dir.path()).map_err(|e| e.to_string())?;
        let cache = SettingsCache::new(files);
        let dirs = settings_dirs();
        cache.load("content.ini", &dirs).map_err(|e| e.to_string())?;
        Ok(CachedSettings { _dir: dir, cache, dirs })
    },
    run: |c| c.cache.load("content.ini", &c.dirs).map(|(s, found)| (s.variable_count(), found)),
    check: |_, loaded| match loaded {
        Ok((n, Found::Cached)) if *n > 0 => Ok(()),
        other => Err(format!("not read from the cache: {other:?}")),
    },
}

yardstick_probe::probe! {
    suite: kernel,
    name: content_fetch,
    note: |b: &Booted| format!("object {} (node {}) with its attributes, from {}", b.node.object_id, b.node.node_id, b.file),
    setup: booted,
    run: |b| b.site.store.object(b.node.object_id, None).map(|o| o.map(|o| o.attributes.len())),
    check: |b, found| {
        let class = CLASSES.iter().find(|c| c.identifier == b.node.class_identifier);
        let expected = class.map(|c| c.attributes.len());
        match found {
            Ok(Some(n)) if Some(*n) == expected => Ok(()),
            other => Err(format!("a {} has {expected:?} attributes: {other:?}", b.node.class_identifier)),
        }
    },
}

yardstick_probe::probe! {
    suite: kernel,
    name: node_list,
    note: |b: &Booted| format!("up to 20 children of node {}, in its order, from {}", b.node.node_id, b.file),
    setup: booted,
    run: |b| {
        let query = ListQuery { limit: Some(20), ..ListQuery::children(b.node.node_id) };
        b.site.store.list(&query).map(|nodes| nodes.len())
    },
    check: |b, listed| {
        let all = b.site.store.count(&ListQuery::children(b.node.node_id)).map_err(|e| e.to_string())?;
        match listed {
            Ok(n) if *n as u64 == all.min(20) => Ok(()),
            other => Err(format!("{other:?} of {all} children")),
        }
    },
}

yardstick_probe::probe! {
    suite: kernel,
    name: db_query,
    group: node_query,
    variant: kernel,
    role: reference,
    note: |b: &Booted| format!("node {} by its key, joined to its object and class, in {}", b.node.node_id, b.file),
    setup: booted,
    run: |b| b.site.store.node(b.node.node_id).map(|n| n.map(|n| n.name)),
    check: |b, found| match found {
        Ok(Some(name)) if *name == b.node.name => Ok(()),
        other => Err(format!("{other:?}")),
    },
}

/// A file cache in a folder of its own, with a 16 KB entry.
struct Entry {
    _dir: tempfile::TempDir,
    cache: FileCache,
    bytes: Vec<u8>,
}

const ENTRY: &str = "kernel/probe-entry.cache";

/// Where the cache's folder is made: in memory (`/dev/shm`) where there
/// is one, so the probes time the cache's own work (the files opened,
/// written and renamed), not the disk. On ext4 a rename over a file starts
/// its writeback, and that wait moved `cache_write` by up to +234 % between
/// unchanged runs (docs/evaluation.md, "Kernel mode").
const IN_MEMORY: &str = "/dev/shm";

fn entry() -> Result<Entry, String> {
    // A /dev/shm that cannot be written (some containers) is no reason to
    // fail: the temporary folder serves, disk and all.
    let in_memory = tempfile::Builder::new()
        .prefix("yardstick-cache-")
        .tempdir_in(IN_MEMORY)
        .ok();
    let dir = match in_memory {
        Some(dir) => dir,
        None => tempfile::tempdir().map_err(|e| e.to_string())?,
    };
    let cache = FileCache::open(dir.path()).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = (0..16 * 1024u32).map(|i| (i % 251) as u8).collect();
    cache.store(ENTRY, &bytes).map_err(|e| e.to_string())?;
    Ok(Entry {
        _dir: dir,
        cache,
        bytes,
    })
}

yardstick_probe::probe! {
    suite: kernel,
    name: cache_write,
    note: "a 16 KB entry written atomically (a temporary file renamed), in memory where there is a /dev/shm",
    setup: entry,
    run: |e| e.cache.store(ENTRY, &e.bytes).is_ok(),
    check: |e, stored| match e.cache.fetch(ENTRY, Expiry::default()) {
        Ok(Some(read)) if *stored && read == e.bytes => Ok(()),
        _ => Err("the entry did not read back".into()),
    },
}

yardstick_probe::probe! {
    suite: kernel,
    name: cache_read,
    note: "a 16 KB entry read, its age checked",
    setup: entry,
    run: |e| e.cache.fetch(ENTRY, Expiry { max_age: Some(Duration::from_secs(3600)), expired_before: None }),
    check: |e, read| match read {
        Ok(Some(bytes)) if *bytes == e.bytes => Ok(()),
        _ => Err("the entry was not read whole".into()),
    },
}

/// An image attribute that has the `small` alias of the site's settings.
struct Aliased {
    object: i64,
    file: String,
    xml: String,
    small: AliasDefinition,
}

yardstick_probe::probe! {
    suite: kernel,
    name: image_alias,
    note: |a: &Aliased| format!("the small alias of object {}'s image, found, not scaled, from {}", a.object, a.file),
    setup: || -> Result<Aliased, String> {
        let path = fixture()?;
        let b = Site::boot(&path)?;
        let image = b.settings.file("image.ini").map_err(|e| e.to_string())?;
        let definitions = AliasDefinitions::from_settings(&image)?;
        let small = definitions.get("small").cloned().ok_or("no small alias in image.ini")?;
        let needle = format!("alias_key=\"{}\"", small.key);
        let (object, attribute) = b
            .store
            .attribute_with("ezimage", &needle)
            .map_err(|e| e.to_string())?
            .ok_or("no image has the small alias of the settings")?;
        Ok(Aliased { object, file: file_name(&path), xml: attribute.text.unwrap_or_default(), small })
    },
    run: |a| lookup(&a.xml, &a.small).map(|v| v.map(|v| v.url)),
    check: |_, found| match found {
        Ok(Some(url)) if url.ends_with("_small.jpg") => Ok(()),
        other => Err(format!("{other:?}")),
    },
}
