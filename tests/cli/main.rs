//! The `sudoku-judge` binary as users run it: real processes on real files,
//! asserting verdicts, messages, exit codes and the report formats.
//!
//! One module per command (`judge` and `submissions` hold the `test`
//! command's, `scale` its --jobs, filters and report files), a few per
//! concern (containment, hostile suites, languages, practice sessions), and
//! the helpers they share in `support`, which is in scope here so that each
//! module takes what it needs with `use super::{...}`.

mod support;
use support::*;

mod bench;
mod calibrate;
mod check;
mod containment;
mod docs;
mod doctor;
mod gen;
mod hack;
mod hostile;
mod judge;
mod languages;
mod messages;
mod new;
mod newcomer;
mod options;
mod practice;
mod programs;
mod rate;
mod readme;
mod report;
mod scale;
mod sessions;
mod snapshots;
mod solve;
mod streamed;
mod stress;
mod submissions;
mod toolchains;
