//! A process killed with SIGKILL in the middle of cache writes leaves the
//! entry whole: the old content or the new, never a mix or a torn file.
//!
//! The writer is this test binary started again on its ignored test, which
//! rewrites one 4 MB entry with alternating content until it is killed. It
//! says when its first write is done, so every kill falls among writes
//! however slowly the machine starts a process.

use probes::filecache::{Expiry, FileCache};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The line the writer prints once its first entry is written.
const STARTED: &str = "writer: writing";

const SIZE: usize = 4 << 20;
const DIR: &str = "FILECACHE_KILL_DIR";

#[test]
#[ignore = "the writer that kill_9_leaves_a_whole_entry starts and kills"]
fn writer() {
    let Some(dir) = std::env::var_os(DIR) else {
        return;
    };
    let cache = FileCache::open(std::path::Path::new(&dir)).unwrap();
    for round in 0u64.. {
        let byte = if round % 2 == 0 { b'b' } else { b'a' };
        cache.store("page/entry.cache", &vec![byte; SIZE]).unwrap();
        if round == 0 {
            println!("{STARTED}");
            std::io::stdout().flush().unwrap();
        }
    }
}

#[test]
fn kill_9_leaves_a_whole_entry() {
    let dir = tempfile::tempdir().unwrap();
    let cache = FileCache::open(dir.path()).unwrap();
    cache.store("page/entry.cache", &vec![b'a'; SIZE]).unwrap();
    for round in 0..6u64 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--ignored", "--exact", "writer", "--nocapture"])
            .env(DIR, dir.path())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait for its first write, then kill at a different point of the
        // write loop each round.
        let stdout = child.stdout.take().unwrap();
        let started = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .any(|line| line.contains(STARTED));
        assert!(started, "round {round}: the writer never wrote");
        std::thread::sleep(Duration::from_millis(3 + 7 * round));
        child.kill().unwrap();
        child.wait().unwrap();
        let entry = cache
            .fetch("page/entry.cache", Expiry::default())
            .unwrap()
            .unwrap();
        assert_eq!(entry.len(), SIZE, "round {round}: a torn entry");
        assert!(
            entry.iter().all(|b| *b == entry[0]),
            "round {round}: old and new content mixed"
        );
    }
}
