//! Operators that reach outside the template: the site's URL layout
//! (`ezurl`, `ezroot`, `ezdesign`, `ezimage`), the translation catalogue
//! (`i18n`), the settings (`ezini`), and the `attribute` debugging dump.

use std::borrow::Cow;
use std::path::Path;

use super::text::escape_html_into;
use super::{Env, Operands, Unary};
use crate::host::{SettingValue, substitute};
use crate::template::budget::Budget;
use crate::template::value::{Map, Value};

/// Where the site lives, for building URLs.
#[derive(Clone, Debug, PartialEq)]
pub struct Site {
    /// The front controller prefix of module URLs (`/index.php`, or `""`
    /// with URL rewriting).
    pub index: String,
    /// The web root for static files (`""` at the domain root).
    pub root: String,
    /// Scheme and host for `ezurl(, 'full')`.
    pub host: String,
}

impl Default for Site {
    fn default() -> Self {
        Site {
            index: "/index.php".into(),
            root: String::new(),
            host: "http://localhost".into(),
        }
    }
}

/// Wraps a URL in the quotes asked for (`double`, `single` or `no`),
/// percent-encoding the quote characters so the attribute stays intact.
fn quoted(url: &str, quote: &str) -> String {
    match quote {
        "no" => url.to_string(),
        "single" => format!("'{}'", url.replace('\'', "%27")),
        _ => format!("\"{}\"", url.replace('"', "%22")),
    }
}

fn is_absolute(url: &str) -> bool {
    url.contains("://")
        || url.starts_with("mailto:")
        || url.starts_with('#')
        || url.starts_with("//")
}

/// `ezurl(quote, type)`: a module URL under the site's front controller.
pub fn ezurl(u: Unary, env: &Env) -> Value {
    let url = u.subject.to_text();
    let quote = u.text_param(0, "double");
    let full = u.text_param(1, "relative") == "full";
    let path = if is_absolute(&url) {
        url.into_owned()
    } else {
        let mut path = String::with_capacity(env.site.index.len() + url.len() + 1);
        if full {
            path.push_str(&env.site.host);
        }
        path.push_str(&env.site.index);
        path.push('/');
        path.push_str(url.trim_start_matches('/'));
        path
    };
    Value::from(quoted(&path, &quote))
}

/// `ezroot(quote)`: a static path under the web root.
pub fn ezroot(u: Unary, env: &Env) -> Value {
    let url = u.subject.to_text();
    let quote = u.text_param(0, "double");
    if is_absolute(&url) {
        return Value::from(quoted(&url, &quote));
    }
    let path = format!("{}/{}", env.site.root, url.trim_start_matches('/'));
    Value::from(quoted(&path, &quote))
}

/// `ezdesign(quote)` / `ezimage(quote)`: the URL of a design file, taken
/// from the first design in the search path that has it.
pub fn ezdesign(u: Unary, env: &Env, prefix: &str) -> Value {
    let file = format!("{prefix}{}", u.subject.to_text().trim_start_matches('/'));
    let quote = u.text_param(0, "double");
    let design_name = |dir: &Path| {
        dir.file_name().map_or_else(
            || "standard".to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let design = env
        .designs
        .iter()
        .find(|dir| dir.join(&file).is_file())
        .or_else(|| env.designs.first())
        .map_or_else(|| "standard".to_string(), |d| design_name(d));
    let url = format!("{}/design/{design}/{file}", env.site.root);
    Value::from(quoted(&url, &quote))
}

/// `'Text %1'|i18n(context, comment, args)`: the translation (or the
/// source text), with `%1`… from an array or `%name` from a hash filled in.
pub fn i18n(u: Unary, env: &Env) -> Value {
    let source = u.subject.to_text();
    let context = u.text_param(0, "");
    let comment = u.text_param(1, "");
    let text = env
        .translator
        .and_then(|t| t.translate(&context, &source, &comment))
        .unwrap_or(&source);
    let args = u.param(2);
    let pairs: Vec<(String, String)> = match args.as_deref() {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("%{}", i + 1), v.to_text().into_owned()))
            .collect(),
        Some(Value::Hash(map)) => map
            .iter()
            .map(|(k, v)| {
                let key = if k.starts_with('%') {
                    k.to_string()
                } else {
                    format!("%{k}")
                };
                (key, v.to_text().into_owned())
            })
            .collect(),
        _ => Vec::new(),
    };
    // Each `%` may become the longest argument: one line of
    // `{set $s=$s|i18n('','',array($s))}` can square a text's length.
    let longest = pairs.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    let upper = text
        .len()
        .saturating_add(text.len().saturating_mul(longest));
    let exact = || {
        let marks = text.bytes().filter(|&b| b == b'%').count();
        text.len().saturating_add(marks.saturating_mul(longest))
    };
    if !env.budget.fits_within(upper, exact) {
        return Value::Null;
    }
    let borrowed: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    Value::from(substitute(text, &borrowed))
}

/// `ezini(group, name, file)`: a setting, `file` defaulting to `site.ini`;
/// null when unset or when no settings reader is plugged in.
pub fn ezini(ops: &Operands, env: &Env) -> Value {
    let Some(settings) = env.settings else {
        return Value::Null;
    };
    let group = ops.get(0).to_text().into_owned();
    let name = ops.get(1).to_text().into_owned();
    let file = match ops.get(2) {
        Cow::Borrowed(Value::Null) | Cow::Owned(Value::Null) => "site.ini".to_string(),
        v => v.to_text().into_owned(),
    };
    match settings.setting(&file, &group, &name) {
        None => Value::Null,
        Some(SettingValue::Scalar(s)) => Value::from(s),
        Some(SettingValue::Array(items)) => {
            Value::from(items.into_iter().map(Value::from).collect::<Vec<_>>())
        }
        Some(SettingValue::Hash(pairs)) => {
            let mut map = Map::with_capacity(pairs.len());
            for (k, v) in pairs {
                map.insert(k, Value::from(v));
            }
            Value::from(map)
        }
    }
}

/// `$value|attribute(show, depth)`: an HTML table of the attributes, with
/// types and values when `show` is given, for debugging a design.
pub fn attribute(u: Unary, budget: &Budget) -> Value {
    let show = u.text_param(0, "") == "show";
    let depth = u.param(1).map_or(1, |v| v.to_int()).clamp(1, 4);
    let mut out = String::new();
    // A value shares its elements, so four levels of a thousand references
    // each are cheap to build and a trillion rows to dump: the dump stops
    // where the budget would.
    dump(&u.subject, show, depth, &mut out, budget.remaining());
    if !budget.fits(out.len()) {
        return Value::Null;
    }
    Value::from(out)
}

fn dump(value: &Value, show: bool, depth: i64, out: &mut String, limit: usize) {
    let entries: Vec<(String, Value)> = match value {
        Value::Hash(map) => map
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (i.to_string(), v.clone()))
            .collect(),
        Value::Object(o) => o
            .attribute_names()
            .into_iter()
            .map(|n| {
                let v = o.attribute(&n).unwrap_or_default();
                (n, v)
            })
            .collect(),
        _ => Vec::new(),
    };
    out.push_str("<table><tr><th>Attribute</th>");
    if show {
        out.push_str("<th>Type</th><th>Value</th>");
    }
    out.push_str("</tr>");
    for (name, v) in entries {
        if out.len() > limit {
            return;
        }
        out.push_str("<tr><td>");
        escape_html_into(&name, out);
        out.push_str("</td>");
        if show {
            out.push_str("<td>");
            out.push_str(v.type_name());
            out.push_str("</td><td>");
            match &v {
                Value::Hash(_) | Value::Array(_) | Value::Object(_) if depth > 1 => {
                    dump(&v, show, depth - 1, out, limit)
                }
                other => escape_html_into(&other.to_text(), out),
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
}

#[cfg(test)]
mod tests {
    use crate::template::ops::testing::{arr, call, pipe, run_with, s, with_env};
    use crate::template::value::{Map, Value};

    #[test]
    fn ezurl() {
        assert_eq!(
            pipe("ezurl", s("/content/view/full/2"), &[]),
            "\"/index.php/content/view/full/2\""
        );
        assert_eq!(
            pipe("ezurl", s("user/login"), &[s("no")]),
            "/index.php/user/login"
        );
        assert_eq!(pipe("ezurl", s("/"), &[s("single")]), "'/index.php/'");
        assert_eq!(
            pipe("ezurl", s("/a"), &[s("no"), s("full")]),
            "http://localhost/index.php/a"
        );
        assert_eq!(
            pipe("ezurl", s("https://x.org/a\"b"), &[]),
            "\"https://x.org/a%22b\""
        );
        assert_eq!(pipe("ezurl", s("#top"), &[s("no")]), "#top");
    }

    #[test]
    fn ezroot() {
        assert_eq!(
            pipe("ezroot", s("/var/storage/a.jpg"), &[]),
            "\"/var/storage/a.jpg\""
        );
        assert_eq!(pipe("ezroot", s("x.css"), &[s("no")]), "/x.css");
    }

    #[test]
    fn ezdesign() {
        let dir = tempfile::tempdir().unwrap();
        let first = dir.path().join("admin");
        let second = dir.path().join("standard");
        std::fs::create_dir_all(second.join("stylesheets")).unwrap();
        std::fs::create_dir_all(second.join("images")).unwrap();
        std::fs::create_dir_all(&first).unwrap();
        std::fs::write(second.join("stylesheets/core.css"), "").unwrap();
        std::fs::write(second.join("images/logo.png"), "").unwrap();
        let designs = vec![first, second];
        let site = super::Site::default();
        let locale = crate::template::ops::Locale::default();
        let budget = crate::template::budget::Budget::new(u64::MAX);
        let env = crate::template::ops::Env {
            budget: &budget,
            translator: None,
            settings: None,
            site: &site,
            locale: &locale,
            designs: &designs,
            clock: crate::template::ops::Clock::System,
            content: None,
        };
        let run =
            |op, v: &str, q: &[Value]| run_with(&env, op, Some(s(v)), q).to_text().into_owned();
        assert_eq!(
            run("ezdesign", "stylesheets/core.css", &[]),
            "\"/design/standard/stylesheets/core.css\""
        );
        assert_eq!(
            run("ezdesign", "missing.css", &[s("no")]),
            "/design/admin/missing.css"
        );
        assert_eq!(
            run("ezimage", "logo.png", &[s("single")]),
            "'/design/standard/images/logo.png'"
        );
    }

    #[test]
    fn ezimage_without_designs_uses_standard() {
        assert_eq!(
            pipe("ezimage", s("a.png"), &[s("no")]),
            "/design/standard/images/a.png"
        );
    }

    #[test]
    fn i18n() {
        // No translator: the source text, with substitution still applied.
        assert_eq!(pipe("i18n", s("Search"), &[s("design/search")]), "Search");
        assert_eq!(
            pipe(
                "i18n",
                s("%1 of %2"),
                &[s("ctx"), Value::Null, arr(&[Value::Int(3), Value::Int(7)])]
            ),
            "3 of 7"
        );
        let translated = |input: &str, args: &[Value]| {
            with_env(true, |env| {
                run_with(env, "i18n", Some(s(input)), args)
                    .to_text()
                    .into_owned()
            })
        };
        assert_eq!(translated("Search", &[s("design/search")]), "Zoeken");
        assert_eq!(
            translated("Search", &[s("design/search"), s("verb")]),
            "Zoek"
        );
        let mut h = Map::new();
        h.insert("%name", s("Ann"));
        assert_eq!(
            translated(
                "Hello %name",
                &[s("design/search"), Value::Null, Value::from(h)]
            ),
            "Hallo Ann"
        );
        assert_eq!(translated("Unknown", &[s("design/search")]), "Unknown");
    }

    #[test]
    fn ezini() {
        assert_eq!(
            call("ezini", &[s("SiteSettings"), s("SiteName")]),
            s("Demo site")
        );
        assert_eq!(
            call("ezini", &[s("Menu"), s("Items"), s("menu.ini")]),
            arr(&[s("a"), s("b")])
        );
        assert_eq!(
            call("ezini", &[s("Menu"), s("Map"), s("menu.ini")])
                .attr("k")
                .as_deref(),
            Some(&s("v"))
        );
        assert_eq!(call("ezini", &[s("Nope"), s("X")]), Value::Null);
    }

    #[test]
    fn attribute() {
        let mut m = Map::new();
        m.insert("name", s("<b>"));
        m.insert("tags", arr(&[s("x")]));
        let v = Value::from(m);
        assert_eq!(
            pipe("attribute", v.clone(), &[]),
            "<table><tr><th>Attribute</th></tr><tr><td>name</td></tr><tr><td>tags</td></tr></table>"
        );
        assert_eq!(
            pipe("attribute", v, &[s("show"), Value::Int(2)]),
            "<table><tr><th>Attribute</th><th>Type</th><th>Value</th></tr>\
             <tr><td>name</td><td>string</td><td>&lt;b&gt;</td></tr>\
             <tr><td>tags</td><td>array</td><td><table><tr><th>Attribute</th><th>Type</th><th>Value</th></tr>\
             <tr><td>0</td><td>string</td><td>x</td></tr></table></td></tr></table>"
        );
    }
}
