//! Operators that turn plain text into HTML: `autolink` (URLs and e-mail
//! addresses become links), `simpletags` (a few tags translated by a list
//! in template.ini) and `wordtoimage` (smileys become images, by a list in
//! wordtoimage.ini).

use super::text::escape_html_into;
use super::{Env, Unary};
use crate::host::SettingValue;
use crate::template::budget::Budget;
use crate::template::value::Value;

/// `autolink(max)`: `http://`, `https://`, `ftp://` URLs and e-mail
/// addresses become links whose visible text is cut to `max` characters
/// (with `...`). A URL ends at whitespace or a quote or angle bracket;
/// trailing punctuation stays outside the link.
pub fn autolink(u: &Unary, budget: &Budget) -> Value {
    let max = u.param(0).map_or(72, |v| v.to_int()).clamp(4, 1 << 16) as usize;
    let text = u.subject.to_text();
    // A link shows its address twice, escaped (six bytes a character at
    // most), in sixteen bytes of markup.
    if !budget.fits(text.len().saturating_mul(13)) {
        return Value::Null;
    }
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest: &str = &text;
    while !rest.is_empty() {
        let word_end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>'))
            .unwrap_or(rest.len());
        let (word, tail) = rest.split_at(word_end);
        let core = word.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
        let trailing = &word[core.len()..];
        let is_url = ["http://", "https://", "ftp://"]
            .iter()
            .any(|p| core.len() > p.len() && core.starts_with(p));
        let is_mail = !is_url && is_email(core);
        if is_url || is_mail {
            let href = if is_mail {
                format!("mailto:{core}")
            } else {
                core.to_string()
            };
            out.push_str("<a href=\"");
            out.push_str(&href);
            out.push_str("\">");
            out.push_str(&shorten(core, max));
            out.push_str("</a>");
            out.push_str(trailing);
        } else {
            out.push_str(word);
        }
        // Copy the separator, then go on with the next word.
        let sep_len = tail.chars().next().map_or(0, char::len_utf8);
        out.push_str(&tail[..sep_len]);
        rest = &tail[sep_len..];
    }
    Value::from(out)
}

fn is_email(word: &str) -> bool {
    let Some((local, domain)) = word.split_once('@') else {
        return false;
    };
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+');
    !local.is_empty()
        && local.chars().all(ok)
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && domain
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 3).collect();
    out.push_str("...");
    out
}

/// The filters a simple tag applies to its content, by name.
fn filter(name: &str, text: &str) -> String {
    match name.trim() {
        "htmlspecialchars" => {
            let mut out = String::with_capacity(text.len());
            escape_html_into(text, &mut out);
            out
        }
        "nl2br" => super::text::nl2br(text),
        "trim" => text.trim().to_string(),
        _ => text.to_string(),
    }
}

fn apply_filters(filters: &str, text: &str) -> String {
    filters
        .split(',')
        .filter(|f| !f.trim().is_empty())
        .fold(text.to_string(), |acc, f| filter(f, &acc))
}

/// `simpletags(list)`: `<name>...</name>` for each `name` in
/// template.ini's `[SimpleTagsOperator] TagList` (or `TagList_<list>`)
/// becomes the entry's start and end text around the content, the content
/// run through the entry's filters; text outside tags goes through the
/// `text` entry's filters. Tags not in the list are left as text. Without
/// settings nothing is translated and the text passes through.
pub fn simpletags(u: &Unary, env: &Env) -> Value {
    let list = u.text_param(0, "");
    let name = if list.is_empty() {
        "TagList".to_string()
    } else {
        format!("TagList_{list}")
    };
    let tags: Vec<(String, String)> = match env
        .settings
        .and_then(|s| s.setting("template.ini", "SimpleTagsOperator", &name))
    {
        Some(SettingValue::Hash(h)) => h,
        _ => Vec::new(),
    };
    let entry = |tag: &str| tags.iter().find(|(k, _)| k == tag).map(|(_, v)| v.as_str());
    // The `text` entry has the same three fields; only its filters count.
    let text_filters = entry("text")
        .map(|spec| spec.splitn(3, ';').nth(2).unwrap_or(spec))
        .unwrap_or("");
    let text = u.subject.to_text();
    let mut out = String::with_capacity(text.len());
    let mut rest: &str = &text;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let tag_end = after.find('>');
        let spec = tag_end.and_then(|e| {
            let tag = &after[..e];
            let closer = format!("</{tag}>");
            let body_start = e + 1;
            let close = after[body_start..].find(&closer)?;
            let spec = entry(tag).filter(|_| tag != "text")?;
            Some((
                spec,
                &after[body_start..body_start + close],
                body_start + close + closer.len(),
            ))
        });
        match spec {
            Some((spec, body, consumed)) => {
                out.push_str(&apply_filters(text_filters, &rest[..open]));
                let mut parts = spec.splitn(3, ';');
                let start = parts.next().unwrap_or("");
                let end = parts.next().unwrap_or("");
                let filters = parts.next().unwrap_or("");
                out.push_str(start);
                out.push_str(&apply_filters(filters, body));
                out.push_str(end);
                rest = &after[consumed..];
            }
            None => {
                out.push_str(&apply_filters(text_filters, &rest[..=open]));
                rest = after;
            }
        }
    }
    out.push_str(&apply_filters(text_filters, rest));
    Value::from(out)
}

fn array(v: Option<SettingValue>) -> Vec<String> {
    match v {
        Some(SettingValue::Array(a)) => a,
        Some(SettingValue::Hash(h)) => h.into_iter().map(|(_, v)| v).collect(),
        _ => Vec::new(),
    }
}

/// `wordtoimage`: each word of wordtoimage.ini's `[WordToImageSettings]
/// ReplaceText` list becomes an `<img>` of the icon at the same place in
/// `ReplaceIcon`, under `IconRoot`. Without settings the text passes.
pub fn wordtoimage(u: &Unary, env: &Env) -> Value {
    let text = u.subject.to_text().into_owned();
    let Some(settings) = env.settings else {
        return Value::from(text);
    };
    let get = |name: &str| settings.setting("wordtoimage.ini", "WordToImageSettings", name);
    let words = array(get("ReplaceText"));
    let icons = array(get("ReplaceIcon"));
    let root = match get("IconRoot") {
        Some(SettingValue::Scalar(s)) => s,
        _ => String::new(),
    };
    let mut out = text;
    for (word, icon) in words.iter().zip(&icons) {
        if word.is_empty() {
            continue;
        }
        let mut alt = String::new();
        escape_html_into(word, &mut alt);
        let img = format!("<img src=\"{root}/{icon}\" alt=\"{alt}\" />");
        out = out.replace(word.as_str(), &img);
    }
    Value::from(out)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{pipe, s, with_env_settings};
    use crate::host::SettingValue;
    use crate::template::value::Value;

    #[test]
    fn autolink_links_urls_and_addresses() {
        assert_eq!(
            pipe(
                "autolink",
                s("see https://example.org/a, or mail me@example.org."),
                &[]
            ),
            "see <a href=\"https://example.org/a\">https://example.org/a</a>, or mail <a href=\"mailto:me@example.org\">me@example.org</a>."
        );
        assert_eq!(
            pipe(
                "autolink",
                s("ftp://files.example.org/long/path x"),
                &[Value::Int(12)]
            ),
            "<a href=\"ftp://files.example.org/long/path\">ftp://fil...</a> x"
        );
        assert_eq!(
            pipe("autolink", s("no links @ all http://"), &[]),
            "no links @ all http://"
        );
    }

    fn tag_settings(file: &str, group: &str, name: &str) -> Option<SettingValue> {
        let h = |pairs: &[(&str, &str)]| {
            Some(SettingValue::Hash(
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ))
        };
        match (file, group, name) {
            ("template.ini", "SimpleTagsOperator", "TagList") => h(&[
                ("strong", "<b>;</b>;htmlspecialchars,nl2br"),
                ("literal", "<pre>;</pre>;htmlspecialchars"),
                ("text", ";;htmlspecialchars"),
            ]),
            ("template.ini", "SimpleTagsOperator", "TagList_short") => {
                h(&[("emphasize", "<i>;</i>;")])
            }
            ("wordtoimage.ini", "WordToImageSettings", "ReplaceText") => {
                Some(SettingValue::Array(vec![":)".into(), ":(".into()]))
            }
            ("wordtoimage.ini", "WordToImageSettings", "ReplaceIcon") => {
                Some(SettingValue::Array(vec![
                    "smile.gif".into(),
                    "sad.gif".into(),
                ]))
            }
            ("wordtoimage.ini", "WordToImageSettings", "IconRoot") => {
                Some(SettingValue::Scalar("/share/icons".into()))
            }
            _ => None,
        }
    }

    #[test]
    fn simpletags_translate_by_the_list() {
        let run = |text: &str, list: Option<&str>| {
            with_env_settings(tag_settings, "simpletags", s(text), list.map(s))
        };
        assert_eq!(
            run(
                "a&b <strong>x<y\nz</strong> <literal>{$a}</literal> <u>u</u>",
                None
            ),
            "a&amp;b <b>x&lt;y<br />\nz</b> <pre>{$a}</pre> &lt;u&gt;u&lt;/u&gt;"
        );
        // The nl2br filter is PHP's: `\r\n` stays one break.
        assert_eq!(run("<strong>x\r\ny</strong>", None), "<b>x<br />\r\ny</b>");
        assert_eq!(
            run("<emphasize>e</emphasize><strong>s</strong>", Some("short")),
            "<i>e</i><strong>s</strong>"
        );
        assert_eq!(
            pipe("simpletags", s("<strong>a</strong>"), &[]),
            "<strong>a</strong>"
        );
    }

    #[test]
    fn wordtoimage_replaces_listed_words() {
        assert_eq!(
            with_env_settings(tag_settings, "wordtoimage", s("hi :) bye :("), None),
            "hi <img src=\"/share/icons/smile.gif\" alt=\":)\" /> bye <img src=\"/share/icons/sad.gif\" alt=\":(\" />"
        );
        assert_eq!(pipe("wordtoimage", s("hi :)"), &[]), "hi :)");
    }
}
