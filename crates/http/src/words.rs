//! What a row keeps of an answer's headers: the cache header's first word
//! and the `Server` value, each cut to a bound, since a peer's header can
//! be tens of kilobytes and every answer's words are kept until its row
//! is made.

use super::h1::Keep;

use http::HeaderName;
use http::header::SERVER;
use std::sync::Arc;

/// The longest `Server` value kept, in characters.
const MAX_SERVER: usize = 64;
/// The longest cache word kept, in characters.
const MAX_CACHE_WORD: usize = 32;

/// The words of the last answer on a slot. A server sends the same
/// `Server` and cache words answer after answer, so an answer shares the
/// last one's text when its bytes are the same, and only a new value is
/// made into text.
#[derive(Default)]
pub(crate) struct Words {
    cache: Recent,
    server: Recent,
}

/// What one answer's headers said.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Said {
    /// The cache header's first word, upper-cased.
    pub(crate) cache: Option<Arc<str>>,
    /// The `Server` header.
    pub(crate) server: Option<Arc<str>>,
}

impl Words {
    /// A reader of one answer's headers, as they are parsed.
    pub(crate) fn reader<'a>(&'a mut self, cache_header: &'a HeaderName) -> Reader<'a> {
        Reader {
            words: self,
            cache_header,
            said: Said::default(),
            seen_cache: false,
            seen_server: false,
        }
    }
}

/// Collects the words of one answer as `h1` parses its head, or `http2`
/// decodes its header block.
pub(crate) struct Reader<'a> {
    words: &'a mut Words,
    cache_header: &'a HeaderName,
    pub(crate) said: Said,
    seen_cache: bool,
    seen_server: bool,
}

impl Keep for Reader<'_> {
    fn header(&mut self, name: &str, value: &[u8]) {
        // A header sent twice: the first is the one kept, as a header
        // map's `get` gives, whether or not it has a word.
        if !self.seen_cache && name.eq_ignore_ascii_case(self.cache_header.as_str()) {
            self.seen_cache = true;
            self.said.cache = self.words.cache.of(value, first_word);
        }
        if !self.seen_server && name.eq_ignore_ascii_case(SERVER.as_str()) {
            self.seen_server = true;
            self.said.server = self.words.server.of(value, server);
        }
    }
}

#[derive(Default)]
struct Recent {
    raw: Vec<u8>,
    text: Option<Arc<str>>,
}

impl Recent {
    /// The text `make` makes of `value`, the last one's when the bytes are
    /// the same.
    fn of(&mut self, value: &[u8], make: fn(&[u8]) -> Option<String>) -> Option<Arc<str>> {
        if self.text.is_none() || self.raw != value {
            self.raw.clear();
            self.raw.extend_from_slice(value);
            self.text = make(value).map(Arc::from);
        }
        self.text.clone()
    }
}

/// The `Server` value as kept.
fn server(value: &[u8]) -> Option<String> {
    Some(cut(String::from_utf8_lossy(value).trim(), MAX_SERVER))
}

/// `text` cut to `max` characters.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => text[..end].to_string(),
        None => text.to_string(),
    }
}

/// The first word of a cache header, upper-cased (`hit from edge` → `HIT`).
fn first_word(value: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(value);
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .find(|w| !w.is_empty())
        .map(|w| cut(w, MAX_CACHE_WORD).to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_answers_are_first_words_upper_cased() {
        assert_eq!(first_word(b"hit from edge-1").as_deref(), Some("HIT"));
        assert_eq!(first_word(b"  MISS, HIT").as_deref(), Some("MISS"));
        assert_eq!(first_word(b"bypass;ttl=0").as_deref(), Some("BYPASS"));
        assert_eq!(first_word(b" "), None);
    }

    #[test]
    fn the_same_bytes_share_one_text_and_new_bytes_make_another() {
        let mut recent = Recent::default();
        let a = recent.of(b"nginx/1.22", server);
        let b = recent.of(b"nginx/1.22", server);
        assert!(
            a.as_ref()
                .zip(b.as_ref())
                .is_some_and(|(a, b)| Arc::ptr_eq(a, b))
        );
        assert_eq!(recent.of(b"caddy", server).as_deref(), Some("caddy"));
        let long = "é".repeat(100);
        let kept = recent.of(long.as_bytes(), server).unwrap_or_default();
        assert_eq!(kept.chars().count(), MAX_SERVER);
    }

    #[test]
    fn the_reader_keeps_the_first_of_each_header_in_any_case() {
        let mut words = Words::default();
        let name = HeaderName::from_static("x-cache");
        let mut reader = words.reader(&name);
        reader.header("X-Cache", b"hit");
        reader.header("x-cache", b"miss");
        reader.header("SERVER", b"nginx");
        reader.header("Date", b"today");
        assert_eq!(reader.said.cache.as_deref(), Some("HIT"));
        assert_eq!(reader.said.server.as_deref(), Some("nginx"));
        // `--cache-header=server`: one header gives both words.
        let name = HeaderName::from_static("server");
        let mut reader = words.reader(&name);
        reader.header("Server", b"edge hit");
        assert_eq!(reader.said.cache.as_deref(), Some("EDGE"));
        assert_eq!(reader.said.server.as_deref(), Some("edge hit"));
        // An empty first value is the one kept, as a header map gives it.
        let name = HeaderName::from_static("x-cache");
        let mut reader = words.reader(&name);
        reader.header("X-Cache", b" ");
        reader.header("X-Cache", b"hit");
        assert_eq!(reader.said.cache, None);
    }
}
