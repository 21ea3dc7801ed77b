//! Locale formatting: `l10n` for numbers, money and dates, `datetime` for
//! custom date formats. Dates are Unix timestamps shown in UTC; format
//! codes are `%` followed by the PHP `date()` letter that designs use.

use super::Unary;
use crate::template::value::Value;

/// How numbers and dates are written for one locale.
#[derive(Clone, Debug, PartialEq)]
pub struct Locale {
    /// The locale's code (`eng-GB`), for the `locale` operator.
    pub code: String,
    pub decimal_symbol: String,
    pub thousands_separator: String,
    pub decimals: usize,
    pub currency_symbol: String,
    /// Whether the currency symbol follows the amount.
    pub currency_after: bool,
    pub short_date: String,
    pub date: String,
    pub time: String,
    pub short_time: String,
}

impl Default for Locale {
    /// British English, the kernel's default locale.
    fn default() -> Self {
        Locale {
            code: "eng-GB".into(),
            decimal_symbol: ".".into(),
            thousands_separator: ",".into(),
            decimals: 2,
            currency_symbol: "£".into(),
            currency_after: false,
            short_date: "%d/%m/%Y".into(),
            date: "%l %d %F %Y".into(),
            time: "%H:%i:%s".into(),
            short_time: "%H:%i".into(),
        }
    }
}

impl Locale {
    /// `1234.5` → `1,234.50`.
    pub fn number(&self, n: f64) -> String {
        if !n.is_finite() {
            return n.to_string();
        }
        let fixed = format!("{:.*}", self.decimals, n.abs());
        let (int, frac) = fixed.split_once('.').unwrap_or((&fixed, ""));
        let mut out = String::with_capacity(fixed.len() + 4);
        if n < 0.0 && fixed.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
            out.push('-');
        }
        let digits = int.as_bytes();
        for (i, &d) in digits.iter().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push_str(&self.thousands_separator);
            }
            out.push(char::from(d));
        }
        if !frac.is_empty() {
            out.push_str(&self.decimal_symbol);
            out.push_str(frac);
        }
        out
    }

    pub fn currency(&self, n: f64) -> String {
        let amount = self.number(n);
        if self.currency_after {
            format!("{amount} {}", self.currency_symbol)
        } else {
            format!("{}{amount}", self.currency_symbol)
        }
    }

    /// The format a named date style uses, if the name is one.
    fn date_format(&self, kind: &str) -> Option<String> {
        Some(match kind {
            "shortdate" => self.short_date.clone(),
            "date" => self.date.clone(),
            "time" => self.time.clone(),
            "shorttime" => self.short_time.clone(),
            "datetime" => format!("{} {}", self.date, self.time),
            "shortdatetime" => format!("{} {}", self.short_date, self.short_time),
            _ => return None,
        })
    }
}

/// `$value|l10n(type)`: `number`, `currency`, or a date style
/// (`shortdate`, `date`, `time`, `shorttime`, `datetime`, `shortdatetime`).
pub fn l10n(u: Unary, locale: &Locale) -> Value {
    let kind = u.text_param(0, "number");
    let v = &*u.subject;
    match kind.as_str() {
        "number" => Value::from(locale.number(v.to_f64())),
        "currency" => Value::from(locale.currency(v.to_f64())),
        other => match locale.date_format(other) {
            Some(fmt) => Value::from(format_date(v.to_int(), &fmt)),
            None => Value::from(v.to_text().into_owned()),
        },
    }
}

/// `$ts|datetime('custom', '%d %M %Y')` or `$ts|datetime('shortdate')`.
pub fn datetime(u: Unary, locale: &Locale) -> Value {
    let kind = u.text_param(0, "datetime");
    let fmt = if kind == "custom" {
        u.text_param(1, "")
    } else {
        locale.date_format(&kind).unwrap_or_default()
    };
    Value::from(format_date(u.subject.to_int(), &fmt))
}

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A UTC calendar date and time.
struct Civil {
    year: i64,
    month: u32,
    day: u32,
    /// 0 = Monday.
    weekday: usize,
    hour: i64,
    minute: i64,
    second: i64,
}

/// Splits a Unix timestamp into calendar fields (the days-from-civil
/// algorithm, valid far beyond any date a page shows).
fn civil(ts: i64) -> Civil {
    let days = ts.div_euclid(86_400);
    let secs = ts.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    Civil {
        year,
        month,
        day,
        // 1970-01-01 was a Thursday.
        weekday: (days + 3).rem_euclid(7) as usize,
        hour: secs / 3600,
        minute: secs % 3600 / 60,
        second: secs % 60,
    }
}

fn format_date(ts: i64, fmt: &str) -> String {
    // Clamp to about ±100 million years so the arithmetic cannot overflow.
    let c = civil(ts.clamp(-3_000_000_000_000_000, 3_000_000_000_000_000));
    let mut out = String::with_capacity(fmt.len() + 8);
    let mut chars = fmt.chars();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            out.push(ch);
            continue;
        }
        let Some(code) = chars.next() else {
            out.push('%');
            break;
        };
        let hour12 = if c.hour % 12 == 0 { 12 } else { c.hour % 12 };
        let month_name = MONTHS[(c.month as usize + 11) % 12];
        match code {
            'd' => out.push_str(&format!("{:02}", c.day)),
            'j' => out.push_str(&c.day.to_string()),
            'D' => out.push_str(&DAYS[c.weekday][..3]),
            'l' => out.push_str(DAYS[c.weekday]),
            'm' => out.push_str(&format!("{:02}", c.month)),
            'n' => out.push_str(&c.month.to_string()),
            'M' => out.push_str(&month_name[..3]),
            'F' => out.push_str(month_name),
            'Y' => out.push_str(&c.year.to_string()),
            'y' => out.push_str(&format!("{:02}", c.year.rem_euclid(100))),
            'H' => out.push_str(&format!("{:02}", c.hour)),
            'G' => out.push_str(&c.hour.to_string()),
            'h' => out.push_str(&format!("{hour12:02}")),
            'g' => out.push_str(&hour12.to_string()),
            'i' => out.push_str(&format!("{:02}", c.minute)),
            's' => out.push_str(&format!("{:02}", c.second)),
            'a' => out.push_str(if c.hour < 12 { "am" } else { "pm" }),
            'A' => out.push_str(if c.hour < 12 { "AM" } else { "PM" }),
            '%' => out.push('%'),
            other => {
                out.push('%');
                out.push(other);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Locale;
    use crate::template::ops::testing::{pipe, s};
    use crate::template::value::Value;

    /// 2024-02-29 13:05:09 UTC, a Thursday.
    const LEAP_DAY: i64 = 1_709_211_909;

    #[test]
    fn l10n() {
        assert_eq!(
            pipe("l10n", Value::Float(1234.5), &[s("number")]),
            "1,234.50"
        );
        assert_eq!(pipe("l10n", Value::Int(-1234567), &[]), "-1,234,567.00");
        assert_eq!(pipe("l10n", Value::Float(-0.001), &[s("number")]), "0.00");
        assert_eq!(
            pipe("l10n", Value::Float(129.99), &[s("currency")]),
            "£129.99"
        );
        assert_eq!(
            pipe("l10n", Value::Int(LEAP_DAY), &[s("shortdate")]),
            "29/02/2024"
        );
        assert_eq!(
            pipe("l10n", Value::Int(LEAP_DAY), &[s("date")]),
            "Thursday 29 February 2024"
        );
        assert_eq!(
            pipe("l10n", Value::Int(LEAP_DAY), &[s("shorttime")]),
            "13:05"
        );
        assert_eq!(
            pipe("l10n", Value::Int(0), &[s("shortdatetime")]),
            "01/01/1970 00:00"
        );
        assert_eq!(pipe("l10n", s("x"), &[s("weird")]), "x");
    }

    #[test]
    fn datetime() {
        assert_eq!(
            pipe(
                "datetime",
                Value::Int(LEAP_DAY),
                &[s("custom"), s("%D %j %M %y, %g:%i %A %%")]
            ),
            "Thu 29 Feb 24, 1:05 PM %"
        );
        assert_eq!(
            pipe(
                "datetime",
                Value::Int(-1),
                &[s("custom"), s("%Y-%m-%d %H:%i:%s")]
            ),
            "1969-12-31 23:59:59"
        );
        assert_eq!(
            pipe("datetime", Value::Int(LEAP_DAY), &[s("time")]),
            "13:05:09"
        );
        assert_eq!(
            pipe("datetime", Value::Int(i64::MAX), &[s("custom"), s("%q")]),
            "%q"
        );
    }

    #[test]
    fn currency_after_amount() {
        let l = Locale {
            currency_symbol: "kr".into(),
            currency_after: true,
            decimal_symbol: ",".into(),
            thousands_separator: " ".into(),
            ..Locale::default()
        };
        assert_eq!(l.currency(1234.5), "1 234,50 kr");
    }
}
