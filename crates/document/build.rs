//! Records the toolchain and profile a binary was built with, so that a saved
//! run can say which set-up produced its numbers.
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    println!("cargo:rustc-env=YARDSTICK_RUSTC_VERSION={version}");
    for key in ["PROFILE", "OPT_LEVEL", "TARGET"] {
        let value = std::env::var(key).unwrap_or_default();
        println!("cargo:rustc-env=YARDSTICK_BUILD_{key}={value}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
