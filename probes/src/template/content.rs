//! Content as templates see it: a node, an object and an attribute as
//! host objects (`$node.name`, `$node.data_map.body.content`), reached
//! through the attribute names the CMS's templates use.
//!
//! A node fetches its object, attributes and children only when a template
//! asks for them, once, as the CMS's node objects do: a menu that prints
//! forty names never loads forty objects.

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::value::{Map, Object as TemplateObject, Value};
use crate::content::classes::CLASSES;
use crate::content::image::Image;
use crate::content::{Attribute, ListQuery, Node, Object};
use crate::host::ContentSource;

/// A node with the store it came from.
pub struct NodeValue {
    node: Node,
    source: Arc<dyn ContentSource>,
    object: OnceLock<Option<Arc<ObjectValue>>>,
    children: OnceLock<Value>,
}

impl NodeValue {
    pub fn value(node: Node, source: &Arc<dyn ContentSource>) -> Value {
        Value::Object(Arc::new(NodeValue {
            node,
            source: Arc::clone(source),
            object: OnceLock::new(),
            children: OnceLock::new(),
        }))
    }

    fn object(&self) -> Option<&Arc<ObjectValue>> {
        self.object
            .get_or_init(|| {
                let object = self.source.object(self.node.object_id, None).ok()??;
                Some(Arc::new(ObjectValue::new(object)))
            })
            .as_ref()
    }

    fn children(&self) -> Value {
        self.children
            .get_or_init(|| {
                let nodes = self
                    .source
                    .list(&ListQuery::children(self.node.node_id))
                    .unwrap_or_default();
                let items = nodes
                    .into_iter()
                    .map(|n| NodeValue::value(n, &self.source))
                    .collect::<Vec<_>>();
                Value::from(items)
            })
            .clone()
    }
}

const NODE_ATTRIBUTES: [&str; 21] = [
    "node_id",
    "parent_node_id",
    "contentobject_id",
    "name",
    "url_alias",
    "url",
    "path_string",
    "depth",
    "priority",
    "sort_field",
    "sort_order",
    "is_hidden",
    "is_invisible",
    "class_identifier",
    "class_name",
    "published",
    "modified",
    "owner_name",
    "object",
    "data_map",
    "children",
];

impl TemplateObject for NodeValue {
    fn attribute(&self, name: &str) -> Option<Value> {
        let n = &self.node;
        Some(match name {
            "node_id" => n.node_id.into(),
            "parent_node_id" => n.parent_node_id.into(),
            "contentobject_id" | "object_id" => n.object_id.into(),
            "name" => Value::str(&n.name),
            "url_alias" | "url" => Value::str(&n.url_alias),
            "path_string" => Value::str(&n.path_string),
            "depth" => n.depth.into(),
            "priority" => n.priority.into(),
            "sort_field" => n.sort_field.into(),
            "sort_order" => n.sort_order.into(),
            "is_hidden" => n.is_hidden.into(),
            "is_invisible" => n.is_invisible.into(),
            "class_identifier" => Value::str(&n.class_identifier),
            "class_name" => Value::str(class_name(&n.class_identifier)),
            "published" => n.published.into(),
            "modified" => n.modified.into(),
            "owner_name" => Value::from(owner_name(self.object()?.object.owner_id)),
            "object" => Value::Object(self.object()?.clone()),
            "data_map" => self.object()?.data_map(),
            "children" => self.children(),
            "children_count" => self
                .source
                .count(&ListQuery::children(n.node_id))
                .map_or(0, |c| c as i64)
                .into(),
            _ => return None,
        })
    }

    fn attribute_names(&self) -> Vec<String> {
        NODE_ATTRIBUTES.iter().map(|s| s.to_string()).collect()
    }

    fn class_name(&self) -> String {
        "eZContentObjectTreeNode".into()
    }

    fn to_text(&self) -> String {
        self.node.name.clone()
    }
}

impl fmt::Debug for NodeValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {} ({})", self.node.node_id, self.node.name)
    }
}

/// An object in one version and language.
#[derive(Debug)]
pub struct ObjectValue {
    object: Object,
    data_map: OnceLock<Value>,
}

impl ObjectValue {
    pub fn new(object: Object) -> ObjectValue {
        ObjectValue {
            object,
            data_map: OnceLock::new(),
        }
    }

    fn data_map(&self) -> Value {
        self.data_map
            .get_or_init(|| {
                let mut map = Map::with_capacity(self.object.attributes.len());
                for attribute in &self.object.attributes {
                    let value = AttributeValue::new(attribute.clone(), &self.object);
                    map.insert(
                        attribute.identifier.as_str(),
                        Value::Object(Arc::new(value)),
                    );
                }
                Value::from(map)
            })
            .clone()
    }
}

impl TemplateObject for ObjectValue {
    fn attribute(&self, name: &str) -> Option<Value> {
        let o = &self.object;
        Some(match name {
            "id" => o.id.into(),
            "name" => Value::str(&o.name),
            "class_identifier" => Value::str(&o.class_identifier),
            "class_name" => Value::str(class_name(&o.class_identifier)),
            "current_version" => o.current_version.into(),
            "current_language" => Value::str(&o.language),
            "published" => o.published.into(),
            "modified" => o.modified.into(),
            "section_id" => o.section_id.into(),
            "owner_id" => o.owner_id.into(),
            "data_map" => self.data_map(),
            _ => return None,
        })
    }

    fn attribute_names(&self) -> Vec<String> {
        [
            "id",
            "name",
            "class_identifier",
            "class_name",
            "current_version",
            "current_language",
            "published",
            "modified",
            "section_id",
            "owner_id",
            "data_map",
        ]
        .map(String::from)
        .to_vec()
    }

    fn class_name(&self) -> String {
        "eZContentObject".into()
    }

    fn to_text(&self) -> String {
        self.object.name.clone()
    }
}

/// An attribute, with its content in the shape its datatype gives it.
#[derive(Debug)]
pub struct AttributeValue {
    attribute: Attribute,
    /// The class attribute's display name ("Body").
    label: &'static str,
    content: OnceLock<Value>,
}

impl AttributeValue {
    fn new(attribute: Attribute, object: &Object) -> AttributeValue {
        let label = CLASSES
            .iter()
            .find(|c| c.identifier == object.class_identifier)
            .and_then(|c| {
                c.attributes
                    .iter()
                    .find(|(id, _, _)| *id == attribute.identifier)
            })
            .map_or("", |(_, name, _)| *name);
        AttributeValue {
            attribute,
            label,
            content: OnceLock::new(),
        }
    }

    fn content(&self) -> Value {
        self.content
            .get_or_init(|| content_of(&self.attribute))
            .clone()
    }
}

impl TemplateObject for AttributeValue {
    fn attribute(&self, name: &str) -> Option<Value> {
        let a = &self.attribute;
        Some(match name {
            "id" => a.id.into(),
            "identifier" | "contentclass_attribute_identifier" => Value::str(&a.identifier),
            "contentclass_name" => Value::str(self.label),
            "data_type" | "data_type_string" => Value::str(&a.data_type),
            "data_text" => Value::str(a.text.as_deref().unwrap_or("")),
            "data_int" => a.int.unwrap_or(0).into(),
            "sort_key_string" => Value::str(&a.sort_key_string),
            "sort_key_int" => a.sort_key_int.into(),
            "has_content" => {
                Value::from(a.text.as_deref().is_some_and(|t| !t.is_empty()) || a.int.is_some())
            }
            "content" => self.content(),
            _ => return None,
        })
    }

    fn attribute_names(&self) -> Vec<String> {
        [
            "id",
            "identifier",
            "contentclass_name",
            "data_type_string",
            "data_text",
            "data_int",
            "has_content",
            "content",
        ]
        .map(String::from)
        .to_vec()
    }

    fn class_name(&self) -> String {
        "eZContentObjectAttribute".into()
    }

    fn to_text(&self) -> String {
        self.content().to_text().into_owned()
    }
}

/// An attribute's `content`: text, rendered rich text, a date, keywords,
/// or an image with its aliases.
fn content_of(a: &Attribute) -> Value {
    let text = a.text.as_deref().unwrap_or("");
    match a.data_type.as_str() {
        "ezxmltext" => Value::from(xml_to_html(text)),
        "ezdatetime" | "ezinteger" => a.int.unwrap_or(0).into(),
        "ezkeyword" => Value::from(
            text.split(',')
                .map(|k| Value::str(k.trim()))
                .filter(|v| !v.to_text().is_empty())
                .collect::<Vec<_>>(),
        ),
        "ezimage" => Image::parse(text).map_or(Value::Null, |image| image_value(&image)),
        _ => Value::str(text),
    }
}

/// Stored rich text as the page shows it: paragraphs become `<p>`.
pub fn xml_to_html(xml: &str) -> String {
    let body = xml
        .find("<section")
        .and_then(|at| xml[at..].find('>').map(|end| &xml[at + end + 1..]))
        .unwrap_or(xml);
    let body = body.trim_end().trim_end_matches("</section>");
    body.replace("<paragraph>", "<p>")
        .replace("</paragraph>", "</p>")
}

/// An image: the original's `url`, `width`, `height` and `alt` at the top,
/// and each alias under its name.
fn image_value(image: &Image) -> Value {
    let mut map = Map::with_capacity(5 + image.aliases.len());
    map.insert("url", Value::str(&image.original.url));
    map.insert("width", (image.original.width as i64).into());
    map.insert("height", (image.original.height as i64).into());
    map.insert("alt", Value::str(&image.alternative_text));
    map.insert("mime_type", Value::str(&image.original.mime_type));
    for alias in &image.aliases {
        let mut a = Map::with_capacity(3);
        a.insert("url", Value::str(&alias.url));
        a.insert("width", (alias.width as i64).into());
        a.insert("height", (alias.height as i64).into());
        map.insert(alias.name.as_str(), Value::from(a));
    }
    Value::from(map)
}

fn class_name(identifier: &str) -> &'static str {
    CLASSES
        .iter()
        .find(|c| c.identifier == identifier)
        .map_or("", |c| c.name)
}

/// The display name of a user: the administrator is 14, as in the CMS.
fn owner_name(id: i64) -> String {
    if id == 14 {
        "Administrator User".into()
    } else {
        format!("Editor {}", id - 14)
    }
}
