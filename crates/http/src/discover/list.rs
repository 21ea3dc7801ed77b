//! The page list made from what a site publishes, as the seed system makes
//! it: the front page, the first menu pages of the sitemap, the search page
//! with a word the site itself suggests, and the login page. Pure: the
//! documents are read elsewhere ([`super::pages`]).

use super::opensearch::{self, Description};
use super::relative::page_of;
use super::sitemap::Entry;
use crate::url::Url;
use percent_encoding::percent_decode_str;
use std::collections::HashSet;

/// Which pages of the site to take (`--pages`, `--search`, `--no-search`,
/// `--no-admin`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    /// Menu pages after the front page.
    pub pages: u64,
    /// What the search page searches for.
    pub search: SearchWords,
    /// Whether the login page is measured.
    pub admin: bool,
}

impl Seed {
    /// Menu pages when `--pages` is not given: the seed system's three.
    pub const PAGES: u64 = 3;
}

impl Default for Seed {
    fn default() -> Seed {
        Seed {
            pages: Seed::PAGES,
            search: SearchWords::FromSite,
            admin: true,
        }
    }
}

/// What the search page searches for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchWords {
    /// A word of the first menu page's name, else the site's short name.
    FromSite,
    /// `--search=WORDS`.
    Given(String),
    /// `--no-search`: no search page.
    Off,
}

/// What the site published, read.
pub(crate) struct Published<'a> {
    /// The server's URL as given: its pages are below its path.
    pub(crate) base: &'a Url,
    pub(crate) sitemap: &'a [Entry],
    /// Its OpenSearch description and where it was read, if it links one.
    pub(crate) search: Option<(&'a Url, &'a Description)>,
    /// The target of its `login` link relation, if any.
    pub(crate) login: Option<Url>,
}

/// The list, and what was left out and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct List {
    /// Pages as paths below the base, in the order measured.
    pub(crate) pages: Vec<String>,
    /// The words the search page searches for, when it is measured.
    pub(crate) search_words: Option<String>,
    /// Whether the login page is measured.
    pub(crate) login: bool,
    /// One line each, for the progress output.
    pub(crate) notes: Vec<String>,
}

/// The list `seed` asks for of `site`; an error when `--search` names
/// words for a site that has no search description.
pub(crate) fn build(site: &Published<'_>, seed: &Seed) -> Result<List, String> {
    let mut notes = Vec::new();
    // Found even with --no-admin, so that it is never taken for a menu page.
    let login = login_page(site);
    if seed.admin && login.is_none() {
        notes.push(
            "the site names no login page (a `login` link relation on its front page, or a \
             sitemap URL ending in /login): none is measured"
                .to_string(),
        );
    }
    let menu = menu_pages(site, login.as_deref(), &mut notes);
    let mut pages = vec!["/".to_string()];
    let wanted = usize::try_from(seed.pages).unwrap_or(usize::MAX);
    if menu.len() < wanted {
        notes.push(format!(
            "the sitemap lists {} menu page(s) below {}, not {wanted}",
            menu.len(),
            site.base
        ));
    }
    pages.extend(menu.iter().take(wanted).cloned());
    let search_words = match search_page(site, seed, &menu, &mut notes)? {
        Some((page, words)) => {
            pages.push(page);
            Some(words)
        }
        None => None,
    };
    let login = login.filter(|_| seed.admin);
    let measured_login = login.is_some();
    pages.extend(login);
    let mut seen = HashSet::new();
    pages.retain(|p| seen.insert(p.clone()));
    Ok(List {
        pages,
        search_words,
        login: measured_login,
        notes,
    })
}

/// The sitemap's pages below the base other than the front page, most
/// important first (by `<priority>`, then in the sitemap's order).
fn menu_pages(site: &Published<'_>, login: Option<&str>, notes: &mut Vec<String>) -> Vec<String> {
    let mut menu: Vec<(f64, String)> = Vec::new();
    let mut seen = HashSet::new();
    let mut elsewhere = 0;
    for entry in site.sitemap {
        match Url::parse(&entry.loc)
            .ok()
            .and_then(|url| page_of(site.base, &url))
        {
            Some(page) if page == "/" || Some(page.as_str()) == login => {}
            Some(page) => {
                if seen.insert(page.clone()) {
                    menu.push((entry.priority, page));
                }
            }
            None => elsewhere += 1,
        }
    }
    if elsewhere > 0 {
        notes.push(format!(
            "{elsewhere} sitemap URL(s) are not below {} and are not followed",
            site.base
        ));
    }
    menu.sort_by(|a, b| b.0.total_cmp(&a.0));
    menu.into_iter().map(|(_, page)| page).collect()
}

/// The search page and its words, when the seed asks for one and the site
/// describes its search.
fn search_page(
    site: &Published<'_>,
    seed: &Seed,
    menu: &[String],
    notes: &mut Vec<String>,
) -> Result<Option<(String, String)>, String> {
    let given = match &seed.search {
        SearchWords::Off => return Ok(None),
        SearchWords::Given(words) => Some(words.clone()),
        SearchWords::FromSite => None,
    };
    let Some((description_url, description)) = site.search else {
        if given.is_some() {
            return Err(
                "--search: the site links no OpenSearch description, so its search \
                        page is unknown: give it with --url"
                    .to_string(),
            );
        }
        notes.push(
            "the site links no OpenSearch description (anonymous visitors may not search): \
             no search page is measured"
                .to_string(),
        );
        return Ok(None);
    };
    let words = given
        .or_else(|| menu.first().and_then(|page| first_word(page)))
        .or_else(|| description.short_name.clone());
    let Some(words) = words else {
        notes.push(
            "no word to search for (no menu page, no short name): give one with --search"
                .to_string(),
        );
        return Ok(None);
    };
    let url = opensearch::fill(&description.template, &words)
        .and_then(|text| Url::parse(&text))
        .map_err(|m| format!("{description_url}: {m}"))?;
    match page_of(site.base, &url) {
        Some(page) => Ok(Some((page, words))),
        None => {
            notes.push(format!(
                "the search page {url} is not below {}: it is not measured",
                site.base
            ));
            Ok(None)
        }
    }
}

/// The login page: the `login` link's target, else the first sitemap page
/// whose last step is `login`.
fn login_page(site: &Published<'_>) -> Option<String> {
    if let Some(page) = site.login.as_ref().and_then(|url| page_of(site.base, url)) {
        return Some(page);
    }
    site.sitemap
        .iter()
        .filter_map(|entry| Url::parse(&entry.loc).ok())
        .filter_map(|url| page_of(site.base, &url))
        .find(|page| last_step(page).eq_ignore_ascii_case("login"))
}

/// The first word of three or more letters in the last step of `page`'s
/// path. The seed's rule takes the menu page's name, which a sitemap does
/// not carry; the CMS makes a page's URL alias from its name (lower case,
/// runs of other characters a dash), so the alias's first word is the
/// name's, lower-cased and transliterated.
fn first_word(page: &str) -> Option<String> {
    let step = percent_decode_str(last_step(page)).decode_utf8_lossy();
    step.split(|c: char| !c.is_alphabetic())
        .find(|word| word.chars().count() >= 3)
        .map(str::to_string)
}

/// The last step of a page's path, its query left out.
fn last_step(page: &str) -> &str {
    let path = page.split(['?', '#']).next().unwrap_or("");
    path.trim_end_matches('/').rsplit('/').next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::relative::resolve;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    fn entries(locs: &[(&str, f64)]) -> Vec<Entry> {
        locs.iter()
            .map(|(loc, priority)| Entry {
                loc: loc.to_string(),
                priority: *priority,
            })
            .collect()
    }

    fn description() -> Description {
        Description {
            short_name: Some("Demo site".to_string()),
            template: "http://h:8080/content/search?SearchText={searchTerms}&page={startPage?}"
                .to_string(),
        }
    }

    #[test]
    fn the_list_is_the_front_page_menu_pages_search_and_login() {
        let base = url("http://h:8080");
        let sitemap = entries(&[
            ("http://h:8080/", 1.0),
            ("http://h:8080/news", 0.5),
            ("http://h:8080/products", 0.5),
            ("http://h:8080/about-us", 0.5),
            ("http://h:8080/contact", 0.5),
        ]);
        let search = description();
        let site = Published {
            base: &base,
            sitemap: &sitemap,
            search: Some((&base, &search)),
            login: resolve(&base, "/user/login"),
        };
        let list = build(&site, &Seed::default()).unwrap();
        assert_eq!(
            list.pages,
            [
                "/",
                "/news",
                "/products",
                "/about-us",
                "/content/search?SearchText=news&page=1",
                "/user/login"
            ]
        );
        assert_eq!(list.search_words.as_deref(), Some("news"));
        assert!(list.login);
        assert!(list.notes.is_empty(), "{:?}", list.notes);

        let seed = Seed {
            pages: 0,
            search: SearchWords::Given("harbour festival".to_string()),
            admin: false,
        };
        let list = build(&site, &seed).unwrap();
        assert_eq!(
            list.pages,
            ["/", "/content/search?SearchText=harbour%20festival&page=1"]
        );
        assert!(!list.login);
        let seed = Seed {
            search: SearchWords::Off,
            ..Seed::default()
        };
        assert_eq!(build(&site, &seed).unwrap().pages.len(), 5);
    }

    #[test]
    fn priority_orders_the_menu_and_other_servers_are_not_followed() {
        let base = url("http://h:8080/site/");
        let sitemap = entries(&[
            ("http://h:8080/site/", 1.0),
            ("http://h:8080/site/low", 0.1),
            ("http://other:8080/site/elsewhere", 0.9),
            ("https://h:8080/site/tls", 0.9),
            ("http://h:8080/outside", 0.9),
            ("http://h:8080/site/high", 0.8),
            ("http://h:8080/site/high", 0.8),
            ("http://h:8080/site/user/login", 0.5),
        ]);
        let site = Published {
            base: &base,
            sitemap: &sitemap,
            search: None,
            login: None,
        };
        let list = build(&site, &Seed::default()).unwrap();
        // The login page comes from the sitemap, and is no menu page, with
        // --no-admin too.
        assert_eq!(list.pages, ["/", "/high", "/low", "/user/login"]);
        let seed = Seed {
            admin: false,
            ..Seed::default()
        };
        assert_eq!(build(&site, &seed).unwrap().pages, ["/", "/high", "/low"]);
        let notes = list.notes.join("\n");
        assert!(notes.contains("3 sitemap URL(s) are not below"), "{notes}");
        assert!(notes.contains("lists 2 menu page(s)"), "{notes}");
        assert!(notes.contains("no OpenSearch description"), "{notes}");
        // Words for a site that describes no search are an error.
        let seed = Seed {
            search: SearchWords::Given("x".to_string()),
            ..Seed::default()
        };
        assert!(build(&site, &seed).unwrap_err().contains("--url"));
    }

    #[test]
    fn the_search_word_comes_from_the_first_menu_page_else_the_short_name() {
        assert_eq!(first_word("/about-us").as_deref(), Some("about"));
        assert_eq!(
            first_word("/a/of-caf%C3%A9s?x=1").as_deref(),
            Some("caf\u{e9}s")
        );
        assert_eq!(first_word("/2024/ab-cd"), None);
        let base = url("http://h:8080");
        let sitemap = entries(&[("http://h:8080/", 1.0), ("http://h:8080/a1/b2", 0.5)]);
        let search = description();
        let site = Published {
            base: &base,
            sitemap: &sitemap,
            search: Some((&base, &search)),
            login: None,
        };
        let list = build(&site, &Seed::default()).unwrap();
        assert_eq!(list.search_words.as_deref(), Some("Demo site"));
        assert!(
            list.pages
                .contains(&"/content/search?SearchText=Demo%20site&page=1".to_string())
        );
    }
}
