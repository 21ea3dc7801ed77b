//! `yardstick k6 collect DIR`: the outputs the pods of a cluster run wrote,
//! one file a pod, merged as the local instances' are. A set that lacks a
//! segment, holds one twice, or holds a file cut short is refused: a merge
//! of part of the pods is never presented as the whole run.

use super::instances::segment;
use super::output;
use super::series::Output;
use crate::error::Error;
use std::collections::BTreeSet;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// Reads every file in `dir` (one a pod, of `segments` pods) and merges
/// them.
pub(crate) fn read(dir: &Path, segments: u64) -> Result<Output, Error> {
    let shown = dir.display();
    let entries =
        std::fs::read_dir(dir).map_err(|e| Error::input(format!("k6 collect: {shown}: {e}")))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    if files.len() as u64 != segments {
        return Err(Error::input(format!(
            "k6 collect: {shown} holds {} files, and --segments={segments} asks for one a pod",
            files.len()
        )));
    }
    let mut merged = Output::default();
    let mut seen = BTreeSet::new();
    for file in &files {
        let one = read_file(file)?;
        let of_file: BTreeSet<String> = one
            .series
            .values()
            .flat_map(|s| s.segments.keys().cloned())
            .collect();
        if segments > 1 && of_file.len() != 1 {
            return Err(Error::input(format!(
                "k6 collect: {}: expected the requests of one segment, found {}",
                file.display(),
                if of_file.is_empty() {
                    "none".to_string()
                } else {
                    of_file.into_iter().collect::<Vec<_>>().join(", ")
                }
            )));
        }
        for s in of_file {
            if !seen.insert(s.clone()) {
                return Err(Error::input(format!(
                    "k6 collect: {}: segment {s} is in two files",
                    file.display()
                )));
            }
        }
        merged.merge(one);
    }
    if segments > 1
        && let Some(missing) = (0..segments)
            .map(|i| segment(i, segments).0)
            .find(|s| !seen.contains(s))
    {
        return Err(Error::input(format!(
            "k6 collect: {shown}: segment {missing} is missing"
        )));
    }
    Ok(merged)
}

fn read_file(file: &Path) -> Result<Output, Error> {
    let shown = file.display();
    let f =
        std::fs::File::open(file).map_err(|e| Error::input(format!("k6 collect: {shown}: {e}")))?;
    output::read(BufReader::new(f)).map_err(|e| Error::input(format!("k6 collect: {shown}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One request's lines in segment `seg` (empty: none).
    fn request(seg: &str) -> String {
        let segment = if seg.is_empty() {
            String::new()
        } else {
            format!(",\"segment\":\"{seg}\"")
        };
        let tags = format!(
            "\"tags\":{{\"expected_response\":\"true\",\"name\":\"/\",\"server\":\"a\",\"round\":\"1\",\"status\":\"200\"{segment}}}"
        );
        ["http_req_duration", "http_req_waiting", "http_req_failed"]
            .iter()
            .map(|m| {
                let v = if *m == "http_req_failed" { 0 } else { 2 };
                format!(
                    "{{\"metric\":\"{m}\",\"type\":\"Point\",\"data\":{{\"time\":\"2026-12-03T20:31:23Z\",\"value\":{v},{tags}}}}}\n"
                )
            })
            .collect()
    }

    fn dir_of(files: &[(&str, String)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn the_pods_outputs_merge_and_k6_s_log_lines_are_passed_over() {
        let log = "time=\"2026-12-03T20:31:23Z\" level=info msg=\"hello\" source=console\n";
        let dir = dir_of(&[
            ("pod-1.log", format!("{log}{}", request("0:1/2"))),
            ("pod-2.log", request("1/2:1").repeat(2)),
        ]);
        let out = read(dir.path(), 2).unwrap();
        let s = out.series.values().next().unwrap();
        assert_eq!(s.requests(), 3);
        assert_eq!((s.segments["0:1/2"], s.segments["1/2:1"]), (1, 2));
    }

    #[test]
    fn a_set_with_a_segment_missing_twice_or_cut_is_refused() {
        let message =
            |files: &[(&str, String)], n| read(dir_of(files).path(), n).unwrap_err().to_string();
        let m = message(&[("a", request("0:1/2"))], 2);
        assert!(m.contains("holds 1 files"), "{m}");
        let m = message(&[("a", request("0:1/2")), ("b", request("0:1/2"))], 2);
        assert!(m.contains("in two files"), "{m}");
        let m = message(&[("a", request("0:1/3")), ("b", request("1/3:2/3"))], 2);
        assert!(m.contains("segment 0:1/2 is missing"), "{m}");
        let m = message(&[("a", request("0:1/2")), ("b", String::new())], 2);
        assert!(m.contains("found none"), "{m}");
        let cut = request("1/2:1");
        let m = message(
            &[
                ("a", request("0:1/2")),
                ("b", cut[..cut.len() - 9].to_string()),
            ],
            2,
        );
        assert!(m.contains("cut short") && m.contains("/b:"), "{m}");
    }
}
