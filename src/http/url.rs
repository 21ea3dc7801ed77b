//! A page's address, kept as written: the safety rules judge the host as the
//! user typed it, before any name is resolved, and credentials in it must
//! never reach a saved run or the terminal.

use std::fmt;

/// The scheme of a page: only plain and TLS HTTP are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Http,
    Https,
}

impl Scheme {
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

/// An absolute `http` or `https` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    pub scheme: Scheme,
    /// The host as written, IPv6 literals without their brackets.
    pub host: String,
    pub port: u16,
    /// `host[:port]` as written, credentials left out: the `Host` header.
    pub authority: String,
    /// Path and query, starting with `/`.
    pub path: String,
    /// `user:password` from the URL, if any: sent as basic auth, never shown.
    pub userinfo: Option<String>,
}

impl Url {
    /// Parses an absolute URL; the error says what is wrong with `text`.
    pub fn parse(text: &str) -> Result<Url, String> {
        let scheme = match text.split_once("://") {
            Some((s, _)) if s.eq_ignore_ascii_case("http") => Scheme::Http,
            Some((s, _)) if s.eq_ignore_ascii_case("https") => Scheme::Https,
            Some((s, _)) => {
                return Err(format!(
                    "`{}`: only http and https URLs are measured, not {s}",
                    hide_userinfo(text)
                ));
            }
            None => return Err(format!("`{}` is not an absolute URL", hide_userinfo(text))),
        };
        let uri: http::Uri = text
            .parse()
            .map_err(|e| format!("`{}` is not a valid URL: {e}", hide_userinfo(text)))?;
        let authority = uri
            .authority()
            .ok_or_else(|| format!("`{}` has no host", hide_userinfo(text)))?;
        let (userinfo, hostport) = match authority.as_str().rsplit_once('@') {
            Some((user, rest)) => (Some(user.to_string()), rest.to_string()),
            None => (None, authority.as_str().to_string()),
        };
        let host = authority.host();
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        if host.is_empty() {
            return Err(format!("`{}` has no host", hide_userinfo(text)));
        }
        let path = match uri.path_and_query() {
            Some(pq) if pq.as_str().starts_with('/') => pq.as_str().to_string(),
            Some(pq) => format!("/{}", pq.as_str()),
            None => "/".to_string(),
        };
        Ok(Url {
            scheme,
            host: host.to_string(),
            port: authority.port_u16().unwrap_or(scheme.default_port()),
            authority: hostport,
            path,
            userinfo,
        })
    }

    /// The server part: `scheme://authority`, credentials hidden.
    pub fn origin(&self) -> String {
        let hidden = if self.userinfo.is_some() {
            "(hidden)@"
        } else {
            ""
        };
        format!("{}://{hidden}{}", self.scheme.as_str(), self.authority)
    }

    /// The page `page` (a path, with or without its leading `/`) on this
    /// server, below this URL's own path.
    pub fn join(&self, page: &str) -> Url {
        let prefix = self
            .path
            .split('?')
            .next()
            .unwrap_or("")
            .trim_end_matches('/');
        let page = page.trim_start_matches('/');
        Url {
            path: format!("{prefix}/{page}"),
            ..self.clone()
        }
    }

    /// The path with the cold-cache parameter `_bench=<unique>` appended.
    pub fn path_with_bench(&self, unique: &str) -> String {
        let sep = if self.path.contains('?') { '&' } else { '?' };
        format!("{}{sep}_bench={unique}", self.path)
    }
}

impl fmt::Display for Url {
    /// The URL as shown and saved: credentials replaced by `(hidden)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.origin(), self.path)
    }
}

/// `text` with any `user:password@` of an URL-looking string hidden, for
/// messages about input that did not parse.
pub fn hide_userinfo(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.to_string();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..end].rfind('@') {
        Some(at) => format!("{scheme}://(hidden)@{}", &rest[at + 1..]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parts_as_written() {
        let u = Url::parse("http://127.0.0.1:8080/a/b?x=1").unwrap();
        assert_eq!(
            (u.scheme, u.host.as_str(), u.port),
            (Scheme::Http, "127.0.0.1", 8080)
        );
        assert_eq!(
            (u.authority.as_str(), u.path.as_str()),
            ("127.0.0.1:8080", "/a/b?x=1")
        );
        let u = Url::parse("HTTPS://[::1]").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("::1", 443, "/")
        );
        assert_eq!(u.authority, "[::1]");
    }

    #[test]
    fn credentials_are_kept_for_auth_and_never_shown() {
        let u = Url::parse("http://user:secret@localhost:81/p").unwrap();
        assert_eq!(u.userinfo.as_deref(), Some("user:secret"));
        assert_eq!(u.host, "localhost");
        assert_eq!(u.to_string(), "http://(hidden)@localhost:81/p");
        assert!(!u.origin().contains("secret"));
        let e = Url::parse("ftp://user:secret@host/").unwrap_err();
        assert!(
            e.contains("only http and https") && !e.contains("secret"),
            "{e}"
        );
        assert_eq!(hide_userinfo("http://a:b@h/x@y"), "http://(hidden)@h/x@y");
    }

    #[test]
    fn refusals() {
        assert!(
            Url::parse("/relative")
                .unwrap_err()
                .contains("not an absolute URL")
        );
        assert!(Url::parse("http://").is_err());
        assert!(Url::parse("http://exa mple/").is_err());
        assert!(
            Url::parse("file:///etc/passwd")
                .unwrap_err()
                .contains("only http")
        );
    }

    #[test]
    fn join_and_cold_parameter() {
        let base = Url::parse("http://h/app/").unwrap();
        assert_eq!(base.join("/x?y=1").path, "/app/x?y=1");
        assert_eq!(base.join("x").path, "/app/x");
        let root = Url::parse("http://h").unwrap();
        assert_eq!(root.join("/").path, "/");
        assert_eq!(root.join("/p").path_with_bench("7"), "/p?_bench=7");
        assert_eq!(root.join("/p?q=1").path_with_bench("7"), "/p?q=1&_bench=7");
    }

    proptest! {
        #[test]
        fn parsing_never_panics(text in "\\PC{0,40}") {
            let _ = Url::parse(&text);
            let _ = hide_userinfo(&text);
        }

        #[test]
        fn shown_urls_never_carry_the_password(pw in "[a-z]{6,12}", path in "(/[a-z0-9]{0,5}){0,3}") {
            let text = format!("http://u:{pw}@localhost{path}");
            let u = Url::parse(&text).unwrap();
            prop_assert!(!u.to_string().contains(&pw));
        }
    }
}
