//! The module registry: which modules and views exist and how their
//! parameters are named.

use super::uri::Uri;

/// One view of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    pub name: String,
    /// Names given to the ordered parameters in turn.
    pub params: Vec<String>,
    /// `(user parameter, view parameter)`: which user parameters the view
    /// takes, and under which name it reads them.
    pub unordered_params: Vec<(String, String)>,
}

impl View {
    pub fn new(name: &str, params: &[&str], unordered: &[(&str, &str)]) -> Self {
        Self {
            name: name.to_string(),
            params: params.iter().map(|p| p.to_string()).collect(),
            unordered_params: unordered
                .iter()
                .map(|(u, p)| (u.to_string(), p.to_string()))
                .collect(),
        }
    }

    /// The view's named parameters with their values: ordered parameters
    /// by position (those beyond the URL's elements absent), then the
    /// unordered ones the URL carries as user parameters.
    pub fn parameters<'u>(&'u self, uri: &'u Uri<'_>) -> impl Iterator<Item = (&'u str, &'u str)> {
        let ordered = self
            .params
            .iter()
            .zip(uri.ordered())
            .map(|(name, value)| (name.as_str(), value.as_ref()));
        let unordered = self.unordered_params.iter().filter_map(|(user, name)| {
            uri.user_parameter(user).map(|value| (name.as_str(), value))
        });
        ordered.chain(unordered)
    }

    /// One named parameter's value.
    pub fn parameter<'u>(&'u self, uri: &'u Uri<'_>, name: &str) -> Option<&'u str> {
        self.parameters(uri)
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Module {
    pub name: String,
    pub views: Vec<View>,
}

impl Module {
    pub fn view(&self, name: &str) -> Option<&View> {
        self.views.iter().find(|v| v.name == name)
    }
}

/// Where a path leads. An unknown module or view is an ordinary answer (the
/// site shows its "not found" page), not an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route<'r> {
    /// The module `""`: the site's index page.
    Index,
    View {
        module: &'r Module,
        view: &'r View,
    },
    NoSuchModule,
    NoSuchView {
        module: &'r Module,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Registry {
    modules: Vec<Module>,
}

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a module, replacing one of the same name (an extension may
    /// redefine a kernel module).
    pub fn add(&mut self, module: Module) {
        match self.modules.iter_mut().find(|m| m.name == module.name) {
            Some(existing) => *existing = module,
            None => self.modules.push(module),
        }
    }

    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }

    /// The kernel's own modules.
    pub fn kernel() -> Self {
        let date: &[(&str, &str)] = &[
            ("language", "Language"),
            ("offset", "Offset"),
            ("year", "Year"),
            ("month", "Month"),
            ("day", "Day"),
        ];
        let mut r = Self::new();
        r.add(Module {
            name: "content".into(),
            views: vec![
                View::new("view", &["ViewMode", "NodeID"], date),
                View::new(
                    "edit",
                    &["ObjectID", "EditVersion", "EditLanguage", "FromLanguage"],
                    &[],
                ),
                View::new("search", &[], &[("offset", "Offset")]),
                View::new("browse", &[], &[]),
                View::new(
                    "history",
                    &["ObjectID", "EditVersion"],
                    &[("offset", "Offset")],
                ),
                View::new(
                    "download",
                    &["ContentObjectID", "ContentObjectAttributeID", "version"],
                    &[],
                ),
            ],
        });
        r.add(Module {
            name: "user".into(),
            views: vec![
                View::new("login", &[], &[]),
                View::new("logout", &[], &[]),
                View::new("register", &[], &[]),
                View::new("password", &["UserID"], &[]),
                View::new("activate", &["UserID", "Hash", "MainNodeID"], &[]),
            ],
        });
        r.add(Module {
            name: "layout".into(),
            views: vec![View::new("set", &["LayoutStyle"], &[])],
        });
        r.add(Module {
            name: "ezjscore".into(),
            views: vec![View::new("call", &["function_arguments"], &[])],
        });
        r.add(Module {
            name: "error".into(),
            views: vec![View::new("view", &["Type", "Number"], &[])],
        });
        r
    }

    /// Where `uri` leads.
    pub fn route(&self, uri: &Uri<'_>) -> Route<'_> {
        let name = uri.module();
        if crate::faults::on(crate::faults::Fault::RouterQuadratic) {
            crate::faults::quadratic(name.as_bytes());
        }
        if name.is_empty() && uri.elements().len() <= 1 {
            return Route::Index;
        }
        let Some(module) = self.module(name) else {
            return Route::NoSuchModule;
        };
        match uri.view().and_then(|v| module.view(v)) {
            Some(view) => Route::View { module, view },
            None => Route::NoSuchView { module },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route_of<'r>(r: &'r Registry, path: &'static str) -> (Route<'r>, Uri<'static>) {
        let uri = Uri::parse(path, true).unwrap();
        (r.route(&uri), uri)
    }

    fn names(r: Route<'_>) -> Option<(&str, &str)> {
        match r {
            Route::View { module, view } => Some((module.name.as_str(), view.name.as_str())),
            _ => None,
        }
    }

    #[test]
    fn ordered_parameters_get_their_names() {
        let r = Registry::kernel();
        let (route, uri) = route_of(&r, "content/view/full/2");
        assert_eq!(names(route), Some(("content", "view")));
        let Route::View { view, .. } = route else {
            unreachable!()
        };
        assert_eq!(
            view.parameters(&uri).collect::<Vec<_>>(),
            [("ViewMode", "full"), ("NodeID", "2")]
        );
        let (route, uri) = route_of(&r, "content/edit/57/3/eng-GB");
        let Route::View { view, .. } = route else {
            unreachable!()
        };
        assert_eq!(view.parameter(&uri, "EditLanguage"), Some("eng-GB"));
        assert_eq!(view.parameter(&uri, "FromLanguage"), None);
    }

    #[test]
    fn unordered_parameters_come_from_user_parameters() {
        let r = Registry::kernel();
        let (route, uri) = route_of(
            &r,
            "/content/view/full/2/(year)/2026/(month)/10/(day)/5/(color)/red",
        );
        let Route::View { view, .. } = route else {
            unreachable!()
        };
        assert_eq!(
            view.parameters(&uri).collect::<Vec<_>>(),
            [
                ("ViewMode", "full"),
                ("NodeID", "2"),
                ("Year", "2026"),
                ("Month", "10"),
                ("Day", "5")
            ]
        );
        // A user parameter the view does not declare stays a user parameter.
        assert_eq!(uri.user_parameter("color"), Some("red"));
        assert_eq!(view.parameter(&uri, "Offset"), None);
    }

    #[test]
    fn extra_ordered_elements_stay_ordered() {
        let r = Registry::kernel();
        let (route, uri) = route_of(&r, "layout/set/print/News/Article");
        assert_eq!(names(route), Some(("layout", "set")));
        assert_eq!(uri.ordered(), ["print", "News", "Article"]);
        let Route::View { view, .. } = route else {
            unreachable!()
        };
        assert_eq!(view.parameters(&uri).count(), 1);
        let (route, uri) = route_of(&r, "ezjscore/call/ezjsc::time");
        let Route::View { view, .. } = route else {
            unreachable!()
        };
        assert_eq!(
            view.parameter(&uri, "function_arguments"),
            Some("ezjsc::time")
        );
    }

    #[test]
    fn unknown_modules_and_views_are_not_found() {
        let r = Registry::kernel();
        assert_eq!(route_of(&r, "/").0, Route::Index);
        assert_eq!(
            route_of(&r, "Products/Shoes/Running-shoe-42").0,
            Route::NoSuchModule
        );
        assert!(matches!(
            route_of(&r, "user/nope").0,
            Route::NoSuchView { .. }
        ));
        assert!(matches!(route_of(&r, "user").0, Route::NoSuchView { .. }));
        assert_eq!(route_of(&r, "//content").0, Route::NoSuchModule);
        for v in ["login", "logout", "register"] {
            let path = format!("user/{v}");
            let uri = Uri::parse(&path, true).unwrap();
            assert_eq!(names(r.route(&uri)), Some(("user", v)));
        }
    }

    #[test]
    fn an_added_module_replaces_one_of_the_same_name() {
        let mut r = Registry::kernel();
        r.add(Module {
            name: "layout".into(),
            views: vec![View::new("set", &["LayoutStyle", "Extra"], &[])],
        });
        assert_eq!(
            r.module("layout")
                .and_then(|m| m.view("set"))
                .map(|v| v.params.len()),
            Some(2)
        );
    }
}
