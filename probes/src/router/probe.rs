//! The `uri_parse` probe: the router's work for ten typical request paths.

use super::{Registry, Route, Router, Uri};

pub(crate) const URLS: [&str; 10] = [
    "/",
    "content/view/full/2",
    "/content/view/full/144/(offset)/20/(sort)/name",
    "content/edit/57/3/eng-GB",
    "user/login",
    "Products/Shoes/Running-shoe-42",
    "/content/search/(SearchText)/benchmark/(SubTreeArray)/2",
    "layout/set/print/News/Article",
    "ezjscore/call/ezjsc::time",
    "/content/view/full/2/(year)/2026/(month)/10/(day)/5",
];

const PASSES: usize = 50;

/// What one pass over the ten paths found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Pass {
    elements: usize,
    user_parameters: usize,
    /// Paths that led to the index or a view.
    found: usize,
    /// Named view parameters filled, ordered and unordered.
    named: usize,
    errors: usize,
}

/// One pass's expected totals, added up from the routing table the paths
/// come from.
const EXPECTED: Pass = Pass {
    elements: 33,
    user_parameters: 7,
    found: 9,
    named: 15,
    errors: 0,
};

#[derive(Hash)]
pub(crate) struct Passes(Vec<Pass>);

pub(crate) fn route_pass(router: &Router) -> Pass {
    let mut pass = Pass::default();
    for url in URLS {
        let Ok(uri) = router.parse(url) else {
            pass.errors += 1;
            continue;
        };
        pass.elements += uri.elements().len();
        pass.user_parameters += uri.user_parameter_count();
        match router.route(&uri) {
            Route::Index => pass.found += 1,
            Route::View { view, .. } => {
                pass.found += 1;
                pass.named += view.parameters(&uri).count();
            }
            Route::NoSuchModule | Route::NoSuchView { .. } => {}
        }
    }
    pass
}

/// The routing table for the ten paths, element by element.
fn check_details(router: &Router) -> Result<(), String> {
    type Row = (
        &'static str,
        &'static str,
        &'static [&'static str],
        &'static [(&'static str, &'static str)],
    );
    const TABLE: [Row; 10] = [
        ("", "", &[], &[]),
        ("content", "view", &["full", "2"], &[]),
        (
            "content",
            "view",
            &["full", "144"],
            &[("offset", "20"), ("sort", "name")],
        ),
        ("content", "edit", &["57", "3", "eng-GB"], &[]),
        ("user", "login", &[], &[]),
        ("Products", "Shoes", &["Running-shoe-42"], &[]),
        (
            "content",
            "search",
            &[],
            &[("SearchText", "benchmark"), ("SubTreeArray", "2")],
        ),
        ("layout", "set", &["print", "News", "Article"], &[]),
        ("ezjscore", "call", &["ezjsc::time"], &[]),
        (
            "content",
            "view",
            &["full", "2"],
            &[("year", "2026"), ("month", "10"), ("day", "5")],
        ),
    ];
    for (url, (module, view, ordered, user)) in URLS.iter().zip(TABLE) {
        let uri: Uri<'_> = router.parse(url).map_err(|e| format!("{url}: {e}"))?;
        let got_user: Vec<(&str, &str)> = uri.user_parameters().collect();
        let ok = uri.module() == module
            && uri.view().unwrap_or("") == view
            && uri
                .ordered()
                .iter()
                .map(|e| e.as_ref())
                .eq(ordered.iter().copied())
            && got_user == user;
        if !ok {
            return Err(format!(
                "{url}: module {:?}, view {:?}, ordered {:?}, user {got_user:?}",
                uri.module(),
                uri.view(),
                uri.ordered()
            ));
        }
    }
    Ok(())
}

fn check(router: &Router, passes: &Passes) -> Result<(), String> {
    if passes.0.len() != PASSES {
        return Err(format!("{} passes, expected {PASSES}", passes.0.len()));
    }
    if let Some((i, p)) = passes.0.iter().enumerate().find(|(_, p)| **p != EXPECTED) {
        return Err(format!("pass {i} found {p:?}, expected {EXPECTED:?}"));
    }
    check_details(router)
}

yardstick_probe::probe! {
    name: uri_parse,
    ops: 500,
    note: "10 module URLs x 50 passes: decode, user parameters, registry lookup",
    setup: || Ok::<_, String>(Router::new(Registry::kernel())),
    run: |router: &Router| Passes((0..PASSES).map(|_| route_pass(router)).collect()),
    check: check,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_pass_matches_the_table() {
        let router = Router::new(Registry::kernel());
        assert_eq!(route_pass(&router), EXPECTED);
        check_details(&router).unwrap();
        let passes = Passes(vec![EXPECTED; PASSES]);
        assert!(check(&router, &passes).is_ok());
        let mut wrong = passes.0.clone();
        wrong[3].named -= 1;
        assert!(
            check(&router, &Passes(wrong))
                .unwrap_err()
                .contains("pass 3")
        );
    }

    #[test]
    fn with_user_parameters_off_the_table_no_longer_holds() {
        let site = crate::settings::Settings::parse_str(
            "site.ini",
            "[URLTranslator]\nUserParameters=disabled\n",
        );
        let router = Router::from_settings(Registry::kernel(), &site);
        let pass = route_pass(&router);
        assert_eq!(pass.user_parameters, 0);
        assert_eq!(
            pass.elements,
            EXPECTED.elements + 2 * EXPECTED.user_parameters
        );
        assert!(check_details(&router).is_err());
    }
}
