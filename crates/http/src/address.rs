//! Where each server's connections go, decided once before anything is
//! sent. A name is resolved here and nowhere else: the safety caps judge
//! these addresses, the built-in client connects only to them, and an
//! external tool is handed one of them. A name that resolved to 127.0.0.1
//! for the check and to someone else's server for the connections (a DNS
//! answer with a short lifetime, a second lookup) cannot happen.

use super::job::Resolve;
use std::net::{IpAddr, ToSocketAddrs};

/// How a server's addresses were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Source {
    /// Not looked for yet: no address, so no connection and no exemption.
    #[default]
    None,
    /// The host is a literal address.
    Literal,
    /// `--resolve` named the address.
    Resolve,
    /// The system resolver answered (hosts file, DNS, ...).
    Lookup,
}

/// The addresses of one server, in the resolver's order, each once: found
/// once, so the caps judge the addresses the connections go to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Addresses {
    /// Every address, in the resolver's order.
    pub(crate) ips: Vec<IpAddr>,
    /// Where they came from.
    pub(crate) source: Source,
}

impl Addresses {
    /// True when every connection stays on this machine: there is an
    /// address, and every one is a loopback address (an IPv4 address mapped
    /// into IPv6 counts as itself). A name gets no exception: `localhost.`
    /// and `*.localhost` are as loopback as their answers.
    pub fn is_loopback(&self) -> bool {
        !self.ips.is_empty() && self.ips.iter().all(|ip| ip.to_canonical().is_loopback())
    }

    /// The address an external tool is handed: the first one.
    pub(crate) fn first(&self) -> Option<IpAddr> {
        self.ips.first().copied()
    }
}

/// The system's answer for `host:port`: none when it has none.
pub type Lookup<'a> = &'a dyn Fn(&str, u16) -> Vec<IpAddr>;

/// The addresses of `host:port`: its own when it is a literal address, the
/// last `--resolve` for it, else what `lookup` answers.
pub(crate) fn of(host: &str, port: u16, resolve: &[Resolve], lookup: Lookup<'_>) -> Addresses {
    if let Some(ip) = literal(host) {
        return Addresses {
            ips: vec![ip],
            source: Source::Literal,
        };
    }
    if let Some(r) = resolve
        .iter()
        .rev()
        .find(|r| r.port == port && r.host.eq_ignore_ascii_case(host))
    {
        return Addresses {
            ips: vec![r.address],
            source: Source::Resolve,
        };
    }
    let mut ips: Vec<IpAddr> = Vec::new();
    for ip in lookup(host, port) {
        if !ips.contains(&ip) {
            ips.push(ip);
        }
    }
    Addresses {
        ips,
        source: Source::Lookup,
    }
}

/// `host` as a literal address, IPv6 with or without its brackets.
pub(crate) fn literal(host: &str) -> Option<IpAddr> {
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    bare.parse().ok()
}

/// The system resolver (`getaddrinfo`): the hosts file, then DNS.
pub fn system_lookup(host: &str, port: u16) -> Vec<IpAddr> {
    (host, port)
        .to_socket_addrs()
        .map(|found| found.map(|a| a.ip()).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answers(table: &[(&str, &[&str])]) -> impl Fn(&str, u16) -> Vec<IpAddr> {
        let table: Vec<(String, Vec<IpAddr>)> = table
            .iter()
            .map(|(h, ips)| {
                (
                    h.to_string(),
                    ips.iter().map(|a| a.parse().unwrap()).collect(),
                )
            })
            .collect();
        move |host, _| {
            table
                .iter()
                .find(|(h, _)| h == host)
                .map(|(_, ips)| ips.clone())
                .unwrap_or_default()
        }
    }

    #[test]
    fn a_name_is_loopback_only_when_every_answer_is() {
        let dns = answers(&[
            ("localhost", &["127.0.0.1", "::1"]),
            ("localhost.", &["127.0.0.1", "192.0.2.7"]),
            ("app.localhost", &["192.0.2.8"]),
            ("mapped", &["::ffff:127.0.0.1"]),
            ("twice", &["127.0.0.1", "127.0.0.1"]),
        ]);
        let loopback = |host: &str| of(host, 80, &[], &dns).is_loopback();
        assert!(loopback("localhost"));
        assert!(loopback("mapped"));
        assert!(
            !loopback("localhost."),
            "one public answer is enough to cap"
        );
        assert!(!loopback("app.localhost"), "no exception for *.localhost");
        assert!(!loopback("nothing.localhost"), "no answer, no exemption");
        assert_eq!(of("twice", 80, &[], &dns).ips.len(), 1);
        assert_eq!(of("localhost", 80, &[], &dns).source, Source::Lookup);
    }

    #[test]
    fn literals_and_resolve_ask_no_resolver() {
        let never = |host: &str, _| -> Vec<IpAddr> { panic!("looked up {host}") };
        for (host, loopback) in [
            ("127.9.8.7", true),
            ("::1", true),
            ("[::1]", true),
            ("10.0.0.1", false),
            ("0.0.0.0", false),
        ] {
            let a = of(host, 80, &[], &never);
            assert_eq!(
                (a.is_loopback(), a.source),
                (loopback, Source::Literal),
                "{host}"
            );
        }
        let at = |address: &str| Resolve {
            host: "site.invalid".into(),
            port: 443,
            address: address.parse().unwrap(),
        };
        let r = [at("192.0.2.1"), at("127.0.0.1")];
        let a = of("SITE.invalid", 443, &r, &never);
        assert_eq!((a.is_loopback(), a.source), (true, Source::Resolve));
        assert!(!of("site.invalid", 80, &r, &|_, _| vec![]).is_loopback());
        assert!(!Addresses::default().is_loopback());
    }
}
