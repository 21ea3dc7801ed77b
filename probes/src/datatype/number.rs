//! Integer and float inputs, and the class-level settings of integer
//! attributes.

use super::{Verdict, empty_input};

/// Optional sign, then digits, whitespace around allowed. `None` when the
/// text is not such a number or does not fit in 64 bits.
pub fn parse_integer(input: &str) -> Option<i64> {
    let t = input.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.strip_prefix('+').unwrap_or(t).parse().ok()
}

/// A decimal number with `.` or `,` as separator and an optional exponent,
/// whitespace around allowed. `None` when the text is not one, or is too
/// large to be finite.
pub fn parse_float(input: &str) -> Option<f64> {
    let t = input.trim();
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let mut mantissa_digits = i - int_start;
    if matches!(b.get(i), Some(b'.' | b',')) {
        i += 1;
        let frac_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        mantissa_digits += i - frac_start;
    }
    if mantissa_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    let value: f64 = t.replace(',', ".").parse().ok()?;
    value.is_finite().then_some(value)
}

/// The bounds message: the rule as the editor needs to read it.
fn range_message<T: std::fmt::Display>(min: Option<T>, max: Option<T>) -> String {
    match (min, max) {
        (Some(min), Some(max)) => format!("The input must be between {min} and {max}"),
        (Some(min), None) => format!("The input must be greater than or equal to {min}"),
        (None, Some(max)) => format!("The input must be less than or equal to {max}"),
        (None, None) => String::new(),
    }
}

/// The class-level settings of an integer attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IntegerRules {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub default: Option<i64>,
}

impl IntegerRules {
    pub fn validate(&self, input: &str, required: bool) -> Verdict {
        if input.trim().is_empty() {
            return empty_input(required);
        }
        let Some(n) = parse_integer(input) else {
            return Verdict::invalid("The input is not a valid integer");
        };
        if self.min.is_some_and(|min| n < min) || self.max.is_some_and(|max| n > max) {
            return Verdict::Invalid(range_message(self.min, self.max));
        }
        Verdict::Valid
    }
}

/// The class-level settings of a float attribute.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FloatRules {
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl FloatRules {
    pub fn validate(&self, input: &str, required: bool) -> Verdict {
        if input.trim().is_empty() {
            return empty_input(required);
        }
        let Some(x) = parse_float(input) else {
            return Verdict::invalid("The input is not a valid decimal number");
        };
        if self.min.is_some_and(|min| x < min) || self.max.is_some_and(|max| x > max) {
            return Verdict::Invalid(range_message(self.min, self.max));
        }
        Verdict::Valid
    }
}

/// Checks the min, max and default fields an administrator posts for an
/// integer attribute: each empty (no bound) or an integer, min not above
/// max, the default within them. Returns the rules when valid.
pub fn validate_integer_class(min: &str, max: &str, default: &str) -> Result<IntegerRules, String> {
    let field = |text: &str, what: &str| -> Result<Option<i64>, String> {
        if text.trim().is_empty() {
            return Ok(None);
        }
        parse_integer(text)
            .map(Some)
            .ok_or_else(|| format!("The {what} value is not a valid integer"))
    };
    let rules = IntegerRules {
        min: field(min, "minimum")?,
        max: field(max, "maximum")?,
        default: field(default, "default")?,
    };
    if let (Some(lo), Some(hi)) = (rules.min, rules.max)
        && lo > hi
    {
        return Err("The minimum value must not be greater than the maximum value".into());
    }
    if let Some(d) = rules.default
        && (rules.min.is_some_and(|lo| d < lo) || rules.max.is_some_and(|hi| d > hi))
    {
        return Err(format!(
            "The default value must be within the limits: {}",
            range_message(rules.min, rules.max).trim_start_matches("The input must be ")
        ));
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(v: Verdict) -> String {
        v.message().unwrap_or("valid").to_string()
    }

    #[test]
    fn integers() {
        assert_eq!(parse_integer(" 42 "), Some(42));
        assert_eq!(parse_integer("-7"), Some(-7));
        assert_eq!(parse_integer("+7"), Some(7));
        for bad in [
            "",
            "+",
            "-",
            "x1",
            "1x",
            "1 2",
            "1.0",
            "--1",
            "9223372036854775808",
            "٣",
        ] {
            assert_eq!(parse_integer(bad), None, "{bad}");
        }
        assert_eq!(parse_integer("-9223372036854775808"), Some(i64::MIN));
    }

    #[test]
    fn integer_boundaries() {
        let r = IntegerRules {
            min: Some(1),
            max: Some(1000),
            default: None,
        };
        assert!(r.validate("1", true).is_valid());
        assert!(r.validate("1000", true).is_valid());
        assert_eq!(
            msg(r.validate("1001", true)),
            "The input must be between 1 and 1000"
        );
        assert_eq!(
            msg(r.validate("0", true)),
            "The input must be between 1 and 1000"
        );
        assert_eq!(
            msg(r.validate("x1", true)),
            "The input is not a valid integer"
        );
        assert_eq!(msg(r.validate("", true)), "Required field is empty");
        assert_eq!(msg(r.validate("  ", true)), "Required field is empty");
        assert!(r.validate("", false).is_valid());
        let lo = IntegerRules {
            min: Some(5),
            ..Default::default()
        };
        assert_eq!(
            msg(lo.validate("4", false)),
            "The input must be greater than or equal to 5"
        );
        assert!(lo.validate("99999", false).is_valid());
        let hi = IntegerRules {
            max: Some(-1),
            ..Default::default()
        };
        assert_eq!(
            msg(hi.validate("0", false)),
            "The input must be less than or equal to -1"
        );
        assert!(IntegerRules::default().validate("-12", true).is_valid());
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("3.25"), Some(3.25));
        assert_eq!(parse_float("3,25"), Some(3.25));
        assert_eq!(parse_float(" -1e3 "), Some(-1000.0));
        assert_eq!(parse_float("2.5E-1"), Some(0.25));
        assert_eq!(parse_float(".5"), Some(0.5));
        assert_eq!(parse_float("5."), Some(5.0));
        for bad in [
            "", ".", "abc", "1e", "1e+", "1.2.3", "1,2,3", "inf", "NaN", "1e999", "1 e2", "0x10",
        ] {
            assert_eq!(parse_float(bad), None, "{bad}");
        }
    }

    #[test]
    fn float_boundaries() {
        let r = FloatRules {
            min: Some(0.5),
            max: Some(99.5),
        };
        assert!(r.validate("0.5", true).is_valid());
        assert!(r.validate("99,5", true).is_valid());
        assert!(r.validate("3.25", true).is_valid());
        assert_eq!(
            msg(r.validate("99.6", true)),
            "The input must be between 0.5 and 99.5"
        );
        assert_eq!(
            msg(r.validate("0.49", true)),
            "The input must be between 0.5 and 99.5"
        );
        assert_eq!(
            msg(r.validate("abc", true)),
            "The input is not a valid decimal number"
        );
        assert_eq!(msg(r.validate("", true)), "Required field is empty");
        assert!(r.validate("", false).is_valid());
    }

    #[test]
    fn integer_class_settings() {
        assert_eq!(
            validate_integer_class("1", "100", "50"),
            Ok(IntegerRules {
                min: Some(1),
                max: Some(100),
                default: Some(50)
            })
        );
        assert_eq!(
            validate_integer_class("", "", ""),
            Ok(IntegerRules::default())
        );
        assert_eq!(
            validate_integer_class("1", "100", "x"),
            Err("The default value is not a valid integer".into())
        );
        assert_eq!(
            validate_integer_class("a", "100", "1"),
            Err("The minimum value is not a valid integer".into())
        );
        assert_eq!(
            validate_integer_class("1", "1.5", ""),
            Err("The maximum value is not a valid integer".into())
        );
        assert_eq!(
            validate_integer_class("10", "9", ""),
            Err("The minimum value must not be greater than the maximum value".into())
        );
        assert!(validate_integer_class("10", "10", "10").is_ok());
        assert_eq!(
            validate_integer_class("1", "100", "101"),
            Err("The default value must be within the limits: between 1 and 100".into())
        );
        assert_eq!(
            validate_integer_class("1", "", "0"),
            Err("The default value must be within the limits: greater than or equal to 1".into())
        );
    }
}
