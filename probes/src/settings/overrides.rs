//! The override chain: one settings name read from a base directory and
//! then from each override directory, and the site-wide view of all
//! settings files that the template engine reads through.

use std::collections::HashMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use super::decode::SettingsError;
use super::store::Settings;
use crate::host::{SettingValue, SettingsSource};

/// The four files that may hold `name` in one directory, in reading order:
/// the `.php` variants exist so that a web server serving the directory by
/// mistake shows nothing, the `.append` ones so that a directory can extend
/// rather than restate.
pub fn candidates(name: &str) -> [String; 4] {
    [
        format!("{name}.php"),
        name.to_string(),
        format!("{name}.append.php"),
        format!("{name}.append"),
    ]
}

/// Reads `name` (for example `site.ini`) across `dirs` in order, each
/// directory's candidates in order, into one store. Missing files are
/// skipped; an error when none exists at all, or when one that exists can
/// not be read.
pub fn load<P: AsRef<Path>>(name: &str, dirs: &[P]) -> Result<Settings, SettingsError> {
    check_name(name)?;
    let mut store = Settings::new();
    for dir in dirs {
        for candidate in candidates(name) {
            let path = dir.as_ref().join(&candidate);
            match std::fs::read(&path) {
                Ok(bytes) => store.merge_bytes(&path.display().to_string(), &bytes)?,
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(SettingsError::Unreadable {
                        file: path.display().to_string(),
                        reason: e.to_string(),
                    });
                }
            }
        }
    }
    if store.files().is_empty() {
        return Err(SettingsError::Missing {
            file: name.to_string(),
            dirs: dirs
                .iter()
                .map(|d| d.as_ref().display().to_string())
                .collect(),
        });
    }
    Ok(store)
}

/// Settings names come from templates, so they must not walk out of the
/// settings directories.
fn check_name(name: &str) -> Result<(), SettingsError> {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && name.ends_with(".ini");
    if plain {
        Ok(())
    } else {
        Err(SettingsError::BadName {
            file: name.to_string(),
        })
    }
}

/// All settings files of a site: each name is read across the directory
/// chain on first use and kept, as a request reads the same few files over
/// and over.
#[derive(Debug)]
pub struct SiteSettings {
    dirs: Vec<PathBuf>,
    loaded: Mutex<HashMap<String, Result<Arc<Settings>, SettingsError>>>,
}

impl SiteSettings {
    /// `dirs`: the base directory first, then the override directories in
    /// the order they apply.
    pub fn new(dirs: Vec<PathBuf>) -> Self {
        Self {
            dirs,
            loaded: Mutex::new(HashMap::new()),
        }
    }

    /// The merged store of `name`, read on first use.
    pub fn file(&self, name: &str) -> Result<Arc<Settings>, SettingsError> {
        let mut loaded = self.loaded.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = loaded.get(name) {
            return found.clone();
        }
        let result = load(name, &self.dirs).map(Arc::new);
        loaded.insert(name.to_string(), result.clone());
        result
    }
}

impl SettingsSource for SiteSettings {
    fn setting(&self, file: &str, group: &str, name: &str) -> Option<SettingValue> {
        let store = self.file(file).ok()?;
        store.variable(group, name).map(SettingValue::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Value;
    use std::fs;

    fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) {
        fs::write(dir.join(name), text.as_ref()).unwrap();
    }

    #[test]
    fn the_four_names_are_read_in_order() {
        let base = tempfile::tempdir().unwrap();
        let d = base.path();
        write(
            d,
            "site.ini.php",
            "<?php /*\n[A]\nOrder[]=php\nS=php\n*/ ?>\n",
        );
        write(d, "site.ini", "[A]\nOrder[]=ini\nS=ini\n");
        write(
            d,
            "site.ini.append.php",
            "<?php /*\n[A]\nOrder[]=append.php\n*/ ?>\n",
        );
        write(d, "site.ini.append", "[A]\nOrder[]=append\nS=append\n");
        let s = load("site.ini", &[d]).unwrap();
        let order = s.variable("A", "Order").and_then(Value::as_array).unwrap();
        assert_eq!(order, ["php", "ini", "append.php", "append"]);
        assert_eq!(
            s.variable("A", "S").and_then(Value::as_scalar),
            Some("append")
        );
        assert_eq!(s.files().len(), 4);
        assert!(s.warnings().is_empty());
    }

    #[test]
    fn directories_apply_in_order() {
        let root = tempfile::tempdir().unwrap();
        let dirs: Vec<PathBuf> = ["settings", "siteaccess/eng", "override"]
            .iter()
            .map(|d| root.path().join(d))
            .collect();
        for d in &dirs {
            fs::create_dir_all(d).unwrap();
        }
        write(
            &dirs[0],
            "site.ini",
            "[S]\nName=base\nList[]=a\nList[]=b\nMap[x]=1\nMap[y]=2\nKeep=yes\n",
        );
        write(
            &dirs[1],
            "site.ini.append.php",
            "<?php /* #?ini charset=\"utf-8\"?\n[S]\nName=eng\nList[]=c\nMap[y]=20\n*/ ?>\n",
        );
        write(
            &dirs[2],
            "site.ini.append.php",
            "[S]\nName=override\nList[]\nList[]=only\nMap[z]=3\n",
        );
        let s = load("site.ini", &dirs).unwrap();
        let v = |n| s.variable("S", n).cloned();
        assert_eq!(
            v("Name")
                .and_then(|v| v.as_scalar().map(String::from))
                .as_deref(),
            Some("override")
        );
        assert_eq!(
            v("List").and_then(|v| v.as_array().map(<[String]>::to_vec)),
            Some(vec!["only".to_string()])
        );
        let map = v("Map").unwrap();
        assert_eq!(
            map.as_hash().map(|m| m
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()),
            Some(vec!["x=1".into(), "y=20".into(), "z=3".into()])
        );
        assert_eq!(
            v("Keep")
                .and_then(|v| v.as_scalar().map(String::from))
                .as_deref(),
            Some("yes")
        );
        // Without the last directory, the chain stops at the site access.
        let s = load("site.ini", &dirs[..2]).unwrap();
        assert_eq!(
            s.variable("S", "List").and_then(Value::as_array),
            Some(&["a".to_string(), "b".into(), "c".into()][..])
        );
    }

    #[test]
    fn errors_name_the_file() {
        let root = tempfile::tempdir().unwrap();
        let err = load("site.ini", &[root.path()]).unwrap_err();
        assert!(matches!(err, SettingsError::Missing { .. }));
        assert!(err.to_string().contains("site.ini"));
        write(root.path(), "bad.ini.append", b"[A]\nX=\xC3\x28\n");
        let err = load("bad.ini", &[root.path()]).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("bad.ini.append") && text.contains("offset 6"),
            "{text}"
        );
        fs::create_dir(root.path().join("dir.ini")).unwrap();
        let err = load("dir.ini", &[root.path()]).unwrap_err();
        assert!(matches!(err, SettingsError::Unreadable { .. }), "{err}");
        assert!(err.to_string().contains("dir.ini"));
        for bad in ["../site.ini", "/etc/site.ini", ".ini", "site.conf", ""] {
            assert!(matches!(
                load(bad, &[root.path()]),
                Err(SettingsError::BadName { .. })
            ));
        }
    }

    #[test]
    fn site_settings_answer_the_template_engine() {
        let root = tempfile::tempdir().unwrap();
        let base = root.path().join("settings");
        let over = root.path().join("override");
        fs::create_dir_all(&base).unwrap();
        fs::create_dir_all(&over).unwrap();
        write(
            &base,
            "site.ini",
            "[SiteSettings]\nSiteName=Base\nSiteList[]=a\n",
        );
        write(
            &over,
            "site.ini.append.php",
            "[SiteSettings]\nSiteName=Shop\n",
        );
        let site = SiteSettings::new(vec![base, over]);
        let source: &dyn SettingsSource = &site;
        assert_eq!(
            source.setting("site.ini", "SiteSettings", "SiteName"),
            Some(SettingValue::Scalar("Shop".into()))
        );
        assert_eq!(
            source.setting("site.ini", "SiteSettings", "SiteList"),
            Some(SettingValue::Array(vec!["a".into()]))
        );
        assert_eq!(source.setting("site.ini", "SiteSettings", "Nope"), None);
        assert_eq!(source.setting("menu.ini", "SiteSettings", "SiteName"), None);
        assert_eq!(
            source.setting("../site.ini", "SiteSettings", "SiteName"),
            None
        );
        assert!(Arc::ptr_eq(
            &site.file("site.ini").unwrap(),
            &site.file("site.ini").unwrap()
        ));
    }
}
