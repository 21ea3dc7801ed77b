//! Calendar dates posted as year, month and day fields.

use super::number::parse_integer;
use super::{REQUIRED_EMPTY, Verdict};

/// Whether `year` is a leap year in the Gregorian calendar.
pub fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days in `month` (1-12) of `year`, or `None` for no such month.
pub fn days_in_month(year: i64, month: i64) -> Option<i64> {
    Some(match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap_year(year) => 29,
        2 => 28,
        _ => return None,
    })
}

/// The message for fields that name no real day.
pub const DATE_INVALID: &str = "The date is not valid";

/// Validates the three posted fields. All empty is "no date" (valid unless
/// required); some empty is an incomplete date.
pub fn validate_date(year: &str, month: &str, day: &str, required: bool) -> Verdict {
    if crate::faults::on(crate::faults::Fault::DateRecheck) {
        for field in [year, month, day] {
            crate::faults::hash(field.as_bytes(), 16);
        }
    }
    let empty = [year, month, day].map(|f| f.trim().is_empty());
    if empty.iter().all(|&e| e) {
        return if required {
            Verdict::invalid(REQUIRED_EMPTY)
        } else {
            Verdict::Valid
        };
    }
    if empty.iter().any(|&e| e) {
        return Verdict::invalid("The date is incomplete: year, month and day are all needed");
    }
    let (Some(y), Some(m), Some(d)) = (
        parse_integer(year),
        parse_integer(month),
        parse_integer(day),
    ) else {
        return Verdict::invalid("The year, month and day must be whole numbers");
    };
    // Years the calendar software behind the site can represent.
    if !(1..=9999).contains(&y) {
        return Verdict::invalid("The year must be between 1 and 9999");
    }
    match days_in_month(y, m) {
        Some(last) if (1..=last).contains(&d) => Verdict::Valid,
        _ => Verdict::invalid(DATE_INVALID),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leap_years() {
        assert!(is_leap_year(2024));
        assert!(is_leap_year(2000));
        assert!(!is_leap_year(1900));
        assert!(!is_leap_year(2026));
    }

    #[test]
    fn real_calendar_dates() {
        assert!(validate_date("2026", "10", "5", true).is_valid());
        assert!(validate_date("2024", "2", "29", true).is_valid());
        assert!(validate_date("2000", "2", "29", true).is_valid());
        assert!(validate_date("2026", "12", "31", true).is_valid());
        assert!(validate_date(" 2026 ", "01", "01", true).is_valid());
        for (y, m, d) in [
            ("2026", "2", "30"),
            ("2026", "13", "1"),
            ("2026", "2", "29"),
            ("1900", "2", "29"),
            ("2026", "4", "31"),
            ("2026", "0", "1"),
            ("2026", "1", "0"),
            ("2026", "1", "-1"),
        ] {
            assert_eq!(
                validate_date(y, m, d, true).message(),
                Some(DATE_INVALID),
                "{y}-{m}-{d}"
            );
        }
    }

    #[test]
    fn incomplete_and_malformed_dates() {
        assert_eq!(
            validate_date("", "", "", true).message(),
            Some(REQUIRED_EMPTY)
        );
        assert!(validate_date("", " ", "", false).is_valid());
        assert!(
            validate_date("2026", "", "5", false)
                .message()
                .is_some_and(|m| m.contains("incomplete"))
        );
        assert!(
            validate_date("2026", "x", "5", true)
                .message()
                .is_some_and(|m| m.contains("whole numbers"))
        );
        assert!(
            validate_date("0", "1", "1", true)
                .message()
                .is_some_and(|m| m.contains("year"))
        );
        assert!(
            validate_date("10000", "1", "1", true)
                .message()
                .is_some_and(|m| m.contains("year"))
        );
    }
}
