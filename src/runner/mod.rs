//! How a submission runs on one case. Every kind of submission ends in the
//! same [`Run`]: its answers as text in the case's format, how it ended, and
//! what it cost. Turning that into a verdict is the judge's job.

pub mod builtin;
pub mod external;
pub mod lang;
pub mod process;
pub mod sandbox;
#[cfg(target_os = "linux")]
pub mod spawner;
#[cfg(not(target_os = "linux"))]
#[path = "spawner_none.rs"]
pub mod spawner;

use std::io::{self, Read};
use std::path::PathBuf;
use std::time::Duration;

pub use process::Kill;

use crate::board::Format;
use crate::case::{Boards, CaseData};
use crate::check::{Checker, Head};
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

/// Processes and threads a run may have at once: enough for a JVM's or a
/// compiler's, few enough to stop a fork bomb.
pub const TASKS: u32 = 256;

/// What a run of a submission may see and use: the system, `read_only`,
/// and a scratch working directory; `memory_kb` of memory (the kernel
/// stops it a little past that, the watchdog at it); `no_fork` for
/// LeetCode-style files.
pub fn plan(read_only: Vec<PathBuf>, memory_kb: u64, no_fork: bool) -> sandbox::Plan {
    sandbox::Plan {
        read_only,
        writable: Vec::new(),
        cwd: working_dir(),
        scratch_kb: memory_kb.clamp(16 << 10, 1 << 20),
        memory_cap_kb: memory_kb + memory_kb / 4 + (16 << 10),
        tasks: TASKS,
        no_fork,
    }
}

/// Where runs start: the judge's own working directory, as a scratch
/// directory of the same path when the sandbox has a filesystem of its own
/// (so relative paths on a command line mean the same); else the judge's
/// directory itself.
pub fn working_dir() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    match spawner::protections() {
        Some(Ok(protections)) if protections.filesystem.is_on() => sandbox::run_cwd(&cwd),
        _ => cwd,
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

/// Minimum, median and maximum of some timings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spread {
    pub min: Duration,
    pub median: Duration,
    pub max: Duration,
}

impl Spread {
    pub fn of(times: &[Duration]) -> Option<Spread> {
        let mut sorted = times.to_vec();
        sorted.sort_unstable();
        Some(Spread {
            min: *sorted.first()?,
            median: sorted[sorted.len() / 2],
            max: *sorted.last()?,
        })
    }
}

/// The time of each call of a function submission, summed and spread
/// without keeping each one (a case may hold a million puzzles): the
/// spread comes from a histogram exact to three significant digits.
pub struct PuzzleTimes {
    total: Duration,
    histogram: hdrhistogram::Histogram<u64>,
}

impl Default for PuzzleTimes {
    fn default() -> Self {
        PuzzleTimes {
            total: Duration::ZERO,
            histogram: hdrhistogram::Histogram::new(3).expect("3 significant figures are allowed"),
        }
    }
}

impl PuzzleTimes {
    pub fn record(&mut self, ns: u64) {
        self.total += Duration::from_nanos(ns);
        // It grows to hold any value; should growing fail, the value is
        // recorded as the largest it can hold.
        if self.histogram.record(ns).is_err() {
            self.histogram.saturating_record(ns);
        }
    }

    /// The time of every call together.
    pub fn total(&self) -> Duration {
        self.total
    }

    pub fn spread(&self) -> Option<Spread> {
        if self.histogram.is_empty() {
            return None;
        }
        Some(Spread {
            min: Duration::from_nanos(self.histogram.min()),
            median: Duration::from_nanos(self.histogram.value_at_quantile(0.5)),
            max: Duration::from_nanos(self.histogram.max()),
        })
    }
}

/// A case's puzzles as AcWing input lines, followed by `end` if asked,
/// made as the submission reads them.
pub struct PuzzleLines<'a> {
    boards: Boards<'a>,
    buf: Vec<u8>,
    at: usize,
    end: bool,
}

impl<'a> PuzzleLines<'a> {
    pub fn new(boards: Boards<'a>, end: bool) -> Self {
        PuzzleLines {
            boards,
            buf: Vec::new(),
            at: 0,
            end,
        }
    }
}

impl Read for PuzzleLines<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.buf.len() {
            self.buf.clear();
            self.at = 0;
            // A few hundred lines at a time.
            while self.buf.len() < 32 << 10 {
                match self.boards.next() {
                    Some(Ok((_, board))) => {
                        self.buf.extend_from_slice(board.to_line().as_bytes());
                        self.buf.push(b'\n');
                    }
                    Some(Err(error)) => return Err(io::Error::other(format!("{error:#}"))),
                    None => {
                        if std::mem::take(&mut self.end) {
                            self.buf.extend_from_slice(b"end\n");
                        }
                        break;
                    }
                }
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// What a function submission printed itself: the first
/// [`crate::check::KEEP`] bytes, and how many lines in all.
#[derive(Default)]
pub struct OwnOutput {
    head: Head,
    lines: usize,
    /// Whether the last byte seen ended a line.
    at_line_start: bool,
    any: bool,
}

impl OwnOutput {
    pub fn feed(&mut self, chunk: &[u8]) {
        self.head.push(chunk);
        self.lines += chunk.iter().filter(|&&b| b == b'\n').count();
        if let Some(&last) = chunk.last() {
            self.any = true;
            self.at_line_start = last == b'\n';
        }
    }

    /// The text kept and the number of lines (a last one without a newline
    /// counts).
    pub fn finish(self) -> (String, usize) {
        let lines = self.lines + usize::from(self.any && !self.at_line_start);
        (self.head.text(), lines)
    }
}

/// One run of a submission on one case. Its answers went to the checker as
/// they came.
#[derive(Clone, Debug)]
pub struct Run {
    /// How many puzzles got an answer before the run ended.
    pub answered: usize,
    /// The time charged against the limit: for a function (a built-in
    /// solver or a LeetCode-style file), the time spent inside its calls;
    /// for a program, its CPU time, as AcWing and POJ charge it.
    pub time: Duration,
    pub wall: Duration,
    pub cpu: Duration,
    /// Peak memory of everything it ran (see `process::Finished`).
    pub memory_kb: u64,
    /// Memory its runtime takes on its own, allowed on top of the limit
    /// (the JVM's; see `external::JVM_OWN_KB`).
    pub memory_allowance_kb: u64,
    /// Forks refused because it reached its process limit.
    pub fork_refusals: u64,
    /// The spread of each puzzle's time, when the submission is called once
    /// per puzzle.
    pub puzzle_times: Option<Spread>,
    pub end: End,
    /// What a function submission printed itself (debug output), kept apart
    /// from its answers as LeetCode does: its first [`crate::check::KEEP`]
    /// bytes. Empty for programs.
    pub stdout: String,
    /// How many lines it printed in all.
    pub stdout_lines: usize,
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

    /// The format its answers come in: a function's are printed by the
    /// harness in the case's own format, a program prints AcWing lines.
    pub fn answer_format(&self, case: &CaseData) -> Format {
        if self.is_function() {
            case.format
        } else {
            Format::AcWing
        }
    }

    /// Runs on one case, handing its answers to `checker` as they come (in
    /// [`Submission::answer_format`]). `Err` only when the harness itself
    /// failed.
    pub fn run(
        &self,
        case: &CaseData,
        limits: &Limits,
        checker: &mut Checker<'_>,
    ) -> anyhow::Result<Run> {
        match self {
            Submission::Builtin { solver, exe } => builtin::run(exe, solver, case, limits, checker),
            Submission::External(launch) => external::run(launch, case, limits, checker),
            Submission::NotCompiled { .. } => Ok(Run {
                answered: 0,
                time: Duration::ZERO,
                wall: Duration::ZERO,
                cpu: Duration::ZERO,
                memory_kb: 0,
                memory_allowance_kb: 0,
                fork_refusals: 0,
                puzzle_times: None,
                end: End::NotCompiled,
                stdout: String::new(),
                stdout_lines: 0,
                stderr: String::new(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_times_sum_exactly_and_spread_within_a_tenth_of_a_percent() {
        let mut times = PuzzleTimes::default();
        assert_eq!(times.spread(), None);
        for ns in [3_000, 1_000, 2_000, 1_000_000, 4_000] {
            times.record(ns);
        }
        assert_eq!(times.total(), Duration::from_nanos(1_010_000));
        let spread = times.spread().unwrap();
        let near =
            |d: Duration, ns: u64| d.as_nanos().abs_diff(u128::from(ns)) * 1000 <= u128::from(ns);
        assert!(near(spread.min, 1_000), "{spread:?}");
        assert!(near(spread.median, 3_000), "{spread:?}");
        assert!(near(spread.max, 1_000_000), "{spread:?}");
    }
}
