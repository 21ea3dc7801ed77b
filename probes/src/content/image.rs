//! An image attribute as the CMS stores it: an XML document naming the
//! original file and every alias made from it so far (`reference`,
//! `small`, ...), each with the key of the filters it was made with.

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

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
