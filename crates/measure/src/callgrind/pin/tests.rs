use super::diagnostics::Diagnostics;
use super::loaded::{Loaded, build_id};
use super::*;
use proptest::prelude::*;

/// valgrind 3.19's view under glibc 2.36, without and with the pin.
const UNPINNED: &str = include_str!("unpinned.diagnostics");
const PINNED: &str = include_str!("pinned.diagnostics");

#[test]
fn the_pin_is_one_text_of_its_parts() {
    assert_eq!(
        pin(),
        "glibc.cpu.hwcaps=-ERMS,-FSRM:glibc.cpu.x86_rep_movsb_threshold=0x2000\
         :glibc.cpu.x86_rep_stosb_threshold=0x800:glibc.cpu.x86_non_temporal_threshold=0x200000"
    );
}

#[test]
fn the_pin_follows_the_users_tunables_so_that_it_wins() {
    let p = Pinning::new(Some("glibc.malloc.tcache_count=0".into()), true);
    assert_eq!(
        p.tunables.as_deref(),
        Some(format!("glibc.malloc.tcache_count=0:{}", pin()).as_str())
    );
    assert_eq!(Pinning::new(None, true).tunables, Some(pin()));
    // The user's own hwcaps are kept: glibc would keep only the last.
    let p = Pinning::new(
        Some("glibc.cpu.hwcaps=-AVX512F:glibc.malloc.perturb=0".into()),
        true,
    );
    let t = p.tunables.unwrap_or_default();
    assert!(
        t.starts_with("glibc.cpu.hwcaps=-AVX512F,-ERMS,-FSRM:glibc.malloc.perturb=0:"),
        "{t}"
    );
    assert_eq!(t.matches("glibc.cpu.hwcaps").count(), 1, "{t}");
    // Off: the user's own pass through unchanged, and none stay none.
    assert_eq!(
        Pinning::new(Some("x=1".into()), false).tunables.as_deref(),
        Some("x=1")
    );
    assert_eq!(Pinning::new(None, false).tunables, None);
}

#[test]
fn the_pin_reaches_the_child_command_and_clears_what_it_does_not_set() {
    let mut cmd = Command::new("true");
    Pinning::new(None, true).apply(&mut cmd);
    let env: Vec<_> = cmd.get_envs().collect();
    assert_eq!(env.len(), 1);
    assert_eq!(env[0].0, "GLIBC_TUNABLES");
    assert_eq!(env[0].1.and_then(|v| v.to_str()), Some(pin().as_str()));
    let mut cmd = Command::new("true");
    Pinning::new(None, false).apply(&mut cmd);
    // Removed, so this process's own cannot leak into the child.
    assert_eq!(cmd.get_envs().next().map(|(_, v)| v), Some(None));
}

#[test]
fn a_pin_glibc_took_reads_back_as_held() {
    let platform = Pinning::new(None, true).platform(Some(PINNED), "build-id ab12");
    assert_eq!(platform.pin, "held");
    assert_eq!(platform.tunables, pin());
    assert_eq!(platform.libc, "glibc 2.36, build-id ab12");
    assert!(warning(&platform).is_none());
    // valgrind's Haswell, with the bits code dispatches on; RDRAND and
    // RDSEED (passed through from the host) are not among them.
    assert!(
        platform
            .cpu
            .starts_with("kind 0x1 family 0x6 model 0x3c stepping 0x3: sse2 sse3"),
        "{}",
        platform.cpu
    );
    for feature in [" avx2 ", " bmi2 ", " erms ", " lzcnt"] {
        assert!(
            format!("{} ", platform.cpu).contains(feature),
            "{feature}: {}",
            platform.cpu
        );
    }
    assert!(!platform.cpu.contains("rdrand") && !platform.cpu.contains("avx512"));
}

#[test]
fn a_pin_glibc_ignored_is_named_and_warned_of() {
    // The pin was asked for, but the child's glibc still uses ERMS.
    let platform = Pinning::new(None, true).platform(Some(UNPINNED), "build-id ab12");
    assert_eq!(platform.pin, "not held: ERMS still in use");
    assert!(warning(&platform).is_some_and(|w| w.contains("ERMS still in use")));
    // A threshold out of glibc's range keeps glibc's own value.
    let moved = PINNED.replace("rep_stosb_threshold=0x800", "rep_stosb_threshold=0x1000");
    let platform = Pinning::new(None, true).platform(Some(&moved), "");
    assert_eq!(
        platform.pin,
        "not held: rep_stosb_threshold 0x1000, not 0x800"
    );
}

#[test]
fn without_diagnostics_the_pin_is_unread_and_off_is_recorded_as_off() {
    let unread = Pinning::new(None, true).platform(None, "build-id ab12");
    assert!(unread.pin.starts_with("not read back"), "{}", unread.pin);
    assert_eq!(
        (unread.cpu.as_str(), unread.libc.as_str()),
        ("unread", "build-id ab12")
    );
    let off = Pinning::new(None, false).platform(Some(UNPINNED), "build-id ab12");
    assert_eq!((off.pin.as_str(), off.tunables.as_str()), ("off", "none"));
    assert!(warning(&off).is_none());
}

#[test]
fn the_loader_and_the_c_library_are_found_in_a_maps_file() {
    let maps = "\
55d0c5a00000-55d0c5a01000 r--p 00000000 fe:01 1 /work/target/release/micro
7f1c2a000000-7f1c2a028000 r--p 00000000 fe:01 2 /usr/lib/x86_64-linux-gnu/libc.so.6
7f1c2a300000-7f1c2a301000 r--p 00000000 00:00 0 [heap]
7f1c2a400000-7f1c2a401000 r--p 00000000 fe:01 3 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
";
    let loaded = Loaded::from_maps(maps);
    assert_eq!(
        loaded.loader.as_deref(),
        Some(Path::new("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"))
    );
    assert_eq!(
        loaded.libc.as_deref(),
        Some(Path::new("/usr/lib/x86_64-linux-gnu/libc.so.6"))
    );
    let none = Loaded::from_maps("");
    assert!(none.loader.is_none() && none.libc_identity().contains("not found"));
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn this_process_s_c_library_has_a_build_id() {
    let identity = Loaded::find().libc_identity();
    assert!(identity.starts_with("build-id "), "{identity}");
}

use std::path::Path;

proptest! {
    #[test]
    fn no_diagnostics_text_panics(text in ".{0,400}") {
        let d = Diagnostics::parse(&text);
        let _ = (d.cpu(), d.check_pin(&HWCAPS_OFF, &THRESHOLDS));
    }

    #[test]
    fn no_bytes_panic_the_build_id_reader(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = build_id(&bytes);
    }

    #[test]
    fn no_maps_text_panics(text in "[ -~\n]{0,400}") {
        let _ = Loaded::from_maps(&text);
    }

    #[test]
    fn any_user_tunables_keep_one_hwcaps_and_every_threshold(user in "[a-z.=:,_0-9-]{0,80}") {
        let t = with_pin(&user);
        prop_assert!(t.matches("glibc.cpu.hwcaps=").count() <= 1 + user.matches("glibc.cpu.hwcaps=").count());
        prop_assert!(t.ends_with("glibc.cpu.x86_non_temporal_threshold=0x200000"));
    }
}
