//! The kernel suite's probes.

use super::{Site, fixture};
use crate::content::image::{AliasDefinition, AliasDefinitions, lookup};
use crate::content::{FRONT_PAGE, ListQuery};
use crate::filecache::{Expiry, FileCache};
use crate::settings::{Found, SettingsCache};
use std::time::{Duration, Instant};

/// Checks a full view of the front page: its title, and its children.
fn check_front_page(html: &str) -> Result<(), String> {
    if html.contains("<h1>Home</h1>") && html.contains("class=\"children\"") {
        Ok(())
    } else {
        Err(format!(
            "the front page's full view is wrong ({} bytes)",
            html.len()
        ))
    }
}

yardstick::process_probe! {
    suite: kernel,
    name: kernel,
    note: "boot: content store opened, settings read; render_cold: the front page's full view, first in the process",
    setup: || fixture().map(|_| ()),
    child: |child| {
        let site = Site::boot(&fixture()?)?;
        child.ready();
        let started = Instant::now();
        let html = site.full_view(FRONT_PAGE)?;
        child.report("render_cold", started.elapsed());
        check_front_page(&html)
    },
}

/// The parts of a page the in-process probes time, booted once.
struct Booted {
    site: Site,
    /// The database file, for the notes.
    file: String,
}

fn booted() -> Result<Booted, String> {
    let path = fixture()?;
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Booted {
        site: Site::boot(&path)?,
        file,
    })
}

yardstick::probe! {
    suite: kernel,
    name: render_warm,
    note: |b: &Booted| format!("node {FRONT_PAGE}'s full view, warm, in {}", b.file),
    setup: booted,
    run: |b| b.site.full_view(FRONT_PAGE),
    check: |_, html| html.as_ref().map_err(Clone::clone).and_then(|h| check_front_page(h)),
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

yardstick::probe! {
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

/// The content objects and nodes the content probes use.
struct Content {
    booted: Booted,
    /// The first article under the front page.
    article: i64,
}

fn content() -> Result<Content, String> {
    let booted = booted()?;
    let children = booted
        .site
        .store
        .list(&ListQuery::children(FRONT_PAGE))
        .map_err(|e| e.to_string())?;
    let article = children
        .iter()
        .find(|n| n.class_identifier == "article")
        .map(|n| n.object_id)
        .ok_or("the front page has no article")?;
    Ok(Content { booted, article })
}

yardstick::probe! {
    suite: kernel,
    name: content_fetch,
    note: |c: &Content| format!("object {} with its attributes, from {}", c.article, c.booted.file),
    setup: content,
    run: |c| c.booted.site.store.object(c.article, None).map(|o| o.map(|o| o.attributes.len())),
    check: |_, found| match found {
        Ok(Some(5)) => Ok(()),
        other => Err(format!("an article has 5 attributes: {other:?}")),
    },
}

yardstick::probe! {
    suite: kernel,
    name: node_list,
    note: |b: &Booted| format!("up to 20 children of node {FRONT_PAGE}, in its order, from {}", b.file),
    setup: booted,
    run: |b| {
        let query = ListQuery { limit: Some(20), ..ListQuery::children(FRONT_PAGE) };
        b.site.store.list(&query).map(|nodes| nodes.len())
    },
    check: |b, listed| {
        let all = b.site.store.count(&ListQuery::children(FRONT_PAGE)).map_err(|e| e.to_string())?;
        match listed {
            Ok(n) if *n as u64 == all.min(20) => Ok(()),
            other => Err(format!("{other:?} of {all} children")),
        }
    },
}

yardstick::probe! {
    suite: kernel,
    name: db_query,
    note: |b: &Booted| format!("node {FRONT_PAGE} by its key, joined to its object and class, in {}", b.file),
    setup: booted,
    run: |b| b.site.store.node(FRONT_PAGE).map(|n| n.map(|n| n.name)),
    check: |_, found| match found {
        Ok(Some(name)) if name == "Home" => Ok(()),
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

fn entry() -> Result<Entry, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let cache = FileCache::open(dir.path()).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = (0..16 * 1024u32).map(|i| (i % 251) as u8).collect();
    cache.store(ENTRY, &bytes).map_err(|e| e.to_string())?;
    Ok(Entry {
        _dir: dir,
        cache,
        bytes,
    })
}

yardstick::probe! {
    suite: kernel,
    name: cache_write,
    note: "a 16 KB entry written atomically (a temporary file renamed)",
    setup: entry,
    run: |e| e.cache.store(ENTRY, &e.bytes).is_ok(),
    check: |e, stored| match e.cache.fetch(ENTRY, Expiry::default()) {
        Ok(Some(read)) if *stored && read == e.bytes => Ok(()),
        _ => Err("the entry did not read back".into()),
    },
}

yardstick::probe! {
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
    xml: String,
    small: AliasDefinition,
}

yardstick::probe! {
    suite: kernel,
    name: image_alias,
    note: |a: &Aliased| format!("the small alias of object {}'s image, found, not scaled", a.object),
    setup: || -> Result<Aliased, String> {
        let b = booted()?;
        let image = b.site.settings.file("image.ini").map_err(|e| e.to_string())?;
        let definitions = AliasDefinitions::from_settings(&image)?;
        let small = definitions.get("small").cloned().ok_or("no small alias in image.ini")?;
        let needle = format!("alias_key=\"{}\"", small.key);
        let (object, attribute) = b
            .site
            .store
            .attribute_with("ezimage", &needle)
            .map_err(|e| e.to_string())?
            .ok_or("no image has the small alias of the settings")?;
        Ok(Aliased { object, xml: attribute.text.unwrap_or_default(), small })
    },
    run: |a| lookup(&a.xml, &a.small).map(|v| v.map(|v| v.url)),
    check: |_, found| match found {
        Ok(Some(url)) if url.ends_with("_small.jpg") => Ok(()),
        other => Err(format!("{other:?}")),
    },
}
