//! The streaming catalogue loader: one pass of XML events straight into the
//! catalogue's arena, with no tree and no per-string allocation.
//!
//! Rules it enforces, beyond XML well-formedness:
//! - the root is `TS`; its `version`, `language` and `sourcelanguage` are
//!   optional;
//! - `TS` holds `context`s; a `context` holds one `name` before its
//!   `message`s (an absent or empty name means [`DEFAULT_CONTEXT`]);
//! - a `message` holds `location`s, exactly one `source`, at most one each of
//!   `comment`, `translatorcomment`, `extracomment` and `translation`; the
//!   translation's `type` is absent, `unfinished`, `obsolete` or `vanished`;
//! - a `numerus="yes"` message's translation holds `numerusform`s and no
//!   text of its own; no other message may hold `numerusform`s;
//! - text elements may hold entities, character references and
//!   `<byte value="x9"/>` (hexadecimal after `x`, decimal otherwise), each
//!   standing for one character;
//! - elements the format does not define are skipped with their content
//!   (newer tools write `extra-*` and `oldsource` elements), except inside
//!   text, where they would swallow part of a string.
//!
//! A later message with the key of an earlier one replaces it and is
//! counted and reported as a warning.

use std::borrow::Cow;
use std::path::Path;

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::errors::{Error as XmlError, IllFormedError, SyntaxError};
use quick_xml::events::{BytesRef, BytesStart, Event};

use self::elements::Elem;
use super::catalogue::{Catalogue, DEFAULT_CONTEXT, Message, Run, Span, TranslationKind};
use super::error::{ErrorKind, LineCounter, LoadError, Position, Warning};

/// Reads and loads the catalogue at `path`.
pub fn load_file(path: &Path) -> Result<Catalogue, LoadError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        file: file.clone(),
        position: None,
        kind: ErrorKind::Io(e.to_string()),
    })?;
    load_bytes(&file, &bytes)
}

/// Loads a catalogue from its bytes; `file` names it in errors.
pub fn load_bytes(file: &str, bytes: &[u8]) -> Result<Catalogue, LoadError> {
    // Spans are 32-bit; the arena stays below the input's size plus the
    // default context's name.
    if bytes.len() > (u32::MAX - 64) as usize {
        return Err(LoadError {
            file: file.to_string(),
            position: None,
            kind: ErrorKind::TooLarge(bytes.len() as u64),
        });
    }
    let mut loader = Loader::new(file, bytes);
    loader.run()?;
    Ok(loader.catalogue)
}

/// The `context` being read.
struct ContextState {
    name: Option<Span>,
    had_message: bool,
}

/// The `message` being read.
struct MessageState {
    /// Byte offset of `<message`, for errors about the whole message.
    start: usize,
    numerus: bool,
    source: Option<Span>,
    comment: Option<Span>,
    translator_comment: Option<Span>,
    extra_comment: Option<Span>,
    translation: Option<Span>,
    kind: TranslationKind,
    forms_start: u32,
    locations_start: u32,
}

struct Loader<'a> {
    file: &'a str,
    bytes: &'a [u8],
    reader: Reader<&'a [u8]>,
    catalogue: Catalogue,
    stack: Vec<Elem>,
    lines: LineCounter,
    root_done: bool,
    context: Option<ContextState>,
    message: Option<MessageState>,
    /// Arena offset where the open text element's string began.
    text_start: usize,
    default_context: Span,
    /// Whether the file holds a carriage return anywhere. Most files hold
    /// none, and then no text needs its line ends normalised: one search
    /// of the whole file instead of one per string.
    has_cr: bool,
}

impl<'a> Loader<'a> {
    fn new(file: &'a str, bytes: &'a [u8]) -> Loader<'a> {
        let mut catalogue = Catalogue::with_capacity(file, bytes.len() / 2 + 16);
        // Typical catalogues spend some 250 bytes per message; growing the
        // tables from empty costs copies and page faults on every load.
        let messages = bytes.len() / 256;
        catalogue.messages.reserve(messages);
        catalogue.locations.reserve(messages);
        catalogue.reserve_index(messages);
        catalogue.text.push_str(DEFAULT_CONTEXT);
        let default_context = Span {
            start: 0,
            len: DEFAULT_CONTEXT.len() as u32,
        };
        Loader {
            file,
            bytes,
            reader: Reader::from_reader(bytes),
            catalogue,
            stack: Vec::with_capacity(8),
            lines: LineCounter::default(),
            root_done: false,
            context: None,
            message: None,
            text_start: 0,
            default_context,
            has_cr: memchr::memchr(b'\r', bytes).is_some(),
        }
    }

    fn error(&mut self, offset: usize, kind: ErrorKind) -> LoadError {
        LoadError {
            file: self.file.to_string(),
            position: Some(Position::of_offset(self.bytes, offset)),
            kind,
        }
    }

    fn run(&mut self) -> Result<(), LoadError> {
        loop {
            let at = self.reader.buffer_position() as usize;
            // The arms borrow the event where the parser left it: moving it
            // out first copies it with wider loads than the parser's stores,
            // which stalls on every event.
            match self.reader.read_event() {
                Ok(Event::Start(ref e)) => self.start(e, at, false)?,
                Ok(Event::Empty(ref e)) => self.start(e, at, true)?,
                Ok(Event::End(_)) => self.end(at)?,
                // Line ends are normalised only in text that is kept: most
                // text events are indentation between tags.
                Ok(Event::Text(ref t)) => self.text(t, at, || t.xml10_content())?,
                Ok(Event::CData(ref c)) => self.text(c, at, || c.xml10_content())?,
                Ok(Event::GeneralRef(ref r)) => self.reference(r, at)?,
                Ok(Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_)) => {}
                Ok(Event::Eof) => return self.finish(at),
                Err(e) => return Err(self.xml_error(e, at)),
            }
        }
    }

    fn finish(&mut self, at: usize) -> Result<(), LoadError> {
        if let Some(&open) = self.stack.last() {
            return Err(self.error(at, ErrorKind::Truncated(open.name().to_string())));
        }
        if !self.root_done {
            let reason = if self.bytes.iter().all(u8::is_ascii_whitespace) {
                "the file is empty"
            } else {
                "no root element"
            };
            return Err(self.error(at, ErrorKind::NotXml(reason.to_string())));
        }
        Ok(())
    }

    /// Maps a parser error, calling the end of input inside markup a
    /// truncation when the document had begun.
    /// `event_start` is where the failing event began.
    fn xml_error(&mut self, e: XmlError, event_start: usize) -> LoadError {
        let mut at = self.reader.error_position() as usize;
        let kind = match e {
            XmlError::Encoding(e) => {
                // The parser does not place these; the first invalid byte
                // is at or after the event's start.
                let rest = self.bytes.get(event_start..).unwrap_or_default();
                if let Err(invalid) = std::str::from_utf8(rest) {
                    at = event_start + invalid.valid_up_to();
                }
                ErrorKind::NotXml(e.to_string())
            }
            XmlError::IllFormed(IllFormedError::MissingEndTag(open)) => ErrorKind::Truncated(open),
            XmlError::Syntax(
                SyntaxError::UnclosedTag
                | SyntaxError::UnclosedCData
                | SyntaxError::UnclosedComment
                | SyntaxError::UnclosedPI
                | SyntaxError::UnclosedSingleQuotedAttributeValue
                | SyntaxError::UnclosedDoubleQuotedAttributeValue,
            ) if !self.stack.is_empty() => {
                let open = self.stack.last().map_or("TS", |e| e.name());
                ErrorKind::Truncated(open.to_string())
            }
            other => ErrorKind::NotXml(other.to_string()),
        };
        self.error(at, kind)
    }

    fn start(&mut self, e: &BytesStart<'a>, at: usize, empty: bool) -> Result<(), LoadError> {
        let name = e.name();
        let name = name.as_ref();
        let Some(&parent) = self.stack.last() else {
            return self.root(e, name, at, empty);
        };
        let Some(elem) = Elem::from_name(name) else {
            if parent.holds_text() {
                let kind = ErrorKind::Misplaced {
                    element: name.to_string(),
                    parent: parent.name().to_string(),
                };
                return Err(self.error(at, kind));
            }
            self.catalogue.stats.skipped_elements += 1;
            if !empty && let Err(err) = self.reader.read_to_end(e.name()) {
                return Err(self.xml_error(err, at));
            }
            return Ok(());
        };
        let numerus_translation = parent == Elem::Translation && self.in_numerus();
        let allowed = parent.allows(elem)
            && match elem {
                Elem::NumerusForm => numerus_translation,
                Elem::Byte => !numerus_translation,
                _ => true,
            };
        if !allowed {
            let kind = ErrorKind::Misplaced {
                element: name.to_string(),
                parent: parent.name().to_string(),
            };
            return Err(self.error(at, kind));
        }
        self.open(elem, e, at)?;
        if empty {
            self.close(elem)
        } else {
            self.stack.push(elem);
            Ok(())
        }
    }

    fn in_numerus(&self) -> bool {
        self.message.as_ref().is_some_and(|m| m.numerus)
    }

    fn root(
        &mut self,
        e: &BytesStart<'a>,
        name: &str,
        at: usize,
        empty: bool,
    ) -> Result<(), LoadError> {
        if self.root_done {
            return Err(self.error(at, ErrorKind::AfterRoot));
        }
        if name != "TS" {
            return Err(self.error(at, ErrorKind::WrongRoot(name.to_string())));
        }
        let mut language = Span::default();
        let mut source_language = Span::default();
        let mut version = Span::default();
        for attr in e.attributes() {
            let attr = attr.map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))?;
            let target = match attr.key.as_ref() {
                "version" => &mut version,
                "language" => &mut language,
                "sourcelanguage" => &mut source_language,
                _ => continue,
            };
            let value = attr
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|err| self.error(at, ErrorKind::NotXml(err.to_string())))?;
            let start = self.catalogue.text.len();
            self.catalogue.text.push_str(&value);
            *target = span_from(start, self.catalogue.text.len());
        }
        self.catalogue.version = version;
        self.catalogue.set_languages(language, source_language);
        if empty {
            self.root_done = true;
        } else {
            self.stack.push(Elem::Ts);
        }
        Ok(())
    }

    /// The work at an element's start tag.
    fn open(&mut self, elem: Elem, e: &BytesStart<'a>, at: usize) -> Result<(), LoadError> {
        if elem.holds_text() {
            self.text_start = self.catalogue.text.len();
        }
        match elem {
            Elem::Context => {
                self.catalogue.stats.contexts += 1;
                self.context = Some(ContextState {
                    name: None,
                    had_message: false,
                });
            }
            Elem::Name => {
                let context = self.context.as_ref();
                if context.is_some_and(|c| c.had_message) {
                    let kind = ErrorKind::Misplaced {
                        element: "name".into(),
                        parent: "context, after its messages,".into(),
                    };
                    return Err(self.error(at, kind));
                }
                if context.is_some_and(|c| c.name.is_some()) {
                    return Err(self.repeated(at, elem));
                }
            }
            Elem::Message => {
                // Most tags have no attributes; the check spares the call
                // and the reload of its wide result.
                let numerus = !e.attributes_raw().is_empty()
                    && self.attribute(e, "numerus", at, |_, v| v == "yes")? == Some(true);
                if let Some(context) = self.context.as_mut() {
                    context.had_message = true;
                    context.name.get_or_insert(self.default_context);
                }
                self.message = Some(MessageState {
                    start: at,
                    numerus,
                    source: None,
                    comment: None,
                    translator_comment: None,
                    extra_comment: None,
                    translation: None,
                    kind: TranslationKind::Finished,
                    forms_start: self.catalogue.forms.len() as u32,
                    locations_start: self.catalogue.locations.len() as u32,
                });
            }
            Elem::Location => self.location(e, at)?,
            Elem::Source | Elem::Comment | Elem::TranslatorComment | Elem::ExtraComment => {
                if self.message_field(elem).is_some() {
                    return Err(self.repeated(at, elem));
                }
            }
            Elem::Translation => {
                if self.message_field(elem).is_some() {
                    return Err(self.repeated(at, elem));
                }
                let kind = if e.attributes_raw().is_empty() {
                    TranslationKind::Finished
                } else {
                    self.translation_kind(e, at)?
                };
                if let Some(message) = self.message.as_mut() {
                    message.kind = kind;
                }
            }
            Elem::Byte => self.byte(e, at)?,
            Elem::Ts | Elem::NumerusForm => {}
        }
        Ok(())
    }

    /// The `type` of a `translation` (finished when absent).
    #[inline(never)]
    fn translation_kind(
        &mut self,
        e: &BytesStart<'a>,
        at: usize,
    ) -> Result<TranslationKind, LoadError> {
        let kind = self.attribute(e, "type", at, |this, value| match value {
            "unfinished" => Ok(TranslationKind::Unfinished),
            "obsolete" => Ok(TranslationKind::Obsolete),
            "vanished" => Ok(TranslationKind::Vanished),
            other => Err(this.bad_attribute(at, Elem::Translation, "type", other)),
        })?;
        Ok(kind.transpose()?.unwrap_or(TranslationKind::Finished))
    }

    fn message_field(&mut self, elem: Elem) -> Option<Span> {
        let message = self.message.as_mut()?;
        match elem {
            Elem::Source => message.source,
            Elem::Comment => message.comment,
            Elem::TranslatorComment => message.translator_comment,
            Elem::ExtraComment => message.extra_comment,
            Elem::Translation => message.translation,
            _ => None,
        }
    }

    /// The work at an element's end.
    fn close(&mut self, elem: Elem) -> Result<(), LoadError> {
        let text = span_from(self.text_start, self.catalogue.text.len());
        match elem {
            Elem::Ts => self.root_done = true,
            Elem::Context => {
                let name = self.context.take().and_then(|c| c.name);
                self.catalogue
                    .contexts
                    .push(name.unwrap_or(self.default_context));
            }
            Elem::Name => {
                let name = if text.len == 0 {
                    self.default_context
                } else {
                    text
                };
                if let Some(context) = self.context.as_mut() {
                    context.name = Some(name);
                }
            }
            Elem::Message => self.finish_message()?,
            Elem::NumerusForm => self.catalogue.forms.push(text),
            Elem::Source
            | Elem::Comment
            | Elem::TranslatorComment
            | Elem::ExtraComment
            | Elem::Translation => {
                if let Some(message) = self.message.as_mut() {
                    let slot = match elem {
                        Elem::Source => &mut message.source,
                        Elem::Comment => &mut message.comment,
                        Elem::TranslatorComment => &mut message.translator_comment,
                        Elem::ExtraComment => &mut message.extra_comment,
                        _ => &mut message.translation,
                    };
                    *slot = Some(text);
                }
            }
            Elem::Location | Elem::Byte => {}
        }
        Ok(())
    }

    fn end(&mut self, at: usize) -> Result<(), LoadError> {
        // The parser checks that end tags match, so this is the open element.
        match self.stack.pop() {
            Some(elem) => self.close(elem),
            None => Err(self.error(at, ErrorKind::AfterRoot)),
        }
    }

    fn finish_message(&mut self) -> Result<(), LoadError> {
        let Some(state) = self.message.take() else {
            return Ok(());
        };
        let Some(source) = state.source else {
            return Err(self.error(state.start, ErrorKind::MessageWithoutSource));
        };
        let context = self
            .context
            .as_ref()
            .and_then(|c| c.name)
            .unwrap_or(self.default_context);
        let forms_end = self.catalogue.forms.len() as u32;
        let forms = Run {
            start: state.forms_start,
            len: forms_end - state.forms_start,
        };
        let translation = state.translation.unwrap_or_default();
        let empty = if state.numerus {
            self.catalogue.forms[forms.start as usize..forms_end as usize]
                .iter()
                .all(|f| f.len == 0)
        } else {
            translation.len == 0
        };
        let stats = &mut self.catalogue.stats;
        stats.messages += 1;
        stats.empty += usize::from(empty);
        stats.numerus += usize::from(state.numerus);
        match state.kind {
            TranslationKind::Finished => {}
            TranslationKind::Unfinished => stats.unfinished += 1,
            TranslationKind::Obsolete => stats.obsolete += 1,
            TranslationKind::Vanished => stats.vanished += 1,
        }
        let message = Message {
            context,
            source,
            comment: state.comment.unwrap_or_default(),
            translator_comment: state.translator_comment.unwrap_or_default(),
            extra_comment: state.extra_comment.unwrap_or_default(),
            translation: if state.numerus {
                Span::default()
            } else {
                translation
            },
            forms,
            locations: Run {
                start: state.locations_start,
                len: self.catalogue.locations.len() as u32 - state.locations_start,
            },
            numerus: state.numerus,
            kind: state.kind,
        };
        if self.catalogue.push_message(message) {
            self.catalogue.stats.duplicates += 1;
            let position = self.lines.position(self.bytes, state.start);
            let c = &self.catalogue;
            let message = format!(
                "duplicate message replaces an earlier one: context \"{}\", source \"{}\", comment \"{}\"",
                c.str(context),
                c.str(source),
                c.str(state.comment.unwrap_or_default()),
            );
            self.catalogue.warnings.push(Warning { position, message });
        }
        Ok(())
    }

    /// Character data: part of the open string, or whitespace between
    /// elements; anything else is misplaced.
    fn text<'t>(
        &mut self,
        text: &str,
        at: usize,
        normalised: impl FnOnce() -> Cow<'t, str>,
    ) -> Result<(), LoadError> {
        if self.collecting() {
            if self.has_cr {
                self.catalogue.text.push_str(&normalised());
            } else {
                self.catalogue.text.push_str(text);
            }
            return Ok(());
        }
        if is_blank(text.as_bytes()) {
            return Ok(());
        }
        let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
        Err(self.stray_text(trimmed, at))
    }

    fn collecting(&self) -> bool {
        match self.stack.last() {
            Some(Elem::Translation) => !self.in_numerus(),
            Some(elem) => elem.holds_text(),
            None => false,
        }
    }

    fn stray_text(&mut self, text: &str, at: usize) -> LoadError {
        let shown: String = text.chars().take(40).collect();
        // Point at the text itself, not the line break before it.
        let at = at
            + self
                .bytes
                .get(at..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        let kind = if self.root_done {
            ErrorKind::AfterRoot
        } else if self.stack.is_empty() {
            ErrorKind::NotXml(format!("text \"{shown}\" before the root element"))
        } else {
            ErrorKind::UnexpectedText(shown)
        };
        self.error(at, kind)
    }

    /// An entity or character reference inside text.
    fn reference(&mut self, r: &BytesRef<'a>, at: usize) -> Result<(), LoadError> {
        let c = match r.resolve_char_ref() {
            Ok(Some(c)) => c,
            Ok(None) => match &**r {
                "lt" => '<',
                "gt" => '>',
                "amp" => '&',
                "apos" => '\'',
                "quot" => '"',
                other => {
                    let kind = ErrorKind::UnknownEntity(other.to_string());
                    return Err(self.error(at, kind));
                }
            },
            Err(e) => return Err(self.error(at, ErrorKind::NotXml(e.to_string()))),
        };
        if self.collecting() {
            self.catalogue.text.push(c);
            Ok(())
        } else {
            let shown = format!("&{};", &**r);
            Err(self.stray_text(&shown, at))
        }
    }
}

/// Whether `text` is whitespace only. Text between elements is nearly
/// always indentation, a line feed and spaces, which is compared eight
/// bytes at a time before the general check.
fn is_blank(text: &[u8]) -> bool {
    let spaces = text.strip_prefix(b"\n").unwrap_or(text);
    let mut chunks = spaces.chunks_exact(8);
    if chunks.all(|chunk| chunk == b"        ") && chunks.remainder().iter().all(|&b| b == b' ') {
        return true;
    }
    text.iter().all(u8::is_ascii_whitespace)
}

fn span_from(start: usize, end: usize) -> Span {
    // The arena never outgrows the input, which is below 4 GiB.
    Span {
        start: start as u32,
        len: (end - start) as u32,
    }
}

mod attributes;
mod elements;

#[cfg(test)]
mod tests;
