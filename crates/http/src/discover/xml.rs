//! What the site documents' readers share of quick-xml: element names
//! without their namespace prefix, attributes, references and errors in a
//! few words.

use quick_xml::XmlVersion;
use quick_xml::events::{BytesRef, BytesStart};

/// The deepest elements may nest. A sitemap needs four levels (`urlset`,
/// `url`, `image:image`, `image:loc`), an OpenSearch description three;
/// quick-xml keeps every open element's name to check its end, so a
/// document of millions of nested elements would hold them all (16 M took
/// 1.12 GB before this bound).
pub(super) const MAX_DEPTH: usize = 64;

/// The error for an element opened `MAX_DEPTH` deep, at byte `at`.
pub(super) fn too_deep(at: u64) -> String {
    format!("elements nested more than {MAX_DEPTH} deep at byte {at}")
}

/// An element's local name: sitemaps and OpenSearch descriptions are
/// read by name alone, whatever prefix their namespace is bound to.
pub(super) fn name(e: &BytesStart<'_>) -> String {
    e.local_name().as_ref().to_string()
}

/// The value of attribute `name` of `e` (by local name), if present and
/// well-formed.
pub(super) fn attribute(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .and_then(|a| a.normalized_value(XmlVersion::Implicit1_0).ok())
        .map(|v| v.into_owned())
}

/// The character a reference in text stands for: one of XML's five
/// entities or a character reference.
pub(super) fn reference(r: &BytesRef<'_>) -> Result<char, String> {
    match r.resolve_char_ref() {
        Ok(Some(c)) => Ok(c),
        Ok(None) => match &**r {
            "lt" => Ok('<'),
            "gt" => Ok('>'),
            "amp" => Ok('&'),
            "apos" => Ok('\''),
            "quot" => Ok('"'),
            other => Err(format!(
                "not XML: the entity &{}; is not defined",
                quoted(other)
            )),
        },
        Err(e) => Err(format!("not XML: {e}")),
    }
}

/// A parser error in a few words, with the byte it was found at.
pub(super) fn error(e: &quick_xml::Error, at: u64) -> String {
    format!("not XML: {} (at byte {at})", quoted(&e.to_string()))
}

/// The longest piece of a document an error quotes, in characters: a
/// peer's element name or template can be megabytes long.
const QUOTED: usize = 100;

/// `text` as an error quotes it: cut to [`QUOTED`] characters.
pub(super) fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}
