//! Rendering a page: the view's own template through the kernel's engine
//! (`Site`), then the layout around it ([`layout`](crate::layout)).
//!
//! The full view is the kernel's (`Site::full_view`, the one the kernel
//! suite times); the search, login, dashboard and "not found" views are this
//! crate's templates (`demo-site/design/`), compiled once at start and
//! rendered by the same engine, so every page goes the CMS's way.

use crate::layout::{Chrome, ModuleResult, step};
use crate::routes::{self, Page};
use probes::content::search::Search;
use probes::content::{FRONT_PAGE, Node};
use probes::kernel::Site;
use probes::router::Router;
use probes::template::{Map, Program, Value, Vars, compile};
use std::path::Path;

/// Results one search page shows.
const SEARCH_PAGE: u64 = 10;

/// A rendered page: its status, its HTML, and where a redirect points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub status: u16,
    pub html: String,
    pub location: Option<String>,
}

impl Rendered {
    fn ok(html: String) -> Rendered {
        Rendered {
            status: 200,
            html,
            location: None,
        }
    }
}

/// The site's views, booted.
pub struct Pages {
    site: Site,
    chrome: Chrome,
    search: Search,
    router: Router,
    search_view: Program,
    login_view: Program,
    dashboard_view: Program,
    card_view: Program,
    missing_view: Program,
}

fn view(name: &str, source: &str) -> Result<Program, String> {
    compile(name, source).map_err(|e| e.to_string())
}

impl Pages {
    /// Boots the site over the content store at `database`; an error names
    /// the file.
    pub fn boot(database: &Path) -> Result<Pages, String> {
        let site = Site::boot(database)?;
        let search = Search::open(database).map_err(|e| e.to_string())?;
        let chrome = Chrome::new(&site)?;
        Ok(Pages {
            site,
            chrome,
            search,
            router: routes::router(),
            search_view: view("search.tpl", include_str!("../design/search.tpl"))?,
            login_view: view("login.tpl", include_str!("../design/login.tpl"))?,
            dashboard_view: view("dashboard.tpl", include_str!("../design/dashboard.tpl"))?,
            card_view: view("card.tpl", include_str!("../design/card.tpl"))?,
            missing_view: view("not_found.tpl", include_str!("../design/not_found.tpl"))?,
        })
    }

    /// The page `target` (path and query) names, rendered.
    pub fn render(&self, target: &str) -> Result<Rendered, String> {
        let page = routes::route(&self.router, &self.site.store, target)?;
        match page {
            Page::Front => self.node(FRONT_PAGE, target),
            Page::Node(id) => self.node(id, target),
            Page::Redirect(to) => Ok(Rendered {
                status: 301,
                html: String::new(),
                location: Some(to),
            }),
            Page::Search(text) => self.search(&text, target),
            // The administration answers the login form at its own path,
            // with a token for each visitor: any other spelling of it
            // (`/index.php/user/login`, `/user/login/(x)/1`) leads there.
            Page::Login => Ok(Rendered {
                status: 303,
                html: String::new(),
                location: Some(crate::admin::LOGIN.to_string()),
            }),
            Page::NotFound => self.not_found(target),
        }
    }

    /// Node `id`'s full view in the public layout; "not found" when there
    /// is no such node or it is invisible.
    fn node(&self, id: i64, uri: &str) -> Result<Rendered, String> {
        let node = self.site.store.node(id).map_err(|e| e.to_string())?;
        let Some(node) = node.filter(|n| !n.is_invisible) else {
            return self.not_found(uri);
        };
        let content = self.site.full_view(id)?;
        let html = self.chrome.public(
            &self.site,
            ModuleResult {
                uri: if id == FRONT_PAGE { "/" } else { uri },
                node_id: id,
                view: "full",
                search_text: "",
                content,
                path: self.path_of(&node)?,
                left_menu: id != FRONT_PAGE,
            },
        )?;
        Ok(Rendered::ok(html))
    }

    /// The path steps of `node`: its ancestors from the front page down,
    /// each linked, then the node itself.
    fn path_of(&self, node: &Node) -> Result<Vec<Value>, String> {
        let ids = node
            .path_string
            .split('/')
            .filter_map(|id| id.parse::<i64>().ok())
            .filter(|&id| id >= FRONT_PAGE && id != node.node_id);
        let mut steps = Vec::new();
        for id in ids {
            if let Some(a) = self.site.store.node(id).map_err(|e| e.to_string())? {
                steps.push(step(&a.name, Some(&format!("/{}", a.url_alias))));
            }
        }
        steps.push(step(&node.name, None));
        Ok(steps)
    }

    fn search(&self, text: &str, uri: &str) -> Result<Rendered, String> {
        let found = self
            .search
            .find(text, SEARCH_PAGE)
            .map_err(|e| e.to_string())?;
        let results: Vec<Value> = found.nodes.iter().map(result).collect();
        let vars = Vars::new()
            .set("search_text", text)
            .set("total", found.total.min(i64::MAX as u64) as i64)
            .set("results", Value::from(results));
        let content = self.view(&self.search_view, &vars)?;
        let html = self.chrome.public(
            &self.site,
            ModuleResult {
                uri,
                node_id: FRONT_PAGE,
                view: "search",
                search_text: text,
                content,
                path: vec![step("Search", None)],
                left_menu: true,
            },
        )?;
        Ok(Rendered::ok(html))
    }

    /// The login form with its token and a message (empty: none), in the
    /// administration's layout.
    pub fn login(&self, csrf: &str, message: &str) -> Result<String, String> {
        let vars = Vars::new()
            .set("redirect_uri", crate::admin::DASHBOARD)
            .set("csrf", csrf)
            .set("message", message);
        self.admin_page(
            &self.login_view,
            &vars,
            crate::admin::LOGIN,
            "login",
            "Log in",
            None,
        )
    }

    /// The administrators' dashboard, its forms carrying `csrf`, seen by
    /// the administrator with `online` of them logged in.
    pub fn dashboard(&self, csrf: &str, message: &str, online: usize) -> Result<String, String> {
        let vars = Vars::new().set("csrf", csrf).set("message", message);
        self.admin_page(
            &self.dashboard_view,
            &vars,
            crate::admin::DASHBOARD,
            "dashboard",
            "Dashboard",
            Some(online),
        )
    }

    /// An administration page; `online` is how many are logged in, when
    /// the administrator sees it (none: a visitor, logged out).
    fn admin_page(
        &self,
        program: &Program,
        vars: &Vars,
        uri: &str,
        view: &str,
        title: &str,
        online: Option<usize>,
    ) -> Result<String, String> {
        let content = self.view(program, vars)?;
        self.chrome.admin(
            online,
            &self.site,
            ModuleResult {
                uri,
                node_id: FRONT_PAGE,
                view,
                search_text: "",
                content,
                path: vec![step(title, None)],
                left_menu: false,
            },
        )
    }

    /// The speed card of `vars` ([`crate::card::view::vars`]), in the
    /// public layout.
    pub fn card(&self, vars: &Vars) -> Result<String, String> {
        let content = self.view(&self.card_view, vars)?;
        self.chrome.public(
            &self.site,
            ModuleResult {
                uri: crate::card::PAGE,
                node_id: FRONT_PAGE,
                view: "speed",
                search_text: "",
                content,
                path: vec![step("Speed", None)],
                left_menu: false,
            },
        )
    }

    /// The sitemap's paths, as the content store holds them now.
    pub fn sitemap_paths(&self) -> Result<Vec<String>, String> {
        crate::published::sitemap::paths(&self.site.store)
    }

    /// The site's name, as its layouts show it.
    pub fn site_name(&self) -> &str {
        &self.chrome.name
    }

    /// The "not found" page, status 404, in the public layout.
    pub fn not_found(&self, uri: &str) -> Result<Rendered, String> {
        let content = self.view(&self.missing_view, &Vars::new().set("uri", uri))?;
        let html = self.chrome.public(
            &self.site,
            ModuleResult {
                uri,
                node_id: FRONT_PAGE,
                view: "",
                search_text: "",
                content,
                path: vec![step("Page not found", None)],
                left_menu: false,
            },
        )?;
        Ok(Rendered {
            status: 404,
            html,
            location: None,
        })
    }

    fn view(&self, program: &Program, vars: &Vars) -> Result<String, String> {
        self.site
            .engine
            .render(program, vars)
            .map_err(|e| e.to_string())
    }
}

/// A search result as the search view shows it.
fn result(node: &Node) -> Value {
    let mut m = Map::with_capacity(4);
    m.insert("name", Value::str(&node.name));
    m.insert("url", Value::from(format!("/{}", node.url_alias)));
    m.insert("class_identifier", Value::str(&node.class_identifier));
    let class = probes::content::classes::CLASSES
        .iter()
        .find(|c| c.identifier == node.class_identifier)
        .map_or(node.class_identifier.as_str(), |c| c.name);
    m.insert("class_name", Value::str(class));
    Value::from(m)
}
