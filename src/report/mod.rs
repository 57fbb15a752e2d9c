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

pub(crate) mod bench;
pub(crate) mod cache;
pub(crate) mod calibrate;
pub(crate) mod corpus;
pub(crate) mod doctor;
pub(crate) mod driver;
pub(crate) mod gen;
pub(crate) mod hack;
pub(crate) mod html;
pub(crate) mod human;
pub(crate) mod json;
pub(crate) mod judges;
pub(crate) mod junit;
pub(crate) mod keep;
pub(crate) mod layout;
pub(crate) mod notices;
pub(crate) mod progress;
pub(crate) mod rate;
pub(crate) mod reason_words;
pub(crate) mod solvers;
pub(crate) mod starter;
pub(crate) mod stress;
mod tee;
pub(crate) mod terminal;
pub(crate) mod trust;

pub(crate) use crate::results::{Event, Reporter};
pub(crate) use tee::Tee;

#[cfg(test)]
pub(crate) mod fixtures;
