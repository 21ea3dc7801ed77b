//! The number formats load tools print: times with a unit (`99.47us`,
//! `4.86ms`, `1.24s`, `2m`), sizes with a binary prefix (`176.24MB`,
//! `2.39KB`, `812.84B`).

/// A time with its unit, in milliseconds.
pub(crate) fn millis(text: &str) -> Option<f64> {
    let text = text.trim();
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let value: f64 = number.trim().parse().ok()?;
    let factor = match unit {
        "ns" => 1e-6,
        "us" | "µs" => 1e-3,
        "ms" => 1.0,
        "s" => 1e3,
        "m" => 60e3,
        "h" => 3600e3,
        _ => return None,
    };
    finite(value * factor)
}

/// A size with a binary prefix (`KB` = 1024 bytes, as wrk and h2load
/// mean it), in bytes.
pub(crate) fn bytes(text: &str) -> Option<f64> {
    let text = text.trim();
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let value: f64 = number.trim().parse().ok()?;
    let power = match unit {
        "B" => 0,
        "KB" | "KiB" => 1,
        "MB" | "MiB" => 2,
        "GB" | "GiB" => 3,
        "TB" | "TiB" => 4,
        _ => return None,
    };
    finite(value * 1024f64.powi(power))
}

/// A whole count (`1,234` allowed).
pub(crate) fn count(text: &str) -> Option<u64> {
    text.trim().replace(',', "").parse().ok()
}

/// A plain decimal number.
pub(crate) fn number(text: &str) -> Option<f64> {
    text.trim().parse().ok().and_then(finite)
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// The text after `label` on the first line that starts with it (after
/// leading spaces).
pub(crate) fn after<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    text.lines()
        .map(str::trim_start)
        .find_map(|line| line.strip_prefix(label))
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn times_in_every_unit() {
        assert_eq!(millis("99.47us"), Some(0.09947));
        assert_eq!(millis("4.86ms"), Some(4.86));
        assert_eq!(millis("1.24s"), Some(1240.0));
        assert_eq!(millis("2m"), Some(120_000.0));
        assert_eq!(millis("5"), None);
        assert_eq!(millis("fast"), None);
        assert_eq!(millis("-nan%"), None);
    }

    #[test]
    fn sizes_are_binary() {
        assert_eq!(bytes("812.84B"), Some(812.84));
        assert_eq!(bytes("2KB"), Some(2048.0));
        assert_eq!(bytes("1.5MB"), Some(1.5 * 1024.0 * 1024.0));
        assert_eq!(bytes("3GB"), Some(3.0 * 1024f64.powi(3)));
        assert_eq!(bytes("3XB"), None);
    }

    #[test]
    fn labels_and_counts() {
        assert_eq!(
            after("a\n  Complete requests:   200\n", "Complete requests:"),
            Some("200")
        );
        assert_eq!(count("1,234"), Some(1234));
        assert_eq!(count("x"), None);
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,16}") {
            let _ = (millis(&s), bytes(&s), count(&s), number(&s), after(&s, "a"));
        }
    }
}
