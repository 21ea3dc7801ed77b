//! Failed logins limited per address: after [`MAX_FAILURES`] within
//! [`WINDOW`], an address is refused until the oldest of them has aged out,
//! so a password is not guessed at the server's speed. The clock is given,
//! so the limit is tested without waiting.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Failed logins an address may have within [`WINDOW`].
pub const MAX_FAILURES: usize = 5;
/// How long a failed login counts against its address.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// Addresses remembered at most: past it, the one whose last failure is
/// oldest is forgotten, so a flood of addresses cannot fill the memory.
const MAX_ADDRESSES: usize = 10_000;

/// Each address's recent failed logins.
#[derive(Default)]
pub struct Throttle {
    failures: HashMap<IpAddr, VecDeque<Instant>>,
}

impl Throttle {
    /// How long `peer` must wait before it may try again, if it must.
    pub fn wait(&mut self, peer: IpAddr, now: Instant) -> Option<Duration> {
        let peer = holder(peer);
        let times = self.failures.get_mut(&peer)?;
        while times
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= WINDOW)
        {
            times.pop_front();
        }
        if times.is_empty() {
            self.failures.remove(&peer);
            return None;
        }
        (times.len() >= MAX_FAILURES)
            .then(|| WINDOW.saturating_sub(now.saturating_duration_since(times[0])))
    }

    /// Counts a failed login of `peer`.
    pub fn failed(&mut self, peer: IpAddr, now: Instant) {
        let peer = holder(peer);
        if self.failures.len() >= MAX_ADDRESSES && !self.failures.contains_key(&peer) {
            let oldest = self
                .failures
                .iter()
                .min_by_key(|(_, t)| t.back().copied())
                .map(|(ip, _)| *ip);
            if let Some(ip) = oldest {
                self.failures.remove(&ip);
            }
        }
        let times = self.failures.entry(peer).or_default();
        times.push_back(now);
        while times.len() > MAX_FAILURES {
            times.pop_front();
        }
    }

    /// Forgets `peer`'s failures: it logged in.
    pub fn succeeded(&mut self, peer: IpAddr) {
        self.failures.remove(&holder(peer));
    }
}

/// Whom failures count against: an IPv4 address, or an IPv6 address's /64
/// (one subscriber's network, which holds more addresses than could ever
/// be counted one by one).
fn holder(peer: IpAddr) -> IpAddr {
    match peer {
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_none() => {
            let prefix = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(prefix.into())
        }
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(peer, IpAddr::V4),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_failures_until_they_age_out() {
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let mut t = Throttle::default();
        let start = Instant::now();
        for i in 0..MAX_FAILURES {
            assert_eq!(t.wait(a, start), None, "{i}");
            t.failed(a, start + Duration::from_secs(i as u64));
        }
        let later = start + Duration::from_secs(60);
        assert_eq!(t.wait(a, later), Some(WINDOW - Duration::from_secs(60)));
        // Another address is not held back by it.
        assert_eq!(t.wait(b, later), None);
        // The first failure ages out: one more try.
        assert_eq!(t.wait(a, start + WINDOW), None);
        t.failed(a, start + WINDOW);
        assert!(t.wait(a, start + WINDOW).is_some());
        t.succeeded(a);
        assert_eq!(t.wait(a, start + WINDOW), None);
    }

    #[test]
    fn an_ipv6_network_counts_as_one_holder() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for i in 0..MAX_FAILURES as u16 {
            let ip: IpAddr = format!("2001:db8:1:2::{i:x}").parse().unwrap();
            t.failed(ip, now);
        }
        assert!(
            t.wait("2001:db8:1:2:ffff::1".parse().unwrap(), now)
                .is_some()
        );
        assert!(t.wait("2001:db8:1:3::1".parse().unwrap(), now).is_none());
        t.failed("::ffff:10.0.0.1".parse().unwrap(), now);
        assert!(
            t.failures
                .contains_key(&"10.0.0.1".parse::<IpAddr>().unwrap())
        );
    }

    #[test]
    fn a_flood_of_addresses_is_bounded() {
        let mut t = Throttle::default();
        let now = Instant::now();
        for i in 0..(MAX_ADDRESSES as u32 + 50) {
            t.failed(
                IpAddr::from(i.to_be_bytes()),
                now + Duration::from_millis(u64::from(i)),
            );
        }
        assert_eq!(t.failures.len(), MAX_ADDRESSES);
    }
}
