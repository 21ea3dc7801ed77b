//! The pages to measure, from `--url` and `--urls-file`. A page is either an
//! absolute URL (naming its own server) or a path, measured on every server
//! of `--base` or `--compare`.

use super::url::Url;
use crate::error::Error;
use std::path::Path;

/// Reads a list of pages: one per line, blank lines and `#` comments
/// skipped. Absolute URLs are checked here so an error names the line.
pub(crate) fn from_file(path: &Path) -> Result<Vec<String>, Error> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::input(format!("{shown}: cannot read: {e}")))?;
    parse_list(&text).map_err(|(line, m)| Error::input(format!("{shown}:{line}: {m}")))
}

/// The pages of a list file's text; the error carries its line number.
pub(crate) fn parse_list(text: &str) -> Result<Vec<String>, (usize, String)> {
    let mut pages = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        check(line).map_err(|m| (i + 1, m))?;
        pages.push(line.to_string());
    }
    Ok(pages)
}

/// Checks one page as given: an absolute URL must parse; a path may not
/// hold white space.
pub(crate) fn check(page: &str) -> Result<(), String> {
    if is_absolute(page) {
        Url::parse(page).map(|_| ())
    } else if page.chars().any(char::is_whitespace) {
        Err(format!("`{page}`: a page may not contain spaces"))
    } else {
        Ok(())
    }
}

/// True for an absolute URL (a scheme, then `://`), false for a path: a
/// path's query may hold a URL (`/go?to=http://x`).
pub(crate) fn is_absolute(page: &str) -> bool {
    page.split_once("://").is_some_and(|(scheme, _)| {
        scheme
            .as_bytes()
            .first()
            .is_some_and(u8::is_ascii_alphabetic)
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        let pages = parse_list("# home\n/\n\n  /about  \n#/skip\nhttp://localhost:81/x\n").unwrap();
        assert_eq!(pages, ["/", "/about", "http://localhost:81/x"]);
    }

    #[test]
    fn a_url_in_a_path_s_query_leaves_it_a_path() {
        assert!(is_absolute("http://h/") && is_absolute("HTTPS://h/"));
        for path in ["/go?to=http://x", "/a://b", "://x", "1http://x"] {
            assert!(!is_absolute(path), "{path}");
            assert_eq!(check(path), Ok(()), "{path}");
        }
    }

    #[test]
    fn errors_name_the_line() {
        let (line, m) = parse_list("/\n\nftp://h/\n").unwrap_err();
        assert_eq!(line, 3);
        assert!(m.contains("only http"), "{m}");
        assert_eq!(parse_list("/a b").unwrap_err().0, 1);
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = from_file(Path::new("/nonexistent/pages.txt"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/nonexistent/pages.txt") && e.contains("cannot read"),
            "{e}"
        );
    }

    proptest! {
        #[test]
        fn list_parsing_never_panics(text in "\\PC{0,200}") {
            let _ = parse_list(&text);
        }
    }
}
