//! How a submission runs on one case. Every kind of submission ends in the
//! same [`Run`]: its answers as text in the case's format, how it ended, and
//! what it cost. Turning that into a verdict is the judge's job.

pub mod builtin;
pub mod process;

use std::path::PathBuf;
use std::time::Duration;

use crate::case::CaseData;
use crate::solver::Solver;

/// The limits one case is judged under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// For the whole case file, as on AcWing 166 and POJ 3074.
    pub time: Duration,
    pub memory_kb: u64,
}

/// How a run ended, before its answers are looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It answered every puzzle and exited cleanly.
    Normal,
    /// Killed at the wall-clock deadline.
    TimedOut,
    /// A Rust panic, with its message and place.
    Panicked(String),
    /// Any other abnormal end, in words.
    Crashed(String),
}

/// One run of a submission on one case.
#[derive(Clone, Debug)]
pub struct Run {
    /// The answers, printed in the case's format.
    pub output: String,
    /// How many puzzles got an answer before the run ended.
    pub answered: usize,
    /// The time charged against the limit: for a built-in solver, the time
    /// spent inside its calls.
    pub time: Duration,
    pub wall: Duration,
    pub cpu: Duration,
    /// Peak resident memory of the process that ran it.
    pub memory_kb: u64,
    /// Each puzzle's time, when the submission is called once per puzzle.
    pub puzzle_times: Vec<Duration>,
    pub end: End,
    /// The end of what it wrote to stderr.
    pub stderr: String,
}

/// What is being judged.
#[derive(Clone, Debug)]
pub enum Submission {
    /// A built-in solver, called in a worker process started from `exe`
    /// (this program's own binary).
    Builtin {
        solver: &'static Solver,
        exe: PathBuf,
    },
}

impl Submission {
    /// A short name for reports: `solver mrv`.
    pub fn label(&self) -> String {
        match self {
            Submission::Builtin { solver, .. } => format!("solver {}", solver.name),
        }
    }

    /// Runs on one case. `Err` only when the harness itself failed.
    pub fn run(&self, case: &CaseData, limits: &Limits) -> anyhow::Result<Run> {
        match self {
            Submission::Builtin { solver, exe } => builtin::run(exe, solver, case, limits),
        }
    }
}
