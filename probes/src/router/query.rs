//! The query string of a request URI: its GET parameters.
//!
//! A search form submits `/content/search?SearchText=foo`; the CMS routes
//! the path alone and hands the query to the module as GET parameters. So
//! the query (and a fragment, which a browser should never send but links
//! copied by hand do carry) is split off before routing, and never becomes
//! part of a view name or a parameter.

use std::borrow::Cow;

use super::percent::decode_lenient;

/// One GET parameter's value: `name=value` gives text, `name[]=value`
/// lines collect a list, as PHP reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GetValue {
    Text(String),
    List(Vec<String>),
}

impl GetValue {
    pub fn as_text(&self) -> Option<&str> {
        match self {
            GetValue::Text(t) => Some(t),
            GetValue::List(_) => None,
        }
    }

    pub fn as_list(&self) -> Option<&[String]> {
        match self {
            GetValue::List(items) => Some(items),
            GetValue::Text(_) => None,
        }
    }
}

/// A request URI cut in three: the path that is routed, the query and the
/// fragment (each without its `?` or `#`).
pub(crate) fn split(uri: &str) -> (&str, Option<&str>, Option<&str>) {
    let (rest, fragment) = match uri.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (uri, None),
    };
    match rest.split_once('?') {
        Some((path, query)) => (path, Some(query), fragment),
        None => (rest, None, fragment),
    }
}

/// Decodes a query: `&`-separated `name=value` pairs, `+` standing for a
/// space and `%XX` escapes decoded. Unlike the path, a bad escape or bytes
/// that are not UTF-8 never make the URI invalid, since PHP's `$_GET`
/// keeps such a value: a bad escape stays as written and bad bytes become
/// U+FFFD. A pair without `=` has the empty value, an empty pair or
/// name is skipped. A name repeated takes the later value; `name[]=v`
/// appends to the list `name` (replacing a text value, as PHP does).
/// `name[key]=v` keeps its whole name: keyed GET arrays are left to the
/// module that wants them.
pub(crate) fn parse(query: &str) -> Vec<(String, GetValue)> {
    let mut out: Vec<(String, GetValue)> = Vec::new();
    for pair in query.split('&') {
        let (raw_name, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let name = form_decode(raw_name);
        let value = form_decode(raw_value);
        if name.is_empty() {
            continue;
        }
        match name.strip_suffix("[]") {
            Some(list) if !list.is_empty() => match out.iter_mut().find(|(n, _)| n == list) {
                Some((_, GetValue::List(items))) => items.push(value),
                Some((_, other)) => *other = GetValue::List(vec![value]),
                None => out.push((list.to_string(), GetValue::List(vec![value]))),
            },
            _ => match out.iter_mut().find(|(n, _)| *n == name) {
                Some((_, other)) => *other = GetValue::Text(value),
                None => out.push((name, GetValue::Text(value))),
            },
        }
    }
    out
}

/// Form decoding: `+` is a space, then percent escapes. `%2B` still gives
/// a plus, since the `+` are replaced before the escapes are read.
fn form_decode(raw: &str) -> String {
    let spaced: Cow<'_, str> = if raw.contains('+') {
        Cow::Owned(raw.replace('+', " "))
    } else {
        Cow::Borrowed(raw)
    };
    decode_lenient(&spaced).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: &str) -> GetValue {
        GetValue::Text(v.to_string())
    }

    #[test]
    fn splits_query_and_fragment_off() {
        assert_eq!(split("/a/b"), ("/a/b", None, None));
        assert_eq!(split("/a?x=1"), ("/a", Some("x=1"), None));
        assert_eq!(split("/a?x=1#top"), ("/a", Some("x=1"), Some("top")));
        assert_eq!(split("/a#top?x=1"), ("/a", None, Some("top?x=1")));
        assert_eq!(split("/a?x=?#"), ("/a", Some("x=?"), Some("")));
    }

    #[test]
    fn pairs_are_decoded() {
        let got = parse("SearchText=foo+bar%21&Page=2&flag&&=orphan");
        assert_eq!(
            got,
            [
                ("SearchText".to_string(), text("foo bar!")),
                ("Page".to_string(), text("2")),
                ("flag".to_string(), text("")),
            ]
        );
        let got = parse("a%2Bb=c%2B%2Bd");
        assert_eq!(got, [("a+b".to_string(), text("c++d"))]);
    }

    #[test]
    fn brackets_collect_a_list_and_repeats_take_the_later_value() {
        let got = parse("SubTreeArray[]=2&x=1&SubTreeArray[]=5&x=3&k[a]=1");
        assert_eq!(
            got,
            [
                (
                    "SubTreeArray".to_string(),
                    GetValue::List(vec!["2".into(), "5".into()])
                ),
                ("x".to_string(), text("3")),
                ("k[a]".to_string(), text("1")),
            ]
        );
        let got = parse("x=1&x[]=2");
        assert_eq!(got[0].1.as_list(), Some(&["2".to_string()][..]));
        assert_eq!(got[0].1.as_text(), None);
    }

    #[test]
    fn bad_escapes_and_bytes_are_kept_not_refused() {
        // As PHP's $_GET: a bad escape stays as written.
        assert_eq!(
            parse("a=1&b=%zz&c=50%"),
            [
                ("a".to_string(), text("1")),
                ("b".to_string(), text("%zz")),
                ("c".to_string(), text("50%")),
            ]
        );
        // Bytes that are not UTF-8 are replaced, not an error.
        assert_eq!(parse("%FF=1"), [("\u{fffd}".to_string(), text("1"))]);
    }
}
