//! The settings reader: any bytes as an INI file, then what a site does
//! with a store it read: lookups and a merge; and the writer's promise, that
//! a store it writes reads back the same (`probes/src/settings/write.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use probes::settings::{Settings, write};

fuzz_target!(|data: &[u8]| {
    let Ok(settings) = Settings::parse("fuzz.ini", data) else {
        return;
    };
    for (group, values) in settings.groups() {
        for (name, _) in values.iter() {
            let _ = settings.variable(group, name);
        }
    }
    let mut merged = Settings::new();
    let _ = merged.merge_bytes("fuzz.ini", data);
    if let Ok(text) = write(&settings) {
        let back = Settings::parse_str("written.ini", &text);
        assert_eq!(back, settings, "written:\n{text}");
        assert!(back.warnings().is_empty(), "written:\n{text}");
    }
});
