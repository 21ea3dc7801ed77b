//! The settings reader: any bytes as an INI file, then what a site does
//! with a store it read: lookups, a merge, and writing it back.
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
        let _ = Settings::parse("written.ini", text.as_bytes());
    }
});
