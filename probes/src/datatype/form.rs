//! Posted edit forms: how fields are named, and validating an attribute
//! from what the browser sent.

use rustc_hash::FxHashMap;

use super::date::validate_date;
use super::number::{FloatRules, IntegerRules, validate_integer_class};
use super::text::{TextLineRules, validate_email};
use super::{REQUIRED_MISSING, Verdict};

/// The prefix of object attribute fields.
pub const OBJECT_BASE: &str = "ContentObjectAttribute";
/// The prefix of class attribute (settings) fields.
pub const CLASS_BASE: &str = "ContentClass";

/// The name a field is posted under: `<base>_<datatype field>_<attribute
/// id>`, so one form can edit many attributes of the same datatype.
pub fn posted_field(base: &str, field: &str, id: u64) -> String {
    format!("{base}_{field}_{id}")
}

/// The fields of one posted form.
#[derive(Debug, Clone, Default)]
pub struct PostedForm {
    fields: FxHashMap<String, String>,
}

impl PostedForm {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.fields.insert(name.into(), value.into());
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields.get(name).map(String::as_str)
    }

    /// The field `<base>_<field>_<id>`.
    pub fn field(&self, base: &str, field: &str, id: u64) -> Option<&str> {
        self.get(&posted_field(base, field, id))
    }

    pub fn len(&self) -> usize {
        self.fields.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }
}

/// A datatype with its class-level settings.
#[derive(Debug, Clone, PartialEq)]
pub enum Datatype {
    Integer(IntegerRules),
    Float(FloatRules),
    TextLine(TextLineRules),
    Email,
    Date,
}

impl Datatype {
    /// The datatype's fields in a posted object form.
    pub fn fields(&self) -> &'static [&'static str] {
        match self {
            Datatype::Integer(_) => &["data_integer"],
            Datatype::Float(_) => &["data_float"],
            Datatype::TextLine(_) => &["ezstring_data_text"],
            Datatype::Email => &["data_text"],
            Datatype::Date => &["date_year", "date_month", "date_day"],
        }
    }
}

/// One attribute of a content object being edited.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    pub id: u64,
    pub required: bool,
    pub datatype: Datatype,
}

impl Attribute {
    /// The names this attribute's input is posted under.
    pub fn field_names(&self) -> Vec<String> {
        self.datatype
            .fields()
            .iter()
            .map(|f| posted_field(OBJECT_BASE, f, self.id))
            .collect()
    }

    /// Validates this attribute's input from `form`. An input the form did
    /// not post is invalid when required and otherwise left alone, as an
    /// edit form may show only some attributes.
    pub fn validate(&self, form: &PostedForm) -> Verdict {
        let field = |name: &str| form.field(OBJECT_BASE, name, self.id);
        let single = |name: &str, check: &dyn Fn(&str) -> Verdict| match field(name) {
            Some(input) => check(input),
            None if self.required => Verdict::invalid(REQUIRED_MISSING),
            None => Verdict::Valid,
        };
        let required = self.required;
        match &self.datatype {
            Datatype::Integer(rules) => single("data_integer", &|i| rules.validate(i, required)),
            Datatype::Float(rules) => single("data_float", &|i| rules.validate(i, required)),
            Datatype::TextLine(rules) => {
                single("ezstring_data_text", &|i| rules.validate(i, required))
            }
            Datatype::Email => single("data_text", &|i| validate_email(i, required)),
            Datatype::Date => match (field("date_year"), field("date_month"), field("date_day")) {
                (Some(y), Some(m), Some(d)) => validate_date(y, m, d, required),
                _ if required => Verdict::invalid(REQUIRED_MISSING),
                _ => Verdict::Valid,
            },
        }
    }
}

/// The class-setting fields of an integer attribute, in the order of
/// [`validate_integer_class`]'s arguments.
pub const INTEGER_CLASS_FIELDS: [&str; 3] = [
    "ezinteger_min_integer_value",
    "ezinteger_max_integer_value",
    "ezinteger_default_value",
];

/// Validates the integer class settings posted for class attribute `id`.
/// A field not posted counts as empty (no bound).
pub fn validate_integer_class_form(form: &PostedForm, id: u64) -> Verdict {
    let [min, max, default] =
        INTEGER_CLASS_FIELDS.map(|f| form.field(CLASS_BASE, f, id).unwrap_or(""));
    match validate_integer_class(min, max, default) {
        Ok(_) => Verdict::Valid,
        Err(message) => Verdict::Invalid(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn integer(id: u64, required: bool) -> Attribute {
        Attribute {
            id,
            required,
            datatype: Datatype::Integer(IntegerRules {
                min: Some(1),
                max: Some(1000),
                default: None,
            }),
        }
    }

    #[test]
    fn field_names() {
        assert_eq!(
            posted_field(OBJECT_BASE, "data_integer", 990001),
            "ContentObjectAttribute_data_integer_990001"
        );
        let date = Attribute {
            id: 990005,
            required: true,
            datatype: Datatype::Date,
        };
        assert_eq!(
            date.field_names(),
            [
                "ContentObjectAttribute_date_year_990005",
                "ContentObjectAttribute_date_month_990005",
                "ContentObjectAttribute_date_day_990005"
            ]
        );
        assert_eq!(
            posted_field(CLASS_BASE, INTEGER_CLASS_FIELDS[0], 7),
            "ContentClass_ezinteger_min_integer_value_7"
        );
    }

    #[test]
    fn attributes_read_their_own_fields() {
        let mut form = PostedForm::new();
        form.insert("ContentObjectAttribute_data_integer_1", "42");
        form.insert("ContentObjectAttribute_data_integer_2", "1001");
        assert!(integer(1, true).validate(&form).is_valid());
        assert_eq!(
            integer(2, true).validate(&form).message(),
            Some("The input must be between 1 and 1000")
        );
    }

    #[test]
    fn missing_fields_are_invalid_only_when_required() {
        let form = PostedForm::new();
        assert_eq!(
            integer(3, true).validate(&form).message(),
            Some(REQUIRED_MISSING)
        );
        assert!(integer(3, false).validate(&form).is_valid());
        let mut form = PostedForm::new();
        form.insert("ContentObjectAttribute_date_year_5", "2026");
        form.insert("ContentObjectAttribute_date_month_5", "10");
        let date = |required| Attribute {
            id: 5,
            required,
            datatype: Datatype::Date,
        };
        assert_eq!(date(true).validate(&form).message(), Some(REQUIRED_MISSING));
        assert!(date(false).validate(&form).is_valid());
        form.insert("ContentObjectAttribute_date_day_5", "32");
        assert_eq!(
            date(false).validate(&form).message(),
            Some("The date is not valid")
        );
        let email = Attribute {
            id: 9,
            required: true,
            datatype: Datatype::Email,
        };
        assert_eq!(email.validate(&form).message(), Some(REQUIRED_MISSING));
        form.insert("ContentObjectAttribute_data_text_9", "someone@example.com");
        assert!(email.validate(&form).is_valid());
    }

    #[test]
    fn integer_class_settings_from_a_form() {
        let mut form = PostedForm::new();
        for (field, value) in INTEGER_CLASS_FIELDS.iter().zip(["1", "100", "50"]) {
            form.insert(posted_field(CLASS_BASE, field, 11), value);
        }
        for (field, value) in INTEGER_CLASS_FIELDS.iter().zip(["1", "100", "x"]) {
            form.insert(posted_field(CLASS_BASE, field, 12), value);
        }
        assert!(validate_integer_class_form(&form, 11).is_valid());
        assert_eq!(
            validate_integer_class_form(&form, 12).message(),
            Some("The default value is not a valid integer")
        );
        assert!(validate_integer_class_form(&form, 13).is_valid());
    }
}
