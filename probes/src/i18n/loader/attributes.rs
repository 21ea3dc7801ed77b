//! Attributes: read in one pass per tag, with the format's checks on the
//! values of `location` and `byte`.

use std::borrow::Cow;

use quick_xml::XmlVersion;
use quick_xml::events::BytesStart;
use quick_xml::events::attributes::Attribute;
use quick_xml::name::QName;

use super::elements::Elem;
use super::{Loader, span_from};
use crate::i18n::catalogue::{Location, LocationLine, Span};
use crate::i18n::error::{ErrorKind, LoadError};

impl<'a> Loader<'a> {
    /// Calls `f` with the name and value (entities resolved) of each
    /// attribute of `e` whose name `wanted` accepts, in one pass over the
    /// attributes, and checks that no name repeats.
    #[inline]
    fn each_attribute(
        &mut self,
        e: &BytesStart<'a>,
        at: usize,
        wanted: impl Fn(&str) -> bool,
        mut f: impl FnMut(&mut Self, &str, &str) -> Result<(), LoadError>,
    ) -> Result<(), LoadError> {
        let raw = e.attributes_raw();
        if raw.is_empty() {
            return Ok(());
        }
        let mut plain = [("", ""); PLAIN_MAX];
        let Some(count) = plain_attributes(raw, &mut plain) else {
            return self.each_attribute_parsed(e, at, wanted, f);
        };
        let plain = &plain[..count];
        for (i, &(key, value)) in plain.iter().enumerate() {
            if plain[..i].iter().any(|&(seen, _)| seen == key) {
                return Err(self.repeated_attribute(at, key));
            }
            if !wanted(key) {
                continue;
            }
            if needs_normalising(value) {
                let value = self.normalise(key, value, at)?;
                f(self, key, &value)?;
            } else {
                f(self, key, value)?;
            }
        }
        Ok(())
    }

    #[cold]
    fn repeated_attribute(&mut self, at: usize, key: &str) -> LoadError {
        self.error(
            at,
            ErrorKind::NotXml(format!("attribute `{key}` is repeated")),
        )
    }

    /// [`each_attribute`](Self::each_attribute) through the parser's
    /// attribute iterator, for tags that [`plain_attributes`] does not read.
    #[inline(never)]
    fn each_attribute_parsed(
        &mut self,
        e: &BytesStart<'a>,
        at: usize,
        wanted: impl Fn(&str) -> bool,
        mut f: impl FnMut(&mut Self, &str, &str) -> Result<(), LoadError>,
    ) -> Result<(), LoadError> {
        if e.attributes_raw().bytes().all(|b| b.is_ascii_whitespace()) {
            return Ok(());
        }
        // quick-xml's duplicate check allocates per element; names are
        // compared here instead, in a small array for the usual few.
        let mut seen: [&str; 8] = [""; 8];
        for (count, attr) in e.attributes().with_checks(false).enumerate() {
            let attr = attr.map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))?;
            let key = attr.key.0;
            if count == seen.len() {
                return self.each_attribute_checked(e, at, wanted, f);
            }
            if seen[..count].contains(&key) {
                return Err(self.repeated_attribute(at, key));
            }
            seen[count] = key;
            if wanted(key) {
                let value = attr
                    .normalized_value(XmlVersion::Implicit1_0)
                    .map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))?;
                f(self, key, &value)?;
            }
        }
        Ok(())
    }

    /// [`each_attribute`](Self::each_attribute) for tags with many
    /// attributes, where the parser's own duplicate check pays off.
    #[cold]
    fn each_attribute_checked(
        &mut self,
        e: &BytesStart<'a>,
        at: usize,
        wanted: impl Fn(&str) -> bool,
        mut f: impl FnMut(&mut Self, &str, &str) -> Result<(), LoadError>,
    ) -> Result<(), LoadError> {
        for attr in e.attributes() {
            let attr = attr.map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))?;
            let key = attr.key.as_ref();
            if wanted(key) {
                let value = attr
                    .normalized_value(XmlVersion::Implicit1_0)
                    .map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))?;
                f(self, key, &value)?;
            }
        }
        Ok(())
    }

    /// Calls `f` with the value of attribute `key` of `e`; `None` when the
    /// attribute is absent.
    pub(super) fn attribute<R>(
        &mut self,
        e: &BytesStart<'a>,
        key: &str,
        at: usize,
        f: impl FnOnce(&mut Self, &str) -> R,
    ) -> Result<Option<R>, LoadError> {
        let mut f = Some(f);
        let mut result = None;
        self.each_attribute(
            e,
            at,
            |k| k == key,
            |this, _, value| {
                if let Some(f) = f.take() {
                    result = Some(f(this, value));
                }
                Ok(())
            },
        )?;
        Ok(result)
    }

    pub(super) fn bad_attribute(
        &mut self,
        at: usize,
        elem: Elem,
        attribute: &str,
        value: &str,
    ) -> LoadError {
        let kind = ErrorKind::BadAttribute {
            element: elem.name().to_string(),
            attribute: attribute.to_string(),
            value: value.to_string(),
        };
        self.error(at, kind)
    }

    pub(super) fn repeated(&mut self, at: usize, elem: Elem) -> LoadError {
        self.error(at, ErrorKind::Repeated(elem.name().to_string()))
    }

    pub(super) fn location(&mut self, e: &BytesStart<'a>, at: usize) -> Result<(), LoadError> {
        let mut plain = [("", ""); PLAIN_MAX];
        match plain_attributes(e.attributes_raw(), &mut plain) {
            Some(count) => self.plain_location(&plain[..count], at),
            None => self.parsed_location(e, at),
        }
    }

    /// A location from plainly written attributes, the usual case: the
    /// same checks as [`each_attribute`](Self::each_attribute), with no
    /// normalisation of a line of plain digits and no closure or returned
    /// value between the attributes and the table: parts written to memory
    /// in halves and read back whole stall the processor.
    #[inline]
    fn plain_location(&mut self, attributes: &[(&str, &str)], at: usize) -> Result<(), LoadError> {
        let mut file = Span::default();
        let mut line = LocationLine::None;
        for (i, &(key, value)) in attributes.iter().enumerate() {
            if attributes[..i].iter().any(|&(seen, _)| seen == key) {
                return Err(self.repeated_attribute(at, key));
            }
            match key {
                "filename" if needs_normalising(value) => {
                    let value = self.normalise(key, value, at)?;
                    file = self.location_file(&value);
                }
                "filename" => file = self.location_file(value),
                "line" => {
                    line = match plain_line(value) {
                        Some(line) => line,
                        None => {
                            let value = self.normalise(key, value, at)?;
                            parse_line(&value).ok_or_else(|| {
                                self.bad_attribute(at, Elem::Location, "line", &value)
                            })?
                        }
                    }
                }
                _ => {}
            }
        }
        self.catalogue.locations.push(Location { file, line });
        Ok(())
    }

    /// A location from attributes that only the parser's iterator reads.
    #[cold]
    fn parsed_location(&mut self, e: &BytesStart<'a>, at: usize) -> Result<(), LoadError> {
        let mut file = Span::default();
        let mut line = LocationLine::None;
        let wanted = |key: &str| matches!(key, "filename" | "line");
        self.each_attribute_parsed(e, at, wanted, |this, key, value| {
            if key == "filename" {
                file = this.location_file(value);
            } else {
                line = parse_line(value)
                    .ok_or_else(|| this.bad_attribute(at, Elem::Location, "line", value))?;
            }
            Ok(())
        })?;
        self.catalogue.locations.push(Location { file, line });
        Ok(())
    }

    /// `value` after XML 1.0 attribute-value normalisation.
    fn normalise<'v>(
        &mut self,
        key: &'v str,
        value: &'v str,
        at: usize,
    ) -> Result<Cow<'v, str>, LoadError> {
        // Built by hand: `Attribute::from` escapes the value.
        let raw = Attribute {
            key: QName(key),
            value: Cow::Borrowed(value),
        };
        raw.normalized_value(XmlVersion::Implicit1_0)
            .map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))
    }

    /// The arena span of a location's file name; consecutive locations
    /// mostly name one file, which is then stored once.
    fn location_file(&mut self, name: &str) -> Span {
        let c = &mut self.catalogue;
        if let Some(last) = c.locations.last()
            && c.str(last.file) == name
        {
            return last.file;
        }
        let start = c.text.len();
        c.text.push_str(name);
        span_from(start, c.text.len())
    }

    pub(super) fn byte(&mut self, e: &BytesStart<'a>, at: usize) -> Result<(), LoadError> {
        let pushed = self.attribute(e, "value", at, |this, value| {
            let code = match value.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => value.parse::<u32>().ok(),
            };
            match code.and_then(char::from_u32) {
                Some(c) if c != '\0' => {
                    this.catalogue.text.push(c);
                    Ok(())
                }
                _ => Err(this.bad_attribute(at, Elem::Byte, "value", value)),
            }
        })?;
        pushed.unwrap_or_else(|| Err(self.bad_attribute(at, Elem::Byte, "value", "")))
    }
}

/// The most attributes [`plain_attributes`] reads; every tag of the format
/// has at most two.
const PLAIN_MAX: usize = 8;

/// Reads `raw` (a tag's text after its name) when every attribute in it is
/// written plainly, `name="value"` or `name='value'` after XML whitespace,
/// with a name of letters, digits, `_`, `:`, `.` or `-`: the form tools
/// write. For that form the parser's iterator, which steps byte by byte
/// through names and values, yields the same pairs; here the values are
/// found with a vectorised search. Anything else, spaces around `=`, an odd
/// name, a missing quote, more than [`PLAIN_MAX`] attributes, answers `None`
/// and the parser's iterator reads the tag, reporting its errors as before.
/// Values are returned raw, not normalised.
fn plain_attributes<'s>(raw: &'s str, out: &mut [(&'s str, &'s str); PLAIN_MAX]) -> Option<usize> {
    let bytes = raw.as_bytes();
    let class = |i: usize| bytes.get(i).map_or(OTHER, |&b| BYTE_CLASS[b as usize]);
    let mut i = 0;
    let mut count = 0;
    loop {
        while class(i) == SPACE {
            i += 1;
        }
        if i == bytes.len() {
            return Some(count);
        }
        let key_start = i;
        while class(i) == NAME {
            i += 1;
        }
        if i == key_start || bytes.get(i) != Some(&b'=') || count == PLAIN_MAX {
            return None;
        }
        let quote = *bytes.get(i + 1)?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        let value_start = i + 2;
        let value_len = memchr::memchr(quote, bytes.get(value_start..)?)?;
        let value_end = value_start + value_len;
        // Every boundary is next to an ASCII byte, so `get` always succeeds.
        out[count] = (raw.get(key_start..i)?, raw.get(value_start..value_end)?);
        count += 1;
        i = value_end + 1;
    }
}

const OTHER: u8 = 0;
/// The parser's whitespace: space, tab, line feed, carriage return.
const SPACE: u8 = 1;
/// Letters, digits, `_`, `:`, `.` and `-`.
const NAME: u8 = 2;

/// The class of each byte, by table: cheaper than comparisons per byte.
static BYTE_CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            SPACE
        } else if c.is_ascii_alphanumeric() || matches!(c, b'_' | b':' | b'.' | b'-') {
            NAME
        } else {
            OTHER
        };
        b += 1;
    }
    table
};

/// Whether XML 1.0 attribute-value normalisation would change `value`: it
/// holds a reference or a whitespace character other than space. Checked
/// without early exit so that the loop vectorises.
#[inline]
fn needs_normalising(value: &str) -> bool {
    value.bytes().fold(false, |found, b| {
        found | matches!(b, b'&' | b'\t' | b'\n' | b'\r')
    })
}

/// An absolute line written as plain digits, as tools write them: no
/// normalisation, trimming, sign or overflow (nine digits stay below
/// `u32::MAX`) to care about. `None` for anything else.
#[inline]
fn plain_line(value: &str) -> Option<LocationLine> {
    if (1..=9).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit()) {
        let line = value
            .bytes()
            .fold(0u32, |n, b| n * 10 + u32::from(b - b'0'));
        return Some(LocationLine::Absolute(line));
    }
    None
}

/// `12` is an absolute line; `+3` or `-2` is relative to the previous one.
fn parse_line(value: &str) -> Option<LocationLine> {
    if crate::faults::on(crate::faults::Fault::LocationRecheck) {
        crate::faults::hash(value.as_bytes(), 32);
    }
    if let Some(line) = plain_line(value) {
        return Some(line);
    }
    let value = value.trim();
    if value.starts_with(['+', '-']) {
        value.parse::<i32>().ok().map(LocationLine::Relative)
    } else {
        value.parse::<u32>().ok().map(LocationLine::Absolute)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use quick_xml::events::attributes::Attributes;

    use super::*;

    fn plain(raw: &str) -> Option<Vec<(&str, &str)>> {
        let mut out = [("", ""); PLAIN_MAX];
        plain_attributes(raw, &mut out).map(|n| out[..n].to_vec())
    }

    /// The pairs the parser's iterator reads from `raw`, or `None` when it
    /// reports an error.
    fn parsed(raw: &str) -> Option<Vec<(&str, &str)>> {
        let mut attributes = Attributes::new(raw, 0);
        attributes.with_checks(false);
        attributes
            .map(|a| {
                a.ok().map(|a| match a.value {
                    Cow::Borrowed(v) => (a.key.0, v),
                    Cow::Owned(_) => ("owned", "owned"),
                })
            })
            .collect()
    }

    #[test]
    fn the_usual_forms_are_read_plainly() {
        assert_eq!(
            plain(" filename=\"a/b c.tpl\" line='12'"),
            Some(vec![("filename", "a/b c.tpl"), ("line", "12")])
        );
        assert_eq!(plain(""), Some(vec![]));
        assert_eq!(plain(" \t\r\n"), Some(vec![]));
        assert_eq!(plain(" a=\"1\"b='2' "), Some(vec![("a", "1"), ("b", "2")]));
        assert_eq!(
            plain(" x:y.z-w_0=\"&amp;\t\""),
            Some(vec![("x:y.z-w_0", "&amp;\t")])
        );
    }

    #[test]
    fn other_forms_are_left_to_the_parser() {
        for raw in [
            " a = \"1\"",
            " a= \"1\"",
            " a =\"1\"",
            " a=1",
            " a=\"1",
            " a",
            " =\"1\"",
            " é=\"1\"",
            " a\"=\"1\"",
            " \u{c}",
        ] {
            assert_eq!(plain(raw), None, "{raw:?}");
        }
        let many: String = (0..=PLAIN_MAX).map(|i| format!(" a{i}=\"{i}\"")).collect();
        assert_eq!(plain(&many), None);
    }

    #[test]
    fn values_needing_normalisation_are_recognised() {
        for (value, needs) in [
            ("plain value", false),
            ("a&amp;b", true),
            ("a\tb", true),
            ("a\nb", true),
            ("a\rb", true),
            ("a<b", false),
            ("a long file name.tpl", false),
            ("a long file name&amp;", true),
            ("&a long file name", true),
            ("a long file\tname", true),
            ("a long file name 12345678\n", true),
            ("a long file name\u{1}", false),
            ("ein längerer Dateiname ü", false),
        ] {
            assert_eq!(needs_normalising(value), needs, "{value:?}");
        }
    }

    #[test]
    fn lines_parse_alike_on_both_paths() {
        for (value, line) in [
            ("12", Some(LocationLine::Absolute(12))),
            ("0012", Some(LocationLine::Absolute(12))),
            ("999999999", Some(LocationLine::Absolute(999_999_999))),
            ("4294967295", Some(LocationLine::Absolute(u32::MAX))),
            ("4294967296", None),
            (" 7 ", Some(LocationLine::Absolute(7))),
            ("+3", Some(LocationLine::Relative(3))),
            ("-2", Some(LocationLine::Relative(-2))),
            ("", None),
            ("1x", None),
        ] {
            assert_eq!(parse_line(value), line, "{value:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever the plain reader accepts, the parser reads the same way.
        #[test]
        fn plain_reading_agrees_with_the_parser(parts in proptest::collection::vec(prop_oneof![
            Just(" "), Just("\t"), Just("\n"), Just("\r"), Just("\u{c}"), Just("a"), Just("line"),
            Just("filename"), Just("x:y"), Just("-"), Just("="), Just("\""), Just("'"),
            Just("&amp;"), Just("<"), Just(">"), Just("/"), Just("é"), Just("1"),
            Just(" a=\"1\""), Just(" line='+3'"), Just(" filename=\"x y&lt;\t.tpl\""),
        ], 0..24)) {
            let raw: String = parts.concat();
            if let Some(pairs) = plain(&raw) {
                prop_assert_eq!(Some(pairs), parsed(&raw), "{:?}", raw);
            }
        }
    }
}
