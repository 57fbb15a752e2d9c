//! The `sudoku-judge` binary as users run it: real processes on real files,
//! asserting verdicts, messages, exit codes and the report formats.
//!
//! One module per command (`judge` and `submissions` hold the `test`
//! command's, `scale` its --jobs, filters and report files), a few per
//! concern (containment, hostile suites, languages, practice sessions), and
//! the helpers they share in `support`, which is in scope here so that each
//! module takes what it needs with `use super::{...}`.

#[path = "cli/support.rs"]
mod support;
use support::*;

#[path = "cli/bench.rs"]
mod bench;
#[path = "cli/calibrate.rs"]
mod calibrate;
#[path = "cli/check.rs"]
mod check;
#[path = "cli/containment.rs"]
mod containment;
#[path = "cli/docs.rs"]
mod docs;
#[path = "cli/doctor.rs"]
mod doctor;
#[path = "cli/gen.rs"]
mod gen;
#[path = "cli/hack.rs"]
mod hack;
#[path = "cli/hostile.rs"]
mod hostile;
#[path = "cli/judge.rs"]
mod judge;
#[path = "cli/languages.rs"]
mod languages;
#[path = "cli/messages.rs"]
mod messages;
#[path = "cli/new.rs"]
mod new;
#[path = "cli/newcomer.rs"]
mod newcomer;
#[path = "cli/options.rs"]
mod options;
#[path = "cli/practice.rs"]
mod practice;
#[path = "cli/programs.rs"]
mod programs;
#[path = "cli/rate.rs"]
mod rate;
#[path = "cli/readme.rs"]
mod readme;
#[path = "cli/report.rs"]
mod report;
#[path = "cli/scale.rs"]
mod scale;
#[path = "cli/sessions.rs"]
mod sessions;
#[path = "cli/snapshots.rs"]
mod snapshots;
#[path = "cli/solve.rs"]
mod solve;
#[path = "cli/streamed.rs"]
mod streamed;
#[path = "cli/stress.rs"]
mod stress;
#[path = "cli/submissions.rs"]
mod submissions;
#[path = "cli/toolchains.rs"]
mod toolchains;
