//! Clearing the whole view cache on request, for `yardstick http
//! --cold-clear`: a `PURGE` of [`PATH`] that carries the token its owner
//! set (`--purge-token-file`), from this machine only. Three locks, each of
//! which a stranger lacks: the site must have been started with a token
//! (only then does its front page publish the endpoint), the request must
//! come over loopback, and it must name the token. Without a token file the
//! site knows no `PURGE` at all.

use std::net::IpAddr;
use std::path::Path;

/// The request method that clears the cache, as caches (Varnish, nginx's
/// purge module) name it.
pub const METHOD: &str = "PURGE";

/// Where a `PURGE` clears the cache, published on the front page (a
/// `purge` link relation) only when the site has a token.
pub const PATH: &str = "/purge";

/// The header of a cleared cache's answer: how many pages it held. A
/// client knows by it that the whole cache was cleared, not one page.
pub const CLEARED_HEADER: &str = "x-cache-cleared";

/// The fewest characters a token may have: short enough to type, too long
/// to guess.
const MIN_TOKEN: usize = 16;

/// The owner's secret, from the file they gave.
pub struct Token(String);

impl Token {
    /// The token in `path`: its one line, trimmed; an error that names the
    /// file otherwise.
    pub fn read(path: &Path) -> Result<Token, String> {
        let text = crate::secret::read_file(path, "--purge-token-file")?;
        Token::of(text.trim()).map_err(|m| format!("--purge-token-file: {}: {m}", path.display()))
    }

    fn of(text: &str) -> Result<Token, String> {
        if text.chars().count() < MIN_TOKEN || text.contains(char::is_whitespace) {
            return Err(format!(
                "the token must be one word of at least {MIN_TOKEN} characters"
            ));
        }
        Ok(Token(text.to_string()))
    }

    /// Whether `given` is the token, compared in time that does not depend
    /// on where they first differ.
    fn matches(&self, given: &str) -> bool {
        crate::secret::same(&self.0, given)
    }
}

/// Why a `PURGE` is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The site was started without a token: it knows no `PURGE`.
    NotOffered,
    /// The peer is not on this machine.
    NotLoopback,
    /// No token, or another one.
    WrongToken,
}

/// Whether a `PURGE` from `peer` with `authorization` may clear the cache.
pub fn allowed(
    token: Option<&Token>,
    peer: Option<IpAddr>,
    authorization: Option<&str>,
) -> Result<(), Refusal> {
    let token = token.ok_or(Refusal::NotOffered)?;
    if !peer.is_some_and(|ip| ip.is_loopback() || is_mapped_loopback(ip)) {
        return Err(Refusal::NotLoopback);
    }
    let given = authorization.and_then(|a| a.strip_prefix("Bearer "));
    if given.is_some_and(|g| token.matches(g.trim())) {
        Ok(())
    } else {
        Err(Refusal::WrongToken)
    }
}

/// `::ffff:127.0.0.1`, as a dual-stack listener sees an IPv4 peer.
fn is_mapped_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
        IpAddr::V4(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "0123456789abcdef";

    #[test]
    fn only_the_token_from_this_machine_clears() {
        let token = Token::of(SECRET).unwrap();
        let local = Some(IpAddr::from([127, 0, 0, 1]));
        let bearer = format!("Bearer {SECRET}");
        assert_eq!(allowed(Some(&token), local, Some(&bearer)), Ok(()));
        let mapped = Some("::ffff:127.0.0.1".parse().unwrap());
        assert_eq!(allowed(Some(&token), mapped, Some(&bearer)), Ok(()));
        assert_eq!(
            allowed(None, local, Some(&bearer)),
            Err(Refusal::NotOffered)
        );
        let remote = Some(IpAddr::from([192, 168, 1, 9]));
        assert_eq!(
            allowed(Some(&token), remote, Some(&bearer)),
            Err(Refusal::NotLoopback)
        );
        assert_eq!(
            allowed(Some(&token), None, Some(&bearer)),
            Err(Refusal::NotLoopback)
        );
        for wrong in [
            None,
            Some("Bearer 0123456789abcdeF"),
            Some(SECRET),
            Some("Bearer "),
        ] {
            assert_eq!(
                allowed(Some(&token), local, wrong),
                Err(Refusal::WrongToken),
                "{wrong:?}"
            );
        }
    }

    #[test]
    fn a_token_file_holds_one_long_word() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, format!("  {SECRET}\n")).unwrap();
        assert!(Token::read(&file).unwrap().matches(SECRET));
        for bad in ["short", "two words here, long", ""] {
            std::fs::write(&file, bad).unwrap();
            let e = Token::read(&file).err().unwrap();
            assert!(e.contains("token") && e.contains("at least 16"), "{e}");
        }
        let e = Token::read(&dir.path().join("missing")).err().unwrap();
        assert!(
            e.starts_with("--purge-token-file: ") && e.contains("missing"),
            "{e}"
        );
    }
}
