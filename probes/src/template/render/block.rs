//! `{cache-block}` at render time: the block's stored output when the
//! engine's file cache has it fresh, else the body rendered and stored.
//!
//! A block's entry is keyed by its template, its place in it and its
//! `keys=` values, so two pages that pass different keys get their own
//! output. It is stale after `expiry=` seconds (two hours by default, as
//! in the CMS; 0 for no age limit), and, unless the block says
//! `ignore_content_expiry`, once the content changed after it was stored.

use std::time::Duration;

use sha2::{Digest, Sha256};

use super::Renderer;
use super::eval;
use crate::filecache::Expiry;
use crate::template::ops::Env;
use crate::template::program::{Expr, Program};
use crate::template::value::Value;

/// The CMS's default for a block without `expiry=`.
const DEFAULT_EXPIRY: Duration = Duration::from_secs(7200);

/// A `{cache-block}` being rendered: where its output starts, and the
/// entry to store it under (none without a cache).
pub(super) struct OpenBlock {
    pub start: usize,
    pub at: usize,
    pub key: Option<String>,
}

/// What a `CacheBlock` instruction found.
pub(super) enum Found {
    /// The stored output.
    Hit(String),
    /// Render the body.
    Render(OpenBlock),
}

impl Renderer<'_> {
    /// Looks up the block at `at` in `program`.
    pub(super) fn cache_block(
        &self,
        program: &Program,
        at: usize,
        env: &Env,
        keys: Option<&Expr>,
        expiry: Option<&Expr>,
        ignore_content_expiry: bool,
    ) -> Found {
        let open = |key| {
            Found::Render(OpenBlock {
                start: self.out.len(),
                at,
                key,
            })
        };
        let Some(blocks) = self.engine.block_cache() else {
            return open(None);
        };
        let mut hash = Sha256::new();
        hash.update(program.file.as_bytes());
        hash.update(at.to_le_bytes());
        if let Some(keys) = keys {
            match &*eval(&self.scope, env, keys) {
                Value::Array(items) => items
                    .iter()
                    .for_each(|v| hash.update(format!("\u{1f}{}", v.to_text()))),
                v => hash.update(format!("\u{1f}{}", v.to_text())),
            }
        }
        let hex: String = hash.finalize()[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let key = format!("template-block/{}/{hex}.cache", &hex[..2]);
        let seconds = expiry.map(|e| eval(&self.scope, env, e).to_int());
        let max_age = match seconds {
            None => Some(DEFAULT_EXPIRY),
            Some(s) if s <= 0 => None,
            Some(s) => Some(Duration::from_secs(s as u64)),
        };
        let expiry = Expiry {
            max_age,
            expired_before: (!ignore_content_expiry)
                .then_some(blocks.content_changed)
                .flatten(),
        };
        match blocks.cache.fetch(&key, expiry) {
            Ok(Some(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => Found::Hit(text),
                Err(_) => open(Some(key)),
            },
            _ => open(Some(key)),
        }
    }

    /// Stores what the block wrote since it opened. A failed write costs
    /// the next render the body again, so it is not an error.
    pub(super) fn close_cache_block(&self, block: OpenBlock) {
        let (Some(key), Some(blocks)) = (block.key, self.engine.block_cache()) else {
            return;
        };
        let text = self.out.get(block.start..).unwrap_or("");
        let _ = blocks.cache.store(&key, text.as_bytes());
    }
}
