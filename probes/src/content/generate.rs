//! The seeded generator: a site's content built into a fresh SQLite file.
//!
//! One seed gives one database, byte for byte in its rows (the checksum in
//! `checksum.rs` pins it): a front page, a menu of six folders under it, and
//! then folders, articles, images and blog posts placed under a random
//! container until the tree has its nodes, never deeper than its depth.
//! Objects have one to three versions (the older ones archived, with their
//! attributes), a quarter are translated, and every node has a URL alias,
//! some an old one beside it, as a renamed page leaves.
//!
//! The file is built under a temporary name beside the target and renamed
//! into place once complete, so a reader never meets half a store.

use super::ContentError;
use super::classes::{self, ARTICLE, BLOG_POST, CLASSES, FOLDER, FRONTPAGE, IMAGE};
use super::schema;
use super::values;
use super::words::{self, Rng};
use rusqlite::{Connection, Transaction, params};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Nodes in the tree, the root and the front page included.
    pub nodes: u64,
    /// The deepest node's depth (the root is 0, the front page 1).
    pub depth: u64,
    /// The seed of every random choice.
    pub seed: u64,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape {
            nodes: 10_000,
            depth: 6,
            seed: 1,
        }
    }
}

/// What a generation wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Generated {
    pub nodes: u64,
    pub objects: u64,
    pub attributes: u64,
    pub aliases: u64,
}

/// The generator's version: bumped with any change to what a seed
/// generates (the checksum test in `tests/content.rs` fails until the pin
/// is renewed), so that a store built by an older generator is never
/// taken for a new one (see `kernel::fixture`).
pub const GENERATOR: u32 = 2;

/// The menu under the front page.
const MENU: [&str; 6] = ["News", "Products", "About Us", "Blog", "Events", "Media"];

/// The front page's node.
pub const FRONT_PAGE: i64 = 2;

/// Builds the store of `shape` at `path`, replacing any file there only
/// once the new one is complete.
pub fn generate(path: &Path, shape: &Shape) -> Result<Generated, ContentError> {
    if shape.nodes < 2 + MENU.len() as u64 || !(3..=32).contains(&shape.depth) {
        return Err(ContentError::new(format!(
            "content size: {} nodes of depth {} cannot hold a front page and its menu \
             (at least 8 nodes, depth 3 to 32)",
            shape.nodes, shape.depth
        )));
    }
    // A temporary file of its own beside the target (even when threads of
    // one process build the same store at once), synced and renamed.
    yardstick_probe::fs::replace_with(
        path,
        yardstick_probe::fs::Durability::Synced,
        |temp: &Path| build(temp, shape).map_err(Failed::Build),
    )
    .map_err(|e| match e {
        Failed::Build(e) => e,
        Failed::Write(e) => ContentError::new(format!("{}: cannot write: {e}", path.display())),
    })
}

/// Why a store was not made: its build, or saving the file.
enum Failed {
    Build(ContentError),
    Write(std::io::Error),
}

impl From<std::io::Error> for Failed {
    fn from(e: std::io::Error) -> Failed {
        Failed::Write(e)
    }
}

fn build(path: &Path, shape: &Shape) -> Result<Generated, ContentError> {
    let at = |e: rusqlite::Error| ContentError::sql(path, e);
    let mut conn = Connection::open(path).map_err(at)?;
    // Built once and renamed into place: no journal is needed.
    conn.execute_batch("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
        .map_err(at)?;
    conn.execute_batch(schema::SCHEMA).map_err(at)?;
    conn.pragma_update(None, "user_version", schema::VERSION)
        .map_err(at)?;
    let tx = conn.transaction().map_err(at)?;
    let generated = Builder::new(&tx, shape).run().map_err(at)?;
    tx.commit().map_err(at)?;
    // The planner's statistics, as a live site's database has them.
    conn.execute_batch("ANALYZE;").map_err(at)?;
    Ok(generated)
}

/// A node placed in the tree, as its children need it.
struct Placed {
    node_id: i64,
    depth: u64,
    path_string: String,
    path_identification: String,
    /// Its URL alias element; `None` for the root and the front page,
    /// whose URL is `/`.
    alias: Option<i64>,
    invisible: bool,
}

struct Builder<'a> {
    tx: &'a Transaction<'a>,
    rng: Rng,
    shape: Shape,
    placed: Vec<Placed>,
    /// Indexes into `placed` of the containers that may take children.
    containers: Vec<usize>,
    /// Alias texts taken under each alias parent.
    taken: HashMap<i64, HashSet<String>>,
    next_alias: i64,
    next_attribute: i64,
    made: Generated,
}

impl<'a> Builder<'a> {
    fn new(tx: &'a Transaction<'a>, shape: &Shape) -> Builder<'a> {
        Builder {
            tx,
            rng: Rng::new(shape.seed),
            shape: *shape,
            placed: Vec::new(),
            containers: Vec::new(),
            taken: HashMap::new(),
            next_alias: 1,
            next_attribute: 1,
            made: Generated::default(),
        }
    }

    fn run(mut self) -> rusqlite::Result<Generated> {
        self.classes()?;
        self.root()?;
        let front = self.place(0, FRONTPAGE, "Home")?;
        for name in MENU {
            self.place(front, FOLDER, name)?;
        }
        while self.made.nodes < self.shape.nodes {
            let parent = *self.rng.pick(&self.containers);
            let leaf_only = self.placed[parent].depth + 1 >= self.shape.depth;
            let class = self.pick_class(leaf_only);
            let words = self.rng.between(2, 5);
            let name = words::title(&mut self.rng, words);
            self.place(parent, class, &name)?;
        }
        Ok(self.made)
    }

    fn pick_class(&mut self, leaf_only: bool) -> usize {
        let roll = self.rng.below(100);
        match roll {
            0..=11 if !leaf_only => FOLDER,
            0..=54 => ARTICLE,
            55..=79 => IMAGE,
            _ => BLOG_POST,
        }
    }

    fn classes(&mut self) -> rusqlite::Result<()> {
        for (index, class) in CLASSES.iter().enumerate() {
            self.tx.execute(
                "INSERT INTO content_class VALUES (?1, ?2, ?3, ?4)",
                params![class.id, class.identifier, class.name, class.is_container],
            )?;
            for (placement, (identifier, name, data_type)) in class.attributes.iter().enumerate() {
                self.tx.execute(
                    "INSERT INTO content_class_attribute VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        classes::attribute_id(index, placement),
                        class.id,
                        identifier,
                        name,
                        data_type,
                        placement as i64 + 1
                    ],
                )?;
            }
        }
        Ok(())
    }

    /// Node 1, the tree's root, which holds no object.
    fn root(&mut self) -> rusqlite::Result<()> {
        self.tx.execute(
            "INSERT INTO content_node VALUES (1, 0, 0, 1, '/1/', '', 0, 0, 1, 1, 0, 0, 0, ?1)",
            [values::remote_id(&mut self.rng)],
        )?;
        self.placed.push(Placed {
            node_id: 1,
            depth: 0,
            path_string: "/1/".into(),
            path_identification: String::new(),
            alias: None,
            invisible: false,
        });
        self.made.nodes = 1;
        Ok(())
    }

    /// Places an object of `class` named `name` under `placed[parent]`,
    /// with its node and alias; returns the new node's index.
    fn place(&mut self, parent: usize, class: usize, name: &str) -> rusqlite::Result<usize> {
        let node_id = self.placed.len() as i64 + 1;
        let depth = self.placed[parent].depth + 1;
        let alias = if node_id == FRONT_PAGE {
            None
        } else {
            Some(self.alias(parent, node_id, name)?)
        };
        let parent_row = &self.placed[parent];
        let alias_text = match alias {
            Some((_, ref text)) => text.clone(),
            None => String::new(),
        };
        let path_identification = if parent_row.path_identification.is_empty() {
            alias_text
        } else {
            format!("{}/{alias_text}", parent_row.path_identification)
        };
        let hidden = depth > 2 && self.rng.chance(2);
        let placed = Placed {
            node_id,
            depth,
            path_string: format!("{}{node_id}/", parent_row.path_string),
            path_identification,
            alias: alias.map(|(id, _)| id),
            invisible: hidden || parent_row.invisible,
        };
        let parent_id = parent_row.node_id;
        let object_id = self.object(class, name, &placed)?;
        self.node(&placed, parent_id, object_id, class, hidden)?;
        if CLASSES[class].is_container && depth < self.shape.depth {
            self.containers.push(self.placed.len());
        }
        self.placed.push(placed);
        self.made.nodes += 1;
        Ok(self.placed.len() - 1)
    }

    fn node(
        &mut self,
        node: &Placed,
        parent: i64,
        object: i64,
        class: usize,
        hidden: bool,
    ) -> rusqlite::Result<()> {
        let priority = if self.rng.chance(50) {
            0
        } else {
            self.rng.below(100) as i64
        };
        let sort_field = if CLASSES[class].is_container {
            *self.rng.pick(&[1i64, 2, 8, 9])
        } else {
            1
        };
        let sort_order = i64::from(self.rng.chance(70));
        let remote = values::remote_id(&mut self.rng);
        let modified: i64 = self.tx.query_row(
            "SELECT modified FROM content_object WHERE id = ?1",
            [object],
            |r| r.get(0),
        )?;
        self.tx
            .prepare_cached(
                "INSERT INTO content_node VALUES \
                 (?1, ?2, ?3, ?1, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?
            .execute(params![
                node.node_id,
                parent,
                object,
                node.path_string,
                node.path_identification,
                node.depth as i64,
                priority,
                sort_field,
                sort_order,
                hidden,
                node.invisible,
                modified,
                remote
            ])?;
        Ok(())
    }

    /// The node's URL alias element under its parent's, unique among its
    /// siblings (a repeated name gets a number, as the CMS gives it), and
    /// now and then an old one beside it. Returns the element and its text.
    fn alias(
        &mut self,
        parent: usize,
        node_id: i64,
        name: &str,
    ) -> rusqlite::Result<(i64, String)> {
        let under = self.placed[parent].alias.unwrap_or(0);
        let action = format!("eznode:{node_id}");
        let text = self.unique(under, &words::slug(name));
        let id = self.insert_alias(under, &text, &action, true)?;
        if self.rng.chance(5) {
            let old_name = words::title(&mut self.rng, 2);
            let old = self.unique(under, &words::slug(&old_name));
            self.insert_alias(under, &old, &action, false)?;
        }
        Ok((id, text))
    }

    fn unique(&mut self, under: i64, slug: &str) -> String {
        let taken = self.taken.entry(under).or_default();
        let mut text = slug.to_string();
        let mut n = 2;
        while taken.contains(&text) {
            text = format!("{slug}{n}");
            n += 1;
        }
        taken.insert(text.clone());
        text
    }

    fn insert_alias(
        &mut self,
        parent: i64,
        text: &str,
        action: &str,
        original: bool,
    ) -> rusqlite::Result<i64> {
        let id = self.next_alias;
        self.next_alias += 1;
        self.tx
            .prepare_cached("INSERT INTO url_alias VALUES (?1, ?2, ?3, ?4, 3, ?5)")?
            .execute(params![id, parent, text, action, original])?;
        self.made.aliases += 1;
        Ok(id)
    }

    /// The object of a node: its row, its versions and each version's
    /// attributes per language.
    fn object(&mut self, class: usize, name: &str, node: &Placed) -> rusqlite::Result<i64> {
        let id = self.made.objects as i64 + 1;
        self.made.objects += 1;
        let object = values::Object::draw(&mut self.rng, id, class, name);
        object.insert(self.tx)?;
        for version in 1..=object.current_version {
            let current = version == object.current_version;
            let translated = current && object.translated;
            object.insert_version(self.tx, version, translated)?;
            for language in ["eng-GB", "ger-DE"]
                .iter()
                .take(1 + usize::from(translated))
            {
                let rows = object.insert_attributes(
                    self.tx,
                    &mut self.rng,
                    values::Target {
                        version,
                        language,
                        first_attribute: self.next_attribute,
                        path: &node.path_identification,
                    },
                )?;
                self.next_attribute += rows;
                self.made.attributes += rows as u64;
            }
        }
        Ok(id)
    }
}
