//! yardstick's reference probe suite.
//!
//! A small, real web-CMS kernel (settings reader, module URL router, form
//! datatype validators, template engine, translation catalogue) and the
//! probes that time its hot paths. Each probe is registered with
//! `yardstick_probe::probe!` next to the work it times.

pub mod autoload;
pub mod content;
pub mod datatype;
pub mod faults;
pub mod filecache;
pub mod fixtures;
pub mod host;
pub mod i18n;
pub mod kernel;
pub mod router;
pub mod settings;
pub mod template;
