//! The `datatype_validate` probe: a posted edit form with eighteen inputs
//! validated attribute by attribute.

use super::form::{CLASS_BASE, INTEGER_CLASS_FIELDS, OBJECT_BASE, validate_integer_class_form};
use super::number::{FloatRules, IntegerRules};
use super::text::TextLineRules;
use super::{Attribute, Datatype, PostedForm, REQUIRED_EMPTY, Verdict, posted_field};

const ROUNDS: usize = 20;

/// What is validated: an object attribute, or the integer class settings
/// posted for a class attribute.
pub(crate) enum Target {
    Object(Attribute),
    IntegerClass(u64),
}

pub(crate) struct Case {
    target: Target,
    /// `None` when valid, else the message the verdict must carry.
    expected: Option<&'static str>,
}

pub(crate) struct Form {
    form: PostedForm,
    cases: Vec<Case>,
}

fn attribute(id: u64, datatype: Datatype) -> Attribute {
    Attribute {
        id,
        required: true,
        datatype,
    }
}

const BETWEEN_1_1000: &str = "The input must be between 1 and 1000";

fn setup() -> Result<Form, String> {
    let integer = Datatype::Integer(IntegerRules {
        min: Some(1),
        max: Some(1000),
        default: None,
    });
    let float = Datatype::Float(FloatRules {
        min: Some(0.5),
        max: Some(99.5),
    });
    let text = Datatype::TextLine(TextLineRules { max_len: Some(20) });
    let too_long = "The input text is too long. The maximum number of characters allowed is 20";
    let single: Vec<(Datatype, &str, Option<&'static str>)> = vec![
        (integer.clone(), "42", None),
        (integer.clone(), "1000", None),
        (integer.clone(), "1001", Some(BETWEEN_1_1000)),
        (
            integer.clone(),
            "x1",
            Some("The input is not a valid integer"),
        ),
        (integer, "", Some(REQUIRED_EMPTY)),
        (float.clone(), "3.25", None),
        (
            float.clone(),
            "99.6",
            Some("The input must be between 0.5 and 99.5"),
        ),
        (
            float,
            "abc",
            Some("The input is not a valid decimal number"),
        ),
        (text.clone(), "A short text line", None),
        (
            text.clone(),
            "A text line that is far too long for it",
            Some(too_long),
        ),
        (text, "", Some(REQUIRED_EMPTY)),
        (Datatype::Email, "someone@example.com", None),
        (
            Datatype::Email,
            "not an address",
            Some(super::text::EMAIL_INVALID),
        ),
    ];
    let mut form = PostedForm::new();
    let mut cases = Vec::new();
    let mut id = 990001;
    for (datatype, input, expected) in single {
        form.insert(posted_field(OBJECT_BASE, datatype.fields()[0], id), input);
        cases.push(Case {
            target: Target::Object(attribute(id, datatype)),
            expected,
        });
        id += 1;
    }
    for (ymd, expected) in [
        (["2026", "10", "5"], None),
        (["2026", "2", "30"], Some(super::date::DATE_INVALID)),
        (["2026", "13", "1"], Some(super::date::DATE_INVALID)),
    ] {
        for (field, value) in Datatype::Date.fields().iter().zip(ymd) {
            form.insert(posted_field(OBJECT_BASE, field, id), value);
        }
        cases.push(Case {
            target: Target::Object(attribute(id, Datatype::Date)),
            expected,
        });
        id += 1;
    }
    for (values, expected) in [
        (["1", "100", "50"], None),
        (
            ["1", "100", "x"],
            Some("The default value is not a valid integer"),
        ),
    ] {
        for (field, value) in INTEGER_CLASS_FIELDS.iter().zip(values) {
            form.insert(posted_field(CLASS_BASE, field, id), value);
        }
        cases.push(Case {
            target: Target::IntegerClass(id),
            expected,
        });
        id += 1;
    }
    Ok(Form { form, cases })
}

fn validate(f: &Form, case: &Case) -> Verdict {
    match &case.target {
        Target::Object(attribute) => attribute.validate(&f.form),
        Target::IntegerClass(id) => validate_integer_class_form(&f.form, *id),
    }
}

fn run(f: &Form) -> Vec<Verdict> {
    let mut verdicts = Vec::with_capacity(ROUNDS * f.cases.len());
    for _ in 0..ROUNDS {
        verdicts.extend(f.cases.iter().map(|case| validate(f, case)));
    }
    verdicts
}

fn check(f: &Form, verdicts: &[Verdict]) -> Result<(), String> {
    if f.cases.len() != 18 || verdicts.len() != ROUNDS * f.cases.len() {
        return Err(format!(
            "{} verdicts for {} inputs",
            verdicts.len(),
            f.cases.len()
        ));
    }
    for (i, verdict) in verdicts.iter().enumerate() {
        let expected = f.cases[i % f.cases.len()].expected;
        // Every verdict carries a message: the rule's for an invalid one,
        // VALID otherwise; both are checked word for word.
        if verdict.is_valid() != expected.is_none()
            || verdict.text() != expected.unwrap_or(super::VALID)
        {
            return Err(format!(
                "input {}: got {verdict}, expected {}",
                i % f.cases.len() + 1,
                expected.map_or(super::VALID.to_string(), |m| format!("invalid: {m}"))
            ));
        }
    }
    Ok(())
}

yardstick_probe::probe! {
    name: datatype_validate,
    ops: 360,
    note: "18 posted inputs (integer, float, text line, e-mail, date, class settings) x 20",
    setup: setup,
    run: run,
    check: |f: &Form, verdicts: &Vec<Verdict>| check(f, verdicts),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_is_as_expected() {
        let f = setup().unwrap();
        let verdicts = run(&f);
        check(&f, &verdicts).unwrap();
        assert_eq!(verdicts.iter().filter(|v| v.is_valid()).count(), 7 * ROUNDS);
        assert_eq!(f.form.len(), 13 + 3 * 3 + 2 * 3);
    }

    #[test]
    fn the_check_catches_a_wrong_verdict() {
        let f = setup().unwrap();
        let mut verdicts = run(&f);
        verdicts[2] = Verdict::Valid;
        assert!(check(&f, &verdicts).unwrap_err().starts_with("input 3:"));
        let mut verdicts = run(&f);
        verdicts[20] = Verdict::Invalid("The input must be between 1 and 999".into());
        assert!(check(&f, &verdicts).is_err());
    }
}
