//! The module URL router: from a request path to a module, a view and its
//! parameters.
//!
//! Paths name their target directly (`/content/view/full/2`), with named
//! "user" parameters in parentheses that views read like query arguments
//! but that keep the URL cacheable and readable. Decoding borrows from the
//! path wherever nothing needs decoding, so routing a typical URL costs a
//! few small allocations at most.
//!
//! - [`query`]: the query string split off before routing (GET parameters).
//! - [`percent`]: escapes and URL errors.
//! - [`uri`]: elements and user parameters.
//! - [`registry`]: modules, views and their parameter names.

mod percent;
mod probe;
mod query;
mod registry;
mod uri;

pub use percent::UrlError;
pub use query::GetValue;
pub use registry::{Module, Registry, Route, View};
pub use uri::Uri;

use crate::settings::Settings;

/// The router a site runs: its module registry and the settings that shape
/// routing.
#[derive(Debug, Clone)]
pub struct Router {
    registry: Registry,
    user_parameters: bool,
    index_page: String,
}

/// The index page of a site that says nothing else: the content tree's root.
pub const DEFAULT_INDEX_PAGE: &str = "/content/view/full/2";

impl Router {
    /// A router with user parameters on and the default index page.
    pub fn new(registry: Registry) -> Self {
        Self {
            registry,
            user_parameters: true,
            index_page: DEFAULT_INDEX_PAGE.to_string(),
        }
    }

    /// A router shaped by `site.ini`: `[URLTranslator] UserParameters`
    /// (`disabled` turns user parameters off, for sites whose content
    /// names contain parentheses) and `[SiteSettings] IndexPage`.
    pub fn from_settings(registry: Registry, site: &Settings) -> Self {
        let mut router = Self::new(registry);
        if let Some(value) = site.variable("URLTranslator", "UserParameters") {
            router.user_parameters = value.as_scalar() != Some("disabled");
        }
        if let Some(page) = site
            .variable("SiteSettings", "IndexPage")
            .and_then(|v| v.as_scalar())
        {
            router.index_page = page.to_string();
        }
        router
    }

    pub fn user_parameters(&self) -> bool {
        self.user_parameters
    }

    /// The path the module `""` shows.
    pub fn index_page(&self) -> &str {
        &self.index_page
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Takes a path apart under this site's settings.
    pub fn parse<'a>(&self, path: &'a str) -> Result<Uri<'a>, UrlError> {
        Uri::parse(path, self.user_parameters)
    }

    /// Where an already parsed path leads.
    pub fn route(&self, uri: &Uri<'_>) -> Route<'_> {
        self.registry.route(uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn settings_shape_the_router() {
        let site = Settings::parse_str(
            "site.ini",
            "[SiteSettings]\nIndexPage=/content/view/full/60\n[URLTranslator]\nUserParameters=disabled\n",
        );
        let router = Router::from_settings(Registry::kernel(), &site);
        assert!(!router.user_parameters());
        assert_eq!(router.index_page(), "/content/view/full/60");
        let uri = router.parse("content/view/full/2/(offset)/10").unwrap();
        assert_eq!(uri.ordered(), ["full", "2", "(offset)", "10"]);
        assert_eq!(uri.user_parameter_count(), 0);

        let on = Settings::parse_str("site.ini", "[URLTranslator]\nUserParameters=enabled\n");
        let router = Router::from_settings(Registry::kernel(), &on);
        assert!(router.user_parameters());
        assert_eq!(router.index_page(), DEFAULT_INDEX_PAGE);
        let uri = router.parse("content/view/full/2/(offset)/10").unwrap();
        assert_eq!(uri.user_parameter("offset"), Some("10"));
    }

    #[test]
    fn the_index_page_routes_to_a_view() {
        let router = Router::new(Registry::kernel());
        let uri = router.parse("/").unwrap();
        assert_eq!(router.route(&uri), Route::Index);
        let index = router.parse(router.index_page()).unwrap();
        assert!(matches!(router.route(&index), Route::View { view, .. } if view.name == "view"));
    }

    #[test]
    fn a_search_with_a_query_routes_to_the_search_view() {
        let router = Router::new(Registry::kernel());
        let uri = router.parse("/content/search?SearchText=foo").unwrap();
        assert!(matches!(router.route(&uri), Route::View { view, .. } if view.name == "search"));
        assert_eq!(
            uri.get_parameter("SearchText").and_then(GetValue::as_text),
            Some("foo")
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever the query says, the routed elements are those of the
        /// path before it.
        #[test]
        fn the_query_never_reaches_the_elements(
            path in "[a-z/]{0,20}",
            query in "[a-z0-9=&%+\\[\\]?#]{0,20}",
        ) {
            let plain = Uri::parse(&path, true).map_err(|e| TestCaseError::fail(e.to_string()))?;
            if let Ok(with) = Uri::parse(&format!("{path}?{query}"), true) {
                prop_assert_eq!(plain.elements(), with.elements());
            }
        }

        #[test]
        fn router_never_panics(path in "[a-z0-9/()%_A-F\u{e9}.:?#&=+\\[\\]-]{0,40}", on in any::<bool>()) {
            let router = Router::new(Registry::kernel());
            if let Ok(uri) = Uri::parse(&path, on) {
                if let Route::View { view, .. } = router.route(&uri) {
                    let _ = view.parameters(&uri).count();
                }
                prop_assert!(uri.user_parameter_count() == 0 || on);
            }
        }

        #[test]
        fn router_never_panics_on_any_text(path in any::<String>()) {
            let router = Router::new(Registry::kernel());
            if let Ok(uri) = router.parse(&path) {
                let _ = router.route(&uri);
            }
        }

        /// Escaping an element and decoding it gives it back, so any text
        /// can travel inside one element.
        #[test]
        fn encoded_elements_decode_back(text in any::<String>()) {
            let encoded: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
            let path = format!("content/search/{encoded}");
            let uri = Uri::parse(&path, false).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(uri.ordered().first().map(|e| e.as_ref()), Some(text.as_str()));
        }
    }
}
