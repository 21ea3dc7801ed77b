//! Golden outputs for every design fixture. Run with `YARDSTICK_BLESS=1`
//! to rewrite the golden files after an intended change, then review the
//! diff before committing it.

use std::sync::Arc;

use super::engine::{Engine, Vars};
use super::probes::{
    COMPILED, compare_golden, compile_all, design_dir, digest, fixture_engine, navigator_vars,
    render_vars,
};
use super::value::{Map, Value};
use crate::fixtures;
use crate::host::{SettingValue, SettingsSource, Translator};

fn check(name: &str, actual: &str) {
    if std::env::var_os("YARDSTICK_BLESS").is_some() {
        let path = fixtures::path(&format!("golden/{name}"));
        std::fs::write(&path, actual).unwrap();
        return;
    }
    if let Err(e) = compare_golden(name, actual) {
        panic!("{e}");
    }
}

/// The settings a small site would have, for `ezini` in the layouts.
struct SiteSettings;

impl SettingsSource for SiteSettings {
    fn setting(&self, file: &str, group: &str, name: &str) -> Option<SettingValue> {
        let s = |v: &str| Some(SettingValue::Scalar(v.to_string()));
        let a = |v: &[&str]| {
            Some(SettingValue::Array(
                v.iter().map(|x| x.to_string()).collect(),
            ))
        };
        let h = |v: &[(&str, &str)]| {
            Some(SettingValue::Hash(
                v.iter()
                    .map(|(k, x)| (k.to_string(), x.to_string()))
                    .collect(),
            ))
        };
        match (file, group, name) {
            ("site.ini", "SiteSettings", "SiteName") => s("Yardstick & Co"),
            ("site.ini", "RegistrationSettings", "Enabled") => s("true"),
            ("site.ini", "DebugSettings", "ShowDebugBox") => s("enabled"),
            ("site.ini", "DatabaseSettings", "DatabaseImplementation") => s("ezmysqli"),
            // As the fixture site's template.ini: page links use the user
            // parameter `/(offset)/` the router reads.
            ("template.ini", "ControlSettings", "AllowUserVariables") => s("true"),
            ("design.ini", "PathSettings", "ShowPath") => s("enabled"),
            ("design.ini", "AnalyticsSettings", "Enabled") => s("true"),
            ("design.ini", "AnalyticsSettings", "ScriptURL") => {
                s("https://stats.example/a.js?site='main'")
            }
            ("design.ini", "StylesheetSettings", "CSSFileList") => {
                a(&["stylesheets/core.css", "stylesheets/site.css"])
            }
            ("menu.ini", "MenuSettings", "TopMenuItems") => a(&[
                "Home;/",
                "News;/news",
                "Products;/products",
                "Contact;/contact",
            ]),
            ("menu.ini", "FooterSettings", "Links") => {
                h(&[("Privacy", "/privacy"), ("Sitemap", "/content/sitemap/2")])
            }
            ("admin.ini", "AdminSettings", "ShowContentTree") => s("enabled"),
            ("admin.ini", "NavigationPart", "Tabs") => h(&[
                ("content", "content structure"),
                ("media", "media library"),
                ("users", "user accounts"),
            ]),
            _ => None,
        }
    }
}

/// A two-entry catalogue, to show `i18n` going through the translator.
struct Catalogue;

impl Translator for Catalogue {
    fn translate(&self, context: &str, source: &str, _comment: &str) -> Option<&str> {
        match (context, source) {
            ("design/standard/layout", "Log in") => Some("Sign in"),
            ("design/standard/layout", "Welcome, %name") => Some("Hello %name!"),
            _ => None,
        }
    }
}

fn site_engine() -> Engine {
    Engine::new(vec![design_dir()])
        .with_settings(Arc::new(SiteSettings))
        .with_translator(Arc::new(Catalogue))
}

fn map(pairs: Vec<(&str, Value)>) -> Value {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert(k, v);
    }
    Value::from(m)
}

fn s(v: &str) -> Value {
    Value::str(v)
}

fn step(text: &str, url: &str) -> Value {
    map(vec![
        ("text", s(text)),
        (
            "url",
            if url.is_empty() {
                Value::Bool(false)
            } else {
                s(url)
            },
        ),
    ])
}

fn layout_vars(logged_in: bool) -> Vars {
    let menu_item = |id: i64, name: &str, children: Vec<Value>| {
        map(vec![
            ("node_id", Value::Int(id)),
            ("name", s(name)),
            ("children", Value::from(children)),
        ])
    };
    let tree = (0..6)
        .map(|i| {
            map(vec![
                ("node_id", Value::Int(2 + i)),
                ("depth", Value::Int(1 + i % 3)),
                (
                    "name",
                    Value::from(format!("Folder <{i}> with a rather long name")),
                ),
                ("hidden", Value::Bool(i == 4)),
            ])
        })
        .collect::<Vec<_>>();
    Vars::new()
        .set("current_year", 2024)
        .set(
            "site",
            map(vec![
                ("title", s("Yardstick & Co")),
                ("charset", s("utf-8")),
                ("language", s("EN-GB")),
            ]),
        )
        .set(
            "current_user",
            map(vec![
                ("is_logged_in", Value::Bool(logged_in)),
                ("login", s("editor")),
                ("name", s("Eve <Editor>")),
            ]),
        )
        .set(
            "module_result",
            map(vec![
                ("uri", s("/news/latest")),
                ("node_id", Value::Int(42)),
                ("view", s("full")),
                ("search_text", s("\"quoted\" search")),
                ("content", s("<article><p>Body of the page.</p></article>")),
                (
                    "path",
                    Value::from(vec![
                        step("Home", "/"),
                        step("News", "/news"),
                        step("Latest & greatest news of the week, in full", ""),
                    ]),
                ),
                ("warnings", Value::from(vec![s("Cache is <cold>")])),
                ("tree", Value::from(tree)),
                ("node_count", Value::Int(12345)),
                ("modified", Value::Int(1_709_211_909)),
                ("modifier", s("Eve")),
                (
                    "left_menu",
                    Value::from(vec![
                        menu_item(10, "About us", Vec::new()),
                        menu_item(
                            11,
                            "Products & services",
                            (0..7)
                                .map(|i| {
                                    menu_item(
                                        20 + i,
                                        &format!("Product line number {i} and more"),
                                        Vec::new(),
                                    )
                                })
                                .collect(),
                        ),
                        menu_item(12, "<Archive>", Vec::new()),
                    ]),
                ),
            ]),
        )
}

#[test]
fn navigator_golden() {
    let out = fixture_engine()
        .render_uri("design:navigator/google.tpl", &navigator_vars())
        .unwrap_or_else(|e| panic!("{e}"));
    check("navigator.html", &out);
}

/// template.ini's `[ControlSettings] AllowUserVariables`, and nothing else.
struct UserVariables(&'static str);

impl SettingsSource for UserVariables {
    fn setting(&self, file: &str, group: &str, name: &str) -> Option<SettingValue> {
        ((file, group, name) == ("template.ini", "ControlSettings", "AllowUserVariables"))
            .then(|| SettingValue::Scalar(self.0.to_string()))
    }
}

/// The offset in page links is written `/(offset)/` (a user parameter)
/// only when template.ini allows user variables, and `/offset/` otherwise,
/// as the CMS's own navigator chooses.
#[test]
fn navigator_offset_follows_allow_user_variables() {
    let render = |allow: &'static str| {
        fixture_engine()
            .with_settings(Arc::new(UserVariables(allow)))
            .render_uri("design:navigator/google.tpl", &navigator_vars())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let allowed = render("true");
    check("navigator_user_variables.html", &allowed);
    assert!(allowed.contains("/(offset)/") && !allowed.contains("/offset/"));
    let disallowed = render("false");
    check("navigator.html", &disallowed);
    assert!(disallowed.contains("/offset/") && !disallowed.contains("/(offset)/"));
    // No setting at all reads as not allowed.
    assert_eq!(
        fixture_engine()
            .render_uri("design:navigator/google.tpl", &navigator_vars())
            .unwrap_or_else(|e| panic!("{e}")),
        disallowed
    );
}

#[test]
fn navigator_first_and_last_pages() {
    let e = fixture_engine();
    let first = navigator_vars().set("view_parameters", map(vec![("offset", Value::Int(0))]));
    let out = e.render_uri("design:navigator/google.tpl", &first).unwrap();
    assert!(out.contains("previous disabled"), "{out}");
    assert!(out.contains("<span class=\"current\">1</span>"), "{out}");
    let last = navigator_vars().set("view_parameters", map(vec![("offset", Value::Int(240))]));
    let out = e.render_uri("design:navigator/google.tpl", &last).unwrap();
    assert!(out.contains("next disabled"), "{out}");
    assert!(out.contains("<span class=\"current\">25</span>"), "{out}");
    let single = navigator_vars().set("item_count", 5);
    assert_eq!(
        e.render_uri("design:navigator/google.tpl", &single)
            .unwrap(),
        ""
    );
}

#[test]
fn render_fixture_golden() {
    let out = fixture_engine()
        .render_uri("design:render.tpl", &render_vars())
        .unwrap_or_else(|e| panic!("{e}"));
    check("render.html", &out);
}

#[test]
fn compiled_digest_golden() {
    let sources: Vec<(&str, String)> = COMPILED
        .iter()
        .map(|n| (*n, std::fs::read_to_string(design_dir().join(n)).unwrap()))
        .collect();
    let programs = compile_all(&sources).unwrap_or_else(|e| panic!("{e}"));
    check("compiled.sha256", &format!("{}\n", digest(&programs)));
    // Only the admin layout uses extension code, and says so; its
    // `{run-once}` is a built-in tag.
    for (name, p) in COMPILED.iter().zip(&programs) {
        let messages: Vec<String> = p.warnings.iter().map(ToString::to_string).collect();
        if *name == "admin/pagelayout.tpl" {
            assert_eq!(messages.len(), 1, "{messages:?}");
            assert!(
                messages[0].contains("unknown operator `ezpreference`"),
                "{messages:?}"
            );
        } else {
            assert!(messages.is_empty(), "{name}: {messages:?}");
        }
    }
}

#[test]
fn public_layout_golden() {
    let vars = layout_vars(false);
    let out = site_engine()
        .render_uri("design:pagelayout.tpl", &vars)
        .unwrap_or_else(|e| panic!("{e}"));
    check("pagelayout.html", &out);
    let logged_in = site_engine()
        .render_uri("design:pagelayout.tpl", &layout_vars(true))
        .unwrap();
    assert!(
        logged_in.contains("Hello Eve &lt;Editor&gt;!"),
        "{logged_in}"
    );
}

#[test]
fn admin_layout_golden() {
    let out = site_engine()
        .render_uri("design:admin/pagelayout.tpl", &layout_vars(true))
        .unwrap_or_else(|e| panic!("{e}"));
    check("admin_pagelayout.html", &out);
}

fn attribute(id: i64, identifier: &str, name: &str, datatype: &str, content: Value) -> Value {
    map(vec![
        ("id", Value::Int(id)),
        ("identifier", s(identifier)),
        ("name", s(name)),
        ("datatype", s(datatype)),
        ("content", content),
        ("is_required", Value::Bool(id % 2 == 1)),
        ("is_information_collector", Value::Bool(false)),
        (
            "description",
            if id == 3 {
                s("Line one\nLine <two>")
            } else {
                s("")
            },
        ),
    ])
}

#[test]
fn edit_form_golden() {
    let mut options = Map::new();
    options.insert("0", s("Small"));
    options.insert("1", s("Large & heavy"));
    let mut selection = attribute(5, "size", "Size", "ezselection", Value::from(vec![s("1")]));
    if let Value::Hash(m) = &mut selection {
        Arc::make_mut(m).insert("options", Value::from(options));
    }
    let vars = Vars::new()
        .set(
            "object",
            map(vec![
                ("id", Value::Int(57)),
                ("version", Value::Int(3)),
                ("language", s("eng-GB")),
                ("name", s("Spring \"sale\"")),
                ("class_name", s("Article")),
                ("can_publish", Value::Bool(true)),
            ]),
        )
        .set(
            "attributes",
            Value::from(vec![
                attribute(1, "title", "Title", "ezstring", s("Spring \"sale\"")),
                attribute(2, "intro", "Intro", "eztext", s("Everything <must> go")),
                attribute(3, "stock", "Stock", "ezinteger", s("12.7")),
                attribute(4, "public", "Public", "ezboolean", Value::Bool(true)),
                selection,
                attribute(6, "start", "Start", "ezdate", Value::Int(1_709_211_909)),
                attribute(7, "map", "Map", "ezgmaplocation", Value::Null),
            ]),
        )
        .set(
            "validation",
            map(vec![
                ("processed", Value::Bool(true)),
                (
                    "attributes",
                    Value::from(vec![map(vec![
                        ("name", s("Stock")),
                        ("description", s("Must be a whole number")),
                        ("identifier", s("stock")),
                    ])]),
                ),
            ]),
        )
        .set("redirect_uri", "/content/view/full/57?a=1&b=2");
    let out = fixture_engine()
        .render_uri("design:content/edit.tpl", &vars)
        .unwrap_or_else(|e| panic!("{e}"));
    check("content_edit.html", &out);
}

#[test]
fn full_view_golden() {
    let attr = |name: &str, ty: &str, content: Value, has: bool| {
        map(vec![
            ("contentclass_name", s(name)),
            ("data_type", s(ty)),
            ("content", content),
            ("has_content", Value::Bool(has)),
        ])
    };
    let data_map = map(vec![
        ("name", attr("Name", "ezstring", s("Ignored"), true)),
        (
            "body",
            attr("Body", "ezxmltext", s("<p>Rich <em>text</em></p>"), true),
        ),
        (
            "image",
            attr(
                "Image",
                "ezimage",
                map(vec![
                    ("url", s("/var/storage/images/a.jpg")),
                    ("alt", s("A \"view\"")),
                    ("width", Value::Int(640)),
                    ("height", Value::Int(480)),
                ]),
                true,
            ),
        ),
        ("empty", attr("Empty", "eztext", s(""), false)),
        (
            "tags",
            attr(
                "Keywords",
                "ezkeyword",
                Value::from(vec![s("a&b"), s("c")]),
                true,
            ),
        ),
        (
            "price",
            attr("Price", "ezprice", Value::Float(1999.5), true),
        ),
        ("note", attr("Note", "eztext", s("first\nsecond"), true)),
    ]);
    let children: Vec<Value> = (0..12)
        .map(|i| {
            map(vec![
                ("name", Value::from(format!("Child {i}"))),
                ("url_alias", Value::from(format!("/news/child-{i}"))),
                ("class_name", s("Article")),
                ("modified", Value::Int(1_700_000_000 + i * 86_400 * 30)),
            ])
        })
        .collect();
    let node = map(vec![
        ("name", s("News & events")),
        ("published", Value::Int(1_705_000_000)),
        ("owner_name", s("Eve")),
        ("class_identifier", s("folder")),
        ("url_alias", s("/news")),
        ("data_map", data_map),
        ("children", Value::from(children)),
    ]);
    let vars = Vars::new()
        .set("node", node)
        .set("view_parameters", map(vec![("offset", Value::Int(5))]));
    let out = fixture_engine()
        .with_settings(Arc::new(SiteSettings))
        .render_uri("design:node/view/full.tpl", &vars)
        .unwrap_or_else(|e| panic!("{e}"));
    check("node_full.html", &out);
    assert!(
        out.contains("pagenavigator"),
        "the included navigator renders"
    );
    // The page links are what the fixture site's router reads: the offset
    // is a user parameter, not an ordered one.
    let site = crate::settings::SiteSettings::new(vec![fixtures::path("settings")]);
    let site_ini = site.file("site.ini").unwrap_or_else(|e| panic!("{e}"));
    let router = crate::router::Router::from_settings(crate::router::Registry::kernel(), &site_ini);
    let link = out
        .split("href=\"/index.php")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .find(|link| link.contains("offset"))
        .unwrap_or_default();
    assert!(link.contains("/(offset)/"), "{link}");
    let uri = router.parse(link).unwrap_or_else(|e| panic!("{link}: {e}"));
    assert!(
        uri.user_parameters().any(|(name, _)| name == "offset"),
        "{link}"
    );
    assert_eq!(
        SiteSettings.setting("template.ini", "ControlSettings", "AllowUserVariables"),
        site.setting("template.ini", "ControlSettings", "AllowUserVariables"),
        "the golden's settings agree with the fixture site's template.ini"
    );
}
