//! URLs read against the measured server: a link's target against the
//! page it is on, and a URL as a page below the base URL, which is what the
//! schedule measures on every server.

use crate::pages;
use crate::url::Url;

/// `url` as a page below `base` (a path the schedule joins to the base),
/// when it is on the same server and below the base's path. A path with a
/// `.` or `..` step, written or percent-encoded, is not followed: it may
/// climb out of the base. Nor is a URL with a character a request line
/// may not carry as it is (a space, a quote, a byte past ASCII): a
/// sitemap may write it, and a server would read it otherwise.
pub(crate) fn page_of(base: &Url, url: &Url) -> Option<String> {
    if !base.same_server(url) || !url.path.bytes().all(fits_request_line) {
        return None;
    }
    let path = url.path.split(['?', '#']).next().unwrap_or("");
    let climbs = |step: &str| {
        let step = percent_encoding::percent_decode_str(step).decode_utf8_lossy();
        step == "." || step == ".."
    };
    if path.split('/').any(climbs) {
        return None;
    }
    let prefix = base
        .path
        .split('?')
        .next()
        .unwrap_or("")
        .trim_end_matches('/');
    let rest = url.path.strip_prefix(prefix)?;
    match rest.chars().next() {
        None => Some("/".to_string()),
        Some('/') => Some(rest.to_string()),
        Some('?') => Some(format!("/{rest}")),
        Some(_) => None,
    }
}

/// Whether `byte` may stand as it is in a request target (RFC 3986: the
/// visible ASCII characters but those it leaves out).
fn fits_request_line(byte: u8) -> bool {
    byte.is_ascii_graphic() && !b"\"<>\\^`{|}".contains(&byte)
}

/// The URL a link's `target` names, read against the page `from`: absolute,
/// scheme-relative (`//host/x`), absolute-path (`/x`) or relative (`x`).
pub(crate) fn resolve(from: &Url, target: &str) -> Option<Url> {
    let target = target.trim();
    let text = if pages::is_absolute(target) {
        target.to_string()
    } else if let Some(rest) = target.strip_prefix("//") {
        format!("{}://{rest}", from.scheme.as_str())
    } else {
        let path = if target.starts_with('/') {
            target.to_string()
        } else {
            let dir = from.path.split('?').next().unwrap_or("/");
            let dir = &dir[..dir.rfind('/').map_or(0, |i| i + 1)];
            format!("{dir}{target}")
        };
        let mut url = from.clone();
        url.path = path.parse::<http::uri::PathAndQuery>().ok()?.to_string();
        return Some(url);
    };
    Url::parse(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn pages_are_read_against_the_base_and_links_against_their_page() {
        let base = url("http://h:8080/site");
        assert_eq!(
            page_of(&base, &url("http://H:8080/site")).as_deref(),
            Some("/")
        );
        assert_eq!(
            page_of(&base, &url("http://h:8080/site?x")).as_deref(),
            Some("/?x")
        );
        assert_eq!(
            page_of(&base, &url("http://h:8080/site/a")).as_deref(),
            Some("/a")
        );
        assert_eq!(page_of(&base, &url("http://h:8080/sites")), None);
        assert_eq!(page_of(&base, &url("http://h:8081/site/a")), None);
        assert_eq!(page_of(&base, &url("http://h:8080/site/../admin")), None);
        assert_eq!(page_of(&base, &url("http://h:8080/site/./a")), None);
        for climbing in [
            "http://h:8080/site/%2e%2e/admin",
            "http://h:8080/site/%2E./admin",
            "http://h:8080/site/.%2e/admin",
            "http://h:8080/site/%2e/a",
        ] {
            assert_eq!(page_of(&base, &url(climbing)), None, "{climbing}");
        }
        for raw in [
            "/site/a\"b",
            "/site/caf\u{e9}",
            "/site/a b",
            "/site/a<b>",
            "/site/a\\b",
        ] {
            let mut u = url("http://h:8080/site/a");
            u.path = raw.to_string();
            assert_eq!(page_of(&base, &u), None, "{raw}");
        }
        assert_eq!(
            page_of(&base, &url("http://h:8080/site/go?to=/../x")).as_deref(),
            Some("/go?to=/../x")
        );
        let from = url("http://h:8080/site/index.html");
        let at = |t: &str| resolve(&from, t).map(|u| u.to_string());
        assert_eq!(at("/x.xml").as_deref(), Some("http://h:8080/x.xml"));
        assert_eq!(at("x.xml").as_deref(), Some("http://h:8080/site/x.xml"));
        assert_eq!(at("//other/x").as_deref(), Some("http://other/x"));
        assert_eq!(at("https://a/b").as_deref(), Some("https://a/b"));
        assert_eq!(at("a b"), None);
        // A URL in a query leaves the target a path.
        assert_eq!(
            at("/login?next=http://h/x").as_deref(),
            Some("http://h:8080/login?next=http://h/x")
        );
    }

    proptest! {
        #[test]
        fn no_target_or_url_makes_the_readers_panic(
            target in "[/a-z.?:#%]{0,12}|\\PC{0,40}",
            base in prop_oneof![Just("http://h/"), Just("http://h/a/b?c"), Just("https://h:1/x/")],
        ) {
            let base = url(base);
            if let Some(found) = resolve(&base, &target) {
                let _ = page_of(&base, &found);
            }
        }
    }
}
