//! `yardstick machine`: this machine's class and processor, the key a
//! wall-time baseline is kept under (`baselines/<bench>/<class>.json`, or a
//! CI cache).

use super::common::Common;
use super::flags::{Def, Entry, Options, Section, Set, Spec};
use crate::document::environment::{Cpu, current_class};
use crate::error::Error;
use crate::output::stdout;
use crate::text::cleaned;
use lexopt::Parser;
use std::ffi::OsString;
use std::path::Path;

/// `yardstick machine`'s command line.
pub(crate) static SPEC: Spec<Asked> = Spec {
    command: "machine",
    usage: "usage: yardstick machine [--class]",
    about: "Prints this machine's class, the key of its wall-time baselines
(baselines/<bench>/<class>.json), and what it is made of: the processor,
online CPUs, SMT, hypervisor, kernel and governor. Wall time is judged only
against a baseline of the same class.",
    sections: &[Section {
        title: None,
        entries: &[Entry::Own(Def {
            long: "class",
            short: None,
            value: None,
            help: "print the class alone (unknown when the machine cannot be identified)",
            set: Set::Switch(|o| o.class_only = true),
        })],
    }],
    notes: "",
    exit: "Exit codes: 0, or 2 on bad usage.\n",
    refuses: &[],
};

/// What `yardstick machine` was asked.
#[derive(Debug, Default)]
pub(crate) struct Asked {
    class_only: bool,
}

impl Options for Asked {
    fn common(&mut self) -> Option<&mut Common> {
        None
    }
}

/// Prints the class (with `--class`, the class alone: `unknown` when the
/// machine cannot be identified), else the class and what it is made of.
pub fn main(args: Vec<OsString>) -> Result<i32, Error> {
    let mut asked = Asked::default();
    let mut parser = Parser::from_args(args);
    if let Some(flag) = SPEC.next(&mut parser, &mut asked)? {
        return Err(SPEC.unexpected(&flag));
    }
    let class_only = asked.class_only;
    let class = current_class().unwrap_or_else(|| "unknown".to_string());
    if class_only {
        stdout::line(&class);
        return Ok(0);
    }
    let cpu = Cpu::read(Path::new("/"));
    // What /proc and /sys say is printed, so it is cleaned like any text.
    let or_dash = |v: Option<String>| cleaned(&v.unwrap_or_else(|| "-".to_string()));
    stdout::line(&format!("machine class: {}", cleaned(&class)));
    stdout::line(&format!("cpu: {}", cleaned(&cpu.describe())));
    stdout::line(&format!(
        "vendor: {}",
        or_dash(Some(cpu.vendor.clone()).filter(|v| !v.is_empty()))
    ));
    stdout::line(&format!(
        "id: {}",
        or_dash(Some(cpu.id.clone()).filter(|v| !v.is_empty()))
    ));
    stdout::line(&format!(
        "online cpus: {}",
        or_dash(cpu.online.map(|n| n.to_string()))
    ));
    stdout::line(&format!(
        "smt: {}",
        or_dash(cpu.smt.map(|on| if on { "on" } else { "off" }.to_string()))
    ));
    stdout::line(&format!("hypervisor: {}", or_dash(cpu.hypervisor.clone())));
    stdout::line(&format!(
        "kernel: {}",
        or_dash(Some(cpu.kernel.clone()).filter(|v| !v.is_empty()))
    ));
    stdout::line(&format!("governor: {}", or_dash(cpu.governor.clone())));
    Ok(0)
}
