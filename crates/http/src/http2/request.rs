//! The header blocks of the client's requests (RFC 7541), and the little
//! the client keeps of the server's table of them.
//!
//! A browser or h2load asks the server's decoder to keep a request's
//! fields in its dynamic table, and later requests on the connection name
//! them by index, one byte each: the server decodes none of their strings
//! again, though it keeps a table per connection. A client of literals alone loads a server otherwise than
//! its visitors do (what it changed in the figures: docs/evaluation.md,
//! "Threads of the built-in client").
//!
//! So each request is made three ways, once per URL: `first`, its fields
//! as literals the table keeps; `again`, the same fields by index, for the
//! requests after it on the connection; and `plain`, literals the table
//! does not keep, for a connection whose table cannot hold them. `:path`
//! is never kept, so a cold request's own path changes nothing in the
//! table, and a secret (`Authorization`, `Proxy-Authorization`, `Cookie`,
//! or a value marked sensitive) is never indexed in any of them (§7.1.3).

use std::ops::Range;

/// A request's header field: its name (lower case), its value, and
/// whether the value is a secret (`Authorization`) that no intermediary
/// may keep in its table (RFC 7541 §7.1.3).
pub(crate) type Field<'a> = (&'a str, &'a [u8], bool);

/// How a request's fields are sent on a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Way {
    /// Literals the server's table keeps: the first request of these
    /// fields on the connection.
    First,
    /// By index into the server's table, where `First` put them.
    Again,
    /// Literals the table does not keep.
    Plain,
}

/// One way's block, and where its `:path` field lies in it.
pub(crate) type Block = (Vec<u8>, Range<usize>);

/// A GET's header block made the three ways, and the room its kept
/// fields take in the server's table.
pub(crate) struct Blocks {
    /// Fields kept by the table.
    pub(crate) first: Block,
    /// The same fields by index.
    pub(crate) again: Block,
    /// Fields not kept.
    pub(crate) plain: Block,
    /// The table entries `first` adds, in bytes as RFC 7541 §4.1 counts
    /// them (each entry's name and value and 32).
    pub(crate) table_bytes: usize,
}

/// An entry's overhead in the table (RFC 7541 §4.1).
const ENTRY_OVERHEAD: usize = 32;
/// The first index of the dynamic table, after the 61 static entries.
const FIRST_DYNAMIC: usize = 62;

/// The header block of a GET of `path` on `authority`: `:method`,
/// `:scheme`, `:path`, `:authority` and `headers`, in that order, made the
/// three ways.
pub(crate) fn blocks(https: bool, authority: &str, path: &str, headers: &[Field<'_>]) -> Blocks {
    // What the table keeps, in the order `first` sends it: `:authority`
    // (the static table's entry 1, by name) and every header that is no
    // secret.
    let kept: Vec<(usize, &[u8], &[u8])> =
        std::iter::once((1, &b":authority"[..], authority.as_bytes()))
            .chain(
                headers
                    .iter()
                    .filter(|(_, _, secret)| !secret)
                    .map(|&(name, value, _)| (0, name.as_bytes(), value)),
            )
            .collect();
    let table_bytes = kept
        .iter()
        .map(|(_, name, value)| name.len() + value.len() + ENTRY_OVERHEAD)
        .sum();
    let make = |way: Way| {
        let mut block = Vec::with_capacity(64 + path.len() + authority.len());
        // `:method: GET` and the scheme are entries of the static table.
        block.push(0x82);
        block.push(if https { 0x87 } else { 0x86 });
        let start = block.len();
        path_field(&mut block, path);
        let end = block.len();
        let mut next_kept = 0;
        let mut field = |block: &mut Vec<u8>, index: usize, name: &[u8], value: &[u8]| {
            // The newest entry has the first dynamic index: `first`'s
            // last kept field.
            let age = kept.len() - 1 - next_kept;
            next_kept += 1;
            match way {
                Way::First => literal(block, Kind::Kept, index, name, value),
                Way::Again => encode_integer(block, 0x80, 7, FIRST_DYNAMIC + age),
                Way::Plain => literal(block, Kind::Unkept, index, name, value),
            }
        };
        field(&mut block, 1, b"", authority.as_bytes());
        for &(name, value, secret) in headers {
            if secret {
                literal(&mut block, Kind::Never, 0, name.as_bytes(), value);
            } else {
                field(&mut block, 0, name.as_bytes(), value);
            }
        }
        (block, start..end)
    };
    Blocks {
        first: make(Way::First),
        again: make(Way::Again),
        plain: make(Way::Plain),
        table_bytes,
    }
}

/// The `:path` field (the static table's entry 4) of `path`, never kept.
pub(crate) fn path_field(block: &mut Vec<u8>, path: &str) {
    literal(block, Kind::Unkept, 4, b"", path.as_bytes());
}

/// What the table does with a literal (RFC 7541 §6.2).
#[derive(Clone, Copy)]
enum Kind {
    /// With incremental indexing (§6.2.1).
    Kept,
    /// Without indexing (§6.2.2).
    Unkept,
    /// Never indexed, by any intermediary either (§6.2.3).
    Never,
}

/// One literal field, the name by its static `index`, or (index 0)
/// written out.
fn literal(block: &mut Vec<u8>, kind: Kind, index: usize, name: &[u8], value: &[u8]) {
    match kind {
        Kind::Kept => encode_integer(block, 0x40, 6, index),
        Kind::Unkept => encode_integer(block, 0x00, 4, index),
        Kind::Never => encode_integer(block, 0x10, 4, index),
    }
    if index == 0 {
        encode_integer(block, 0x00, 7, name.len());
        block.extend_from_slice(name);
    }
    encode_integer(block, 0x00, 7, value.len());
    block.extend_from_slice(value);
}

/// An integer of an `n`-bit prefix (RFC 7541 §5.1), the first byte's
/// other bits `flags`.
fn encode_integer(block: &mut Vec<u8>, flags: u8, n: u32, value: usize) {
    let max = (1usize << n) - 1;
    if value < max {
        block.push(flags | value as u8);
        return;
    }
    block.push(flags | max as u8);
    let mut rest = value - max;
    while rest >= 128 {
        block.push((rest % 128) as u8 | 0x80);
        rest /= 128;
    }
    block.push(rest as u8);
}

/// What the client knows of the server's table of its requests: its
/// greatest size, and whose fields its newest entries are.
#[derive(Debug)]
pub(crate) struct Encoder {
    /// The table's greatest size: 4,096 bytes until the server asks for
    /// less (SETTINGS_HEADER_TABLE_SIZE).
    max: usize,
    /// A size to announce at the start of the next block (§6.3): the
    /// server asked for less room.
    update: Option<usize>,
    /// The request (its id) whose fields are the table's newest entries,
    /// and their bytes.
    newest: Option<(u64, usize)>,
}

impl Encoder {
    /// The table as a connection starts with it (RFC 9113 §6.5.2).
    pub(crate) fn new() -> Encoder {
        Encoder {
            max: 4_096,
            update: None,
            newest: None,
        }
    }

    /// How to send request `id`, whose kept fields take `bytes`: by index
    /// when its fields are the newest entries, else as kept literals when
    /// they fit, else as literals not kept. Another request's fields added
    /// since push this one's out of the first indices, so only the newest
    /// request's are named by index; older entries are left to age out.
    pub(crate) fn way(&mut self, id: u64, bytes: usize) -> Way {
        match self.newest {
            Some((newest, _)) if newest == id => Way::Again,
            _ if bytes <= self.max => {
                self.newest = Some((id, bytes));
                Way::First
            }
            _ => {
                self.newest = None;
                Way::Plain
            }
        }
    }

    /// The server's SETTINGS_HEADER_TABLE_SIZE. Less room than the table
    /// has is announced at the next block, and a request's fields that no
    /// longer fit are no longer named by index. More room is not taken.
    pub(crate) fn limit(&mut self, size: usize) {
        if size < self.max {
            self.max = size;
            self.update = Some(size);
            if self.newest.is_some_and(|(_, bytes)| bytes > size) {
                self.newest = None;
            }
        }
    }

    /// The size update to begin the next block with, if one is due.
    pub(crate) fn take_update(&mut self) -> Option<Vec<u8>> {
        self.update.take().map(|size| {
            let mut update = Vec::with_capacity(6);
            encode_integer(&mut update, 0x20, 5, size);
            update
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(n: &str, v: &str) -> (Vec<u8>, Vec<u8>) {
        (n.as_bytes().to_vec(), v.as_bytes().to_vec())
    }

    fn example() -> (Blocks, String) {
        let long = "v".repeat(300);
        let made = blocks(
            true,
            "example.test",
            "/a?b=c",
            &[
                ("x-long", long.as_bytes(), false),
                ("authorization", b"Basic x", true),
                ("user-agent", b"yardstick", false),
            ],
        );
        (made, long)
    }

    #[test]
    fn every_way_decodes_to_the_same_fields_a_secret_never_indexed() {
        let (made, long) = example();
        let want = [
            field(":method", "GET"),
            field(":scheme", "https"),
            field(":path", "/a?b=c"),
            field(":authority", "example.test"),
            field("x-long", &long),
            field("authorization", "Basic x"),
            field("user-agent", "yardstick"),
        ];
        // One decoder, as the server has one per connection: the first
        // block fills its table, the next ones read from it.
        let mut theirs = loona_hpack::Decoder::new();
        for block in [
            &made.first,
            &made.again,
            &made.again,
            &made.plain,
            &made.again,
        ] {
            assert_eq!(theirs.decode(&block.0).unwrap(), want);
            assert_eq!(block.0[block.1.start], 0x04, "`:path` is never kept");
        }
        // Three entries kept, one byte each by index.
        assert_eq!(
            made.table_bytes,
            (10 + 12 + 32) + (6 + 300 + 32) + (10 + 9 + 32)
        );
        // Method and scheme, the path's literal, three indices, and the
        // secret's literal (its prefix, name and value).
        let secret = 1 + 1 + "authorization".len() + 1 + "Basic x".len();
        assert_eq!(made.again.0.len(), 2 + (2 + "/a?b=c".len()) + 3 + secret);
        for block in [&made.first, &made.again, &made.plain] {
            let at = block
                .0
                .windows(13)
                .position(|w| w == b"authorization")
                .unwrap();
            assert_eq!(block.0[at - 2], 0x10, "never indexed");
        }
    }

    /// Blocks as a connection sends them, each after the size update due.
    fn sent(encoder: &mut Encoder, request: &Blocks, id: u64) -> (Way, Vec<u8>) {
        let way = encoder.way(id, request.table_bytes);
        let mut block = encoder.take_update().unwrap_or_default();
        block.extend_from_slice(match way {
            Way::First => &request.first.0,
            Way::Again => &request.again.0,
            Way::Plain => &request.plain.0,
        });
        (way, block)
    }

    #[test]
    fn requests_of_two_urls_and_a_table_that_shrinks_stay_in_step() {
        let (a, _) = example();
        let b = blocks(false, "other.test", "/", &[("accept", b"*/*", false)]);
        let mut encoder = Encoder::new();
        // The server's decoder, which refuses a size update past what it
        // allows.
        let mut theirs = loona_hpack::Decoder::new();
        let mut ways = Vec::new();
        let mut announced = Vec::new();
        let steps: [(Option<usize>, &Blocks, u64); 10] = [
            (None, &a, 1),
            (None, &a, 1),
            (None, &b, 2),
            (None, &b, 2),
            (None, &a, 1),
            // Less room than `a` takes.
            (Some(300), &a, 1),
            (None, &b, 2),
            (None, &b, 2),
            // None at all, then more again (not taken).
            (Some(0), &b, 2),
            (Some(4_096), &b, 2),
        ];
        for (limit, request, id) in steps {
            if let Some(size) = limit {
                if size < 4_096 {
                    theirs.set_max_allowed_table_size(size);
                }
                encoder.limit(size);
            }
            let (way, block) = sent(&mut encoder, request, id);
            announced.push(block[0] & 0xe0 == 0x20);
            let plain = loona_hpack::Decoder::new()
                .decode(&request.plain.0)
                .unwrap();
            assert_eq!(theirs.decode(&block).unwrap(), plain, "{way:?}");
            ways.push(way);
        }
        use Way::*;
        assert_eq!(
            ways,
            [
                First, Again, First, Again, First, Plain, First, Again, Plain, Plain
            ]
        );
        // A size update opens the first block after each smaller size, and
        // no other; 300 is 0x3f 0x8d 0x02 (a five-bit prefix).
        let at: Vec<usize> = (0..announced.len()).filter(|&i| announced[i]).collect();
        assert_eq!(at, [5, 8]);
        let mut fresh = Encoder::new();
        fresh.limit(300);
        let (_, block) = sent(&mut fresh, &a, 1);
        assert_eq!(block[..3], [0x3f, 0x8d, 0x02]);
    }
}
