//! The sitemap the site publishes (the sitemaps.org format), from which a
//! visitor's tool can learn the site's pages without a list kept by hand:
//! the front page, then the front page's children that have a URL alias
//! (the menu pages), by priority and then node id, as the content store
//! holds them now.

use probes::content::{ContentStore, FRONT_PAGE, ListQuery};
use quick_xml::escape::escape;

/// Where the site serves its sitemap.
pub const PATH: &str = "/sitemap.xml";

/// The sitemap's `<priority>` of the front page; the menu pages take the
/// format's default.
const FRONT_PRIORITY: &str = "1.0";
const MENU_PRIORITY: &str = "0.5";

/// The paths the sitemap lists, in its order: `/`, then each menu page's
/// alias.
pub fn paths(store: &ContentStore) -> Result<Vec<String>, String> {
    let mut children = store
        .list(&ListQuery::children(FRONT_PAGE))
        .map_err(|e| e.to_string())?;
    children.retain(|node| !node.url_alias.is_empty());
    children.sort_by_key(|node| (node.priority, node.node_id));
    let menu = children.iter().map(|node| format!("/{}", node.url_alias));
    Ok(std::iter::once("/".to_string()).chain(menu).collect())
}

/// The sitemap document of `paths` at `origin` (`http://host:port`, no
/// trailing slash): a sitemap names pages by absolute URL.
pub fn document(origin: &str, paths: &[String]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (index, path) in paths.iter().enumerate() {
        let priority = if index == 0 {
            FRONT_PRIORITY
        } else {
            MENU_PRIORITY
        };
        let loc = escape(format!("{origin}{path}"));
        xml.push_str(&format!(
            "  <url><loc>{loc}</loc><priority>{priority}</priority></url>\n"
        ));
    }
    xml.push_str("</urlset>\n");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sitemap_lists_the_front_page_and_the_menu_pages_as_the_store_holds_them() {
        let path = probes::kernel::fixture().unwrap();
        let store = ContentStore::open(&path).unwrap();
        let listed = paths(&store).unwrap();
        // The same list, asked of the store's tables directly.
        let db = rusqlite::Connection::open(&path).unwrap();
        let mut query = db
            .prepare(
                "SELECT n.node_id FROM content_node n
                 WHERE n.parent_node_id = ?1 AND n.is_invisible = 0
                   AND EXISTS (SELECT 1 FROM url_alias a
                               WHERE a.action = 'eznode:' || n.node_id AND a.is_original = 1)
                 ORDER BY n.priority, n.node_id",
            )
            .unwrap();
        let ids: Vec<i64> = query
            .query_map([FRONT_PAGE], |row| row.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let expected: Vec<String> = std::iter::once("/".to_string())
            .chain(ids.iter().map(|id| {
                let node = store.node(*id).unwrap().unwrap();
                format!("/{}", node.url_alias)
            }))
            .collect();
        assert!(listed.len() > 2, "{listed:?}");
        assert_eq!(listed, expected);
    }

    #[test]
    fn the_document_names_each_page_by_its_absolute_url_escaped() {
        let xml = document(
            "http://127.0.0.1:8080",
            &["/".to_string(), "/news/a&b".to_string()],
        );
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset"));
        assert!(
            xml.contains("<url><loc>http://127.0.0.1:8080/</loc><priority>1.0</priority></url>")
        );
        assert!(
            xml.contains("<loc>http://127.0.0.1:8080/news/a&amp;b</loc><priority>0.5</priority>")
        );
        assert!(xml.ends_with("</urlset>\n"));
    }
}
