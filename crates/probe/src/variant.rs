//! Variants: probes that implement one workload (a `group`) in different
//! ways, measured in the same rounds and ranked against one reference.
//!
//! A group is only worth ranking when its variants do the same work: the
//! same `ops` per iteration (so "faster" means the same thing), one
//! reference (so every ratio has one denominator) and one suite (so they
//! run in the same bench, round by round). The registry refuses a group
//! that breaks any of these before anything is measured; whether the
//! variants agree on their result is known only once each has run, and is
//! judged with the run (`judge::ranking`).

use super::Probe;
use std::collections::BTreeMap;

/// Which workload a probe implements, and how it is ranked there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// The workload, shared by the group's variants.
    pub group: &'static str,
    /// The implementation, unique within the group.
    pub name: &'static str,
    /// How the variant is ranked.
    pub role: Role,
}

/// How a variant takes part in its group's ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The one variant every other is divided by, and whose result the
    /// others must give.
    Reference,
    /// A variant ranked against the reference.
    Contender,
    /// A lower bound that does less than the workload (a bare scan that
    /// builds nothing): it checks its own result, is exempt from agreeing
    /// with the reference, and is never called the winner.
    Floor,
}

impl Role {
    /// Every role, in the order a group lists them.
    pub const ALL: [Role; 3] = [Role::Reference, Role::Contender, Role::Floor];

    /// The name saved runs use.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Reference => "reference",
            Role::Contender => "contender",
            Role::Floor => "floor",
        }
    }

    /// The role a saved run names; `None` for a name that is none.
    pub fn named(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

/// Whether a contender did its reference's work: their results'
/// fingerprints (see [`Checksum`](super::Checksum)) must be equal, and
/// a result without one cannot be shown to agree. `reference` names the
/// reference's variant in the message.
pub fn agreement(mine: Option<u64>, theirs: Option<u64>, reference: &str) -> Result<(), String> {
    match (mine, theirs) {
        (Some(a), Some(b)) if a == b => Ok(()),
        (Some(_), Some(_)) => Err(format!("result differs from {reference}")),
        _ => Err(format!(
            "no fingerprint of its result or {reference}'s: agreement cannot be checked"
        )),
    }
}

/// Refuses, naming the registrations, a group without exactly one
/// reference, two variants of one name, variants that differ in `ops` or
/// suite, and a group named like a probe (`--probe=NAME` takes either).
/// `probes` are the registered ones, in any order.
pub(crate) fn check_groups(probes: &[&Probe]) -> Result<(), String> {
    let mut groups: BTreeMap<&str, Vec<(&Probe, Variant)>> = BTreeMap::new();
    for p in probes {
        if let Some(v) = p.variant {
            groups.entry(v.group).or_default().push((p, v));
        }
    }
    for (group, members) in &groups {
        if let Some(p) = probes.iter().find(|p| p.name == *group) {
            return Err(format!(
                "group `{group}` of {} has the name of the probe {}: --probe={group} could \
                 not tell them apart",
                at(members[0].0),
                at(p)
            ));
        }
        check_group(group, members)?;
    }
    Ok(())
}

/// A registration as errors name it: `name` (file:line).
fn at(p: &Probe) -> String {
    format!("`{}` ({}:{})", p.name, p.file, p.line)
}

/// The group's one reference, or why there is none.
fn reference<'a>(group: &str, members: &[(&'a Probe, Variant)]) -> Result<&'a Probe, String> {
    let references: Vec<&Probe> = members
        .iter()
        .filter(|(_, v)| v.role == Role::Reference)
        .map(|(p, _)| *p)
        .collect();
    match references.as_slice() {
        [one] => Ok(one),
        [] => Err(format!(
            "group `{group}` has no reference: mark one of its variants `role: reference` \
             (they are {})",
            members
                .iter()
                .map(|(p, _)| at(p))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        [a, b, ..] => Err(format!(
            "group `{group}` has two references, {} and {}: a group has one",
            at(a),
            at(b)
        )),
    }
}

fn check_group(group: &str, members: &[(&Probe, Variant)]) -> Result<(), String> {
    let reference = reference(group, members)?;
    for (p, v) in members {
        if p.ops != reference.ops {
            return Err(format!(
                "group `{group}`: {} does {} ops per iteration and the reference {} does {}: \
                 the variants of a group must do the same work",
                at(p),
                p.ops,
                at(reference),
                reference.ops
            ));
        }
        if p.suite != reference.suite {
            return Err(format!(
                "group `{group}`: {} is in suite `{}` and the reference {} in `{}`: a group's \
                 variants run in one bench",
                at(p),
                p.suite,
                at(reference),
                reference.suite
            ));
        }
        let twin = members
            .iter()
            .find(|(q, w)| w.name == v.name && !std::ptr::eq(*q, *p));
        if let Some((q, _)) = twin {
            return Err(format!(
                "group `{group}`: {} and {} are both variant `{}`",
                at(p),
                at(q),
                v.name
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Instance, fake};

    fn unused() -> Result<Box<dyn Instance>, String> {
        Err("unused".into())
    }

    fn member(name: &'static str, variant: &'static str, role: Role, line: u32) -> Probe {
        Probe {
            line,
            variant: Some(Variant {
                group: "load",
                name: variant,
                role,
            }),
            ..fake(name, unused)
        }
    }

    #[test]
    fn a_group_has_exactly_one_reference() {
        let ours = member("load_ours", "ours", Role::Reference, 3);
        let theirs = member("load_theirs", "theirs", Role::Contender, 9);
        assert_eq!(check_groups(&[&ours, &theirs]), Ok(()));
        let err = check_groups(&[&theirs]).unwrap_err();
        assert!(err.contains("group `load` has no reference"), "{err}");
        let twice = member("load_twice", "twice", Role::Reference, 5);
        let err = check_groups(&[&ours, &twice]).unwrap_err();
        assert!(
            err.contains("two references") && err.contains("src/x.rs:5"),
            "{err}"
        );
    }

    #[test]
    fn variants_that_do_different_work_are_refused_naming_both() {
        let ours = member("load_ours", "ours", Role::Reference, 3);
        let more = Probe {
            ops: 7,
            ..member("load_more", "more", Role::Floor, 9)
        };
        let err = check_groups(&[&ours, &more]).unwrap_err();
        assert!(
            err.contains("`load_more` (src/x.rs:9) does 7 ops")
                && err.contains("`load_ours` (src/x.rs:3) does 1"),
            "{err}"
        );
        let elsewhere = Probe {
            suite: crate::KERNEL_SUITE,
            ..member("load_kernel", "kernel", Role::Contender, 4)
        };
        let err = check_groups(&[&ours, &elsewhere]).unwrap_err();
        assert!(err.contains("suite `kernel`"), "{err}");
        let same = member("load_same", "ours", Role::Contender, 6);
        let err = check_groups(&[&ours, &same]).unwrap_err();
        assert!(err.contains("both variant `ours`"), "{err}");
        let probe = fake("load", unused);
        let err = check_groups(&[&ours, &probe]).unwrap_err();
        assert!(err.contains("has the name of the probe `load`"), "{err}");
    }
}
