//! The engine: where templates are found (the design search path), what
//! operators may reach (site, locale, translator, settings), the optional
//! compiled-template cache, and the entry points to load and render.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use crate::filecache::FileCache;

use super::budget::Budget;
use super::cache::CompiledCache;
use super::compile::compile;
use super::error::TemplateError;
use super::ops::{Clock, Env, Locale, Site};
use super::program::{Program, Sym};
use super::render::Renderer;
use super::scope::ROOT;
use super::value::Value;
use crate::host::{ContentSource, SettingsSource, Translator};

/// Budgets that stop a runaway template instead of hanging the process.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Loop iterations (and backward jumps) per render.
    pub max_steps: u64,
    /// Nested includes.
    pub max_include_depth: u32,
    /// Bytes that operators make and the output holds, per render: the
    /// step limit bounds time, this bounds memory (see `budget`).
    pub max_bytes: u64,
    /// Fuel per render: bytes of large operands touched and included
    /// instructions (see `budget`). Bounds the work that makes nothing,
    /// which neither limit above sees.
    pub max_fuel: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1_000_000,
            max_include_depth: 32,
            max_bytes: 32 << 20,
            max_fuel: 1 << 30,
        }
    }
}

/// Where `{cache-block}` output is kept.
pub(crate) struct BlockCache {
    pub cache: FileCache,
    /// When the content last changed: blocks stored before are stale.
    pub content_changed: Option<SystemTime>,
}

/// The variables a render starts with, in the global namespace.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    entries: Vec<(Sym, Value)>,
}

impl Vars {
    pub fn new() -> Self {
        Vars::default()
    }

    pub fn set(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.entries.push((Sym::new(name), value.into()));
        self
    }
}

pub struct Engine {
    designs: Vec<PathBuf>,
    pub site: Site,
    pub locale: Locale,
    pub limits: Limits,
    /// Where `currentdate` reads the time; tests fix it.
    pub clock: Clock,
    translator: Option<Arc<dyn Translator + Send + Sync>>,
    settings: Option<Arc<dyn SettingsSource + Send + Sync>>,
    content: Option<Arc<dyn ContentSource>>,
    blocks: Option<BlockCache>,
    cache: Option<CompiledCache>,
    /// Programs loaded through [`Engine::load`], by URI.
    loaded: Mutex<HashMap<String, Arc<Program>>>,
}

impl Engine {
    /// An engine looking up `design:` URIs in `designs`, first match wins.
    pub fn new(designs: Vec<PathBuf>) -> Engine {
        Engine {
            designs,
            site: Site::default(),
            locale: Locale::default(),
            limits: Limits::default(),
            clock: Clock::System,
            translator: None,
            settings: None,
            content: None,
            blocks: None,
            cache: None,
            loaded: Mutex::new(HashMap::new()),
        }
    }

    pub fn with_translator(mut self, t: Arc<dyn Translator + Send + Sync>) -> Self {
        self.translator = Some(t);
        self
    }

    pub fn with_settings(mut self, s: Arc<dyn SettingsSource + Send + Sync>) -> Self {
        self.settings = Some(s);
        self
    }

    /// Lets `fetch` and `treemenu` read `content`.
    pub fn with_content(mut self, content: Arc<dyn ContentSource>) -> Self {
        self.content = Some(content);
        self
    }

    /// Keeps the output of `{cache-block}` in `cache`; blocks stored
    /// before `content_changed` are stale unless they ignore content
    /// expiry.
    pub fn with_block_cache(
        mut self,
        cache: FileCache,
        content_changed: Option<SystemTime>,
    ) -> Self {
        self.blocks = Some(BlockCache {
            cache,
            content_changed,
        });
        self
    }

    pub(crate) fn block_cache(&self) -> Option<&BlockCache> {
        self.blocks.as_ref()
    }

    /// Keeps compiled templates in the file cache `files` between runs.
    pub fn with_cache(mut self, files: crate::filecache::FileCache) -> Self {
        self.cache = Some(CompiledCache::new(files));
        self
    }

    pub fn designs(&self) -> &[PathBuf] {
        &self.designs
    }

    pub(crate) fn env<'a>(&'a self, budget: &'a Budget) -> Env<'a> {
        Env {
            budget,
            translator: self.translator.as_deref().map(|t| t as &dyn Translator),
            settings: self.settings.as_deref().map(|s| s as &dyn SettingsSource),
            site: &self.site,
            locale: &self.locale,
            designs: &self.designs,
            clock: self.clock,
            content: self.content.as_ref(),
        }
    }

    /// The file a URI names: `design:path` is looked up along the design
    /// search path, first match wins; `file:path` (or a bare path) names a
    /// file directly. Either way the file must lie inside a design folder
    /// once links are followed, as the CMS's `design:` resources do: a
    /// template cannot include `/etc/passwd`, `/proc/self/environ`, or a
    /// link out of its design. Paths climbing out with `..` are refused.
    pub fn resolve(&self, uri: &str) -> Option<PathBuf> {
        match uri.strip_prefix("design:") {
            Some(rel) => {
                let rel = Path::new(rel);
                if rel
                    .components()
                    .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
                {
                    return None;
                }
                self.designs
                    .iter()
                    .map(|d| d.join(rel))
                    .find(|p| p.is_file())
                    .filter(|p| self.inside_designs(p))
            }
            None => {
                let p = PathBuf::from(uri.strip_prefix("file:").unwrap_or(uri));
                (p.is_file() && self.inside_designs(&p)).then_some(p)
            }
        }
    }

    /// Whether `path`, its links followed, lies inside a design folder.
    fn inside_designs(&self, path: &Path) -> bool {
        let Ok(real) = path.canonicalize() else {
            return false;
        };
        self.designs
            .iter()
            .filter_map(|d| d.canonicalize().ok())
            .any(|d| real.starts_with(d))
    }

    /// Loads and compiles the template `uri` names, once per engine; with a
    /// cache configured, a fresh compiled copy on disk is used instead of
    /// compiling.
    pub fn load(&self, uri: &str) -> Result<Arc<Program>, TemplateError> {
        self.find(uri).unwrap_or_else(|| {
            Err(TemplateError::file(
                uri,
                "template not found in the design search path".into(),
            ))
        })
    }

    /// Like [`Engine::load`], but `None` when no file has that URI. A
    /// template loaded before is returned without looking at the disk.
    pub fn find(&self, uri: &str) -> Option<Result<Arc<Program>, TemplateError>> {
        if let Some(p) = self.loaded.lock().ok().and_then(|m| m.get(uri).cloned()) {
            return Some(Ok(p));
        }
        let path = self.resolve(uri)?;
        Some(self.load_file(uri, &path))
    }

    fn load_file(&self, uri: &str, path: &Path) -> Result<Arc<Program>, TemplateError> {
        let name = path.display().to_string();
        let source = std::fs::read_to_string(path)
            .map_err(|e| TemplateError::file(&name, format!("cannot read: {e}")))?;
        let program = match &self.cache {
            Some(cache) => cache.load_or_compile(&name, &source)?.0,
            None => compile(&name, &source)?,
        };
        let program = Arc::new(program);
        if let Ok(mut m) = self.loaded.lock() {
            m.insert(uri.to_string(), Arc::clone(&program));
        }
        Ok(program)
    }

    /// Renders a compiled program with `vars`.
    pub fn render(&self, program: &Program, vars: &Vars) -> Result<String, TemplateError> {
        let budget = Budget::new(self.limits.max_bytes).with_fuel(self.limits.max_fuel);
        let mut r = Renderer::new(self, &budget, 8 * 1024);
        for (name, value) in &vars.entries {
            r.scope_mut().define(ROOT, name, value.clone());
        }
        r.run(program)?;
        Ok(r.finish())
    }

    /// Loads `uri` and renders it.
    pub fn render_uri(&self, uri: &str, vars: &Vars) -> Result<String, TemplateError> {
        let program = self.load(uri)?;
        self.render(&program, vars)
    }
}
