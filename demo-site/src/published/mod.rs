//! What the site publishes so that a visitor's tool can find its pages
//! without a list kept by hand, in the standard documents tools read: a
//! sitemap of the front page and its menu pages, an OpenSearch description
//! of its search page, and link relations on the front page that name the
//! search description and the login page.

pub mod opensearch;
pub mod sitemap;

/// The links every front page carries, as a literal so that the two
/// headers below are made of it.
macro_rules! front_page_links {
    () => {
        "</opensearch.xml>; rel=\"search\"; \
         type=\"application/opensearchdescription+xml\", </user/login>; rel=\"login\""
    };
}

/// The `Link` header of the front page (RFC 8288): where its OpenSearch
/// description is, as `<link rel="search">` names one in a page's head,
/// and which page logs in. `login` is no registered relation; it is the
/// one `yardstick http` looks for.
pub const FRONT_PAGE_LINKS: &str = front_page_links!();

/// The same, with where the cache is purged, when the site was given a
/// token (`purge` is the relation `yardstick http --cold-clear` looks for,
/// and the path is [`crate::purge::PATH`]).
pub const FRONT_PAGE_LINKS_WITH_PURGE: &str =
    concat!(front_page_links!(), ", </purge>; rel=\"purge\"");

/// A document the site publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Published {
    Sitemap,
    OpenSearch,
}

impl Published {
    /// The document `path` (without its query) names, if any.
    pub fn at(path: &str) -> Option<Published> {
        match path {
            sitemap::PATH => Some(Published::Sitemap),
            opensearch::PATH => Some(Published::OpenSearch),
            _ => None,
        }
    }
}

/// Whether `path` is the front page, whose answer carries
/// [`FRONT_PAGE_LINKS`].
pub fn is_front_page(path: &str) -> bool {
    matches!(path, "/" | "/index.php" | "/index.php/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_links_name_paths_the_site_publishes_and_answers() {
        assert!(FRONT_PAGE_LINKS.contains(&format!("<{}>", opensearch::PATH)));
        assert!(FRONT_PAGE_LINKS.contains("</user/login>; rel=\"login\""));
        let purge = format!("<{}>; rel=\"purge\"", crate::purge::PATH);
        assert!(!FRONT_PAGE_LINKS.contains(&purge));
        assert!(FRONT_PAGE_LINKS_WITH_PURGE.starts_with(FRONT_PAGE_LINKS));
        assert!(FRONT_PAGE_LINKS_WITH_PURGE.ends_with(&purge));
        assert_eq!(Published::at("/sitemap.xml"), Some(Published::Sitemap));
        assert_eq!(
            Published::at("/opensearch.xml"),
            Some(Published::OpenSearch)
        );
        assert_eq!(Published::at("/news"), None);
        assert!(is_front_page("/") && !is_front_page("/news"));
    }
}
