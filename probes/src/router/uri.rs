//! Splitting a request path into elements and user parameters.

use std::borrow::Cow;

use super::percent::{UrlError, decode};
use super::query::{self, GetValue};

/// A request path taken apart: the elements that name module, view and
/// ordered parameters, the named user parameters, and the GET parameters
/// and fragment split off before routing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Uri<'a> {
    elements: Vec<Cow<'a, str>>,
    user: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    get: Vec<(String, GetValue)>,
    fragment: Option<&'a str>,
}

/// The identifier inside `(identifier)`, if the element is one.
fn user_parameter_name(element: &str) -> Option<&str> {
    let name = element.strip_prefix('(')?.strip_suffix(')')?;
    let valid = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    valid.then_some(name)
}

impl<'a> Uri<'a> {
    /// Takes a request URI apart. The query string and fragment are split
    /// off first and never reach the routed elements; the query becomes
    /// the GET parameters. With `user_parameters` off, `(name)/value`
    /// elements stay in the ordered list like any other.
    pub fn parse(request: &'a str, user_parameters: bool) -> Result<Self, UrlError> {
        let (path, query, fragment) = query::split(request);
        let (body, skipped) = match path.strip_prefix('/') {
            Some(rest) => (rest, 1),
            None => (path, 0),
        };
        let mut uri = Uri {
            fragment,
            ..Uri::default()
        };
        if let Some(query) = query {
            uri.get = query::parse(query);
        }
        // The user parameter that plain elements are appended to, and
        // whether its value has been taken yet.
        let mut current: Option<usize> = None;
        let mut awaiting_value = false;
        let mut start = skipped;
        for raw in body.split('/') {
            let element = decode(raw, start)?;
            start += raw.len() + 1;
            if awaiting_value {
                if let Some(i) = current {
                    uri.user[i].1 = element;
                }
                awaiting_value = false;
                continue;
            }
            if user_parameters && let Some(name) = user_parameter_name(&element) {
                let name = match element {
                    Cow::Borrowed(e) => Cow::Borrowed(&e[1..e.len() - 1]),
                    Cow::Owned(_) => Cow::Owned(name.to_string()),
                };
                current = Some(uri.set_user(name));
                awaiting_value = true;
                continue;
            }
            match current {
                Some(i) => {
                    let value = uri.user[i].1.to_mut();
                    value.push('/');
                    value.push_str(&element);
                }
                None => uri.elements.push(element),
            }
        }
        Ok(uri)
    }

    /// Sets a user parameter to the empty value; a repeated name takes the
    /// later value, as a form field would.
    fn set_user(&mut self, name: Cow<'a, str>) -> usize {
        match self.user.iter().position(|(n, _)| *n == name) {
            Some(i) => {
                self.user[i].1 = Cow::Borrowed("");
                i
            }
            None => {
                self.user.push((name, Cow::Borrowed("")));
                self.user.len() - 1
            }
        }
    }

    /// Module, view and ordered parameters, in order.
    pub fn elements(&self) -> &[Cow<'a, str>] {
        &self.elements
    }

    /// The module: `""` for the site's index page.
    pub fn module(&self) -> &str {
        self.elements.first().map_or("", |e| e)
    }

    pub fn view(&self) -> Option<&str> {
        self.elements.get(1).map(|e| e.as_ref())
    }

    /// The elements after module and view.
    pub fn ordered(&self) -> &[Cow<'a, str>] {
        self.elements.get(2..).unwrap_or(&[])
    }

    /// User parameters in order of first appearance.
    pub fn user_parameters(&self) -> impl Iterator<Item = (&str, &str)> {
        self.user.iter().map(|(n, v)| (n.as_ref(), v.as_ref()))
    }

    pub fn user_parameter(&self, name: &str) -> Option<&str> {
        self.user
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_ref())
    }

    pub fn user_parameter_count(&self) -> usize {
        self.user.len()
    }

    /// The query string's parameters in order of first appearance.
    pub fn get_parameters(&self) -> impl Iterator<Item = (&str, &GetValue)> {
        self.get.iter().map(|(n, v)| (n.as_str(), v))
    }

    pub fn get_parameter(&self, name: &str) -> Option<&GetValue> {
        self.get.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The text after `#`, if the URI carried one.
    pub fn fragment(&self) -> Option<&'a str> {
        self.fragment
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(path: &str, on: bool) -> (Vec<String>, Vec<(String, String)>) {
        let uri = Uri::parse(path, on).unwrap();
        (
            uri.elements().iter().map(|e| e.to_string()).collect(),
            uri.user_parameters()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        )
    }

    fn user(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_index_and_plain_paths() {
        let uri = Uri::parse("/", true).unwrap();
        assert_eq!(uri.module(), "");
        assert_eq!(uri.view(), None);
        assert!(uri.ordered().is_empty());
        assert_eq!(Uri::parse("", true).unwrap().module(), "");
        let uri = Uri::parse("content/view/full/2", true).unwrap();
        assert_eq!((uri.module(), uri.view()), ("content", Some("view")));
        assert_eq!(uri.ordered(), ["full", "2"]);
        // Only one leading slash is stripped.
        assert_eq!(parts("//a", true).0, ["", "a"]);
    }

    #[test]
    fn user_parameters_leave_the_list() {
        let (el, up) = parts("/content/view/full/144/(offset)/20/(sort)/name", true);
        assert_eq!(el, ["content", "view", "full", "144"]);
        assert_eq!(up, user(&[("offset", "20"), ("sort", "name")]));
        let (el, up) = parts(
            "/content/search/(SearchText)/benchmark/(SubTreeArray)/2",
            true,
        );
        assert_eq!(el, ["content", "search"]);
        assert_eq!(
            up,
            user(&[("SearchText", "benchmark"), ("SubTreeArray", "2")])
        );
    }

    #[test]
    fn plain_elements_after_a_value_are_appended_to_it() {
        let (el, up) = parts("content/view/full/2/(path)/a/b/c/(page)/3/x", true);
        assert_eq!(el, ["content", "view", "full", "2"]);
        assert_eq!(up, user(&[("path", "a/b/c"), ("page", "3/x")]));
    }

    #[test]
    fn a_name_at_the_end_has_an_empty_value() {
        let (_, up) = parts("content/view/full/2/(offset)", true);
        assert_eq!(up, user(&[("offset", "")]));
        // A name right after a name is that name's value.
        let (_, up) = parts("a/b/(x)/(y)", true);
        assert_eq!(up, user(&[("x", "(y)")]));
    }

    #[test]
    fn repeated_names_take_the_later_value() {
        let (_, up) = parts("a/b/(offset)/10/(sort)/n/(offset)/20", true);
        assert_eq!(up, user(&[("offset", "20"), ("sort", "n")]));
    }

    #[test]
    fn only_identifiers_make_user_parameters() {
        let (el, up) = parts("a/b/(no-dash)/1/()/2/(ok_1)/3", true);
        assert_eq!(el, ["a", "b", "(no-dash)", "1", "()", "2"]);
        assert_eq!(up, user(&[("ok_1", "3")]));
    }

    #[test]
    fn decoding_happens_per_element() {
        let (el, up) = parts("content/search/a%2Fb/%28offset%29/1%202", true);
        assert_eq!(el, ["content", "search", "a/b"]);
        assert_eq!(up, user(&[("offset", "1 2")]));
        assert_eq!(
            Uri::parse("/content/view/%zz", true),
            Err(UrlError::BadEscape { offset: 14 })
        );
        assert_eq!(
            Uri::parse("a/(x)/%E9", true),
            Err(UrlError::NotUtf8 { offset: 6 })
        );
    }

    #[test]
    fn the_query_string_is_split_off_before_routing() {
        let uri = Uri::parse("/content/search?SearchText=foo", true).unwrap();
        assert_eq!((uri.module(), uri.view()), ("content", Some("search")));
        assert!(uri.ordered().is_empty());
        assert_eq!(uri.user_parameter_count(), 0);
        assert_eq!(
            uri.get_parameter("SearchText").and_then(GetValue::as_text),
            Some("foo")
        );
        assert_eq!(uri.fragment(), None);
    }

    #[test]
    fn query_and_fragment_beside_user_parameters() {
        let uri = Uri::parse(
            "/content/view/full/2/(offset)/10?SubTreeArray[]=2&SubTreeArray[]=3#comments",
            true,
        )
        .unwrap();
        assert_eq!(uri.ordered(), ["full", "2"]);
        assert_eq!(uri.user_parameter("offset"), Some("10"));
        let list = uri
            .get_parameter("SubTreeArray")
            .and_then(GetValue::as_list);
        assert_eq!(list, Some(&["2".to_string(), "3".to_string()][..]));
        assert_eq!(uri.fragment(), Some("comments"));
        let names: Vec<_> = uri.get_parameters().map(|(n, _)| n).collect();
        assert_eq!(names, ["SubTreeArray"]);
        // A `?` inside an escaped element is data, not a query.
        let uri = Uri::parse("content/search/a%3Fb#x?y=1", true).unwrap();
        assert_eq!(uri.ordered(), ["a?b"]);
        assert_eq!(uri.get_parameter("y"), None);
        assert_eq!(uri.fragment(), Some("x?y=1"));
    }

    #[test]
    fn a_bad_query_escape_does_not_reject_the_url() {
        // The path still routes and the value keeps its text, as PHP's
        // $_GET does; a bad escape in the path stays an error.
        let uri = Uri::parse("/a/b?q=%G1&r=%FF", true).unwrap();
        assert_eq!((uri.module(), uri.view()), ("a", Some("b")));
        assert_eq!(
            uri.get_parameter("q").and_then(GetValue::as_text),
            Some("%G1")
        );
        assert_eq!(
            uri.get_parameter("r").and_then(GetValue::as_text),
            Some("\u{fffd}")
        );
        assert_eq!(
            Uri::parse("/a/%G1?q=1", true),
            Err(UrlError::BadEscape { offset: 3 })
        );
    }

    #[test]
    fn turned_off_user_parameters_stay_ordered() {
        let (el, up) = parts("/content/view/full/144/(offset)/20", false);
        assert_eq!(el, ["content", "view", "full", "144", "(offset)", "20"]);
        assert!(up.is_empty());
    }
}
