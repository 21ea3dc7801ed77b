//! The render fixture rendered by the kernel's template engine and by
//! minijinja from an equivalent Jinja template.
//!
//! The two engines place whitespace differently around their tags, so the
//! pages are held to one equivalence: the same characters once whitespace
//! is left out. [`Page`]'s fingerprint is that of its characters without
//! whitespace, so the two variants agree exactly when their pages do.

use std::collections::BTreeMap;
use std::hash::Hasher;

use minijinja::value::Value as JValue;
use minijinja::{Environment, context};

use probes::template::ops::Locale;
use probes::template::probes::{RENDER_TITLE, fixture_engine, golden, render_items, render_vars};
use probes::template::{Engine, Program, Value, Vars};

/// The render fixture in Jinja. The operators without a Jinja built-in of
/// the same meaning (`wash`, `shorten`, `l10n('number')`, `ezurl`, `i18n`)
/// are registered as filters with the same behaviour.
const JINJA_RENDER: &str = r#"{%- set ns = namespace(total=0, featured=[]) -%}
<!DOCTYPE html>
<html>
<head><title>{{ title|wash }}</title></head>
<body>
<h1>{{ title|wash }}</h1>
<form action={{ '/content/search'|ezurl }} method="get"><input type="submit" value="{{ 'Search'|i18n('design/standard/content/search') }}" /></form>
<p>{{ items|length }} items</p>
<table class="list">
{%- for item in items %}
{%- set ns.total = ns.total + item.price %}
{%- if item.featured %}{% set ns.featured = ns.featured + [item.name] %}{% endif %}
{%- if not loop.first and loop.index0 % 10 == 0 %}<tr class="separator"><td colspan="4"></td></tr>{% endif %}
<tr class="{{ 'featured' if item.featured else ('even' if loop.index0 % 2 == 0 else 'odd') }}">
<td>{{ item.id }}</td>
<td><a href={{ ('/content/view/full/' ~ item.id)|ezurl }}>{{ item.name|wash|shorten(30) }}</a></td>
<td class="price">{{ item.price|l10n_number }}</td>
<td>{{ item.tags|join(', ')|upper }}</td>
</tr>
{%- endfor %}
</table>
<p class="total">{{ 'Total'|i18n('design/standard/content/search') }}: {{ ns.total|l10n_number }}</p>
{% if ns.featured|length > 0 -%}
<p class="featured">{{ 'Featured'|i18n('design/standard/content/search') }}: {{ ns.featured|join(' / ')|wash }}</p>
{%- else -%}
<p>{{ 'No featured items'|i18n('design/standard/content/search') }}</p>
{%- endif %}
</body>
</html>
"#;

/// A rendered page, fingerprinted without its whitespace.
pub struct Page(pub String);

impl yardstick_probe::Checksum for Page {
    fn checksum(&self) -> u64 {
        let mut h = yardstick_probe::FingerprintHasher::default();
        for c in self.0.chars().filter(|c| !c.is_whitespace()) {
            h.write_u32(u32::from(c));
        }
        h.finish()
    }
}

/// The page both engines must give, from the golden file.
fn expected() -> Result<Page, String> {
    golden("render.html").map(Page)
}

/// Whether two pages are the same up to whitespace, naming the first
/// difference when not.
fn same_page(got: &Page, expected: &Page) -> Result<(), String> {
    let strip = |p: &Page| {
        p.0.chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
    };
    let (got, expected) = (strip(got), strip(expected));
    match got.chars().zip(expected.chars()).position(|(a, b)| a != b) {
        None if got.len() == expected.len() => Ok(()),
        at => Err(format!(
            "the page differs from golden/render.html (whitespace aside) at character {}",
            at.unwrap_or(got.len().min(expected.len()))
        )),
    }
}

pub struct Kernel {
    engine: Engine,
    program: std::sync::Arc<Program>,
    vars: Vars,
    expected: Page,
}

fn kernel() -> Result<Kernel, String> {
    let engine = fixture_engine();
    let program = engine
        .load("design:render.tpl")
        .map_err(|e| e.to_string())?;
    Ok(Kernel {
        engine,
        program,
        vars: render_vars(),
        expected: expected()?,
    })
}

pub struct Jinja {
    env: Environment<'static>,
    context: JValue,
    expected: Page,
}

/// The kernel's value as minijinja's.
fn jinja_value(v: &Value) -> JValue {
    match v {
        Value::Null | Value::Object(_) => JValue::from(()),
        Value::Bool(b) => JValue::from(*b),
        Value::Int(i) => JValue::from(*i),
        Value::Float(f) => JValue::from(*f),
        Value::Str(s) => JValue::from(&**s),
        Value::Array(list) => JValue::from(list.iter().map(jinja_value).collect::<Vec<_>>()),
        Value::Hash(map) => JValue::from(
            map.iter()
                .map(|(k, v)| (k.to_string(), jinja_value(v)))
                .collect::<BTreeMap<_, _>>(),
        ),
    }
}

fn jinja() -> Result<Jinja, String> {
    let mut env = crate::jinja_environment();
    env.add_filter("shorten", |s: &str, len: usize| {
        if s.chars().count() <= len {
            s.to_string()
        } else {
            let mut out: String = s.chars().take(len.saturating_sub(3)).collect();
            out.push_str("...");
            out
        }
    });
    let locale = Locale::default();
    env.add_filter("l10n_number", move |n: f64| locale.number(n));
    env.add_filter("ezurl", |s: &str| {
        format!("\"/index.php/{}\"", s.trim_start_matches('/'))
    });
    env.add_filter("i18n", |s: &str, _context: &str| s.to_string());
    env.add_template("render.txt", JINJA_RENDER)
        .map_err(|e| e.to_string())?;
    let items: Vec<JValue> = render_items().iter().map(jinja_value).collect();
    Ok(Jinja {
        env,
        context: context! { title => RENDER_TITLE, items => items },
        expected: expected()?,
    })
}

fn render_jinja(j: &Jinja) -> Result<Page, String> {
    let template = j
        .env
        .get_template("render.txt")
        .map_err(|e| e.to_string())?;
    template
        .render(&j.context)
        .map(Page)
        .map_err(|e| e.to_string())
}

yardstick_probe::probe! {
    name: template_page_kernel,
    group: template_page,
    variant: kernel,
    role: reference,
    ops: 1,
    note: "the render fixture, 40 items, compiled once",
    setup: kernel,
    run: |k: &Kernel| k.engine.render(&k.program, &k.vars).map(Page).map_err(|e| e.to_string()),
    check: |k: &Kernel, page: &Result<Page, String>| same_page(page.as_ref().map_err(Clone::clone)?, &k.expected),
}

yardstick_probe::probe! {
    name: template_page_minijinja,
    group: template_page,
    variant: minijinja,
    ops: 1,
    note: "the same page from an equivalent Jinja template, compiled once",
    setup: jinja,
    run: render_jinja,
    check: |j: &Jinja, page: &Result<Page, String>| same_page(page.as_ref().map_err(Clone::clone)?, &j.expected),
}
