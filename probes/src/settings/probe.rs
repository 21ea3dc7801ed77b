//! The `ini_parse` probe: a site's seven main settings files read from
//! bytes, as a request does when no settings cache exists.

use super::Settings;
use crate::fixtures;

/// The seven files, with the groups, settings and warnings each holds.
/// Counted independently of the reader (distinct headers and distinct
/// group/name pairs), so the check catches a reader that miscounts.
pub const FILES: [(&str, usize, usize, usize); 7] = [
    ("site.ini", 65, 360, 0),
    ("content.ini", 69, 350, 0),
    ("template.ini", 34, 90, 0),
    ("i18n.ini", 24, 284, 0),
    ("image.ini", 38, 80, 0),
    ("design.ini", 14, 80, 0),
    ("menu.ini", 24, 110, 0),
];

pub(crate) struct Files {
    files: Vec<(&'static str, Vec<u8>)>,
    lines: usize,
    bytes: usize,
}

/// Groups, settings and warnings per file, or an error text.
#[derive(Hash)]
pub(crate) struct Counts(Vec<Result<(usize, usize, usize), String>>);

fn load() -> Result<Files, String> {
    let mut files = Vec::new();
    for (name, ..) in FILES {
        let path = fixtures::path(&format!("settings/{name}"));
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push((name, bytes));
    }
    let lines = files
        .iter()
        .map(|(_, b)| b.iter().filter(|&&c| c == b'\n').count())
        .sum();
    let bytes = files.iter().map(|(_, b)| b.len()).sum();
    Ok(Files {
        files,
        lines,
        bytes,
    })
}

fn parse_all(files: &Files) -> Counts {
    // A test-only build that skips the last file: the configuration a
    // matrix must fail, never call fast (scripts/matrix-evidence.py).
    let parsed = if cfg!(feature = "skip-work") {
        &files.files[..files.files.len().saturating_sub(1)]
    } else {
        &files.files[..]
    };
    Counts(
        parsed
            .iter()
            .map(|(name, bytes)| {
                Settings::parse(name, bytes)
                    .map(|s| (s.group_count(), s.variable_count(), s.warnings().len()))
                    .map_err(|e| e.to_string())
            })
            .collect(),
    )
}

fn check(counts: &Counts) -> Result<(), String> {
    // A result short of a file would pass the zip below unseen.
    if counts.0.len() != FILES.len() {
        return Err(format!(
            "{} files parsed, expected {}",
            counts.0.len(),
            FILES.len()
        ));
    }
    for ((name, groups, vars, warnings), got) in FILES.iter().zip(&counts.0) {
        let got = got.as_ref().map_err(|e| format!("{name}: {e}"))?;
        if *got != (*groups, *vars, *warnings) {
            return Err(format!(
                "{name}: {} groups, {} settings, {} warnings; expected {groups}, {vars}, {warnings}",
                got.0, got.1, got.2
            ));
        }
    }
    Ok(())
}

/// Thousands separators for the note.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

yardstick_probe::probe! {
    name: ini_parse,
    ops: 7,
    note: |f: &Files| format!(
        "7 settings files, {} lines, {} KB, no cache",
        grouped(f.lines),
        f.bytes / 1024
    ),
    setup: load,
    run: parse_all,
    check: |_, counts: &Counts| check(counts),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::{SettingValue, SettingsSource};
    use crate::settings::{SiteSettings, Value};

    /// The directory chain of the fixture site's `eng` site access.
    fn fixture_site() -> SiteSettings {
        SiteSettings::new(vec![
            fixtures::path("settings"),
            fixtures::path("settings/siteaccess/eng"),
            fixtures::path("settings/override"),
        ])
    }

    fn scalar(site: &SiteSettings, file: &str, group: &str, name: &str) -> Option<String> {
        match site.setting(file, group, name) {
            Some(SettingValue::Scalar(s)) => Some(s),
            _ => None,
        }
    }

    fn array(site: &SiteSettings, file: &str, group: &str, name: &str) -> Option<Vec<String>> {
        match site.setting(file, group, name) {
            Some(SettingValue::Array(a)) => Some(a),
            _ => None,
        }
    }

    #[test]
    fn the_fixture_set_is_large_and_clean() {
        let files = load().unwrap();
        assert!(files.lines >= 2500, "{} lines", files.lines);
        let counts = parse_all(&files);
        check(&counts).unwrap();
        let groups: usize = counts.0.iter().map(|c| c.as_ref().unwrap().0).sum();
        assert!(groups >= 150, "{groups} groups");
        assert_eq!(grouped(3270), "3,270");
        assert_eq!(grouped(999), "999");
    }

    #[test]
    fn the_check_rejects_wrong_counts() {
        let mut counts = parse_all(&load().unwrap());
        if let Some(Ok(first)) = counts.0.first_mut() {
            first.1 += 1;
        }
        assert!(check(&counts).unwrap_err().contains("site.ini"));
        counts.0[0] = Err("broken".into());
        assert!(check(&counts).is_err());
        // A file short: the zip over the table would not see it.
        counts.0.pop();
        assert!(
            check(&counts)
                .unwrap_err()
                .contains("6 files parsed, expected 7")
        );
    }

    #[test]
    fn fixtures_use_every_form() {
        let files = load().unwrap();
        let site = Settings::parse("site.ini", &files.files[0].1).unwrap();
        assert_eq!(site.charset(), Some("utf-8"));
        // Trailing comment cut, single # kept, merged repeated group.
        assert_eq!(
            site.variable("SiteSettings", "DefaultPage")
                .and_then(Value::as_scalar),
            Some("/content/view/full/2")
        );
        assert_eq!(
            site.variable("SiteSettings", "ThemeColor")
                .and_then(Value::as_scalar),
            Some("#1f4e79")
        );
        assert_eq!(
            site.variable("SiteSettings", "SiteList")
                .and_then(Value::as_array)
                .map(<[String]>::len),
            Some(5)
        );
        // Append of the empty string.
        assert_eq!(
            site.variable("DebugSettings", "AlwaysLog")
                .and_then(Value::as_array)
                .and_then(|a| a.last())
                .map(String::as_str),
            Some("")
        );
        assert_eq!(
            site.variable("HTTPHeaderSettings", "Cache-Control")
                .and_then(|v| v.entry("/user")),
            Some("no-cache, must-revalidate")
        );
        let image = Settings::parse("image.ini", &files.files[4].1).unwrap();
        assert_eq!(
            image
                .variable("ImageMagick", "ExecutablePathWin32")
                .and_then(Value::as_scalar),
            Some("C:\\Program Files\\ImageMagick")
        );
    }

    #[test]
    fn overrides_replace_extend_and_clear() {
        let site = fixture_site();
        // Replaced, by the site access and then by override/.
        assert_eq!(
            scalar(&site, "site.ini", "SiteSettings", "SiteName").as_deref(),
            Some("Example Publishing")
        );
        assert_eq!(
            scalar(&site, "site.ini", "SiteSettings", "IndexPage").as_deref(),
            Some("/content/view/full/60")
        );
        assert_eq!(
            scalar(&site, "site.ini", "DatabaseSettings", "Password").as_deref(),
            Some("s3cret#1")
        );
        // Extended.
        let ext = array(&site, "site.ini", "ExtensionSettings", "ActiveExtensions").unwrap();
        assert_eq!(ext.len(), 12);
        assert_eq!(ext.last().map(String::as_str), Some("ezflow"));
        // Cleared, then refilled; cleared for good.
        assert_eq!(
            array(&site, "site.ini", "SiteSettings", "SiteList").unwrap(),
            ["site", "eng", "admin"]
        );
        assert_eq!(
            array(&site, "site.ini", "DebugSettings", "AlwaysLog").unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(
            array(&site, "image.ini", "reference", "Filters").unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(
            array(&site, "menu.ini", "TopAdminMenu", "Tabs")
                .unwrap()
                .len(),
            5
        );
        // Hash entries set one by one.
        match site.setting("content.ini", "VersionManagement", "VersionHistoryClass") {
            Some(SettingValue::Hash(h)) => assert_eq!(
                h,
                [
                    ("article".to_string(), "25".to_string()),
                    ("folder".into(), "5".into()),
                    ("frontpage".into(), "30".into()),
                    ("blog_post".into(), "10".into())
                ]
            ),
            other => panic!("{other:?}"),
        }
        // A latin1 file in the chain.
        assert_eq!(
            scalar(&site, "i18n.ini", "Locale_eng-GB", "CurrencySymbol").as_deref(),
            Some("£")
        );
        let site_ini = site.file("site.ini").unwrap();
        assert_eq!(site_ini.files().len(), 3);
        assert!(site_ini.warnings().is_empty(), "{:?}", site_ini.warnings());
        // Files without overrides read from the base directory alone.
        assert_eq!(
            scalar(&site, "template.ini", "ControlSettings", "MaxLevel").as_deref(),
            Some("40")
        );
    }
}
