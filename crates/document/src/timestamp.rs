//! The one time format a run carries: RFC 3339 in UTC, to the second
//! (`2026-12-07T03:21:08Z`). Written here, a dozen lines of calendar
//! arithmetic, so that every bench builds no crate for it; the tests hold
//! it to humantime's formatter.

use std::time::{SystemTime, UNIX_EPOCH};

/// `time` in RFC 3339, UTC, to the second; a time before 1970 reads as
/// the epoch, which no run was made before.
pub fn rfc3339_seconds(time: SystemTime) -> String {
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3_600,
        of_day % 3_600 / 60,
        of_day % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, for days counted from a March 1st, so that the leap
/// day ends each 400-year era's year).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::time::Duration;

    #[test]
    fn known_dates_read_as_written() {
        let at = |s: u64| rfc3339_seconds(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        // The leap day of a year divisible by 400, and the day after.
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(951_868_799), "2000-02-29T23:59:59Z");
        assert_eq!(at(1_796_526_068), "2026-12-06T03:01:08Z");
        assert_eq!(rfc3339_seconds(UNIX_EPOCH - Duration::from_secs(1)), at(0));
    }

    proptest! {
        /// Any second to the year 9999 reads as humantime writes it.
        #[test]
        fn every_second_reads_as_humantime_writes_it(s in 0u64..253_402_300_800) {
            let time = UNIX_EPOCH + Duration::from_secs(s);
            prop_assert_eq!(
                rfc3339_seconds(time),
                humantime::format_rfc3339_seconds(time).to_string()
            );
        }
    }
}
