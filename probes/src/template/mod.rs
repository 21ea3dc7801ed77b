//! The template engine: the eZ Publish template language compiled to a
//! flat program and rendered with variables.
//!
//! Pipeline: [`lexer`] (text, tags, the whitespace rule) → [`parser`] and
//! [`expr`] (a syntax tree with spans) → [`compile`] (resolved names,
//! folded constants, jumps) → [`render`]. [`cache`] keeps compiled programs
//! on disk; [`engine::Engine`] ties the parts to a design search path, a
//! site, a locale, and the kernel's translator, settings reader and content
//! store ([`content`] shows its nodes to templates).

pub mod ast;
pub mod budget;
pub mod cache;
pub mod codec;
pub mod compile;
pub mod content;
pub mod engine;
pub mod error;
pub mod expr;
pub mod lexer;
mod lower_expr;
pub mod ops;
pub mod parser;
pub mod probes;
pub mod program;
pub mod render;
pub mod scope;
pub mod value;

#[cfg(test)]
mod golden_tests;
#[cfg(test)]
mod tests;

pub use compile::compile;
pub use engine::{Engine, Limits, Vars};
pub use error::{TemplateError, Warning};
pub use parser::parse;
pub use program::Program;
pub use value::{Map, Object, Value};
