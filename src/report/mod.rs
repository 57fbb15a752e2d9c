//! Reporters and renderers: the only part of the library that writes what
//! people read. The judge sends one vocabulary of [`Event`]s (defined with
//! the results, in [`crate::results`]); each reporter renders them to an
//! injected writer, so tests render into strings. Every other command's
//! output has a renderer here too, one module a command ([`gen`],
//! [`rate`], [`corpus`] for `check`, [`stress`], [`hack`], [`bench`](mod@bench),
//! [`calibrate`], [`driver`], [`solvers`], [`doctor`], [`cache`],
//! [`trust`], [`starter`] for `new`), with the short lines they share in
//! [`notices`]; the binary only parses, calls the library and hands the
//! results to these.

pub mod bench;
pub mod cache;
pub mod calibrate;
pub mod corpus;
pub mod doctor;
pub mod driver;
pub mod gen;
pub mod hack;
pub mod html;
pub mod human;
pub mod json;
pub(crate) mod judges;
pub mod junit;
pub mod keep;
pub(crate) mod layout;
pub mod notices;
pub mod progress;
pub mod rate;
pub(crate) mod reason;
pub mod solvers;
pub mod starter;
pub mod stress;
mod tee;
pub mod terminal;
pub mod trust;

pub use crate::results::{Event, Reporter};
pub use tee::Tee;

#[cfg(test)]
pub(crate) mod fixtures;
