//! The OpenSearch description (OpenSearch 1.1) of the site's search page:
//! the search URL's template and the site's short name. The demo site's
//! search is open to anonymous visitors, so it always publishes one.

use quick_xml::escape::escape;

/// Where the site serves its OpenSearch description.
pub const PATH: &str = "/opensearch.xml";

/// The search page, with OpenSearch's placeholder for the words.
const SEARCH_TEMPLATE: &str = "/content/search?SearchText={searchTerms}";

/// The most characters OpenSearch 1.1 allows a `ShortName`.
const SHORT_NAME_MAX: usize = 16;

/// The description at `origin` (`http://host:port`) of a site called
/// `name`.
pub fn document(origin: &str, name: &str) -> String {
    let short: String = name.trim().chars().take(SHORT_NAME_MAX).collect();
    let short = if short.is_empty() { "Search" } else { &short };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n  \
         <ShortName>{}</ShortName>\n  \
         <Description>Search {}</Description>\n  \
         <InputEncoding>UTF-8</InputEncoding>\n  \
         <Url type=\"text/html\" method=\"get\" template=\"{}\"/>\n\
         </OpenSearchDescription>\n",
        escape(short),
        escape(name.trim()),
        escape(format!("{origin}{SEARCH_TEMPLATE}")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_names_the_search_page_and_a_short_name_of_at_most_16_characters() {
        let xml = document("http://127.0.0.1:8080", "Harbour & Co. demonstration site");
        assert!(
            xml.contains("<ShortName>Harbour &amp; Co. de</ShortName>"),
            "{xml}"
        );
        assert!(xml.contains(
            "template=\"http://127.0.0.1:8080/content/search?SearchText={searchTerms}\""
        ));
        assert!(xml.contains("<Description>Search Harbour &amp; Co. demonstration site"));
        assert!(document("http://h", " ").contains("<ShortName>Search</ShortName>"));
    }
}
