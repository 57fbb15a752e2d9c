//! Decides whether the answers are right, and if not, why. Judging the answers and drawing
//! the difference are separate steps: a [`Checker`] judges the answers as
//! they arrive and gives a [`Checked`], its reason as data
//! ([`crate::reason::Reason`]); [`diff`] draws the grids and lines a
//! reader sees. The case's verdict is made from this and from how the run
//! ended by [`crate::verdict_rules`].
//!
//! The default checker is a special judge: any complete, valid grid that
//! keeps every given is accepted, as on LeetCode and AcWing. `exact`
//! compares the output's lines with the expected file's, without their
//! carriage returns and trailing whitespace, and without trailing blank
//! lines.

mod answers;
mod checked;
pub(crate) mod diff;
#[cfg(test)]
mod tests;

pub(crate) use answers::{Checker, Head, LineSplitter, KEEP};

pub(crate) use crate::reason::Answerer;

pub(crate) use checked::Checked;
