//! The loaded catalogue and its lookup.
//!
//! Every string of the catalogue lives in one arena (`text`); messages hold
//! spans into it. The index is a hash table of message numbers whose hashes
//! are computed from borrowed `(context, source, comment)` triples, so a
//! lookup hashes the caller's strings, compares them with arena slices and
//! allocates nothing.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};

use hashbrown::{DefaultHashBuilder, HashTable};

use super::error::Warning;
use super::plural::PluralRule;
use crate::host::{Translator, substitute};

/// The context that messages of an unnamed context belong to.
pub const DEFAULT_CONTEXT: &str = "default";

/// A piece of the arena.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Span {
    pub start: u32,
    pub len: u32,
}

/// A run of consecutive items of a side table (numerus forms, locations).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Run {
    pub start: u32,
    pub len: u32,
}

impl Run {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// The state a translator left a message in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TranslationKind {
    Finished,
    Unfinished,
    /// Its source is gone from the program; kept for reuse.
    Obsolete,
    /// Like obsolete, written by newer tools.
    Vanished,
}

/// The line of a source location: absolute, or relative to the previous
/// location in the same file as newer tools write them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocationLine {
    None,
    Absolute(u32),
    Relative(i32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Location {
    pub file: Span,
    pub line: LocationLine,
}

/// One `message` element as loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Message {
    pub context: Span,
    pub source: Span,
    pub comment: Span,
    pub translator_comment: Span,
    pub extra_comment: Span,
    /// The text of a plain message; unused for numerus messages.
    pub translation: Span,
    pub forms: Run,
    pub locations: Run,
    pub numerus: bool,
    pub kind: TranslationKind,
}

/// What loading saw, for the translator's report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// `context` elements (two with one name count twice).
    pub contexts: usize,
    /// `message` elements, duplicates included.
    pub messages: usize,
    pub unfinished: usize,
    pub obsolete: usize,
    pub vanished: usize,
    /// Messages with no translated text (every form empty, for numerus).
    pub empty: usize,
    /// Messages whose key an earlier message already had.
    pub duplicates: usize,
    pub numerus: usize,
    /// Elements the format does not define, skipped with their content.
    pub skipped_elements: usize,
}

/// A loaded translation catalogue.
#[derive(Debug)]
pub struct Catalogue {
    pub(super) file: String,
    pub(super) language: Span,
    pub(super) source_language: Span,
    pub(super) version: Span,
    pub(super) text: String,
    /// Names of the `context` elements in file order.
    pub(super) contexts: Vec<Span>,
    /// In file order, shadowed duplicates included.
    pub(super) messages: Vec<Message>,
    pub(super) forms: Vec<Span>,
    pub(super) locations: Vec<Location>,
    pub(super) stats: LoadStats,
    pub(super) warnings: Vec<Warning>,
    index: HashTable<u32>,
    /// Each message's key hash, parallel to `messages`, for rehashing.
    hashes: Vec<u64>,
    hasher: DefaultHashBuilder,
    rule: PluralRule,
    misses: AtomicU64,
}

impl Catalogue {
    /// An empty catalogue for `file`, its arena sized for `capacity` bytes.
    pub(super) fn with_capacity(file: &str, capacity: usize) -> Catalogue {
        Catalogue {
            file: file.to_string(),
            language: Span::default(),
            source_language: Span::default(),
            version: Span::default(),
            text: String::with_capacity(capacity),
            contexts: Vec::new(),
            messages: Vec::new(),
            forms: Vec::new(),
            locations: Vec::new(),
            stats: LoadStats::default(),
            warnings: Vec::new(),
            index: HashTable::new(),
            hashes: Vec::new(),
            hasher: DefaultHashBuilder::default(),
            rule: PluralRule::Unknown,
            misses: AtomicU64::new(0),
        }
    }

    /// Room for `messages` messages in the index and its hashes.
    pub(super) fn reserve_index(&mut self, messages: usize) {
        let hashes = &self.hashes;
        self.index
            .reserve(messages, |&i| hashes.get(i as usize).copied().unwrap_or(0));
        self.hashes.reserve(messages);
    }

    /// Sets the language spans once the root's attributes are in the arena.
    pub(super) fn set_languages(&mut self, language: Span, source_language: Span) {
        self.language = language;
        self.source_language = source_language;
        self.rule = PluralRule::for_language(self.str(language));
    }

    /// The text of an arena span. Spans are made by the loader or checked
    /// by the cache reader, so they always fall on character boundaries.
    #[inline]
    pub(super) fn str(&self, span: Span) -> &str {
        let start = span.start as usize;
        self.text
            .get(start..start + span.len as usize)
            .unwrap_or_default()
    }

    /// Adds `message` to the index; returns true when it replaces an
    /// earlier message with the same key.
    pub(super) fn push_message(&mut self, message: Message) -> bool {
        let number = u32::try_from(self.messages.len()).unwrap_or(u32::MAX);
        let hash = self.hasher.hash_one((
            self.str(message.context),
            self.str(message.source),
            self.str(message.comment),
        ));
        let Catalogue {
            index,
            hashes,
            messages,
            text,
            ..
        } = self;
        let slice = |span: Span| {
            let start = span.start as usize;
            text.get(start..start + span.len as usize)
                .unwrap_or_default()
        };
        let same_key = |&i: &u32| {
            let other = &messages[i as usize];
            hashes[i as usize] == hash
                && slice(other.source) == slice(message.source)
                && slice(other.comment) == slice(message.comment)
                && slice(other.context) == slice(message.context)
        };
        let replaced = match index.entry(hash, same_key, |&i| hashes[i as usize]) {
            hashbrown::hash_table::Entry::Occupied(mut slot) => {
                *slot.get_mut() = number;
                true
            }
            hashbrown::hash_table::Entry::Vacant(slot) => {
                slot.insert(number);
                false
            }
        };
        self.hashes.push(hash);
        self.messages.push(message);
        replaced
    }

    /// The message indexed under exactly this key.
    #[inline]
    fn find(&self, context: &str, source: &str, comment: &str) -> Option<&Message> {
        if crate::faults::on(crate::faults::Fault::CatalogueHash) {
            crate::faults::hash(source.as_bytes(), 2);
        }
        let hash = self.hasher.hash_one((context, source, comment));
        self.index
            .find(hash, |&i| {
                let m = &self.messages[i as usize];
                self.hashes[i as usize] == hash
                    && self.str(m.source) == source
                    && self.str(m.comment) == comment
                    && self.str(m.context) == context
            })
            .map(|&i| &self.messages[i as usize])
    }

    /// Tries the exact key, then the key without comment; `pick` chooses
    /// the text of a found message and returns `None` for an empty one, so
    /// that an untranslated message falls through like a missing one.
    #[inline]
    fn lookup(
        &self,
        context: &str,
        source: &str,
        comment: &str,
        pick: impl Fn(&Message) -> Option<Span>,
    ) -> Option<&str> {
        let context = if context.is_empty() {
            DEFAULT_CONTEXT
        } else {
            context
        };
        let mut found = self.find(context, source, comment).and_then(&pick);
        if found.is_none() && !comment.is_empty() {
            found = self.find(context, source, "").and_then(&pick);
        }
        match found {
            Some(span) => Some(self.str(span)),
            None => {
                self.misses.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    fn nonempty(span: Span) -> Option<Span> {
        (span.len > 0).then_some(span)
    }

    /// The translation of `source` in `context` (`""` means `default`),
    /// disambiguated by `comment`, falling back to the message without
    /// comment. `None` when neither has a non-empty translation. A numerus
    /// message answers with its first form.
    pub fn translate(&self, context: &str, source: &str, comment: &str) -> Option<&str> {
        self.lookup(context, source, comment, |m| {
            if m.numerus {
                self.forms
                    .get(m.forms.range())
                    .and_then(|f| f.first())
                    .and_then(|&s| Self::nonempty(s))
            } else {
                Self::nonempty(m.translation)
            }
        })
    }

    /// Like [`translate`](Self::translate), choosing the numerus form for
    /// `count` by the catalogue language's plural rule. A count past the
    /// forms given picks the last one; a plain message answers with its
    /// translation; an unknown plural rule answers `None`.
    pub fn translate_count(
        &self,
        context: &str,
        source: &str,
        comment: &str,
        count: i64,
    ) -> Option<&str> {
        self.lookup(context, source, comment, |m| {
            if !m.numerus {
                return Self::nonempty(m.translation);
            }
            let forms = self.forms.get(m.forms.range())?;
            let index = self.rule.form(count)?.min(forms.len().checked_sub(1)?);
            Self::nonempty(forms[index])
        })
    }

    /// The translated text, or `source` itself when there is none.
    pub fn tr<'a>(&'a self, context: &str, source: &'a str, comment: &str) -> &'a str {
        self.translate(context, source, comment).unwrap_or(source)
    }

    /// The translated (or source) text with `%1`/`%name` arguments replaced.
    pub fn tr_args(
        &self,
        context: &str,
        source: &str,
        comment: &str,
        args: &[(&str, &str)],
    ) -> String {
        substitute(self.tr(context, source, comment), args)
    }

    /// The form for `count` (or the source) with `%n` replaced by `count`
    /// and the other arguments by `args`.
    pub fn tr_count(
        &self,
        context: &str,
        source: &str,
        comment: &str,
        count: i64,
        args: &[(&str, &str)],
    ) -> String {
        let text = self
            .translate_count(context, source, comment, count)
            .unwrap_or(source);
        let n = count.to_string();
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(("%n", n.as_str()));
        all.extend_from_slice(args);
        substitute(text, &all)
    }

    /// Lookups that found no translation since loading.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// The file the catalogue was loaded from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The `language` of the root, e.g. `de_DE` (`""` when absent).
    pub fn language(&self) -> &str {
        self.str(self.language)
    }

    /// The `sourcelanguage` of the root (`""` when absent).
    pub fn source_language(&self) -> &str {
        self.str(self.source_language)
    }

    /// The format `version` of the root (`""` when absent).
    pub fn version(&self) -> &str {
        self.str(self.version)
    }

    pub fn plural_rule(&self) -> PluralRule {
        self.rule
    }

    pub fn stats(&self) -> &LoadStats {
        &self.stats
    }

    /// Duplicates and other remarks, in file order.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Distinct keys: messages a lookup can reach.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Names of the `context` elements in file order.
    pub fn contexts(&self) -> impl Iterator<Item = &str> {
        self.contexts.iter().map(|&s| self.str(s))
    }

    /// Every message in file order, shadowed duplicates included.
    pub fn messages(&self) -> impl ExactSizeIterator<Item = MessageRef<'_>> {
        self.messages
            .iter()
            .enumerate()
            .map(|(number, message)| MessageRef {
                catalogue: self,
                message,
                number,
            })
    }

    /// Rebuilds the index and plural rule after the cache filled the tables.
    pub(super) fn reindex(&mut self) {
        let messages = std::mem::take(&mut self.messages);
        self.index = HashTable::with_capacity(messages.len());
        self.hashes = Vec::with_capacity(messages.len());
        self.messages.reserve(messages.len());
        for message in messages {
            self.push_message(message);
        }
        self.rule = PluralRule::for_language(self.str(self.language));
    }
}

impl Translator for Catalogue {
    fn translate(&self, context: &str, source: &str, comment: &str) -> Option<&str> {
        Catalogue::translate(self, context, source, comment)
    }
}

impl yardstick_probe::Checksum for Catalogue {
    fn checksum(&self) -> u64 {
        self.messages.len() as u64
    }
}

/// A message of a catalogue, seen through its strings.
#[derive(Clone, Copy)]
pub struct MessageRef<'a> {
    catalogue: &'a Catalogue,
    message: &'a Message,
    number: usize,
}

impl<'a> MessageRef<'a> {
    pub fn context(&self) -> &'a str {
        self.catalogue.str(self.message.context)
    }
    pub fn source(&self) -> &'a str {
        self.catalogue.str(self.message.source)
    }
    /// The disambiguation comment, `""` when absent.
    pub fn comment(&self) -> &'a str {
        self.catalogue.str(self.message.comment)
    }
    pub fn translator_comment(&self) -> &'a str {
        self.catalogue.str(self.message.translator_comment)
    }
    pub fn extra_comment(&self) -> &'a str {
        self.catalogue.str(self.message.extra_comment)
    }
    /// The text of a plain message (`""` for a numerus one).
    pub fn translation(&self) -> &'a str {
        self.catalogue.str(self.message.translation)
    }
    pub fn is_numerus(&self) -> bool {
        self.message.numerus
    }
    pub fn forms(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        let catalogue = self.catalogue;
        catalogue
            .forms
            .get(self.message.forms.range())
            .unwrap_or_default()
            .iter()
            .map(move |&s| catalogue.str(s))
    }
    pub fn kind(&self) -> TranslationKind {
        self.message.kind
    }
    /// The source files and lines the message was extracted from.
    pub fn locations(&self) -> impl Iterator<Item = (&'a str, LocationLine)> + use<'a> {
        let catalogue = self.catalogue;
        catalogue
            .locations
            .get(self.message.locations.range())
            .unwrap_or_default()
            .iter()
            .map(move |l| (catalogue.str(l.file), l.line))
    }
    /// True when a later message with the same key replaced this one.
    pub fn is_shadowed(&self) -> bool {
        let c = self.catalogue;
        let hash = c.hashes[self.number];
        c.index
            .find(hash, |&i| {
                let m = &c.messages[i as usize];
                c.hashes[i as usize] == hash
                    && c.str(m.source) == self.source()
                    && c.str(m.comment) == self.comment()
                    && c.str(m.context) == self.context()
            })
            .is_some_and(|&i| i as usize != self.number)
    }
}

impl std::fmt::Debug for MessageRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Message")
            .field("context", &self.context())
            .field("source", &self.source())
            .field("comment", &self.comment())
            .field("translation", &self.translation())
            .field("forms", &self.forms().collect::<Vec<_>>())
            .field("kind", &self.kind())
            .finish()
    }
}

#[cfg(test)]
mod tests;
