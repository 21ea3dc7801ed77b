//! The dynamic loader and C library this process loaded, which a counted
//! child (this binary again, in the same environment) loads too.

use std::path::{Path, PathBuf};

/// Paths of the loaded loader and C library, when found.
pub(crate) struct Loaded {
    pub loader: Option<PathBuf>,
    pub libc: Option<PathBuf>,
}

impl Loaded {
    /// From `/proc/self/maps`; nothing elsewhere.
    pub fn find() -> Loaded {
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
        Loaded::from_maps(&maps)
    }

    /// From the text of a `maps` file: the mapped files named `ld-linux*`
    /// (or `ld-*.so*`) and `libc.so*` (or `libc-*.so`).
    pub fn from_maps(maps: &str) -> Loaded {
        let files = || {
            maps.lines()
                .filter_map(|l| l.split_whitespace().nth(5))
                .filter(|p| p.starts_with('/'))
                .map(Path::new)
        };
        let named = |test: fn(&str) -> bool| {
            files()
                .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(test))
                .map(Path::to_path_buf)
        };
        Loaded {
            loader: named(|n| {
                n.starts_with("ld-linux") || (n.starts_with("ld-") && n.contains(".so"))
            }),
            libc: named(|n| {
                n.starts_with("libc.so") || (n.starts_with("libc-") && n.ends_with(".so"))
            }),
        }
    }

    /// The C library's identity: `build-id <hex>` of its file, or why
    /// there is none.
    pub fn libc_identity(&self) -> String {
        let Some(path) = &self.libc else {
            return "C library not found among the loaded files".to_string();
        };
        match std::fs::read(path) {
            Ok(bytes) => match build_id(&bytes) {
                Some(id) => format!("build-id {id}"),
                None => format!("{}: no build-id", path.display()),
            },
            Err(e) => format!("{}: {e}", path.display()),
        }
    }
}

/// The GNU build-id of an ELF file, in hexadecimal.
pub(crate) fn build_id(bytes: &[u8]) -> Option<String> {
    use object::Object;
    let file = object::File::parse(bytes).ok()?;
    let id = file.build_id().ok()??;
    Some(id.iter().map(|b| format!("{b:02x}")).collect())
}
