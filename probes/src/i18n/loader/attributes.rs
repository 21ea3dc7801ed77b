//! Attributes: read in one pass per tag, with the format's checks on the
//! values of `location` and `byte`.

use quick_xml::XmlVersion;
use quick_xml::events::BytesStart;

use super::elements::Elem;
use super::{Loader, span_from};
use crate::i18n::catalogue::{Location, LocationLine, Span};
use crate::i18n::error::{ErrorKind, LoadError};

impl<'a> Loader<'a> {
    /// Calls `f` with the name and value (entities resolved) of each
    /// attribute of `e` named in `keys`, in one pass over the attributes.
    fn each_attribute(
        &mut self,
        e: &BytesStart<'a>,
        at: usize,
        keys: &[&str],
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
                return self.each_attribute_checked(e, at, keys, f);
            }
            if seen[..count].contains(&key) {
                let kind = ErrorKind::NotXml(format!("attribute `{key}` is repeated"));
                return Err(self.error(at, kind));
            }
            seen[count] = key;
            if keys.contains(&key) {
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
        keys: &[&str],
        mut f: impl FnMut(&mut Self, &str, &str) -> Result<(), LoadError>,
    ) -> Result<(), LoadError> {
        for attr in e.attributes() {
            let attr = attr.map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))?;
            let key = attr.key.as_ref();
            if keys.contains(&key) {
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
        self.each_attribute(e, at, &[key], |this, _, value| {
            if let Some(f) = f.take() {
                result = Some(f(this, value));
            }
            Ok(())
        })?;
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
        let mut file = Span::default();
        let mut line = LocationLine::None;
        self.each_attribute(e, at, &["filename", "line"], |this, key, value| {
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

/// `12` is an absolute line; `+3` or `-2` is relative to the previous one.
fn parse_line(value: &str) -> Option<LocationLine> {
    let value = value.trim();
    if value.starts_with(['+', '-']) {
        value.parse::<i32>().ok().map(LocationLine::Relative)
    } else {
        value.parse::<u32>().ok().map(LocationLine::Absolute)
    }
}
