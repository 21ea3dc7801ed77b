//! The page layouts around a page's content, as the CMS renders every
//! page: the view's own output becomes `$module_result.content` of
//! `pagelayout.tpl` (the public site) or `admin/pagelayout.tpl` (the
//! administration), which add the header, menus, path and footer.
//!
//! What every page shares (the site's name, the anonymous visitor, the
//! menu of the front page's folders with their first children) is read
//! once at start: the content is read-only, so it cannot change under a
//! running server.

use probes::content::{ClassFilter, ContentStore, FRONT_PAGE, ListQuery, Node};
use probes::host::{SettingValue, SettingsSource};
use probes::kernel::Site;
use probes::template::{Map, Value, Vars};
use std::time::{SystemTime, UNIX_EPOCH};

/// Children of each menu folder the left menu shows.
const MENU_CHILDREN: u64 = 5;

/// What every page's layout shows alike.
pub struct Chrome {
    /// The site's name (site.ini's `SiteName`), which the OpenSearch
    /// description also gives.
    pub name: String,
    site: Value,
    user: Value,
    /// The nodes of the site, which the administration's layout counts.
    nodes: i64,
    year: i64,
    /// The left menu: the front page's folders, each with a few children.
    menu: Value,
}

/// What a view hands the layout: the CMS's `$module_result`.
pub struct ModuleResult<'a> {
    pub uri: &'a str,
    pub node_id: i64,
    /// `full`, `search`, or empty.
    pub view: &'a str,
    pub search_text: &'a str,
    pub content: String,
    /// Steps of the path, from [`step`].
    pub path: Vec<Value>,
    /// Whether the left menu shows (not on the front page, as menu.ini's
    /// `HideLeftMenuClasses` says).
    pub left_menu: bool,
}

/// A path step: its text, and its URL unless it is the page itself.
pub fn step(text: &str, url: Option<&str>) -> Value {
    let mut m = Map::with_capacity(2);
    m.insert("text", Value::str(text));
    m.insert("url", url.map_or(Value::Bool(false), Value::str));
    Value::from(m)
}

impl Chrome {
    /// Reads what every page shares from `site`.
    pub fn new(site: &Site) -> Result<Chrome, String> {
        let name = match site
            .settings
            .setting("site.ini", "SiteSettings", "SiteName")
        {
            Some(SettingValue::Scalar(name)) => name,
            _ => "yardstick demo site".to_string(),
        };
        let folders = folders(&site.store)?;
        let mut items = Vec::with_capacity(folders.len());
        for folder in &folders {
            let query = ListQuery {
                limit: Some(MENU_CHILDREN),
                ..ListQuery::children(folder.node_id)
            };
            let children = site.store.list(&query).map_err(|e| e.to_string())?;
            let children = children.iter().map(|c| menu_item(c, Vec::new())).collect();
            items.push(menu_item(folder, children));
        }
        Ok(Chrome {
            site: hash(&[
                ("title", &name),
                ("charset", "utf-8"),
                ("language", "eng-GB"),
            ]),
            user: {
                let mut m = Map::with_capacity(3);
                m.insert("is_logged_in", Value::Bool(false));
                m.insert("login", Value::str("anonymous"));
                m.insert("name", Value::str("Anonymous User"));
                Value::from(m)
            },
            year: current_year(),
            menu: Value::from(items),
            nodes: nodes(site)?,
            name,
        })
    }

    /// The variables of a layout around `m`.
    fn vars(&self, m: ModuleResult<'_>, user: &Value, extra: &[(&str, Value)]) -> Vars {
        let mut r = Map::with_capacity(10 + extra.len());
        r.insert("uri", Value::str(m.uri));
        r.insert("node_id", Value::Int(m.node_id));
        r.insert("view", Value::str(m.view));
        r.insert("search_text", Value::str(m.search_text));
        r.insert("content", Value::from(m.content));
        r.insert("path", Value::from(m.path));
        r.insert("warnings", Value::from(Vec::new()));
        let menu = if m.left_menu {
            self.menu.clone()
        } else {
            Value::from(Vec::new())
        };
        r.insert("left_menu", menu);
        for (k, v) in extra {
            r.insert(*k, v.clone());
        }
        Vars::new()
            .set("site", self.site.clone())
            .set("current_user", user.clone())
            .set("current_year", self.year)
            .set("module_result", Value::from(r))
    }

    /// `m` in the public layout.
    pub fn public(&self, site: &Site, m: ModuleResult<'_>) -> Result<String, String> {
        let vars = self.vars(m, &self.user, &[]);
        site.engine
            .render_uri("design:pagelayout.tpl", &vars)
            .map_err(|e| e.to_string())
    }

    /// `m` in the administration's layout, on the users' tab; `online`:
    /// how many administrators are logged in, when one sees the page.
    pub fn admin(
        &self,
        online: Option<usize>,
        site: &Site,
        m: ModuleResult<'_>,
    ) -> Result<String, String> {
        let as_int = |n: usize| Value::Int(i64::try_from(n).unwrap_or(i64::MAX));
        let extra = [
            ("navigation_part", Value::str("users")),
            ("tree", Value::from(Vec::new())),
            ("node_count", Value::Int(self.nodes)),
            ("users_online", as_int(online.unwrap_or(0))),
        ];
        let user = match online {
            Some(_) => administrator(),
            None => self.user.clone(),
        };
        let vars = self.vars(m, &user, &extra);
        site.engine
            .render_uri("design:admin/pagelayout.tpl", &vars)
            .map_err(|e| e.to_string())
    }
}

/// The nodes of the site: the front page and everything below it.
fn nodes(site: &Site) -> Result<i64, String> {
    let below = ListQuery {
        depth: None,
        ..ListQuery::children(FRONT_PAGE)
    };
    let n = site.store.count(&below).map_err(|e| e.to_string())?;
    Ok(i64::try_from(n).unwrap_or(i64::MAX).saturating_add(1))
}

/// The user the administration's pages name once one has logged in.
fn administrator() -> Value {
    let mut m = Map::with_capacity(3);
    m.insert("is_logged_in", Value::Bool(true));
    m.insert("login", Value::str(crate::admin::USER));
    m.insert("name", Value::str("Administrator User"));
    Value::from(m)
}

/// The menu: the front page's folders, in its order.
fn folders(store: &ContentStore) -> Result<Vec<Node>, String> {
    let query = ListQuery {
        class_filter: Some(ClassFilter {
            include: true,
            classes: vec!["folder".into()],
        }),
        ..ListQuery::children(FRONT_PAGE)
    };
    store.list(&query).map_err(|e| e.to_string())
}

fn menu_item(node: &Node, children: Vec<Value>) -> Value {
    let mut m = Map::with_capacity(4);
    m.insert("node_id", Value::Int(node.node_id));
    m.insert("name", Value::str(&node.name));
    m.insert("url", Value::from(format!("/{}", node.url_alias)));
    m.insert("children", Value::from(children));
    Value::from(m)
}

fn hash(pairs: &[(&str, &str)]) -> Value {
    let mut m = Map::with_capacity(pairs.len());
    for (k, v) in pairs {
        m.insert(*k, Value::str(v));
    }
    Value::from(m)
}

/// This year (UTC), for the footer's copyright line: days since the epoch
/// to a civil date (Howard Hinnant's `civil_from_days`).
fn current_year() -> i64 {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    yoe + era * 400 + i64::from(month <= 2)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_year_is_plausible() {
        assert!((2024..2200).contains(&super::current_year()));
    }
}
