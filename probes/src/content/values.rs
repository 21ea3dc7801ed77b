//! One object's rows as the generator draws them: the object, its
//! versions, and each attribute's value by its datatype (text, rich text,
//! an image with its aliases, a date, keywords).

use super::classes::{self, CLASSES, IMAGE, IMAGE_ALIASES};
use super::image::alias_key;
use super::words::{self, Rng};
use rusqlite::{Transaction, params};

/// 2020-01-01T00:00:00Z: the oldest publication.
const EPOCH: u64 = 1_577_836_800;
const DAY: u64 = 86_400;

/// 32 hex digits, as the CMS's remote ids look.
pub fn remote_id(rng: &mut Rng) -> String {
    format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64())
}

/// An object drawn for a node.
pub struct Object {
    pub id: i64,
    pub class: usize,
    pub name: String,
    pub current_version: i64,
    pub translated: bool,
    pub published: i64,
    pub modified: i64,
    remote_id: String,
    owner: i64,
}

/// Where one version's attributes in one language go.
pub struct Target<'a> {
    pub version: i64,
    pub language: &'a str,
    /// The id of the first attribute row.
    pub first_attribute: i64,
    /// The node's path identification, for image paths.
    pub path: &'a str,
}

impl Object {
    /// Draws object `id` of `class`, named `name`.
    pub fn draw(rng: &mut Rng, id: i64, class: usize, name: &str) -> Object {
        let current_version = match rng.below(10) {
            0..=5 => 1,
            6..=8 => 2,
            _ => 3,
        };
        let published = EPOCH + rng.below(6 * 365 * DAY);
        let modified = published + rng.below(90 * DAY);
        Object {
            id,
            class,
            name: name.to_string(),
            current_version,
            translated: rng.chance(25),
            published: published as i64,
            modified: modified as i64,
            remote_id: remote_id(rng),
            owner: 14 + rng.below(6) as i64,
        }
    }

    pub fn insert(&self, tx: &Transaction) -> rusqlite::Result<()> {
        let section = if self.class == IMAGE { 3 } else { 1 };
        tx.prepare_cached(
            "INSERT INTO content_object VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'eng-GB', ?7, ?8, ?9)",
        )?
        .execute(params![
            self.id,
            CLASSES[self.class].id,
            self.name,
            section,
            self.owner,
            self.current_version,
            self.published,
            self.modified,
            self.remote_id
        ])?;
        Ok(())
    }

    /// Version `version`: published if current, else archived.
    pub fn insert_version(
        &self,
        tx: &Transaction,
        version: i64,
        translated: bool,
    ) -> rusqlite::Result<()> {
        let status = if version == self.current_version {
            1
        } else {
            3
        };
        let created = self.published + (version - 1) * DAY as i64;
        let languages = if translated {
            "eng-GB,ger-DE"
        } else {
            "eng-GB"
        };
        tx.prepare_cached(
            "INSERT INTO content_object_version \
             (object_id, version, status, creator_id, created, modified, languages) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)",
        )?
        .execute(params![
            self.id, version, status, self.owner, created, languages
        ])?;
        Ok(())
    }

    /// Every attribute of one version in one language; returns the rows
    /// written.
    pub fn insert_attributes(
        &self,
        tx: &Transaction,
        rng: &mut Rng,
        at: Target,
    ) -> rusqlite::Result<i64> {
        let mut statement = tx.prepare_cached(
            "INSERT INTO content_object_attribute VALUES \
             (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL, ?9, ?10)",
        )?;
        let attributes = CLASSES[self.class].attributes;
        for (placement, (identifier, _, data_type)) in attributes.iter().enumerate() {
            let id = at.first_attribute + placement as i64;
            let value = self.value(rng, identifier, data_type, id, &at);
            statement.execute(params![
                id,
                self.id,
                at.version,
                at.language,
                classes::attribute_id(self.class, placement),
                data_type,
                value.text,
                value.int,
                value.sort_string,
                value.sort_int
            ])?;
        }
        Ok(attributes.len() as i64)
    }

    fn value(
        &self,
        rng: &mut Rng,
        identifier: &str,
        data_type: &str,
        id: i64,
        at: &Target,
    ) -> Value {
        match data_type {
            "ezstring" => {
                let text = if at.language == "ger-DE" {
                    format!("{} (DE)", self.name)
                } else {
                    self.name.clone()
                };
                Value::text(text)
            }
            "ezxmltext" => {
                let paragraphs = match identifier {
                    "body" => rng.between(2, 6),
                    "description" => rng.between(1, 3),
                    _ => 1,
                };
                Value::unsorted(words::xml_text(rng, paragraphs))
            }
            "ezimage" => Value::unsorted(self.image(rng, id, at)),
            "ezdatetime" => Value::date(self.published),
            _ => {
                let tags: Vec<String> = (0..rng.between(1, 4))
                    .map(|_| words::title(rng, 1).to_lowercase())
                    .collect();
                Value::unsorted(tags.join(", "))
            }
        }
    }

    /// An image attribute as the CMS stores it: the original and the
    /// aliases made so far, each under the key of its filters.
    fn image(&self, rng: &mut Rng, attribute: i64, at: &Target) -> String {
        let base = match words::slug(&self.name) {
            s if s.is_empty() => "image".to_string(),
            s => s,
        };
        let dir = format!(
            "var/site/storage/images/{}/{attribute}-{}-{}",
            at.path, at.version, at.language
        );
        let (width, height) = (rng.between(640, 4000), rng.between(480, 3000));
        let mut xml = format!(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<ezimage serial_number=\"1\" is_valid=\"1\" \
             filename=\"{base}.jpg\" suffix=\"jpg\" basename=\"{base}\" dirpath=\"{dir}\" \
             url=\"{dir}/{base}.jpg\" original_filename=\"{base}.jpg\" mime_type=\"image/jpeg\" \
             width=\"{width}\" height=\"{height}\" alternative_text=\"{}\" alias_key=\"1293033771\" \
             timestamp=\"{}\">\n<original attribute_id=\"{attribute}\" attribute_version=\"{}\" \
             attribute_language=\"{}\"/>\n",
            self.name, self.modified, at.version, at.language
        );
        for (name, filters) in IMAGE_ALIASES {
            if !rng.chance(if name == "reference" { 80 } else { 40 }) {
                continue;
            }
            let key = alias_key(name, filters);
            let scale = rng.between(20, 90);
            xml.push_str(&format!(
                "<alias name=\"{name}\" filename=\"{base}_{name}.jpg\" suffix=\"jpg\" \
                 dirpath=\"{dir}\" url=\"{dir}/{base}_{name}.jpg\" mime_type=\"image/jpeg\" \
                 width=\"{}\" height=\"{}\" alias_key=\"{key}\" timestamp=\"{}\" is_valid=\"1\"/>\n",
                width * scale / 100,
                height * scale / 100,
                self.modified
            ));
        }
        xml.push_str("</ezimage>\n");
        xml
    }
}

/// An attribute's stored columns.
struct Value {
    text: Option<String>,
    int: Option<i64>,
    sort_string: String,
    sort_int: i64,
}

impl Value {
    fn text(text: String) -> Value {
        let sort_string: String = text.to_lowercase().chars().take(255).collect();
        Value {
            text: Some(text),
            int: None,
            sort_string,
            sort_int: 0,
        }
    }

    /// Rich text, images and keywords, which lists do not sort by.
    fn unsorted(text: String) -> Value {
        Value {
            text: Some(text),
            int: None,
            sort_string: String::new(),
            sort_int: 0,
        }
    }

    fn date(timestamp: i64) -> Value {
        Value {
            text: None,
            int: Some(timestamp),
            sort_string: String::new(),
            sort_int: timestamp,
        }
    }
}
