//! The translation catalogue: Qt Linguist `.ts` files loaded into a
//! lookup table that the template engine's `i18n` operator reaches through
//! [`crate::host::Translator`].

mod cache;
mod catalogue;
mod error;
pub mod fixture;
mod loader;
mod plural;
mod probes;

pub use cache::{CacheOutcome, RebuildReason, load_cached};
pub use catalogue::{
    Catalogue, DEFAULT_CONTEXT, LoadStats, LocationLine, MessageRef, TranslationKind,
};
pub use error::{ErrorKind, LoadError, Position, Warning};
pub use loader::{load_bytes, load_file};
pub use plural::PluralRule;
