//! The view cache's pages as they lie in its folder: what a start finds
//! there from an earlier run, so the folder's byte bound counts them too.

use std::path::Path;
use std::time::SystemTime;

/// The subfolder of the cache folder the pages are kept in.
pub const PAGES: &str = "view";

/// The pages under the cache folder `dir`, as cache keys with their sizes,
/// the oldest written first. What cannot be read is left out: it is then
/// not counted, and not removed.
pub fn pages(dir: &Path) -> Vec<(String, u64)> {
    let mut found = Vec::new();
    let Ok(shards) = std::fs::read_dir(dir.join(PAGES)) else {
        return Vec::new();
    };
    for shard in shards.flatten() {
        let shard_name = shard.file_name();
        let (Some(shard_name), Ok(files)) = (shard_name.to_str(), std::fs::read_dir(shard.path()))
        else {
            continue;
        };
        for file in files.flatten() {
            let name = file.file_name();
            let Some(name) = name.to_str() else {
                continue;
            };
            let Ok(meta) = file.metadata() else {
                continue;
            };
            if meta.is_file() && name.ends_with(".html") {
                let written = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                found.push((written, format!("{PAGES}/{shard_name}/{name}"), meta.len()));
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|(_, key, size)| (key, size))
        .collect()
}
