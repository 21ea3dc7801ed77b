//! The content classes the generator fills the store with: a site's usual
//! handful, each with its typed attributes in placement order.

/// An attribute of a class: identifier, name and datatype.
pub type ClassAttribute = (&'static str, &'static str, &'static str);

/// A content class.
pub struct Class {
    /// Its id in `content_class`.
    pub id: i64,
    pub identifier: &'static str,
    pub name: &'static str,
    /// Whether its nodes hold children.
    pub is_container: bool,
    pub attributes: &'static [ClassAttribute],
}

pub const FRONTPAGE: usize = 0;
pub const FOLDER: usize = 1;
pub const ARTICLE: usize = 2;
pub const IMAGE: usize = 3;
pub const BLOG_POST: usize = 4;

/// Every class, indexed by the constants above.
pub const CLASSES: [Class; 5] = [
    Class {
        id: 1,
        identifier: "frontpage",
        name: "Frontpage",
        is_container: true,
        attributes: &[
            ("name", "Name", "ezstring"),
            ("description", "Description", "ezxmltext"),
        ],
    },
    Class {
        id: 2,
        identifier: "folder",
        name: "Folder",
        is_container: true,
        attributes: &[
            ("name", "Name", "ezstring"),
            ("short_description", "Summary", "ezxmltext"),
            ("description", "Description", "ezxmltext"),
        ],
    },
    Class {
        id: 3,
        identifier: "article",
        name: "Article",
        is_container: false,
        attributes: &[
            ("title", "Title", "ezstring"),
            ("intro", "Intro", "ezxmltext"),
            ("body", "Body", "ezxmltext"),
            ("image", "Image", "ezimage"),
            ("publish_date", "Publish date", "ezdatetime"),
        ],
    },
    Class {
        id: 4,
        identifier: "image",
        name: "Image",
        is_container: false,
        attributes: &[
            ("name", "Name", "ezstring"),
            ("caption", "Caption", "ezxmltext"),
            ("image", "Image", "ezimage"),
        ],
    },
    Class {
        id: 5,
        identifier: "blog_post",
        name: "Blog post",
        is_container: false,
        attributes: &[
            ("title", "Title", "ezstring"),
            ("body", "Body", "ezxmltext"),
            ("tags", "Tags", "ezkeyword"),
            ("publication_date", "Publication date", "ezdatetime"),
        ],
    },
];

/// The id of a class's `placement`-th attribute (0-based): attribute ids
/// run through the classes in order.
pub fn attribute_id(class: usize, placement: usize) -> i64 {
    let before: usize = CLASSES[..class].iter().map(|c| c.attributes.len()).sum();
    (before + placement + 1) as i64
}

/// The image aliases an image attribute may already have, each with the
/// filters it was made with: the fixture site's image settings
/// (`image.ini` with its override, which keeps the reference image
/// unfiltered). `kernel`'s tests check that they still agree.
pub const IMAGE_ALIASES: [(&str, &[&str]); 5] = [
    ("reference", &[]),
    ("small", &["geometry/scaledownonly=100;100", "strip"]),
    ("medium", &["geometry/scaledownonly=200;200"]),
    ("large", &["geometry/scaledownonly=300;300"]),
    ("rss", &["geometry/scaledownonly=88;31"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_ids_run_through_the_classes() {
        assert_eq!(attribute_id(FRONTPAGE, 0), 1);
        assert_eq!(attribute_id(FOLDER, 0), 3);
        assert_eq!(attribute_id(ARTICLE, 3), 9);
        assert_eq!(attribute_id(BLOG_POST, 3), 17);
    }
}
