//! Text lines and e-mail addresses.

use super::{Verdict, empty_input};

/// The class-level settings of a text line attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextLineRules {
    /// Characters, not bytes: editors count letters. `None` for no limit.
    pub max_len: Option<usize>,
}

impl TextLineRules {
    pub fn validate(&self, input: &str, required: bool) -> Verdict {
        if input.trim().is_empty() {
            return empty_input(required);
        }
        if let Some(max) = self.max_len {
            // Stop counting once past the limit: the input may be huge.
            if input.chars().nth(max).is_some() {
                return Verdict::Invalid(format!(
                    "The input text is too long. The maximum number of characters allowed is {max}"
                ));
            }
        }
        Verdict::Valid
    }
}

/// The message for an address that is not plausible.
pub const EMAIL_INVALID: &str = "The e-mail address is not valid";

pub fn validate_email(input: &str, required: bool) -> Verdict {
    if input.trim().is_empty() {
        return empty_input(required);
    }
    if is_plausible_email(input.trim()) {
        Verdict::Valid
    } else {
        Verdict::invalid(EMAIL_INVALID)
    }
}

/// A local part (dot-separated atoms, or a quoted string), `@`, and a domain
/// (dot-separated host labels ending in a letters-only label, or an IPv4
/// address, bare or in brackets); no spaces anywhere, not even quoted, as
/// such addresses are nearly always typing mistakes; and within the lengths
/// mail servers accept.
pub fn is_plausible_email(address: &str) -> bool {
    if address.len() > 254 {
        return false;
    }
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    local.len() <= 64 && valid_local(local) && valid_domain(domain)
}

fn is_atext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b)
}

fn valid_local(local: &str) -> bool {
    if let Some(inner) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        return !inner.is_empty()
            && inner
                .bytes()
                .all(|b| b != b'"' && b != b'\\' && b.is_ascii_graphic());
    }
    !local.is_empty()
        && local
            .split('.')
            .all(|atom| !atom.is_empty() && atom.bytes().all(is_atext))
}

fn valid_domain(domain: &str) -> bool {
    if let Some(ip) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        return is_ipv4(ip);
    }
    if is_ipv4(domain) {
        return true;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let Some((top, hosts)) = labels.split_last() else {
        return false;
    };
    !hosts.is_empty()
        && hosts.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
        && !top.is_empty()
        && top.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')
}

fn is_ipv4(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            (1..=3).contains(&p.len())
                && p.bytes().all(|b| b.is_ascii_digit())
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_line_length_counts_characters() {
        let r = TextLineRules { max_len: Some(20) };
        assert!(r.validate("A short text line", true).is_valid());
        assert!(r.validate("exactly twenty chars", true).is_valid());
        assert_eq!(
            r.validate("A text line that is far too long for it", true)
                .message(),
            Some("The input text is too long. The maximum number of characters allowed is 20")
        );
        // 20 characters, 40 bytes.
        assert!(r.validate(&"é".repeat(20), true).is_valid());
        assert!(!r.validate(&"é".repeat(21), true).is_valid());
        assert_eq!(
            r.validate("", true).message(),
            Some("Required field is empty")
        );
        assert_eq!(
            r.validate("   ", true).message(),
            Some("Required field is empty")
        );
        assert!(r.validate("", false).is_valid());
        assert!(
            TextLineRules::default()
                .validate(&"x".repeat(5000), true)
                .is_valid()
        );
    }

    #[test]
    fn plausible_addresses() {
        for ok in [
            "someone@example.com",
            "first.last+tag@mail.example.co.uk",
            "o'neil@example.org",
            "\"quoted@name\"@example.com",
            "x@[192.168.0.1]",
            "x@10.0.0.1",
            "a@b-c.de",
        ] {
            assert!(is_plausible_email(ok), "{ok}");
        }
        for bad in [
            "not an address",
            "someone@example",
            "@example.com",
            "someone@",
            "some one@example.com",
            "someone@exa mple.com",
            ".someone@example.com",
            "some..one@example.com",
            "someone.@example.com",
            "someone@example..com",
            "someone@.example.com",
            "someone@example.c0m",
            "someone@[300.1.1.1]",
            "a@b@c.com",
            "\"\"@example.com",
            "\"quoted name\"@example.com",
        ] {
            assert!(!is_plausible_email(bad), "{bad}");
        }
        assert!(!is_plausible_email(&format!(
            "{}@example.com",
            "a".repeat(65)
        )));
    }

    #[test]
    fn email_verdicts() {
        assert!(validate_email("someone@example.com", true).is_valid());
        assert!(validate_email(" someone@example.com ", true).is_valid());
        assert_eq!(
            validate_email("not an address", true).message(),
            Some(EMAIL_INVALID)
        );
        assert_eq!(
            validate_email("", true).message(),
            Some("Required field is empty")
        );
        assert!(validate_email("", false).is_valid());
    }
}
