//! The kernel as one request meets it: a site booted (its content store
//! opened, its settings read, its template engine set up over both) and a
//! node's full view rendered. The kernel suite's probes
//! (`cargo bench --bench kernel`) time these parts.

pub mod choice;
mod probes;

pub use choice::{ContentSize, DatabaseFile, node};

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use crate::content::{self, ContentStore, Shape};
use crate::fixtures;
use crate::host::{ContentSource, SettingsSource};
use crate::settings::SiteSettings;
use crate::template::content::NodeValue;
use crate::template::{Engine, Vars};

/// The content store the kernel probes read: `--database` when given,
/// else the default shape, of `--content-size` nodes when given, generated
/// once into the system's temporary folder and shared by every process of
/// a run (a child must not pay for building it). The name carries the
/// shape and the store's layout, so a store of another shape or layout is
/// never taken for it; building goes through a temporary file and a
/// rename, so two processes that build it at once both end with a whole
/// one, and a generated store that no longer opens as one (not SQLite, or
/// of another layout) is built again.
pub fn fixture() -> Result<PathBuf, String> {
    if let Some(path) = given_database()? {
        return Ok(path);
    }
    let (path, shape) = generated_path()?;
    // One build per process, however many probes ask at once.
    static BUILDING: Mutex<()> = Mutex::new(());
    let _one = BUILDING.lock().unwrap_or_else(PoisonError::into_inner);
    if !path.is_file() || ContentStore::open(&path).is_err() {
        content::generate(&path, &shape).map_err(|e| e.to_string())?;
        remove_outdated(&path);
    }
    Ok(path)
}

/// The store [`fixture`] gives, without checking, opening or building it:
/// what a process probe's child reads, after the parent's set-up called
/// [`fixture`] (the child's boot is timed, and building is not boot).
pub fn built_fixture() -> Result<PathBuf, String> {
    match yardstick_probe::param("database") {
        Some(path) => Ok(PathBuf::from(path)),
        None => generated_path().map(|(path, _)| path),
    }
}

/// `--database`, which excludes `--content-size`.
fn given_database() -> Result<Option<PathBuf>, String> {
    let Some(file) = DatabaseFile::given()? else {
        return Ok(None);
    };
    if yardstick_probe::param("content_size").is_some() {
        return Err("--database and --content-size: a given store has its own size".into());
    }
    Ok(Some(file.0))
}

/// Where the generated store of the run's size lives, and its shape.
fn generated_path() -> Result<(PathBuf, Shape), String> {
    let shape = Shape {
        nodes: ContentSize::given()?.0,
        ..Shape::default()
    };
    let name = format!(
        "{}{}-{}-{}.db",
        prefix(),
        shape.nodes,
        shape.depth,
        shape.seed
    );
    Ok((std::env::temp_dir().join(name), shape))
}

/// Removes the stores an older layout or generator left beside `current`
/// (73 MB each at the default size) a day ago or more; stores of other
/// sizes stay, for a later `--content-size`.
fn remove_outdated(current: &std::path::Path) {
    let Some(dir) = current.parent() else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    // A day old at least: a run of another checkout (a pull request that
    // changes the generator, beside its base) may be reading it now.
    let day = std::time::Duration::from_secs(24 * 3600);
    let old = |e: &std::fs::DirEntry| {
        e.metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > day)
    };
    for entry in entries.flatten() {
        if outdated(&entry.file_name().to_string_lossy(), &prefix()) && old(&entry) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The start of the file name of every store of this layout and
/// generator.
fn prefix() -> String {
    format!(
        "yardstick-content-l{}g{}-",
        content::LAYOUT,
        content::GENERATOR
    )
}

/// Whether `file` is a store of another layout or generator than the one
/// whose names start with `ours`.
fn outdated(file: &str, ours: &str) -> bool {
    file.starts_with("yardstick-content-l") && file.ends_with(".db") && !file.starts_with(ours)
}

/// A booted site.
pub struct Site {
    pub store: Arc<ContentStore>,
    pub settings: Arc<SiteSettings>,
    pub engine: Engine,
}

impl Site {
    /// Opens the content store at `path`, reads the fixture site's settings
    /// (the `eng` site access over the base), and sets up the engine over
    /// the design folder, the store and the settings.
    pub fn boot(path: &std::path::Path) -> Result<Site, String> {
        let store = Arc::new(ContentStore::open(path).map_err(|e| e.to_string())?);
        let settings = Arc::new(SiteSettings::new(vec![
            fixtures::path("settings"),
            fixtures::path("settings/siteaccess/eng"),
            fixtures::path("settings/override"),
        ]));
        // The settings every page reads, read now as a request would.
        for file in ["site.ini", "content.ini", "design.ini", "template.ini"] {
            settings.file(file).map_err(|e| e.to_string())?;
        }
        let engine = Engine::new(vec![fixtures::path("design")])
            .with_content(store.clone() as Arc<dyn ContentSource>)
            .with_settings(settings.clone() as Arc<dyn SettingsSource + Send + Sync>);
        Ok(Site {
            store,
            settings,
            engine,
        })
    }

    /// The full view of node `id`, rendered.
    pub fn full_view(&self, id: i64) -> Result<String, String> {
        let node = self
            .store
            .node(id)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("--node={id}: no such node"))?;
        let source = self.store.clone() as Arc<dyn ContentSource>;
        let vars = Vars::new().set("node", NodeValue::value(node, &source));
        self.engine
            .render_uri("design:node/view/full.tpl", &vars)
            .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_stores_of_another_layout_or_generator_are_outdated() {
        let ours = "yardstick-content-l1g2-";
        assert!(outdated("yardstick-content-l1g1-10000-6-1.db", ours));
        assert!(outdated("yardstick-content-l0g2-10000-6-1.db", ours));
        assert!(!outdated("yardstick-content-l1g2-10000-6-1.db", ours));
        assert!(!outdated("yardstick-content-l1g2-1000-6-1.db", ours));
        assert!(!outdated("yardstick-content-l1g1-10000-6-1.db.tmp", ours));
        assert!(!outdated("notes.db", ours));
    }
}
