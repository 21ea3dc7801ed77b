//! An image attribute as the CMS stores it: an XML document naming the
//! original file and every alias made from it so far (`reference`,
//! `small`, ...), each with the key of the filters it was made with; and
//! the alias definitions of the site's image settings, by which an
//! existing alias is found. Nothing here scales an image: a lookup finds
//! an alias made before, or says there is none.

use crate::settings::{Settings, Value};
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

/// The key an alias is stored under: a hash of its name and filters, so
/// that an alias made with other filters is not taken for this one (the
/// CMS uses a CRC32 of the same text; FNV-1a keeps it dependency-free and
/// stable).
pub fn alias_key<S: AsRef<str>>(name: &str, filters: &[S]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let mut eat = |bytes: &[u8]| {
        for byte in bytes {
            hash ^= u32::from(*byte);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    };
    eat(name.as_bytes());
    for filter in filters {
        eat(b"\n");
        eat(filter.as_ref().as_bytes());
    }
    hash
}

/// One alias as the image settings define it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AliasDefinition {
    pub name: String,
    /// The alias it is made from (`reference`), if any.
    pub reference: Option<String>,
    pub filters: Vec<String>,
    /// [`alias_key`] of its name and filters.
    pub key: u32,
}

/// Every alias an image settings file (`image.ini`, merged with its
/// overrides) lists in `[AliasSettings] AliasList`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AliasDefinitions(Vec<AliasDefinition>);

impl AliasDefinitions {
    /// The definitions `image` holds; an alias listed without a group of
    /// its own is an error naming it.
    pub fn from_settings(image: &Settings) -> Result<AliasDefinitions, String> {
        let Some(Value::Array(names)) = image.variable("AliasSettings", "AliasList") else {
            return Err("image settings: no [AliasSettings] AliasList[]".into());
        };
        let mut out = Vec::with_capacity(names.len());
        for name in names {
            if !image.has_group(name) {
                return Err(format!(
                    "image settings: alias `{name}` has no [{name}] group"
                ));
            }
            let filters = match image.variable(name, "Filters") {
                Some(Value::Array(f)) => f.clone(),
                _ => Vec::new(),
            };
            let reference = match image.variable(name, "Reference") {
                Some(Value::Scalar(r)) if !r.is_empty() => Some(r.clone()),
                _ => None,
            };
            out.push(AliasDefinition {
                key: alias_key(name, &filters),
                name: name.clone(),
                reference,
                filters,
            });
        }
        Ok(AliasDefinitions(out))
    }

    /// The definition of alias `name`.
    pub fn get(&self, name: &str) -> Option<&AliasDefinition> {
        self.0.iter().find(|a| a.name == name)
    }

    /// How many aliases there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The alias `definition` of the image stored as `xml`, if it was made
/// with the definition's filters; the error says why `xml` is no image.
pub fn lookup(xml: &str, definition: &AliasDefinition) -> Result<Option<Variation>, String> {
    let image = Image::parse(xml)?;
    Ok(image
        .alias(&definition.name, u64::from(definition.key))
        .cloned())
}

/// One stored variation of an image: the original, or an alias.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Variation {
    /// `original`, or the alias's name.
    pub name: String,
    pub url: String,
    pub width: u64,
    pub height: u64,
    pub mime_type: String,
    /// The key of the filters the alias was made with.
    pub alias_key: u64,
}

/// An image attribute's stored content.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Image {
    pub original: Variation,
    pub alternative_text: String,
    /// The aliases made so far, in stored order.
    pub aliases: Vec<Variation>,
}

impl Image {
    /// Reads an image attribute's XML; the error says what is wrong.
    pub fn parse(xml: &str) -> Result<Image, String> {
        let mut reader = Reader::from_str(xml);
        let mut image = None::<Image>;
        loop {
            match reader.read_event() {
                Ok(Event::Start(e)) | Ok(Event::Empty(e)) => match e.name().as_ref() {
                    "ezimage" => {
                        let original = variation(&e, "original")?;
                        let alternative_text = attribute(&e, "alternative_text")?;
                        image = Some(Image {
                            original,
                            alternative_text,
                            aliases: Vec::new(),
                        });
                    }
                    "alias" => {
                        let Some(image) = image.as_mut() else {
                            return Err("an <alias> outside <ezimage>".into());
                        };
                        let name = attribute(&e, "name")?;
                        image.aliases.push(variation(&e, &name)?);
                    }
                    _ => {}
                },
                Ok(Event::Eof) => break,
                Ok(_) => {}
                Err(e) => return Err(format!("not image XML: {e}")),
            }
        }
        image.ok_or_else(|| "no <ezimage> element".to_string())
    }

    /// The alias `name` made with the filters whose key is `key`: an
    /// alias of that name made with other filters is stale and not it.
    pub fn alias(&self, name: &str, key: u64) -> Option<&Variation> {
        self.aliases
            .iter()
            .find(|a| a.name == name && a.alias_key == key)
    }
}

fn attribute(e: &BytesStart, name: &str) -> Result<String, String> {
    for attr in e.attributes().with_checks(false) {
        let attr = attr.map_err(|e| format!("not image XML: {e}"))?;
        if attr.key.as_ref() == name {
            let value = attr
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|e| format!("attribute `{name}`: {e}"))?;
            return Ok(value.into_owned());
        }
    }
    Ok(String::new())
}

fn number(e: &BytesStart, name: &str) -> Result<u64, String> {
    let text = attribute(e, name)?;
    if text.is_empty() {
        return Ok(0);
    }
    text.parse()
        .map_err(|_| format!("attribute `{name}` is not a number: `{text}`"))
}

fn variation(e: &BytesStart, name: &str) -> Result<Variation, String> {
    Ok(Variation {
        name: name.to_string(),
        url: attribute(e, "url")?,
        width: number(e, "width")?,
        height: number(e, "height")?,
        mime_type: attribute(e, "mime_type")?,
        alias_key: number(e, "alias_key")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const XML: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<ezimage serial_number="1" is_valid="1" url="a/b.jpg" mime_type="image/jpeg" width="800" height="600" alternative_text="A &amp; B" alias_key="1">
<original attribute_id="7" attribute_version="1" attribute_language="eng-GB"/>
<alias name="small" url="a/b_small.jpg" width="100" height="75" alias_key="42"/>
<alias name="medium" url="a/b_medium.jpg" width="200" height="150" alias_key="43"/>
</ezimage>"#;

    #[test]
    fn the_original_and_its_aliases_are_read() {
        let image = Image::parse(XML).unwrap();
        assert_eq!(image.original.url, "a/b.jpg");
        assert_eq!((image.original.width, image.original.height), (800, 600));
        assert_eq!(image.alternative_text, "A & B");
        assert_eq!(image.aliases.len(), 2);
        assert_eq!(image.alias("small", 42).map(|a| a.width), Some(100));
        // The same name made with other filters is not the alias asked for.
        assert_eq!(image.alias("small", 43), None);
        assert_eq!(image.alias("large", 42), None);
    }

    #[test]
    fn what_is_not_an_image_is_an_error() {
        assert!(Image::parse("").is_err());
        assert!(Image::parse("<alias name='x'/>").is_err());
        assert!(Image::parse("<ezimage width='wide'/>").is_err());
    }

    #[test]
    fn definitions_come_from_the_settings_and_find_their_alias() {
        let ini = "[AliasSettings]\nAliasList[]\nAliasList[]=reference\nAliasList[]=small\n\
                   [reference]\nFilters[]\n\
                   [small]\nReference=reference\nFilters[]\nFilters[]=geometry/scaledownonly=100;100\n";
        let defs = AliasDefinitions::from_settings(&Settings::parse_str("image.ini", ini)).unwrap();
        assert_eq!(defs.len(), 2);
        let small = defs.get("small").unwrap();
        assert_eq!(small.reference.as_deref(), Some("reference"));
        assert_eq!(
            small.key,
            alias_key("small", &["geometry/scaledownonly=100;100"])
        );
        let xml = XML.replace("alias_key=\"42\"", &format!("alias_key=\"{}\"", small.key));
        assert_eq!(lookup(&xml, small).unwrap().map(|v| v.width), Some(100));
        // Made with other filters: not this alias.
        assert_eq!(lookup(XML, small).unwrap(), None);
        let missing = "[AliasSettings]\nAliasList[]=ghost\n";
        let e = AliasDefinitions::from_settings(&Settings::parse_str("image.ini", missing))
            .unwrap_err();
        assert!(e.contains("ghost"), "{e}");
    }

    proptest! {
        #[test]
        fn parsing_never_panics(s in "\\PC{0,200}") {
            let _ = Image::parse(&s);
        }

        #[test]
        fn parsing_tag_soup_never_panics(s in "[<>a-z=\"/ &;]{0,120}") {
            let _ = Image::parse(&s);
        }
    }
}
