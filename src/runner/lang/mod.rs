//! Source files in the languages users submit in: which language a file is,
//! whether it is a program or a LeetCode-style file, and how to build and
//! start it the way the judges do.
//!
//! A language is a declaration, not a branch: each one is a [`Spec`] in a
//! file of its own beside this one (its extensions, toolchain, flags, the
//! files and commands that build and start it, what its runtime says when
//! it crashes, the LeetCode template it takes), plus its driver in
//! `drivers/`; one that runs as another does (Kotlin as Java) takes what
//! it does not say from that language's spec. Nothing else in the judge
//! asks which language it runs; the book's table of languages
//! (`docs/languages.md`) is made from the same declarations (by `table`,
//! in the test that keeps the two in step).
//!
//! How a file is built and cached is in [`build`](mod@build), the
//! compiler's run in [`compile`], and which programs a language's tools
//! are in [`tools`].

mod announce;
mod build;
mod c;
pub(crate) mod cache;
mod caches;
mod cause;
mod compile;
mod copied;
mod cpp;
mod csharp;
pub(crate) mod export;
mod found;
mod go;
mod harness;
mod held;
mod java;
mod javascript;
mod known;
mod kotlin;
mod language;
pub mod launch;
mod needs;
mod php;
mod plan;
mod python;
mod racket;
mod ruby;
mod rust;
mod scala;
pub(crate) mod starter;
#[cfg(test)]
mod table;
pub(crate) mod tools;
mod typescript;

pub(crate) use crate::reason::Stdout;
pub(crate) use announce::Announce;
pub(crate) use build::build_as;
pub(crate) use build::tool_version;
pub(crate) use cause::{crash_cause, out_of_memory};
pub(crate) use copied::copy_of;
pub(crate) use needs::another_language;
pub(crate) use plan::Options;
pub(crate) use tools::Choice;

#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use language::interface_of;
pub(crate) use language::{BuildInfo, Reading, Toolchain};
pub use language::{Interface, Language, LeetCode, Profile, Spec, Tool};
