//! The router: a request path taken apart with and without user
//! parameters, then routed through the kernel's modules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use probes::router::{Registry, Route, Router, Uri};
use std::sync::OnceLock;

fuzz_target!(|path: &str| {
    static ROUTER: OnceLock<Router> = OnceLock::new();
    let router = ROUTER.get_or_init(|| Router::new(Registry::kernel()));
    for user_parameters in [true, false] {
        let Ok(uri) = Uri::parse(path, user_parameters) else {
            continue;
        };
        let _ = (uri.module(), uri.view(), uri.fragment());
        let _ = uri.user_parameters().count() + uri.get_parameters().count();
        if let Route::View { view, .. } = router.route(&uri) {
            let _ = view.parameters(&uri).count();
        }
    }
});
