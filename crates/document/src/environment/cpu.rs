//! The machine's processor: what a wall-time figure belongs to.
//!
//! A wall-time verdict is only given against a baseline of the same
//! *machine class* (docs/design.md, "Why wall time is judged only within a
//! machine class"): the same processor (vendor, family/model/stepping, or on ARM
//! implementer/part), the same cache sizes, the same number of online CPUs,
//! the same target.
//!
//! Everything is read from `/proc/cpuinfo` and sysfs, under a root
//! directory so that tests read captured trees. Cache sizes come from
//! `/sys/devices/system/cpu/cpu0/cache`, not from CPUID, whose cache
//! figures are wrong on some virtual machines; the CPU count is the online
//! count, not the CPUs this process may use, which follows pinning.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The processor of one machine, as far as the platform tells.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Cpu {
    /// `AuthenticAMD`, `GenuineIntel`, or on ARM the implementer's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub vendor: String,
    /// The model name, as the kernel reports it (empty on most ARM).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model_name: String,
    /// x86: family/model/stepping; ARM: implementer/part/variant (hex as
    /// the kernel prints them).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// Cache sizes in bytes (L1 data, L2, L3) of CPU 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1d: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Level-2 cache size in bytes, where the system tells.
    pub l2: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Level-3 cache size in bytes, where the system tells.
    pub l3: Option<u64>,
    /// CPUs online on the machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub online: Option<usize>,
    /// Whether simultaneous multithreading is active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smt: Option<bool>,
    /// The hypervisor's name, `yes` when only its presence is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hypervisor: Option<String>,
    /// The kernel's release.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kernel: String,
    /// CPU 0's frequency governor, where readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub governor: Option<String>,
}

impl Cpu {
    /// Reads the processor of the machine whose `/proc` and `/sys` are
    /// under `root` (`/` for this one). Whatever cannot be read stays
    /// empty; nothing here fails.
    pub fn read(root: &Path) -> Cpu {
        let text = |path: &str| std::fs::read_to_string(root.join(path)).ok();
        let mut cpu = text("proc/cpuinfo")
            .map(|t| parse_cpuinfo(&t))
            .unwrap_or_default();
        let cache = root.join("sys/devices/system/cpu/cpu0/cache");
        (cpu.l1d, cpu.l2, cpu.l3) = read_caches(&cache);
        cpu.online = text("sys/devices/system/cpu/online")
            .and_then(|t| count_cpu_list(&t))
            .or_else(|| text("proc/cpuinfo").and_then(|t| count_processors(&t)));
        cpu.smt = text("sys/devices/system/cpu/smt/active").map(|t| t.trim() == "1");
        cpu.kernel = text("proc/sys/kernel/osrelease")
            .map(|t| t.trim().to_string())
            .unwrap_or_default();
        cpu.governor = text("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
            .map(|t| t.trim().to_string())
            .filter(|g| !g.is_empty());
        if let Some(name) = text("sys/hypervisor/type")
            .or_else(|| text("sys/class/dmi/id/sys_vendor").filter(|_| cpu.hypervisor.is_some()))
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
        {
            cpu.hypervisor = Some(name);
        }
        cpu
    }

    /// The machine class of this processor for a binary built for
    /// `target`, or `None` when too little is known to tell two machines
    /// apart (no processor identity): such a machine is of unknown class.
    pub fn class(&self, target: &str) -> Option<String> {
        if self.vendor.is_empty() && self.model_name.is_empty() && self.id.is_empty() {
            return None;
        }
        let size = |s: Option<u64>| s.map_or_else(|| "?".to_string(), |b| b.to_string());
        let online = self
            .online
            .map_or_else(|| "?".to_string(), |n| n.to_string());
        let identity = format!(
            "{}|{}|l1d={}|l2={}|l3={}|cpus={}|{}",
            self.vendor,
            self.model_id(),
            size(self.l1d),
            size(self.l2),
            size(self.l3),
            online,
            target
        );
        let digest = Sha256::digest(identity.as_bytes());
        let hash: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
        // A count the machine did not tell stays out of the name (the hash
        // has it as unknown).
        let count = self.online.map(|n| format!("-{n}cpu")).unwrap_or_default();
        Some(format!("{}{count}-{hash}", self.slug()))
    }

    /// What names the processor model in the class: x86 family/model/
    /// stepping; on ARM implementer/part, the variant being a revision of
    /// one part.
    fn model_id(&self) -> &str {
        if !self.id.starts_with("0x") {
            return &self.id;
        }
        match self.id.match_indices('/').nth(1) {
            Some((end, _)) => &self.id[..end],
            None => &self.id,
        }
    }

    /// A readable name for file names: the model name's words without
    /// trademarks, frequencies and filler, lower case, joined by `-`.
    fn slug(&self) -> String {
        let source = if self.model_name.is_empty() {
            format!("{} {}", self.vendor, self.model_id())
        } else {
            self.model_name.clone()
        };
        let filler = [
            "(r)",
            "(tm)",
            "cpu",
            "processor",
            "with",
            "radeon",
            "graphics",
        ];
        let words: Vec<String> = source
            .to_lowercase()
            .split(|c: char| c.is_whitespace() || c == '@' || c == '/')
            .map(|w| w.replace("(r)", "").replace("(tm)", ""))
            .filter(|w| !w.is_empty() && !filler.contains(&w.as_str()))
            .filter(|w| !w.ends_with("ghz") && !w.ends_with("-core"))
            .map(|w| w.chars().filter(|c| c.is_ascii_alphanumeric()).collect())
            .filter(|w: &String| !w.is_empty())
            .take(5)
            .collect();
        if words.is_empty() {
            "cpu".to_string()
        } else {
            words.join("-")
        }
    }

    /// One line naming the processor, for headers and notes.
    pub fn describe(&self) -> String {
        let name = if self.model_name.is_empty() {
            format!("{} {}", self.vendor, self.id).trim().to_string()
        } else {
            self.model_name.clone()
        };
        let kb = |s: Option<u64>| s.map(|b| b / 1024);
        let mut caches = Vec::new();
        for (label, size) in [
            ("L1d", kb(self.l1d)),
            ("L2", kb(self.l2)),
            ("L3", kb(self.l3)),
        ] {
            if let Some(k) = size {
                caches.push(if k >= 1024 && k % 1024 == 0 {
                    format!("{label} {} MB", k / 1024)
                } else {
                    format!("{label} {k} KB")
                });
            }
        }
        if caches.is_empty() {
            name
        } else {
            format!("{name} ({})", caches.join(", "))
        }
    }
}

/// The first processor's identity in a `/proc/cpuinfo`: x86 names its
/// vendor, family, model and stepping; ARM its implementer, part and
/// variant; a `hypervisor` flag marks a virtual machine.
pub fn parse_cpuinfo(text: &str) -> Cpu {
    let mut cpu = Cpu::default();
    let first = text.split("\n\n").next().unwrap_or("");
    let field = |name: &str| {
        first.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    };
    if let Some(vendor) = field("vendor_id") {
        cpu.vendor = vendor;
        cpu.model_name = field("model name").unwrap_or_default();
        cpu.id = [field("cpu family"), field("model"), field("stepping")]
            .map(Option::unwrap_or_default)
            .join("/");
        let flags = field("flags").unwrap_or_default();
        if flags.split_whitespace().any(|f| f == "hypervisor") {
            cpu.hypervisor = Some("yes".to_string());
        }
    } else if let Some(implementer) = field("CPU implementer") {
        cpu.vendor = arm_implementer(&implementer).to_string();
        cpu.model_name = field("model name").unwrap_or_default();
        cpu.id = [Some(implementer), field("CPU part"), field("CPU variant")]
            .map(Option::unwrap_or_default)
            .join("/");
    }
    cpu
}

/// The names of the commonest ARM implementer codes (the kernel's
/// `arch/arm64` table); others keep their code.
fn arm_implementer(code: &str) -> &str {
    match code.to_ascii_lowercase().as_str() {
        "0x41" => "ARM",
        "0x42" => "Broadcom",
        "0x43" => "Cavium",
        "0x46" => "Fujitsu",
        "0x48" => "HiSilicon",
        "0x4e" => "NVIDIA",
        "0x50" => "APM",
        "0x51" => "Qualcomm",
        "0x61" => "Apple",
        "0xc0" => "Ampere",
        _ => code,
    }
}

/// (L1 data, L2, L3) sizes from a sysfs `cache` directory of one CPU.
fn read_caches(dir: &Path) -> (Option<u64>, Option<u64>, Option<u64>) {
    let (mut l1d, mut l2, mut l3) = (None, None, None);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (l1d, l2, l3);
    };
    for entry in entries.filter_map(Result::ok) {
        let index = entry.path();
        let read = |name: &str| {
            std::fs::read_to_string(index.join(name))
                .ok()
                .map(|t| t.trim().to_string())
        };
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            continue;
        };
        let size = parse_size(&size);
        match (level.as_str(), kind.as_str()) {
            ("1", "Data") => l1d = size,
            ("2", "Data" | "Unified") => l2 = size,
            ("3", "Data" | "Unified") => l3 = size,
            _ => {}
        }
    }
    (l1d, l2, l3)
}

/// `48K`, `1024K`, `32M` or a plain number of bytes.
fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let n: u64 = number.parse().ok()?;
    let factor = match unit.trim().to_ascii_uppercase().as_str() {
        "" => 1,
        "K" | "KB" => 1 << 10,
        "M" | "MB" => 1 << 20,
        "G" | "GB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(factor)
}

/// How many `processor` entries a `/proc/cpuinfo` lists, where sysfs has
/// no online list.
fn count_processors(text: &str) -> Option<usize> {
    let n = text
        .lines()
        .filter(|l| l.split(':').next().is_some_and(|k| k.trim() == "processor"))
        .count();
    (n > 0).then_some(n)
}

/// How many CPUs a kernel CPU list names: `0-1`, `0,2-5`, `7`.
fn count_cpu_list(text: &str) -> Option<usize> {
    let mut count = 0usize;
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        let (first, last) = match part.split_once('-') {
            Some((a, b)) => (a.trim().parse::<usize>().ok()?, b.trim().parse().ok()?),
            None => {
                let n = part.trim().parse::<usize>().ok()?;
                (n, n)
            }
        };
        count = count.checked_add(last.checked_sub(first)?.checked_add(1)?)?;
    }
    (count > 0).then_some(count)
}

#[cfg(test)]
mod tests;
