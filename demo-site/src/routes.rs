//! From a request target to the page it names, as the CMS decides: a URL
//! alias first (`/news/harbour-festival`), then a module view through the
//! kernel's router (`/content/view/full/N`, `/content/search`,
//! `/user/login`), and otherwise "not found", an ordinary answer.

use probes::content::{ContentStore, FRONT_PAGE};
use probes::router::{Registry, Route, Router, Uri};
use std::borrow::Cow;

/// A page of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Page {
    Front,
    /// A node's full view.
    Node(i64),
    /// An old alias of a node: the CMS sends the visitor to the current one.
    Redirect(String),
    /// The search page, with its search text (empty: the form alone).
    Search(String),
    Login,
    NotFound,
}

/// The router of the kernel's modules, user parameters on.
pub fn router() -> Router {
    Router::new(Registry::kernel())
}

/// The page `target` (a path with its query) names.
pub fn route(router: &Router, store: &ContentStore, target: &str) -> Result<Page, String> {
    let target = without_index(target);
    let target = target.as_ref();
    let Ok(uri) = router.parse(target) else {
        return Ok(Page::NotFound);
    };
    let path = target.split(['?', '#']).next().unwrap_or("/");
    if let Some(found) = store.resolve(path).map_err(|e| e.to_string())? {
        return match (found.current, found.node_id) {
            (true, FRONT_PAGE) => Ok(Page::Front),
            (true, id) => Ok(Page::Node(id)),
            (false, id) => Ok(current_alias(store, id)?.map_or(Page::NotFound, Page::Redirect)),
        };
    }
    Ok(by_module(router, &uri))
}

/// `target` without the entry script the layouts' links carry
/// (`/index.php/news` is `/news`, as the CMS's own front controller reads
/// it).
fn without_index(target: &str) -> Cow<'_, str> {
    match target.strip_prefix("/index.php") {
        Some(rest) if rest.starts_with('/') => Cow::Borrowed(rest),
        Some(rest) if rest.is_empty() || rest.starts_with(['?', '#']) => {
            Cow::Owned(format!("/{rest}"))
        }
        _ => Cow::Borrowed(target),
    }
}

/// The page of a module view, for a path that is no alias.
fn by_module(router: &Router, uri: &Uri<'_>) -> Page {
    let (module, view) = match router.route(uri) {
        Route::Index => return Page::Front,
        Route::View { module, view } => (module, view),
        Route::NoSuchModule | Route::NoSuchView { .. } => return Page::NotFound,
    };
    match (module.name.as_str(), view.name.as_str()) {
        ("content", "view") => {
            let mode = view.parameter(uri, "ViewMode");
            let node = view.parameter(uri, "NodeID").and_then(|n| n.parse().ok());
            match (mode, node) {
                (Some("full"), Some(id)) => Page::Node(id),
                _ => Page::NotFound,
            }
        }
        ("content", "search") => {
            let text = uri
                .get_parameter("SearchText")
                .and_then(|v| v.as_text())
                .or_else(|| uri.user_parameter("SearchText"))
                .unwrap_or("");
            Page::Search(text.trim().to_string())
        }
        ("user", "login") => Page::Login,
        _ => Page::NotFound,
    }
}

/// The current URL of node `id` (`/` for the front page).
fn current_alias(store: &ContentStore, id: i64) -> Result<Option<String>, String> {
    let node = store.node(id).map_err(|e| e.to_string())?;
    Ok(node.map(|n| format!("/{}", n.url_alias)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> ContentStore {
        let path = probes::kernel::fixture().unwrap();
        ContentStore::open(&path).unwrap()
    }

    #[test]
    fn targets_name_their_pages() {
        let (r, s) = (router(), store());
        let page = |t: &str| route(&r, &s, t).unwrap();
        assert_eq!(page("/"), Page::Front);
        assert_eq!(page("/?_bench=1"), Page::Front);
        assert_eq!(page("/index.php"), Page::Front);
        assert_eq!(page("/index.php?SearchText=x"), Page::Front);
        assert_eq!(page("/index.php/user/login"), Page::Login);
        assert_eq!(page("/index.phpx/user/login"), Page::NotFound);
        assert!(matches!(page("/news"), Page::Node(_)));
        assert!(matches!(page("/NEWS?x=1"), Page::Node(_)));
        assert_eq!(page("/content/view/full/5"), Page::Node(5));
        assert_eq!(page("/content/view/line/5"), Page::NotFound);
        assert_eq!(page("/content/view/full/x"), Page::NotFound);
        assert_eq!(
            page("/content/search?SearchText=harbour+news&_bench=3"),
            Page::Search("harbour news".into())
        );
        assert_eq!(page("/content/search"), Page::Search(String::new()));
        assert_eq!(
            page("/content/search/(SearchText)/news"),
            Page::Search("news".into())
        );
        assert_eq!(page("/user/login"), Page::Login);
        for missing in [
            "/nothing-here",
            "/content/nope",
            "/news/no-such-page",
            "/%zz",
        ] {
            assert_eq!(page(missing), Page::NotFound, "{missing}");
        }
    }
}
