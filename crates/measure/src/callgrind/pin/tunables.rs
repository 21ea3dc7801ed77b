//! The user's own `GLIBC_TUNABLES`, checked against what glibc took
//! (`ld.so --list-tunables`): glibc ignores a name it does not know, or a
//! value outside its range, without a word, and a count made under a
//! tunable that did nothing would be recorded as if it had.

use super::glibc_number as number;
use std::collections::BTreeMap;

/// The tunables glibc lists, by name: `name: value (min: a, max: b)`.
fn listed(text: &str) -> BTreeMap<&str, &str> {
    text.lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(name, rest)| {
            let value = rest.trim().split(' ').next().unwrap_or("");
            (name.trim(), value)
        })
        .collect()
}

/// One warning per tunable of `user` (`name=value`, `:`-separated) that
/// glibc's list (`list_tunables`) shows it did not take: a name it does not
/// know, or a number it holds at another value. String tunables (such as
/// `glibc.cpu.hwcaps`) are listed without their value and are not checked.
pub(crate) fn ignored(user: &str, list_tunables: &str) -> Vec<String> {
    let known = listed(list_tunables);
    user.split(':')
        .filter_map(|t| t.split_once('='))
        .filter_map(|(name, value)| match known.get(name) {
            None => Some(format!(
                "GLIBC_TUNABLES: {name} is unknown to this glibc, which ignores it"
            )),
            Some(got) => match (number(value), number(got)) {
                (Some(want), Some(held)) if want != held => Some(format!(
                    "GLIBC_TUNABLES: {name}={value} was not taken (glibc holds {got}; \
                     a value outside its range is ignored)"
                )),
                _ => None,
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTED: &str = "\
glibc.malloc.perturb: 0 (min: 0, max: 255)
glibc.cpu.x86_rep_stosb_threshold: 0x800 (min: 0x1, max: 0xffffffffffffffff)
glibc.cpu.hwcaps:
glibc.malloc.tcache_count: 0x0 (min: 0x0, max: 0xffffffffffffffff)
";

    #[test]
    fn tunables_glibc_took_pass_and_the_others_are_named() {
        assert!(ignored("glibc.malloc.perturb=0:glibc.cpu.hwcaps=-AVX2", LISTED).is_empty());
        let w = ignored(
            "glibc.malloc.perturbb=1:glibc.malloc.perturb=300:glibc.cpu.x86_rep_stosb_threshold=0x800",
            LISTED,
        );
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].contains("glibc.malloc.perturbb is unknown"),
            "{}",
            w[0]
        );
        assert!(
            w[1].contains("glibc.malloc.perturb=300 was not taken (glibc holds 0"),
            "{}",
            w[1]
        );
    }

    proptest::proptest! {
        #[test]
        fn no_text_panics(user in ".{0,80}", list in ".{0,200}") {
            let _ = ignored(&user, &list);
        }
    }
}
