//! A page's address, kept as written, and its credentials, which must never
//! reach a saved run or the terminal.
//!
//! The authority ends at the first `/`, `?` or `#` (RFC 3986), so in
//! `http://u:pa/ss@host/` the password's `/` ends it: taken literally, that
//! is the host `u`, port `pa`, and a path that holds the rest of the
//! password, printed in every row. Such a URL is refused instead, with the
//! fix: a password's `/`, `?` and `#` percent-encoded, or an `@` in a path.
//! User and password are percent-decoded before they are sent.

use super::settings::is_secret_header as is_secret_name;
use percent_encoding::percent_decode_str;
use std::fmt;

/// The scheme of a page: only plain and TLS HTTP are measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scheme {
    /// Plain HTTP.
    Http,
    /// HTTP over TLS.
    Https,
}

impl Scheme {
    /// The scheme as written in a URL.
    pub(crate) fn as_str(self) -> &'static str {
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

/// An absolute `http` or `https` URL, its parts as written and its
/// credentials apart: what is requested, shown and saved never carries
/// them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    /// Plain or TLS.
    pub(crate) scheme: Scheme,
    /// The host as written, IPv6 literals without their brackets.
    pub(crate) host: String,
    /// The port written, or the scheme's.
    pub(crate) port: u16,
    /// `host[:port]` as written, credentials left out: the `Host` header.
    pub(crate) authority: String,
    /// Path and query, starting with `/`.
    pub(crate) path: String,
    /// `user:password` from the URL, percent-decoded, if any: sent as basic
    /// auth, never shown.
    pub(crate) userinfo: Option<String>,
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
        if ambiguous_userinfo(text) {
            return Err(format!(
                "`{}`: an `@` after the host, with a `:` before it, reads as a password holding \
                 `/`, `?` or `#`; percent-encode them in a password (%2F, %3F, %23), or an `@` in \
                 a path (%40)",
                hide_userinfo(text)
            ));
        }
        let uri: http::Uri = text
            .parse()
            .map_err(|e| format!("`{}` is not a valid URL: {e}", hide_userinfo(text)))?;
        let authority = uri
            .authority()
            .ok_or_else(|| format!("`{}` has no host", hide_userinfo(text)))?;
        let (userinfo, hostport) = match authority.as_str().rsplit_once('@') {
            Some((user, rest)) => (Some(decoded_userinfo(user, text)?), rest.to_string()),
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
            port: port_of(authority, text)?.unwrap_or(scheme.default_port()),
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

    /// Whether `other` is on the same server: scheme, host (in any case)
    /// and port.
    pub(crate) fn same_server(&self, other: &Url) -> bool {
        self.scheme == other.scheme
            && self.host.eq_ignore_ascii_case(&other.host)
            && self.port == other.port
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

    /// What a request for this URL asks for: the path and query, without
    /// a `#fragment`, which stays with the client.
    pub fn target(&self) -> &str {
        self.path.split('#').next().unwrap_or_default()
    }

    /// The request target with the cold-cache parameter `_bench=<unique>`
    /// appended.
    pub fn path_with_bench(&self, unique: &str) -> String {
        let target = self.target();
        let sep = if target.contains('?') { '&' } else { '?' };
        format!("{target}{sep}_bench={unique}")
    }
}

impl fmt::Display for Url {
    /// The URL as shown and saved: credentials replaced by `(hidden)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.origin(), hide_query_secrets(&self.path))
    }
}

/// `path` with the value of every query parameter whose name says it holds
/// a credential (`api_key`, `access_token`, `pwd`, `sig`, `session`: the
/// words secret headers are known by, `SECRET_WORDS`) replaced by
/// `(hidden)`, as shown and saved.
pub(crate) fn hide_query_secrets(path: &str) -> String {
    let Some(query) = query_range(path) else {
        return path.to_string();
    };
    let params: Vec<String> = path[query.clone()]
        .split('&')
        .map(|param| match param.split_once('=') {
            Some((name, _)) if is_secret_param(name) => format!("{name}=(hidden)"),
            _ => param.to_string(),
        })
        .collect();
    format!(
        "{}{}{}",
        &path[..query.start],
        params.join("&"),
        &path[query.end..]
    )
}

/// Where the query of `path` lies: after its `?`, up to a `#`.
fn query_range(path: &str) -> Option<std::ops::Range<usize>> {
    let start = path.find('?')? + 1;
    let end = path[start..].find('#').map_or(path.len(), |i| start + i);
    Some(start..end)
}

fn is_secret_param(name: &str) -> bool {
    is_secret_name(&percent_decode_str(name).decode_utf8_lossy())
}

/// The names of the query parameters of `path` that hold credentials.
pub(crate) fn query_secrets(path: &str) -> Vec<&str> {
    let query = query_range(path).map_or("", |q| &path[q]);
    query
        .split('&')
        .filter_map(|param| param.split_once('='))
        .map(|(name, _)| name)
        .filter(|name| is_secret_param(name))
        .collect()
}

/// The port written, if any: a number from 1 to 65535, or an error that
/// says what was written instead (a port that did not parse used to fall
/// back to the scheme's, sending the requests to another server).
fn port_of(authority: &http::uri::Authority, text: &str) -> Result<Option<u16>, String> {
    // `Authority::port` is `None` for a port that does not parse, so the
    // port is read from the text.
    let hostport = authority.as_str();
    let hostport = hostport.rsplit_once('@').map_or(hostport, |(_, h)| h);
    let after_host = hostport.rfind(']').map_or(hostport, |i| &hostport[i + 1..]);
    let written = match after_host.rsplit_once(':') {
        Some((_, "")) | None => return Ok(None),
        Some((_, port)) => port,
    };
    // Digits alone: `parse` takes a `+` too, which would then be sent in
    // the `Host` header as written.
    let digits = written.bytes().all(|b| b.is_ascii_digit());
    match written.parse::<u16>() {
        Ok(port) if port > 0 && digits => Ok(Some(port)),
        _ => Err(format!(
            "`{}`: the port `{written}` is not a number from 1 to 65535",
            hide_userinfo(text)
        )),
    }
}

/// `user:password` percent-decoded, each part on its own, so an encoded
/// `:` stays in the password.
fn decoded_userinfo(raw: &str, text: &str) -> Result<String, String> {
    let (user, password) = raw.split_once(':').unwrap_or((raw, ""));
    let decode = |part: &str| {
        percent_decode_str(part)
            .decode_utf8()
            .map(|s| s.into_owned())
            .map_err(|_| {
                format!(
                    "`{}`: the user or password is not UTF-8 once percent-decoded",
                    hide_userinfo(text)
                )
            })
    };
    let (user, password) = (decode(user)?, decode(password)?);
    Ok(if raw.contains(':') {
        format!("{user}:{password}")
    } else {
        user
    })
}

/// True when `text` has an `@` after its authority with a `:` anywhere
/// between the `://` and it: a password with an unencoded `/`, `?` or `#`
/// (or `@`), or a path with an `@` after a port, which cannot be told
/// apart.
fn ambiguous_userinfo(text: &str) -> bool {
    let Some((_, rest)) = text.split_once("://") else {
        return false;
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    rest.rfind('@')
        .is_some_and(|at| at > end && rest[..at].contains(':'))
}

/// `text` with any `user:password@` of an URL-looking string hidden (and
/// the credentials of its query, as [`hide_query_secrets`] does), for
/// server names and messages about input that did not parse. Where the
/// credentials end cannot be told (see `ambiguous_userinfo`), everything
/// up to the last `@` is hidden: too much rather than a password's tail.
pub fn hide_userinfo(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.to_string();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let at = if ambiguous_userinfo(text) {
        rest.rfind('@')
    } else {
        rest[..end].rfind('@')
    };
    let shown = match at {
        Some(at) => format!("{scheme}://(hidden)@{}", &rest[at + 1..]),
        None => text.to_string(),
    };
    hide_query_secrets(&shown)
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
    fn a_port_that_is_not_one_is_refused_not_replaced() {
        for port in ["99999", "65536", "-5", "abc", "0", "8080x", "+31087"] {
            let text = format!("http://127.0.0.1:{port}/");
            match Url::parse(&text) {
                Err(e) => assert!(e.contains(&format!("the port `{port}`")), "{e}"),
                Ok(u) => panic!("{text} parsed, port {}", u.port),
            }
        }
        assert_eq!(Url::parse("http://h:65535/").map(|u| u.port), Ok(65535));
        assert_eq!(Url::parse("http://h/").map(|u| u.port), Ok(80));
        let e = Url::parse("http://h:99999/?api_key=SEKRIT").unwrap_err();
        assert!(
            e.contains("api_key=(hidden)") && !e.contains("SEKRIT"),
            "{e}"
        );
    }

    #[test]
    fn credentials_in_a_query_are_hidden_where_shown() {
        let u = Url::parse("http://h/p?api_key=K1&x=1&access_token=K2&Token=K3&pw=ok").unwrap();
        let shown = u.to_string();
        assert_eq!(
            shown,
            "http://h/p?api_key=(hidden)&x=1&access_token=(hidden)&Token=(hidden)&pw=ok"
        );
        // ...and sent as written.
        assert!(u.path.contains("api_key=K1"));
        assert_eq!(hide_query_secrets("/a?%74oken=K"), "/a?%74oken=(hidden)");
        assert_eq!(hide_query_secrets("/a?password=x"), "/a?password=(hidden)");
        assert_eq!(
            hide_query_secrets("/a?pwd=1&sig=2&session=3&PHPSESSID=4&page=5&q=6"),
            "/a?pwd=(hidden)&sig=(hidden)&session=(hidden)&PHPSESSID=(hidden)&page=5&q=6"
        );
        assert_eq!(hide_query_secrets("/plain"), "/plain");
        assert_eq!(
            hide_query_secrets("/a?token=t#frag"),
            "/a?token=(hidden)#frag"
        );
        assert_eq!(query_secrets("/a?x=1&api_key=K#t=2"), vec!["api_key"]);
        assert!(query_secrets("/a?x=1").is_empty());
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
        assert_eq!(hide_userinfo("http://a:b@h/x"), "http://(hidden)@h/x");
        assert_eq!(hide_userinfo("http://h/x@y"), "http://h/x@y");
        // Where the credentials end is unclear, too much is hidden.
        assert_eq!(hide_userinfo("http://a:b@h/x@y"), "http://(hidden)@y");
    }

    #[test]
    fn a_password_with_slash_question_or_hash_never_reaches_a_path() {
        for pw in [
            "pa/QZ", "pa?QZ", "pa#QZ", "12/QZ", "p/a?s#QZ", "x:y/QZ", "a@b/QZ",
        ] {
            let text = format!("http://user:{pw}@localhost:8080/page");
            let e = Url::parse(&text).unwrap_err();
            assert!(
                e.contains("percent-encode") && !e.contains("QZ"),
                "{pw}: {e}"
            );
            assert!(e.contains("(hidden)@localhost:8080/page"), "{e}");
            assert!(!hide_userinfo(&text).contains("QZ"), "{pw}");
        }
        let u = Url::parse("http://us%65r:pa%2Fss%3F%23%3A%40@localhost/page").unwrap();
        assert_eq!(u.userinfo.as_deref(), Some("user:pa/ss?#:@"));
        assert_eq!(u.to_string(), "http://(hidden)@localhost/page");
        assert_eq!(
            Url::parse("http://u:@h/").unwrap().userinfo.as_deref(),
            Some("u:")
        );
        assert_eq!(
            Url::parse("http://u@h/").unwrap().userinfo.as_deref(),
            Some("u")
        );
        // An `@` in a path stays a path, unless a `:` before it makes it read
        // like a password.
        assert_eq!(
            Url::parse("http://h/@alice?to=a@b").unwrap().path,
            "/@alice?to=a@b"
        );
        let e = Url::parse("http://localhost:3000/@alice").unwrap_err();
        assert!(e.contains("%40"), "{e}");
        assert!(Url::parse("http://localhost:3000/%40alice").is_ok());
        let e = Url::parse("http://u:%ff@h/").unwrap_err();
        assert!(e.contains("not UTF-8") && !e.contains("%ff"), "{e}");
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
        assert_eq!(root.join("/p#top").target(), "/p");
        assert_eq!(root.join("/p?q#top").path_with_bench("7"), "/p?q&_bench=7");
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

        #[test]
        fn no_part_of_any_password_is_ever_shown(
            pw in "[a-z]{4}[/?#@:a-z]{0,6}[A-Z]{4}",
            path in "(/[a-z0-9@]{0,5}){0,2}",
        ) {
            // The password's last four letters are capitals, found nowhere
            // else: shown or in an error, none of them may appear.
            let text = format!("http://user:{pw}@localhost:8080{path}");
            let tail = &pw[pw.len() - 4..];
            let shown = match Url::parse(&text) {
                Ok(u) => format!("{u} {} {}", u.path, hide_userinfo(&text)),
                Err(e) => e,
            };
            prop_assert!(!shown.contains(tail), "{}", shown);
        }
    }
}
