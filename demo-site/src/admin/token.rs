//! Random tokens and the login form's signed token.
//!
//! The login form carries a token a forger cannot know: a random nonce goes
//! to the browser as a cookie, and the form holds the nonce's HMAC under a
//! key the process drew at start, with an expiry. A POST whose form token
//! is not its cookie's HMAC is refused. Nothing is kept per visitor, so a
//! tool that loads the login page a million times costs the server no
//! memory.

use crate::secret::same;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::time::Duration;

/// How long a login form may be submitted after it was served.
pub const FORM_LIFETIME: Duration = Duration::from_secs(60 * 60);

/// `bytes` random bytes from the system's source, in hex.
pub fn random_hex(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| format!("no random bytes: {e}"))?;
    Ok(hex(&buf))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The key login forms are signed with, drawn once per process.
pub struct FormKey([u8; 32]);

impl FormKey {
    /// A fresh key.
    pub fn new() -> Result<FormKey, String> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| format!("no random key: {e}"))?;
        Ok(FormKey(key))
    }

    /// The form token for `nonce`, valid until `expires` (seconds on the
    /// server's own clock).
    pub fn sign(&self, nonce: &str, expires: u64) -> String {
        format!("{expires}.{}", self.mac(nonce, expires))
    }

    /// Whether `token` was signed for `nonce` and has not expired at `now`.
    pub fn verify(&self, nonce: &str, token: &str, now: u64) -> bool {
        let Some((expires, mac)) = token.split_once('.') else {
            return false;
        };
        let Ok(expires) = expires.parse::<u64>() else {
            return false;
        };
        !nonce.is_empty() && now < expires && same(mac, &self.mac(nonce, expires))
    }

    fn mac(&self, nonce: &str, expires: u64) -> String {
        // A fresh Hmac takes a key of any length; the key is 32 bytes.
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&self.0) else {
            return String::new();
        };
        mac.update(b"login form\0");
        mac.update(nonce.as_bytes());
        mac.update(b"\0");
        mac.update(&expires.to_be_bytes());
        hex(&mac.finalize().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_token_holds_for_its_nonce_until_it_expires() {
        let key = FormKey::new().unwrap();
        let token = key.sign("abc", 100);
        assert!(key.verify("abc", &token, 99));
        assert!(!key.verify("abc", &token, 100), "expired");
        assert!(!key.verify("abd", &token, 99), "another nonce");
        assert!(!key.verify("", &key.sign("", 100), 1), "no nonce");
        assert!(
            !FormKey::new().unwrap().verify("abc", &token, 99),
            "another key"
        );
        // A later expiry written over the signed one.
        let forged = format!("200.{}", token.split_once('.').unwrap().1);
        assert!(!key.verify("abc", &forged, 150));
        for bad in ["", ".", "x.y", "100", "100.", "-1.00"] {
            assert!(!key.verify("abc", bad, 0), "{bad}");
        }
    }

    #[test]
    fn random_tokens_differ() {
        let (a, b) = (random_hex(32).unwrap(), random_hex(32).unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(same(&a, &a) && !same(&a, &b) && !same(&a, &a[1..]));
    }
}
