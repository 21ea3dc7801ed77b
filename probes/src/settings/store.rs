//! The settings store: what one or more settings files say, merged.

use std::borrow::Cow;
use std::fmt;

use super::decode::{self, SettingsError};
use super::lex::{Line, classify};
use super::value::{Group, OrderedMap, Value};

/// A line the reader skipped because it matches no form. Never an error:
/// real sites carry stray lines for years, and refusing the file would take
/// the site down over a typo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub file: String,
    /// 1-based.
    pub line: usize,
    pub reason: &'static str,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

/// The merged settings of one file name: groups in order of first
/// appearance, each with its settings in order.
///
/// Lookups borrow from the store and allocate nothing, so the per-request
/// code that reads settings costs a hash and a compare.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    groups: OrderedMap<Group>,
    charset: Option<String>,
    warnings: Vec<Warning>,
    files: Vec<String>,
}

/// Two stores are equal when they hold the same settings; where they were
/// read from and what was skipped on the way does not matter.
impl PartialEq for Settings {
    fn eq(&self, other: &Self) -> bool {
        self.groups == other.groups
    }
}

impl Settings {
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads one file's bytes into a fresh store; `file` names it in errors
    /// and warnings.
    pub fn parse(file: &str, bytes: &[u8]) -> Result<Self, SettingsError> {
        let mut store = Self::new();
        store.merge_bytes(file, bytes)?;
        Ok(store)
    }

    /// Reads already decoded text into a fresh store.
    pub fn parse_str(file: &str, text: &str) -> Self {
        let mut store = Self::new();
        store.merge_str(file, text);
        store
    }

    /// Reads one more file into this store: the override step. Nothing of
    /// the store changes when the file is not valid text.
    pub fn merge_bytes(&mut self, file: &str, bytes: &[u8]) -> Result<(), SettingsError> {
        let charset = decode::declared_charset(bytes);
        let text = decode::decode(file, bytes, charset)?;
        if self.charset.is_none() {
            self.charset = charset.map(str::to_owned);
        }
        self.merge_str(file, &text);
        Ok(())
    }

    /// Reads one more piece of decoded text into this store.
    pub fn merge_str(&mut self, file: &str, text: &str) {
        self.files.push(file.to_string());
        let text: Cow<'_, str> = if text.contains('\r') {
            Cow::Owned(text.replace('\r', ""))
        } else {
            Cow::Borrowed(text)
        };
        // Settings before any header go to the group with the empty name,
        // created only when such a setting exists.
        let mut current: Option<usize> = None;
        for (index, raw) in text.split('\n').enumerate() {
            let reason = match classify(raw) {
                Line::Blank | Line::Wrapper => continue,
                Line::Group(name) => {
                    current = Some(self.group_index(name));
                    continue;
                }
                Line::Scalar { name, value } => {
                    self.current(&mut current).set_scalar(name, value);
                    continue;
                }
                Line::Append { name, value } => {
                    if self.current(&mut current).append(name, value) {
                        continue;
                    }
                    "append refused: the array's next integer key would pass the largest one"
                }
                Line::Clear { name } => {
                    self.current(&mut current).clear(name);
                    continue;
                }
                Line::Entry { name, key, value } => {
                    self.current(&mut current).set_entry(name, key, value);
                    continue;
                }
                Line::Indented => "indented line ignored",
                Line::Unknown => "line matches no setting form, ignored",
            };
            self.warnings.push(Warning {
                file: file.to_string(),
                line: index + 1,
                reason,
            });
        }
    }

    fn group_index(&mut self, name: &str) -> usize {
        match self.groups.get_index_of(name) {
            Some(i) => i,
            None => self.groups.insert_full(name.to_owned(), Group::default()).0,
        }
    }

    fn current(&mut self, current: &mut Option<usize>) -> &mut Group {
        let index = match *current {
            Some(i) => i,
            None => {
                let i = self.group_index("");
                *current = Some(i);
                i
            }
        };
        &mut self.groups[index]
    }

    /// Sets one value directly, creating its group if needed: for stores
    /// built by code (an admin form, a migration) rather than read.
    pub fn set(&mut self, group: &str, name: &str, value: Value) {
        let index = self.group_index(group);
        let group = &mut self.groups[index];
        match group.settings.get_mut(name) {
            Some(existing) => *existing = value,
            None => {
                group.settings.insert(name.to_owned(), value);
            }
        }
    }

    /// The value of `name` in `group`.
    pub fn variable(&self, group: &str, name: &str) -> Option<&Value> {
        self.groups.get(group)?.get(name)
    }

    pub fn has_variable(&self, group: &str, name: &str) -> bool {
        self.variable(group, name).is_some()
    }

    pub fn group(&self, name: &str) -> Option<&Group> {
        self.groups.get(name)
    }

    pub fn has_group(&self, name: &str) -> bool {
        self.groups.contains_key(name)
    }

    /// Groups in order of first appearance.
    pub fn groups(&self) -> impl Iterator<Item = (&str, &Group)> {
        self.groups.iter().map(|(k, g)| (k.as_str(), g))
    }

    pub fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Settings across all groups.
    pub fn variable_count(&self) -> usize {
        self.groups.values().map(Group::len).sum()
    }

    /// The charset the first file that declared one declared.
    pub fn charset(&self) -> Option<&str> {
        self.charset.as_deref()
    }

    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The files read into this store, in order.
    pub fn files(&self) -> &[String] {
        &self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar<'a>(s: &'a Settings, g: &str, n: &str) -> Option<&'a str> {
        s.variable(g, n).and_then(Value::as_scalar)
    }

    fn array(s: &Settings, g: &str, n: &str) -> Option<Vec<String>> {
        s.variable(g, n)
            .and_then(Value::as_array)
            .map(<[String]>::to_vec)
    }

    const TASTE: &str = "#?ini charset=\"utf-8\"?
[SiteSettings]
SiteName=Example site
IndexPage=/content/view/full/2
DefaultPage=content/view/full/2   ## trailing comment, cut
SiteList[]
SiteList[]=site
SiteList[]=admin

[RegionalSettings]
Locale=eng-GB
TranslationExtensions[]
LanguageSA[eng-GB]=site
LanguageSA[ger-DE]=ger
";

    #[test]
    fn reads_a_small_file() {
        let s = Settings::parse("site.ini", TASTE.as_bytes()).unwrap();
        assert_eq!(s.charset(), Some("utf-8"));
        assert_eq!(
            s.groups().map(|(n, _)| n).collect::<Vec<_>>(),
            ["SiteSettings", "RegionalSettings"]
        );
        assert_eq!(scalar(&s, "SiteSettings", "SiteName"), Some("Example site"));
        assert_eq!(
            scalar(&s, "SiteSettings", "DefaultPage"),
            Some("content/view/full/2")
        );
        assert_eq!(
            array(&s, "SiteSettings", "SiteList"),
            Some(vec!["site".into(), "admin".into()])
        );
        assert_eq!(
            array(&s, "RegionalSettings", "TranslationExtensions"),
            Some(vec![])
        );
        let sa = s.variable("RegionalSettings", "LanguageSA").unwrap();
        assert_eq!(sa.entry("ger-DE"), Some("ger"));
        assert_eq!(sa.entry("fre-FR"), None);
        assert!(s.has_variable("RegionalSettings", "Locale"));
        assert!(!s.has_variable("RegionalSettings", "locale"));
        assert!(!s.has_variable("Nope", "Locale"));
        assert_eq!(s.group("SiteSettings").map(Group::len), Some(4));
        assert_eq!(s.variable_count(), 7);
        assert!(s.warnings().is_empty());
    }

    #[test]
    fn append_empty_is_not_a_clear() {
        let s = Settings::parse_str("t.ini", "[G]\nL[]=a\nL[]=\nL[]=b\n");
        assert_eq!(
            array(&s, "G", "L"),
            Some(vec!["a".into(), "".into(), "b".into()])
        );
        let s = Settings::parse_str("t.ini", "[G]\nL[]=a\nL[]\nL[]=b\n");
        assert_eq!(array(&s, "G", "L"), Some(vec!["b".into()]));
    }

    /// The toolbar shape real sites ship: named buttons and `|` separators
    /// alternating in one variable, all kept in line order.
    #[test]
    fn mixed_appends_and_named_entries_keep_every_line() {
        let mut text = String::from("[Toolbar]\n");
        for i in 0..10 {
            text.push_str(&format!("Buttons[tool{i}]=t{i}\nButtons[]=|\n"));
        }
        let s = Settings::parse_str("toolbar.ini", &text);
        assert!(s.warnings().is_empty());
        let map = s.variable("Toolbar", "Buttons").and_then(Value::as_hash);
        assert_eq!(map.map(OrderedMap::len), Some(20));
        let keys: Vec<_> = map.into_iter().flat_map(|m| m.keys()).take(4).collect();
        assert_eq!(keys, ["tool0", "0", "tool1", "1"]);
        assert_eq!(map.and_then(|m| m.get("9")).map(String::as_str), Some("|"));
    }

    #[test]
    fn mixed_forms_starting_with_appends() {
        let s = Settings::parse_str("t.ini", "[G]\nL[]=a\nL[]=b\nL[k]=v\nL[]=c\nL[0]=A\n");
        let pairs: Vec<_> = s
            .variable("G", "L")
            .and_then(Value::as_hash)
            .into_iter()
            .flat_map(|m| m.iter().map(|(k, v)| format!("{k}={v}")))
            .collect();
        assert_eq!(pairs, ["0=A", "1=b", "k=v", "2=c"]);
        let s = Settings::parse_str("t.ini", "[G]\nL[k]=v\nL[]\nL[]=a\n");
        assert_eq!(array(&s, "G", "L"), Some(vec!["a".into()]));
        let s = Settings::parse_str("t.ini", "[G]\nL[k]=v\nL=s\n");
        assert_eq!(scalar(&s, "G", "L"), Some("s"));
    }

    #[test]
    fn a_refused_append_warns_with_its_line() {
        let s = Settings::parse_str("t.ini", "[G]\nL[9223372036854775807]=x\nL[]=y\n");
        assert_eq!(s.warnings().len(), 1);
        assert_eq!(s.warnings()[0].line, 3);
        assert_eq!(
            s.variable("G", "L")
                .and_then(|v| v.entry("9223372036854775807")),
            Some("x")
        );
    }

    #[test]
    fn repeated_groups_merge_in_first_position() {
        let s = Settings::parse_str("t.ini", "[A]\nX=1\n[B]\nY=2\n[A]\nX=3\nZ=4\n");
        assert_eq!(s.group_count(), 2);
        assert_eq!(s.groups().map(|(n, _)| n).collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(scalar(&s, "A", "X"), Some("3"));
        assert_eq!(scalar(&s, "A", "Z"), Some("4"));
    }

    #[test]
    fn settings_before_a_header_go_to_the_empty_group() {
        let s = Settings::parse_str("t.ini", "Top=1\n[A]\nX=1\n");
        assert_eq!(scalar(&s, "", "Top"), Some("1"));
        assert_eq!(s.groups().map(|(n, _)| n).collect::<Vec<_>>(), ["", "A"]);
        let s = Settings::parse_str("t.ini", "# only a comment\n[A]\n");
        assert!(!s.has_group(""));
    }

    #[test]
    fn later_scalar_replaces_and_keeps_order() {
        let s = Settings::parse_str("t.ini", "[A]\nX=1\nY=2\nX=3\n");
        let names: Vec<_> = s.group("A").unwrap().iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["X", "Y"]);
        assert_eq!(scalar(&s, "A", "X"), Some("3"));
    }

    #[test]
    fn ignored_lines_warn_with_line_numbers() {
        let s = Settings::parse_str(
            "menu.ini",
            "[A]\n  Indented=1\nX=1\nnot a setting\n\n[broken\nY=2\n",
        );
        let lines: Vec<_> = s.warnings().iter().map(|w| w.line).collect();
        assert_eq!(lines, [2, 4, 6]);
        assert_eq!(s.warnings()[0].reason, "indented line ignored");
        assert_eq!(
            s.warnings()[1].to_string(),
            "menu.ini:4: line matches no setting form, ignored"
        );
        assert!(!s.has_variable("A", "Indented"));
        assert_eq!(scalar(&s, "A", "Y"), Some("2"));
    }

    #[test]
    fn carriage_returns_are_removed() {
        let s = Settings::parse_str("t.ini", "[A]\r\nX=1\r\nY=a\rb\r\nL[]\r\n");
        assert_eq!(scalar(&s, "A", "X"), Some("1"));
        assert_eq!(scalar(&s, "A", "Y"), Some("ab"));
        assert_eq!(array(&s, "A", "L"), Some(vec![]));
        assert!(s.warnings().is_empty());
    }

    #[test]
    fn php_wrapped_files_read_silently() {
        let text = "<?php /* #?ini charset=\"utf-8\"?\n\n[A]\nX=1\n*/ ?>\n";
        let s = Settings::parse("a.ini.append.php", text.as_bytes()).unwrap();
        assert_eq!(s.charset(), Some("utf-8"));
        assert_eq!(scalar(&s, "A", "X"), Some("1"));
        assert!(s.warnings().is_empty());
    }

    #[test]
    fn latin1_files_are_decoded() {
        let s = Settings::parse(
            "l.ini",
            b"#?ini charset=\"iso-8859-1\"?\n[A]\nX=K\xF8benhavn\n",
        )
        .unwrap();
        assert_eq!(s.charset(), Some("iso-8859-1"));
        assert_eq!(scalar(&s, "A", "X"), Some("København"));
    }

    #[test]
    fn a_bad_file_leaves_the_store_as_it_was() {
        let mut s = Settings::parse_str("a.ini", "[A]\nX=1\n");
        let err = s.merge_bytes("b.ini", b"[A]\nX=\xFF\n").unwrap_err();
        assert!(err.to_string().contains("b.ini"));
        assert_eq!(scalar(&s, "A", "X"), Some("1"));
        assert_eq!(s.files(), ["a.ini"]);
    }
}
