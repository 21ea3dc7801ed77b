//! Gzip for responses: whether a request accepts it, and the compressing.

use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;

/// Whether an `Accept-Encoding` value allows gzip: `gzip`, `x-gzip` or
/// `*` listed without `q=0`.
pub fn accepted(header: &str) -> bool {
    header.split(',').any(|item| {
        let mut parts = item.split(';');
        let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let refused = parts.any(|p| {
            let p = p.trim();
            p.strip_prefix("q=")
                .or_else(|| p.strip_prefix("Q="))
                .is_some_and(|q| q.trim().parse::<f64>().is_ok_and(|q| q <= 0.0))
        });
        matches!(coding.as_str(), "gzip" | "x-gzip" | "*") && !refused
    })
}

/// `bytes` gzipped at the default level, the one web servers use.
pub fn compress(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4 + 64),
        Compression::default(),
    );
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

/// Ungzipped `bytes` (tests only).
#[cfg(test)]
pub fn decompress(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut out).unwrap();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        for yes in [
            "gzip",
            "br, gzip",
            "GZIP;q=0.5",
            "*",
            "x-gzip",
            "deflate, gzip;q=1.0",
        ] {
            assert!(accepted(yes), "{yes}");
        }
        for no in ["", "identity", "br", "gzip;q=0", "gzip; q=0.0", "gzipped"] {
            assert!(!accepted(no), "{no}");
        }
    }

    #[test]
    fn compressing_round_trips() {
        let text = "a page of text ".repeat(100);
        let packed = compress(text.as_bytes());
        assert!(packed.len() < text.len() / 4);
        assert_eq!(decompress(&packed), text.as_bytes());
    }
}
