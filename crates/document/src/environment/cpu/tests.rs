use super::*;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    crate::repository()
        .join("tests/fixtures/machines")
        .join(name)
}

const TARGET: &str = "x86_64-unknown-linux-gnu";

#[test]
fn this_project_s_virtual_machine_as_captured() {
    let cpu = Cpu::read(&fixture("amd-epyc-2cpu-vm"));
    assert_eq!(cpu.vendor, "AuthenticAMD");
    assert_eq!(cpu.model_name, "AMD EPYC");
    assert_eq!(cpu.id, "26/2/1");
    assert_eq!(
        (cpu.l1d, cpu.l2, cpu.l3),
        (Some(48 << 10), Some(1 << 20), Some(32 << 20))
    );
    assert_eq!(cpu.online, Some(2));
    assert_eq!(cpu.smt, Some(false));
    assert_eq!(cpu.hypervisor.as_deref(), Some("yes"));
    assert_eq!(cpu.governor, None);
    assert!(!cpu.kernel.is_empty());
    let class = cpu.class(TARGET).unwrap();
    assert!(class.starts_with("amd-epyc-2cpu-"), "{class}");
    assert_eq!(class.len(), "amd-epyc-2cpu-".len() + 8);
    assert_eq!(cpu.describe(), "AMD EPYC (L1d 48 KB, L2 1 MB, L3 32 MB)");
}

#[test]
fn an_intel_server_synthetic() {
    let cpu = Cpu::read(&fixture("intel-xeon-64cpu-synthetic"));
    assert_eq!(cpu.vendor, "GenuineIntel");
    assert_eq!(cpu.id, "6/106/6");
    assert_eq!((cpu.l1d, cpu.l3), (Some(48 << 10), Some(55296 << 10)));
    assert_eq!((cpu.online, cpu.smt), (Some(64), Some(true)));
    assert_eq!(cpu.hypervisor.as_deref(), Some("Amazon EC2"));
    assert_eq!(cpu.governor.as_deref(), Some("performance"));
    let class = cpu.class(TARGET).unwrap();
    assert!(
        class.starts_with("intel-xeon-platinum-8375c-64cpu-"),
        "{class}"
    );
}

#[test]
fn an_arm_server_synthetic() {
    let cpu = Cpu::read(&fixture("arm-neoverse-80cpu-synthetic"));
    assert_eq!(cpu.vendor, "ARM");
    assert_eq!(cpu.model_name, "");
    assert_eq!(cpu.id, "0x41/0xd0c/0x3");
    assert_eq!(
        (cpu.l1d, cpu.l2, cpu.l3),
        (Some(64 << 10), Some(1 << 20), None)
    );
    assert_eq!(
        (cpu.online, cpu.smt, cpu.hypervisor.as_deref()),
        (Some(80), None, None)
    );
    let class = cpu.class("aarch64-unknown-linux-gnu").unwrap();
    assert!(class.starts_with("arm-0x41-0xd0c-80cpu-"), "{class}");
    // Another revision (variant) of the same part is the same class.
    let mut revised = cpu.clone();
    revised.id = "0x41/0xd0c/0x1".into();
    assert_eq!(Some(class), revised.class("aarch64-unknown-linux-gnu"));
}

#[test]
fn classes_tell_machines_apart_and_only_by_what_moves_numbers() {
    let amd = Cpu::read(&fixture("amd-epyc-2cpu-vm"));
    let intel = Cpu::read(&fixture("intel-xeon-64cpu-synthetic"));
    assert_ne!(amd.class(TARGET), intel.class(TARGET));
    // Another L2, another online count, another target: another class.
    let mut other = amd.clone();
    other.l2 = Some(512 << 10);
    assert_ne!(amd.class(TARGET), other.class(TARGET));
    let mut other = amd.clone();
    other.online = Some(4);
    assert_ne!(amd.class(TARGET), other.class(TARGET));
    assert_ne!(amd.class(TARGET), amd.class("x86_64-unknown-linux-musl"));
    // Kernel, governor, SMT state and the hypervisor's name do not.
    let mut same = amd.clone();
    same.kernel = "7.0".into();
    same.governor = Some("powersave".into());
    same.hypervisor = None;
    same.smt = Some(true);
    assert_eq!(amd.class(TARGET), same.class(TARGET));
}

#[test]
fn without_an_online_list_the_processors_are_counted() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("proc")).unwrap();
    std::fs::copy(
        fixture("amd-epyc-2cpu-vm").join("proc/cpuinfo"),
        t.path().join("proc/cpuinfo"),
    )
    .unwrap();
    let cpu = Cpu::read(t.path());
    assert_eq!(cpu.online, Some(2));
    let mut unknown = cpu.clone();
    unknown.online = None;
    let class = unknown.class(TARGET).unwrap();
    assert!(
        class.starts_with("amd-epyc-") && !class.contains('?') && !class.contains("cpu-"),
        "{class}"
    );
}

#[test]
fn nothing_known_is_no_class() {
    let cpu = Cpu::read(Path::new("/nonexistent/root"));
    assert_eq!(cpu, Cpu::default());
    assert_eq!(cpu.class(TARGET), None);
}

#[test]
fn cpu_lists_and_sizes() {
    assert_eq!(count_cpu_list("0-1\n"), Some(2));
    assert_eq!(count_cpu_list("0,2-5,7"), Some(6));
    assert_eq!(count_cpu_list(""), None);
    assert_eq!(count_cpu_list("5-3"), None);
    assert_eq!(count_cpu_list("x"), None);
    assert_eq!(count_cpu_list("0-18446744073709551615"), None);
    assert_eq!(
        count_processors("processor\t: 0\nfoo: 1\nprocessor : 1\n"),
        Some(2)
    );
    assert_eq!(parse_size("48K"), Some(48 * 1024));
    assert_eq!(parse_size("32M"), Some(32 << 20));
    assert_eq!(parse_size("4096"), Some(4096));
    assert_eq!(parse_size("12Q"), None);
    assert_eq!(parse_size("99999999999999999999K"), None);
}

proptest::proptest! {
    #[test]
    fn no_cpuinfo_or_list_panics(text in "\\PC{0,300}") {
        let cpu = parse_cpuinfo(&text);
        let _ = cpu.class(TARGET);
        let _ = cpu.describe();
        let _ = count_cpu_list(&text);
        let _ = parse_size(&text);
    }
}
