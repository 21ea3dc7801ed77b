//! The class map reader: any bytes as `autoload/ezp_kernel.php`, then what
//! the kernel does with a map it read: a lookup of every key and a merge;
//! and the writer's promise, that a map it writes reads back the same
//! (`probes/src/autoload/read.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use probes::autoload::{ClassMap, Kernel, write};

fuzz_target!(|data: &[u8]| {
    let Ok(map) = ClassMap::parse("fuzz.php", data) else {
        return;
    };
    for (key, path) in map.iter() {
        assert_eq!(map.get(key), Some(path));
    }
    let pairs: Vec<(&str, &str)> = map.iter().collect();
    let text = write(pairs.iter().copied());
    let back = ClassMap::parse("written.php", text.as_bytes());
    assert_eq!(back.as_ref().ok(), Some(&map), "written:\n{text}");
    let merged = Kernel::merged([map.clone(), map]);
    assert_eq!(merged.len(), back.map(|m| m.len()).unwrap_or(0));
});
