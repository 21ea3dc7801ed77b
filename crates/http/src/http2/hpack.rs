//! HPACK (RFC 7541): header blocks as a server sends them, decoded, each
//! field handed to a callback, its strings in buffers the decoder keeps
//! from one block to the next (no header map is built). The client's own
//! blocks are `request.rs`'s.
//!
//! Huffman-coded strings are decoded four bits at a time by a table made
//! once from the code of RFC 7541's Appendix B (as `httlib-huffman` holds
//! it): 256 states of the code's tree, 16 steps from each. Not by
//! `httlib_huffman::decode`, which allocates at the end of every string:
//! an answer would then allocate for each header it carries.

use std::collections::VecDeque;
use std::sync::OnceLock;

/// Why a header block could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Error(pub(crate) &'static str);

/// An entry's overhead in the table's size (RFC 7541 §4.1).
const ENTRY_OVERHEAD: usize = 32;

/// The static table (RFC 7541, Appendix A), from index 1.
const STATIC: [(&str, &str); 61] = [
    (":authority", ""),
    (":method", "GET"),
    (":method", "POST"),
    (":path", "/"),
    (":path", "/index.html"),
    (":scheme", "http"),
    (":scheme", "https"),
    (":status", "200"),
    (":status", "204"),
    (":status", "206"),
    (":status", "304"),
    (":status", "400"),
    (":status", "404"),
    (":status", "500"),
    ("accept-charset", ""),
    ("accept-encoding", "gzip, deflate"),
    ("accept-language", ""),
    ("accept-ranges", ""),
    ("accept", ""),
    ("access-control-allow-origin", ""),
    ("age", ""),
    ("allow", ""),
    ("authorization", ""),
    ("cache-control", ""),
    ("content-disposition", ""),
    ("content-encoding", ""),
    ("content-language", ""),
    ("content-length", ""),
    ("content-location", ""),
    ("content-range", ""),
    ("content-type", ""),
    ("cookie", ""),
    ("date", ""),
    ("etag", ""),
    ("expect", ""),
    ("expires", ""),
    ("from", ""),
    ("host", ""),
    ("if-match", ""),
    ("if-modified-since", ""),
    ("if-none-match", ""),
    ("if-range", ""),
    ("if-unmodified-since", ""),
    ("last-modified", ""),
    ("link", ""),
    ("location", ""),
    ("max-forwards", ""),
    ("proxy-authenticate", ""),
    ("proxy-authorization", ""),
    ("range", ""),
    ("referer", ""),
    ("refresh", ""),
    ("retry-after", ""),
    ("server", ""),
    ("set-cookie", ""),
    ("strict-transport-security", ""),
    ("transfer-encoding", ""),
    ("user-agent", ""),
    ("vary", ""),
    ("via", ""),
    ("www-authenticate", ""),
];

/// The decoder of one connection's answers: the dynamic table, which
/// follows every block the server sends, and buffers for strings.
pub(crate) struct Decoder {
    /// Newest first.
    table: VecDeque<(Vec<u8>, Vec<u8>)>,
    /// The entries' size, overheads counted.
    size: usize,
    /// The size the server last set, at most `allowed`.
    max: usize,
    /// The size the client allows (SETTINGS_HEADER_TABLE_SIZE).
    allowed: usize,
    name: Vec<u8>,
    value: Vec<u8>,
    /// Evicted entries, kept for their buffers.
    spare: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Evicted entries kept for their buffers, at most.
const SPARE: usize = 8;

/// Which table an index is of, and where in it.
enum Place {
    Static(usize),
    Dynamic(usize),
}

impl Decoder {
    /// A decoder whose table may grow to `allowed` bytes.
    pub(crate) fn new(allowed: usize) -> Decoder {
        Decoder {
            table: VecDeque::new(),
            size: 0,
            max: allowed,
            allowed,
            name: Vec::new(),
            value: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Decodes `block`, telling `field` of each (name, value).
    pub(crate) fn decode(
        &mut self,
        block: &[u8],
        mut field: impl FnMut(&[u8], &[u8]),
    ) -> Result<(), Error> {
        let mut at = 0;
        while let Some(&first) = block.get(at) {
            if first & 0x80 != 0 {
                let (index, used) = integer(&block[at..], 7)?;
                at += used;
                let (name, value) = self.entry(index)?;
                field(name, value);
            } else if first & 0x40 != 0 {
                at += self.literal(&block[at..], 6)?;
                field(&self.name, &self.value);
                // An evicted entry's buffers, where there is one: a server
                // that adds its `date` with every answer evicts one each.
                let mut entry = self.spare.pop().unwrap_or_default();
                entry.0.clear();
                entry.0.extend_from_slice(&self.name);
                entry.1.clear();
                entry.1.extend_from_slice(&self.value);
                self.insert(entry);
            } else if first & 0x20 != 0 {
                let (size, used) = integer(&block[at..], 5)?;
                at += used;
                if size > self.allowed {
                    return Err(Error("a table size past the one allowed"));
                }
                self.max = size;
                self.evict(0);
            } else {
                at += self.literal(&block[at..], 4)?;
                field(&self.name, &self.value);
            }
        }
        Ok(())
    }

    /// A literal field at the start of `bytes`, its name's index of a
    /// `prefix`-bit integer (0: the name follows), read into the buffers;
    /// the bytes it took.
    fn literal(&mut self, bytes: &[u8], prefix: u32) -> Result<usize, Error> {
        let (index, mut used) = integer(bytes, prefix)?;
        if index == 0 {
            used += string(&bytes[used..], &mut self.name)?;
        } else {
            let name = match self.locate(index)? {
                Place::Static(i) => STATIC[i].0.as_bytes(),
                Place::Dynamic(i) => &self.table[i].0,
            };
            self.name.clear();
            self.name.extend_from_slice(name);
        }
        used += string(&bytes[used..], &mut self.value)?;
        Ok(used)
    }

    fn locate(&self, index: usize) -> Result<Place, Error> {
        match index {
            0 => Err(Error("index 0")),
            1..=61 => Ok(Place::Static(index - 1)),
            _ if index - 62 < self.table.len() => Ok(Place::Dynamic(index - 62)),
            _ => Err(Error("an index past the table")),
        }
    }

    fn entry(&self, index: usize) -> Result<(&[u8], &[u8]), Error> {
        Ok(match self.locate(index)? {
            Place::Static(i) => (STATIC[i].0.as_bytes(), STATIC[i].1.as_bytes()),
            Place::Dynamic(i) => (&self.table[i].0, &self.table[i].1),
        })
    }

    /// Adds an entry, evicting the oldest to make room; one larger than
    /// the table empties it, and is not kept (RFC 7541 §4.4).
    fn insert(&mut self, entry: (Vec<u8>, Vec<u8>)) {
        let size = entry.0.len() + entry.1.len() + ENTRY_OVERHEAD;
        self.evict(size);
        if size <= self.max {
            self.size += size;
            self.table.push_front(entry);
        } else {
            self.keep_spare(entry);
        }
    }

    /// Keeps an evicted entry's buffers for the next, unless they are large
    /// (a header that came once) or enough are kept.
    fn keep_spare(&mut self, entry: (Vec<u8>, Vec<u8>)) {
        if self.spare.len() < SPARE && entry.0.capacity() + entry.1.capacity() <= 512 {
            self.spare.push(entry);
        }
    }

    /// Evicts the oldest entries until `room` more bytes fit (or none is
    /// left).
    fn evict(&mut self, room: usize) {
        while self.size + room > self.max {
            match self.table.pop_back() {
                Some(entry) => {
                    self.size -= entry.0.len() + entry.1.len() + ENTRY_OVERHEAD;
                    self.keep_spare(entry);
                }
                None => {
                    self.size = 0;
                    break;
                }
            }
        }
    }
}

/// An integer of a `prefix`-bit prefix (RFC 7541 §5.1) at the start of
/// `bytes`, and the bytes it took; at most 2^28, more than any size or
/// index of a header block this client takes.
fn integer(bytes: &[u8], prefix: u32) -> Result<(usize, usize), Error> {
    let first = *bytes.first().ok_or(Error("a field cut short"))?;
    let max = (1usize << prefix) - 1;
    let mut value = usize::from(first) & max;
    if value < max {
        return Ok((value, 1));
    }
    for (i, &b) in bytes.iter().enumerate().skip(1) {
        let shift = 7 * (i - 1);
        if shift > 21 {
            return Err(Error("an integer too large"));
        }
        value += usize::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    Err(Error("an integer cut short"))
}

/// A string literal (RFC 7541 §5.2) at the start of `bytes`, decoded into
/// `out`; the bytes it took.
fn string(bytes: &[u8], out: &mut Vec<u8>) -> Result<usize, Error> {
    let first = *bytes.first().ok_or(Error("a string cut short"))?;
    let (length, used) = integer(bytes, 7)?;
    let raw = bytes
        .get(used..used.saturating_add(length))
        .ok_or(Error("a string longer than its block"))?;
    out.clear();
    if first & 0x80 != 0 {
        huffman(raw, out)?;
    } else {
        out.extend_from_slice(raw);
    }
    Ok(used + length)
}

/// One step of the Huffman table: from a state, four bits on.
#[derive(Clone, Copy, Default)]
struct Step {
    /// The state after the four bits.
    next: u8,
    /// The symbol they completed, if one (codes are at least 5 bits, so
    /// four bits complete at most one).
    symbol: Option<u8>,
    /// They reached EOS, which a string must not hold.
    fail: bool,
}

/// The decoding table: a state for each inner node of the code's tree,
/// and whether a string may end there (its bits since the last symbol
/// are fewer than 8 and all ones: padding).
struct Table {
    steps: Vec<[Step; 16]>,
    may_end: Vec<bool>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(make_table)
}

/// The code's tree, then a step for each state and four bits.
fn make_table() -> Table {
    const LEAF: u32 = 1 << 31;
    // Children of each inner node: another inner node, or LEAF | symbol.
    let mut tree: Vec<[Option<u32>; 2]> = vec![[None; 2]];
    for (symbol, &(length, code)) in httlib_huffman::encoder::table::ENCODE_TABLE
        .iter()
        .enumerate()
    {
        let mut node = 0usize;
        for bit in (0..u32::from(length)).rev() {
            let b = ((code >> bit) & 1) as usize;
            if bit == 0 {
                tree[node][b] = Some(LEAF | symbol as u32);
            } else {
                node = match tree[node][b] {
                    Some(inner) if inner & LEAF == 0 => inner as usize,
                    _ => {
                        tree.push([None; 2]);
                        let inner = tree.len() - 1;
                        tree[node][b] = Some(inner as u32);
                        inner
                    }
                };
            }
        }
    }
    // Padding: the nodes reached from the root by fewer than 8 ones.
    let mut may_end = vec![false; tree.len()];
    let mut node = 0usize;
    may_end[0] = true;
    for _ in 0..7 {
        match tree[node][1] {
            Some(inner) if inner & LEAF == 0 => {
                node = inner as usize;
                may_end[node] = true;
            }
            _ => break,
        }
    }
    let steps = (0..tree.len())
        .map(|state| {
            let mut row = [Step::default(); 16];
            for (nibble, step) in row.iter_mut().enumerate() {
                let mut node = state;
                for bit in (0..4).rev() {
                    match tree[node][(nibble >> bit) & 1] {
                        Some(leaf) if leaf & LEAF != 0 => {
                            let symbol = leaf & !LEAF;
                            match u8::try_from(symbol) {
                                Ok(s) => step.symbol = Some(s),
                                Err(_) => step.fail = true,
                            }
                            node = 0;
                        }
                        Some(inner) => node = inner as usize,
                        None => step.fail = true,
                    }
                }
                step.next = u8::try_from(node).unwrap_or(0);
            }
            row
        })
        .collect();
    Table { steps, may_end }
}

/// Decodes Huffman-coded `raw` into `out` (RFC 7541 §5.2).
fn huffman(raw: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    let table = table();
    let mut state = 0usize;
    for &byte in raw {
        for nibble in [byte >> 4, byte & 0xf] {
            let step = table.steps[state][usize::from(nibble)];
            if step.fail {
                return Err(Error("a Huffman string holding EOS"));
            }
            if let Some(symbol) = step.symbol {
                out.push(symbol);
            }
            state = usize::from(step.next);
        }
    }
    if !table.may_end[state] {
        return Err(Error("a Huffman string ending past its padding"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    type Fields = Vec<(Vec<u8>, Vec<u8>)>;

    fn decoded(d: &mut Decoder, block: &[u8]) -> Result<Fields, Error> {
        let mut fields = Vec::new();
        d.decode(block, |n, v| fields.push((n.to_vec(), v.to_vec())))?;
        Ok(fields)
    }

    #[test]
    fn the_static_table_is_hpack_s() {
        for index in 1..=61u8 {
            let mut theirs = loona_hpack::Decoder::new();
            let want = theirs.decode(&[0x80 | index]).unwrap();
            let got = decoded(&mut Decoder::new(4096), &[0x80 | index]).unwrap();
            assert_eq!(got, want, "entry {index}");
        }
    }

    #[test]
    fn the_rfc_s_examples_of_answers_decode() {
        // RFC 7541 C.6: three answers with Huffman coding, a 256-byte
        // table, so entries are evicted.
        let blocks = [
            "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3",
            "4883640effc1c0bf",
            "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
        ];
        let mut d = Decoder::new(256);
        let mut theirs = loona_hpack::Decoder::new();
        theirs.set_max_table_size(256);
        for hex in blocks {
            let block: Vec<u8> = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
            assert_eq!(
                decoded(&mut d, &block).unwrap(),
                theirs.decode(&block).unwrap()
            );
        }
        assert_eq!(d.size, 215);
        let first = decoded(&mut Decoder::new(256), &[0x48, 0x82, 0x64, 0x02]).unwrap();
        assert_eq!(first, [(b":status".to_vec(), b"302".to_vec())]);
    }

    #[test]
    fn every_symbol_decodes_from_its_code() {
        for symbol in 0..=255u8 {
            let text = [symbol, b'a', symbol];
            let mut coded = Vec::new();
            httlib_huffman::encode(&text, &mut coded).unwrap();
            let mut out = Vec::new();
            huffman(&coded, &mut out).unwrap();
            assert_eq!(out, text);
        }
        // Padding of more than seven bits, and EOS, are no string.
        assert!(huffman(&[0xff], &mut Vec::new()).is_err());
        assert!(huffman(&[0xff, 0xff, 0xff, 0xff], &mut Vec::new()).is_err());
    }

    #[test]
    fn a_table_size_past_the_allowed_one_is_refused() {
        let mut d = Decoder::new(4096);
        assert!(d.decode(&[0x3f, 0xe1, 0x1f], |_, _| {}).is_ok());
        assert!(d.decode(&[0x3f, 0xe2, 0x1f], |_, _| {}).is_err());
        assert!(d.decode(&[0x80], |_, _| {}).is_err());
        assert!(d.decode(&[0xbe], |_, _| {}).is_err());
    }

    proptest! {
        #[test]
        fn no_block_panics(block in prop::collection::vec(any::<u8>(), 0..200)) {
            let mut d = Decoder::new(4096);
            let _ = d.decode(&block, |_, _| {});
            prop_assert!(d.size <= 4096);
        }

        #[test]
        fn huffman_strings_round_trip(text in prop::collection::vec(any::<u8>(), 0..100)) {
            let mut coded = Vec::new();
            httlib_huffman::encode(&text, &mut coded).unwrap();
            let mut out = Vec::new();
            huffman(&coded, &mut out).unwrap();
            prop_assert_eq!(out, text);
        }

        #[test]
        fn literals_with_indexing_decode_as_loona_decodes_them(
            fields in prop::collection::vec(("[a-z-]{1,12}", "[ -~]{0,40}"), 1..30),
        ) {
            let mut block = Vec::new();
            for (name, value) in &fields {
                block.push(0x40);
                block.push(name.len() as u8);
                block.extend_from_slice(name.as_bytes());
                block.push(value.len() as u8);
                block.extend_from_slice(value.as_bytes());
            }
            let mut ours = Decoder::new(256);
            let mut theirs = loona_hpack::Decoder::new();
            theirs.set_max_table_size(256);
            prop_assert_eq!(decoded(&mut ours, &block).unwrap(), theirs.decode(&block).unwrap());
            // The tables agree too: every entry left, by index.
            for index in (62..62 + ours.table.len()).take_while(|i| *i < 127) {
                let i = u8::try_from(index).unwrap_or(0);
                prop_assert_eq!(
                    decoded(&mut ours, &[0x80 | i]).unwrap(),
                    theirs.decode(&[0x80 | i]).unwrap()
                );
            }
        }
    }
}
