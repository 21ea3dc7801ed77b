//! The design's files the layouts link to: stylesheets and logos under
//! `/design/design/`, as the CMS serves its design folder. They are the
//! demo site's own (`demo-site/assets/design/`), compiled in: the kernel's
//! templates name them, and a page without them is unstyled.

/// The path every design file is served under.
const PREFIX: &str = "/design/design/";

/// Each file, by its path under [`PREFIX`]: its content type and bytes.
const FILES: &[(&str, &str, &[u8])] = &[
    ("core.css", CSS, include_bytes!("../assets/design/core.css")),
    (
        "pagelayout.css",
        CSS,
        include_bytes!("../assets/design/pagelayout.css"),
    ),
    (
        "site-colors.css",
        CSS,
        include_bytes!("../assets/design/site-colors.css"),
    ),
    (
        "content.css",
        CSS,
        include_bytes!("../assets/design/content.css"),
    ),
    (
        "classes.css",
        CSS,
        include_bytes!("../assets/design/classes.css"),
    ),
    (
        "example-theme.css",
        CSS,
        include_bytes!("../assets/design/example-theme.css"),
    ),
    (
        "websitetoolbar.css",
        CSS,
        include_bytes!("../assets/design/websitetoolbar.css"),
    ),
    (
        "debug.css",
        CSS,
        include_bytes!("../assets/design/debug.css"),
    ),
    (
        "print.css",
        CSS,
        include_bytes!("../assets/design/print.css"),
    ),
    (
        "stylesheets/theme-default.css",
        CSS,
        include_bytes!("../assets/design/stylesheets/theme-default.css"),
    ),
    (
        "images/logo.png",
        PNG,
        include_bytes!("../assets/design/images/logo.png"),
    ),
    (
        "images/admin-logo.png",
        PNG,
        include_bytes!("../assets/design/images/admin-logo.png"),
    ),
];

const CSS: &str = "text/css; charset=utf-8";
const PNG: &str = "image/png";

/// The design file at `path`, if it is one: its content type and bytes.
pub fn file(path: &str) -> Option<(&'static str, &'static [u8])> {
    let name = path.strip_prefix(PREFIX)?;
    FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, kind, bytes)| (*kind, *bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_served_by_its_path_and_nothing_else() {
        for (name, kind, bytes) in FILES {
            let (served, body) = file(&format!("{PREFIX}{name}")).unwrap();
            assert_eq!((served, body.len()), (*kind, bytes.len()), "{name}");
            assert!(!body.is_empty(), "{name}");
        }
        let png = file("/design/design/images/logo.png").unwrap().1;
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        for other in [
            "/design/design/",
            "/design/design/../main.rs",
            "/core.css",
            "/design/design/x.css",
        ] {
            assert_eq!(file(other), None, "{other}");
        }
    }
}
