//! Template engine speed: compile throughput over the five design
//! templates, render time per template, and the render fixture side by side
//! with minijinja rendering an equivalent Jinja template.
//!
//! Run with `cargo run --release -p probes --example template_speed`.
//! Rounds are interleaved (ours, theirs, ours, ...) so that both see the
//! same machine state; figures are medians over rounds.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use minijinja::value::Value as JValue;
use minijinja::{AutoEscape, Environment, context};
use probes::template::ops::{Locale, escape_html_into};
use probes::template::probes::{
    COMPILED, RENDER_TITLE, compile_all, design_dir, fixture_engine, navigator_vars, render_vars,
};

const ROUNDS: usize = 31;

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

fn jinja_env() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::None);
    env.add_filter("wash", |s: &str| {
        let mut out = String::with_capacity(s.len() + 8);
        escape_html_into(s, &mut out);
        out
    });
    env.add_filter("shorten", |s: &str, len: usize| {
        let count = s.chars().count();
        if count <= len {
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
        .expect("the Jinja template compiles");
    env
}

fn jinja_items() -> JValue {
    let items: Vec<JValue> = (0..40i64)
        .map(|i| {
            let mut m: BTreeMap<&str, JValue> = BTreeMap::new();
            m.insert("id", JValue::from(100 + i));
            m.insert(
                "name",
                JValue::from(format!("Benchmark item number {i} with a longer name")),
            );
            m.insert("price", JValue::from(i as f64 * 3.25));
            m.insert("featured", JValue::from(i % 7 == 0));
            m.insert(
                "tags",
                JValue::from(vec![
                    JValue::from(format!("tag{}", i % 5)),
                    JValue::from("all"),
                ]),
            );
            JValue::from(m)
        })
        .collect();
    JValue::from(items)
}

fn without_whitespace(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The type-7 median of yardstick's statistics (zero for no value).
fn median(v: Vec<Duration>) -> Duration {
    let seconds: Vec<f64> = v.iter().map(Duration::as_secs_f64).collect();
    Duration::from_secs_f64(yardstick::stats::median(&seconds).unwrap_or(0.0))
}

/// Times `batch` calls of `f`, returning the time per call.
fn time_per_call<T>(batch: u32, mut f: impl FnMut() -> T) -> Duration {
    let start = Instant::now();
    for _ in 0..batch {
        black_box(f());
    }
    start.elapsed() / batch
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    // Compile throughput.
    let sources: Vec<(&str, String)> = COMPILED
        .iter()
        .map(|n| {
            let path = design_dir().join(n);
            let src = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (*n, src)
        })
        .collect();
    let bytes: usize = sources.iter().map(|(_, s)| s.len()).sum();
    let lines: usize = sources.iter().map(|(_, s)| s.lines().count()).sum();
    compile_all(&sources).expect("fixtures compile");
    let compile_times: Vec<Duration> = (0..ROUNDS)
        .map(|_| time_per_call(20, || compile_all(&sources)))
        .collect();
    let compile = median(compile_times);
    let per_second = 5.0 / compile.as_secs_f64();
    println!(
        "compile: 5 templates, {lines} lines, {:.1} KB in {:.1} µs per set (median of {ROUNDS}): {:.0} templates/s, {:.0} KB/s",
        bytes as f64 / 1024.0,
        micros(compile),
        per_second,
        bytes as f64 / 1024.0 / compile.as_secs_f64()
    );

    // Render time per template, and the side-by-side comparison.
    let engine = fixture_engine();
    let navigator = engine
        .load("design:navigator/google.tpl")
        .expect("navigator loads");
    let render = engine
        .load("design:render.tpl")
        .expect("render fixture loads");
    let nav_vars = navigator_vars();
    let vars = render_vars();

    let env = jinja_env();
    let tmpl = env.get_template("render.txt").expect("template registered");
    let ctx = context! { title => RENDER_TITLE, items => jinja_items() };

    let ours_out = engine
        .render(&render, &vars)
        .expect("render fixture renders");
    let theirs_out = tmpl.render(&ctx).expect("Jinja template renders");
    assert_eq!(
        without_whitespace(&ours_out),
        without_whitespace(&theirs_out),
        "the two templates must produce the same page up to whitespace"
    );
    println!(
        "outputs: ours {} bytes, minijinja {} bytes, equal up to whitespace",
        ours_out.len(),
        theirs_out.len()
    );

    let batch = 200;
    let (mut nav_t, mut ours_t, mut theirs_t) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        nav_t.push(time_per_call(batch, || {
            engine.render(&navigator, &nav_vars)
        }));
        ours_t.push(time_per_call(batch, || engine.render(&render, &vars)));
        theirs_t.push(time_per_call(batch, || tmpl.render(&ctx)));
    }
    let (nav, ours, theirs) = (median(nav_t), median(ours_t), median(theirs_t));
    println!(
        "render navigator/google.tpl: {:.2} µs per render",
        micros(nav)
    );
    println!(
        "render render.tpl (40 items): {:.2} µs per render",
        micros(ours)
    );
    println!(
        "minijinja, same page:          {:.2} µs per render",
        micros(theirs)
    );
    println!(
        "ratio ours/minijinja: {:.3} (target <= 1.0)",
        ours.as_secs_f64() / theirs.as_secs_f64()
    );
}
