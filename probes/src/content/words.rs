//! The generator's randomness and its text: a seeded SplitMix64 and
//! sentences drawn from a fixed vocabulary.
//!
//! The generator is written here rather than taken from a crate because
//! its values are a contract: the same seed must give the same database,
//! byte for byte, in every later build (a test pins the checksum), and a
//! random-number crate is free to change its sequences between versions.
//! SplitMix64 is a dozen lines, passes BigCrush, and has no state to
//! misuse.

/// A seeded pseudo-random sequence (SplitMix64, Steele, Lea and Flood
/// 2014).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// The sequence of `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` above 0), by multiply-shift: unbiased enough
    /// for text and shapes, and the same on every platform.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Words of a CMS's pages: news, products, the company, events.
#[rustfmt::skip]
const WORDS: &[&str] = &[
    "about", "access", "account", "action", "address", "advice", "agency", "annual", "answer",
    "archive", "area", "article", "autumn", "award", "balance", "basic", "board", "book", "brand",
    "bridge", "budget", "building", "business", "campaign", "capital", "career", "catalogue",
    "centre", "change", "channel", "choice", "city", "client", "climate", "coast", "collection",
    "community", "company", "concert", "conference", "contact", "content", "contract", "council",
    "country", "course", "culture", "customer", "daily", "data", "design", "detail", "development",
    "digital", "direct", "district", "document", "domain", "early", "economy", "edition",
    "education", "energy", "engine", "event", "evening", "example", "exhibition", "expert",
    "family", "feature", "festival", "field", "film", "finance", "forest", "form", "forum",
    "future", "gallery", "garden", "general", "global", "green", "group", "guide", "harbour",
    "health", "history", "holiday", "home", "hotel", "house", "idea", "image", "industry",
    "insight", "island", "journal", "kitchen", "language", "launch", "leader", "learning",
    "letter", "library", "light", "local", "market", "media", "meeting", "member", "memory",
    "method", "model", "modern", "morning", "museum", "music", "nature", "network", "news",
    "north", "notice", "office", "online", "open", "order", "outdoor", "partner", "people",
    "period", "picture", "place", "plan", "platform", "policy", "portrait", "power", "press",
    "price", "private", "process", "product", "program", "project", "public", "quality",
    "question", "radio", "range", "reader", "region", "release", "report", "research", "resource",
    "review", "river", "road", "room", "rural", "safety", "school", "science", "season", "section",
    "security", "service", "share", "shop", "site", "social", "software", "solution", "south",
    "space", "special", "sport", "spring", "staff", "station", "story", "street", "student",
    "studio", "summer", "support", "system", "team", "technology", "theatre", "today", "tour",
    "town", "trade", "training", "travel", "update", "urban", "user", "valley", "value", "village",
    "vision", "visitor", "water", "weekly", "welcome", "west", "winter", "world", "year", "youth",
];

/// Joins of sentences: a few short function words.
const LINKS: &[&str] = &[
    "and", "for", "with", "from", "in", "of", "on", "the", "to", "about", "after", "before",
];

/// A title of `words` words, each capitalised: "Harbour Festival Report".
pub fn title(rng: &mut Rng, words: u64) -> String {
    (0..words)
        .map(|_| capitalised(rng.pick::<&str>(WORDS)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A sentence of 6 to 16 words, capitalised, ending in a full stop.
pub fn sentence(rng: &mut Rng) -> String {
    let n = rng.between(6, 16);
    let words: Vec<&str> = (0..n)
        .map(|i| {
            if i % 3 == 2 {
                *rng.pick(LINKS)
            } else {
                *rng.pick(WORDS)
            }
        })
        .collect();
    format!("{}.", capitalised(&words.join(" ")))
}

/// `sentences` sentences as one paragraph.
pub fn paragraph(rng: &mut Rng, sentences: u64) -> String {
    (0..sentences)
        .map(|_| sentence(rng))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rich text as the CMS stores it: an XML section of paragraphs.
pub fn xml_text(rng: &mut Rng, paragraphs: u64) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<section xmlns:custom=\"http://ez.no/namespaces/ezpublish3/custom/\">",
    );
    for _ in 0..paragraphs {
        let sentences = rng.between(2, 6);
        out.push_str("<paragraph>");
        out.push_str(&paragraph(rng, sentences));
        out.push_str("</paragraph>");
    }
    out.push_str("</section>\n");
    out
}

/// `text` lowercased with runs of anything but letters and digits as one
/// `-`: the URL alias element of a name ("Harbour Festival" →
/// "harbour-festival").
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_splitmix64() {
        // The reference values of SplitMix64 from seed 0.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_stays_below() {
        let mut rng = Rng::new(7);
        assert!((0..10_000).all(|_| rng.below(3) < 3));
        assert!((0..1000).all(|_| (4..=9).contains(&rng.between(4, 9))));
    }

    #[test]
    fn slugs_are_lowercase_words_joined_by_dashes() {
        assert_eq!(slug("Harbour Festival Report"), "harbour-festival-report");
        assert_eq!(slug("  A -- b!  "), "a-b");
        assert_eq!(slug("Ærø"), "r");
    }
}
