//! The page list made from the site itself, when a run names a server but
//! no page: the site's sitemap gives its front page and menu pages, the
//! link relations of its front page name its OpenSearch description (the
//! search page's URL) and its login page, and [`list`] picks the seed
//! system's pages from them. The documents are read once, untimed, with
//! the run's own headers and addresses; a document is read only from the
//! measured server, and a page is taken only when it is below its URL.

pub mod links;
pub(crate) mod list;
pub mod opensearch;
pub(crate) mod relative;
pub mod sitemap;
mod xml;

use super::client::Client;
use super::connect::Connector;
use super::fetch::{self, Document};
use super::job::Job;
use super::schedule::Schedule;
use super::url::Url;
use crate::document::settings::PagesFromSite;
use crate::error::Error;
use list::Published;

pub use list::{SearchWords, Seed};

/// The largest sitemap read: the format's own limit.
const MAX_SITEMAP_BYTES: usize = 50 * 1024 * 1024;
/// The largest OpenSearch description read.
const MAX_DESCRIPTION_BYTES: usize = 256 * 1024;

/// The pages found, and how.
pub(crate) struct Found {
    /// Paths below the server's URL, in the order measured.
    pub(crate) pages: Vec<String>,
    /// What the run's settings record of how they were found.
    pub(crate) settings: PagesFromSite,
}

/// The pages of the first server of `schedule` (the reference of
/// `--compare`), as `job.seed` asks; each note goes to `progress`. A site
/// without a readable sitemap is an error that says what to give instead.
pub(crate) fn pages(
    job: &Job,
    schedule: &Schedule,
    progress: &mut dyn FnMut(&str),
) -> Result<Found, Error> {
    let Some(server) = schedule.servers.first() else {
        return Err(Error::usage("no server to find pages on"));
    };
    let base = &server.url;
    let client = client(job, schedule)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Refused(format!("cannot start the HTTP client: {e}")))?;
    let sitemap_url = base.join("sitemap.xml");
    let fetch = |url: &Url, cap: usize| runtime.block_on(fetch::get(&client, url, cap));
    let sitemap = read_sitemap(&sitemap_url, fetch(&sitemap_url, MAX_SITEMAP_BYTES))?;
    let wants_search = job.seed.search != SearchWords::Off;
    let links = if wants_search || job.seed.admin {
        front_page_links(base, fetch(base, links::HTML_SCANNED), progress)
    } else {
        Vec::new()
    };
    let search = if wants_search {
        search_description(job, base, &links, &fetch, progress)?
    } else {
        None
    };
    let site = Published {
        base,
        sitemap: &sitemap,
        search: search.as_ref().map(|(url, d)| (url, d)),
        login: link(base, &links, "login", None),
    };
    let found = list::build(&site, &job.seed).map_err(Error::usage)?;
    for note in &found.notes {
        progress(note);
    }
    progress(&format!(
        "pages from {sitemap_url}: {}",
        found.pages.join(", ")
    ));
    Ok(Found {
        settings: PagesFromSite {
            sitemap: sitemap_url.to_string(),
            menu_pages: job.seed.pages,
            search: found.search_words,
            login: found.login,
            other: Default::default(),
        },
        pages: found.pages,
    })
}

/// The OpenSearch description the front page links, and where it is.
/// Without `--search`, one that cannot be read costs only the search page
/// (said to `progress`), as a front page that does not answer costs only
/// its links.
fn search_description(
    job: &Job,
    base: &Url,
    links: &[links::Link],
    fetch: &dyn Fn(&Url, usize) -> Result<Document, String>,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<(Url, opensearch::Description)>, Error> {
    let Some(url) = link(base, links, "search", Some(OPENSEARCH_TYPE)) else {
        return Ok(None);
    };
    match read_description(&url, fetch(&url, MAX_DESCRIPTION_BYTES)) {
        Ok(description) => Ok(Some((url, description))),
        Err(e) if matches!(job.seed.search, SearchWords::Given(_)) => Err(e),
        Err(e) => {
            progress(&format!("{e}: no search page is measured"));
            Ok(None)
        }
    }
}

/// The media type of an OpenSearch description.
const OPENSEARCH_TYPE: &str = "application/opensearchdescription+xml";

/// The first target of a `rel` link (of `media_type`, when given) on the
/// base's server: a link to another server is never followed.
pub(crate) fn link(
    base: &Url,
    links: &[links::Link],
    rel: &str,
    media_type: Option<&str>,
) -> Option<Url> {
    links
        .iter()
        .filter(|l| l.is(rel))
        .filter(|l| media_type.is_none_or(|t| l.media_type.as_deref() == Some(t)))
        .filter_map(|l| relative::resolve(base, &l.target))
        .find(|url| base.same_server(url))
}

/// A client for the documents, sent to the addresses the schedule found.
fn client(job: &Job, schedule: &Schedule) -> Result<Client, Error> {
    Client::new(job, Connector::of(job, schedule)?).map_err(Error::Usage)
}

/// What to give instead of a sitemap, at the end of its errors.
const INSTEAD: &str = "give the pages with --url or --urls-file";

/// The sitemap's entries, or a one-line error naming its URL.
fn read_sitemap(url: &Url, answer: Result<Document, String>) -> Result<Vec<sitemap::Entry>, Error> {
    let fail = |what: String| Error::input(format!("{url}: {what}; {INSTEAD}"));
    let document = answer.map_err(|m| fail(format!("cannot read the sitemap: {m}")))?;
    if document.status != 200 {
        return Err(fail(format!(
            "answered {} where a sitemap was looked for: the site publishes none",
            document.status
        )));
    }
    if document.cut {
        return Err(fail(format!(
            "the sitemap is larger than {} MB, the format's limit",
            MAX_SITEMAP_BYTES / (1024 * 1024)
        )));
    }
    let text = std::str::from_utf8(&document.body)
        .map_err(|e| fail(format!("the sitemap is not UTF-8 text ({e})")))?;
    sitemap::parse(text).map_err(fail)
}

/// The link relations of the front page, from its `Link` headers and its
/// `<link>` elements; a front page that does not answer has none, said in a
/// note (it is measured anyway, and its failures counted there).
pub(crate) fn front_page_links(
    base: &Url,
    answer: Result<Document, String>,
    progress: &mut dyn FnMut(&str),
) -> Vec<links::Link> {
    match answer {
        Ok(document) if document.status == 200 => links_of(&document),
        Ok(document) => {
            progress(&format!(
                "the front page {base} answered {}: its links are not read",
                document.status
            ));
            Vec::new()
        }
        Err(m) => {
            progress(&format!(
                "the front page {base}: {m}: its links are not read"
            ));
            Vec::new()
        }
    }
}

/// The links of a page: its `Link` headers, then its `<link>` elements.
pub(crate) fn links_of(document: &Document) -> Vec<links::Link> {
    let mut found: Vec<links::Link> = document
        .links()
        .iter()
        .flat_map(|v| links::from_header(v))
        .collect();
    found.extend(links::from_html(&String::from_utf8_lossy(&document.body)));
    found
}

/// The OpenSearch description the front page links, or a one-line error
/// naming its URL.
fn read_description(
    url: &Url,
    answer: Result<Document, String>,
) -> Result<opensearch::Description, Error> {
    let fail = |what: String| {
        Error::input(format!(
            "{url}: {what}; --no-search leaves the search page out"
        ))
    };
    let document = answer.map_err(|m| fail(format!("cannot read the search description: {m}")))?;
    if document.status != 200 {
        return Err(fail(format!("answered {}", document.status)));
    }
    if document.cut {
        return Err(fail(format!(
            "larger than {} KB",
            MAX_DESCRIPTION_BYTES / 1024
        )));
    }
    let text =
        std::str::from_utf8(&document.body).map_err(|e| fail(format!("not UTF-8 text ({e})")))?;
    opensearch::parse(text).map_err(fail)
}
