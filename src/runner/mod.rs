//! How a submission runs on one case. Every kind of submission ends in the
//! same [`Run`]: its answers as text in the case's format, how it ended, and
//! what it cost. Turning that into a verdict is the judge's job.

pub mod builtin;
pub mod external;
pub mod lang;
pub mod process;

use std::path::PathBuf;
use std::time::Duration;

pub use process::Kill;

use crate::board::Format;
use crate::case::CaseData;
use crate::solver::Solver;

pub use external::Interface;

/// The limits one case is judged under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// For the whole case file, as on AcWing 166 and POJ 3074.
    pub time: Duration,
    pub memory_kb: u64,
}

impl Limits {
    /// The wall-clock backstop: a program that sleeps or waits uses little
    /// CPU, so it is also held to twice the time limit in wall time.
    pub fn wall(&self) -> Duration {
        self.time * 2
    }

    /// Output past this many bytes is OLE: 64 MiB, or 256 bytes a puzzle
    /// for huge inputs (an answer line takes 82).
    pub fn output_bytes(puzzles: usize) -> usize {
        (64 << 20).max(puzzles.saturating_mul(256))
    }
}

/// Extra time past a limit before a submission is killed, so the report
/// can say how far over it went.
pub fn grace(limit: Duration) -> Duration {
    limit / 4 + Duration::from_millis(100)
}

/// How a run ended, before its answers are looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited cleanly (a built-in solver: having answered every puzzle).
    Normal,
    /// The harness killed it, and why.
    Killed(Kill),
    /// A Rust panic, with its message and place.
    Panicked(String),
    /// Any other abnormal end, in words.
    Crashed(String),
    /// It died because an allocation failed (e.g. `std::bad_alloc`,
    /// `MemoryError`): the memory limit stopped it.
    OutOfMemory(String),
    /// It never ran: the compiler rejected it.
    NotCompiled,
}

/// One run of a submission on one case.
#[derive(Clone, Debug)]
pub struct Run {
    /// The answers as the submission printed them, in [`Run::format`].
    pub output: String,
    /// The format the answers should be in: the case's own for a function
    /// submission (the harness prints its boards), AcWing lines for a program.
    pub format: Format,
    /// How many puzzles got an answer before the run ended.
    pub answered: usize,
    /// The time charged against the limit: for a function (a built-in
    /// solver or a LeetCode-style file), the time spent inside its calls;
    /// for a program, its CPU time, as AcWing and POJ charge it.
    pub time: Duration,
    pub wall: Duration,
    pub cpu: Duration,
    /// Peak resident memory of the process that ran it.
    pub memory_kb: u64,
    /// Each puzzle's time, when the submission is called once per puzzle.
    pub puzzle_times: Vec<Duration>,
    pub end: End,
    /// What a function submission printed itself (debug output), kept apart
    /// from its answers as LeetCode does. Empty for programs.
    pub stdout: String,
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
    /// A program or a LeetCode-style file behind its driver, ready to run.
    External(external::Launch),
    /// A source file the compiler rejected: every case is CE.
    NotCompiled { label: String },
}

impl Submission {
    /// A short name for reports: `solver mrv`, `sol.cpp (C++ program)`.
    pub fn label(&self) -> String {
        match self {
            Submission::Builtin { solver, .. } => format!("solver {}", solver.name),
            Submission::External(launch) => launch.label.clone(),
            Submission::NotCompiled { label } => label.clone(),
        }
    }

    /// Whether it answers through LeetCode's function interface (built-in
    /// solvers and LeetCode-style files) rather than as a stdin program.
    pub fn is_function(&self) -> bool {
        match self {
            Submission::Builtin { .. } => true,
            Submission::External(launch) => launch.interface == Interface::Function,
            Submission::NotCompiled { .. } => false,
        }
    }

    /// Runs on one case. `Err` only when the harness itself failed.
    pub fn run(&self, case: &CaseData, limits: &Limits) -> anyhow::Result<Run> {
        match self {
            Submission::Builtin { solver, exe } => builtin::run(exe, solver, case, limits),
            Submission::External(launch) => external::run(launch, case, limits),
            Submission::NotCompiled { .. } => Ok(Run {
                output: String::new(),
                format: case.format,
                answered: 0,
                time: Duration::ZERO,
                wall: Duration::ZERO,
                cpu: Duration::ZERO,
                memory_kb: 0,
                puzzle_times: Vec::new(),
                end: End::NotCompiled,
                stdout: String::new(),
                stderr: String::new(),
            }),
        }
    }
}
