//! Decides nothing: what judging produced, each case's result, the judgement of one that
//! ran, the totals of a run, and the [`Event`]s that carry them to a
//! [`Reporter`]. The judge makes them, reporters and exporters read them,
//! and anything that listens to a run (the baseline's recorder, calibrate)
//! implements [`Reporter`]; none of them imports another for these.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use crate::board::Format;
use crate::case::{CheckerKind, Limits};
use crate::outside::{Outside, OutsideName, OutsidePath};
use crate::problem::Problem;
use crate::reason::Reason;
use crate::runner::lang::BuildInfo;
use crate::runner::lang::Interface;
use crate::stats::Spread;
use crate::verdict::Verdict;

/// The judgement of one case that could be run.
#[derive(Clone, Debug)]
pub(crate) struct Judgement {
    pub(crate) verdict: Verdict,
    /// Why, as data: the reporters say it in words.
    pub(crate) reason: Reason,
    /// It failed after this many earlier cases in its process, and passes
    /// alone: the solution keeps state between tests.
    pub(crate) kept_state_after: Option<usize>,
    /// With `--repeat`, the run that failed and how many there were.
    pub(crate) failed_run: Option<(usize, usize)>,
    /// Grid or line diffs, plain text, with the submission's answers in them.
    pub(crate) details: Outside,
    pub(crate) format: Format,
    pub(crate) checker: CheckerKind,
    pub(crate) puzzles: usize,
    pub(crate) limits: Limits,
    /// The time charged against the limit (the median over repeats).
    pub(crate) time: Duration,
    /// The charged time of every run, in run order.
    pub(crate) run_times: Vec<Duration>,
    /// Per-puzzle times of the first run, for multi-puzzle cases.
    pub(crate) puzzle_times: Option<Spread>,
    /// How many puzzles `puzzle_times` timed one by one: all of them, or
    /// fewer when a program's answers arrived together.
    pub(crate) puzzles_timed: usize,
    /// The slowest puzzle of the first run, with `puzzle_times`.
    pub(crate) slowest: Option<Slowest>,
    pub(crate) wall: Duration,
    pub(crate) cpu: Duration,
    /// Peak memory, the highest over repeats.
    pub(crate) memory_kb: u64,
    /// How it was run, when worth saying (e.g. that its process was
    /// started anew, with the solution's state reset).
    pub(crate) notes: Vec<Outside>,
    /// The answers as the submission gave them (a LeetCode-style file's
    /// in the case's format), their first 64 KB; only for a case not
    /// accepted.
    pub(crate) output: Outside,
    /// What a LeetCode-style submission printed itself, kept apart from
    /// its answers (its first 64 KB).
    pub(crate) stdout: Outside,
    /// How many lines it printed.
    pub(crate) stdout_lines: usize,
    /// When `stdout` is not all it printed: its last line.
    pub(crate) stdout_last_line: Option<Outside>,
    pub(crate) stderr: Outside,
    pub(crate) warnings: Vec<Outside>,
    /// When it failed only after earlier cases in its process (it passes
    /// alone), their inputs, in order: judged before it in one process,
    /// they reproduce the failure.
    pub(crate) reproduce_after: Vec<OutsidePath>,
}

/// The slowest puzzle of a case: where to look when a case is slow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slowest {
    /// Its number in the case, from 1.
    pub(crate) puzzle: usize,
    /// The line of the input it starts on.
    pub(crate) line: usize,
    pub(crate) time: Duration,
}

impl Judgement {
    /// Share of the time limit used, in percent.
    pub(crate) fn limit_percent(&self) -> f64 {
        100.0 * self.time.as_secs_f64() / self.limits.time.as_secs_f64()
    }
}

#[derive(Clone, Debug)]
pub(crate) enum CaseOutcome {
    Judged(Box<Judgement>),
    /// The harness could not judge the case, e.g. its input is malformed.
    Error(Unjudged),
}

/// Why a case could not be judged: whose fault it is, and what. The
/// strings are what a file, the kernel or the runner said; the reporters
/// put the words around them ([`crate::report::reason_words::unjudged`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unjudged {
    /// A file of the case, or its `judge.toml`, could not be read: the
    /// error, naming the file (and the line and column).
    Unreadable(Outside),
    /// The exact checker was asked for, and the case has no expected output.
    NoExpected { input: OutsidePath },
    /// A puzzle of a case without an expected output has no solution, so
    /// no answer could be right.
    Unsolvable {
        input: OutsidePath,
        line: usize,
        /// Its number in the case, from 1.
        puzzle: usize,
    },
    /// The kernel would not start the submission's program: what it said.
    Refused(Outside),
    /// The machine starved the run of CPU however often it was judged
    /// again: the runner's account of it.
    TooBusy(Outside),
    /// The judge's own machinery failed while running the submission (its
    /// spawner was killed, say): the error.
    JudgeFailed(Outside),
}

/// Whose fault it is that a case could not be judged: what to do next
/// depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// The case's files (or its `judge.toml`): fix them.
    Case,
    /// The judge's own machinery, or a machine too busy to time the run:
    /// neither the case nor the submission.
    Judge,
    /// The kernel would not start the submission's program (not a program
    /// for this machine, a script without `#!`, not readable): fix it.
    Submission,
}

impl Unjudged {
    pub(crate) fn fault(&self) -> Fault {
        match self {
            Unjudged::Unreadable(_) | Unjudged::NoExpected { .. } | Unjudged::Unsolvable { .. } => {
                Fault::Case
            }
            Unjudged::Refused(_) => Fault::Submission,
            Unjudged::TooBusy(_) | Unjudged::JudgeFailed(_) => Fault::Judge,
        }
    }
}

/// What happened to one case.
#[derive(Clone, Debug)]
pub(crate) struct CaseResult {
    pub(crate) id: OutsideName,
    /// The directory of cases it belongs to.
    pub(crate) suite: OutsidePath,
    pub(crate) input: OutsidePath,
    pub(crate) expected: Option<OutsidePath>,
    /// The problem it is judged as, from `--problem` or a `judge.toml`.
    pub(crate) problem: Option<Problem>,
    pub(crate) outcome: CaseOutcome,
}

impl CaseResult {
    pub(crate) fn verdict(&self) -> Option<Verdict> {
        match &self.outcome {
            CaseOutcome::Judged(j) => Some(j.verdict),
            CaseOutcome::Error(_) => None,
        }
    }

    pub(crate) fn passed(&self) -> bool {
        self.verdict() == Some(Verdict::AC)
    }
}

/// Totals of a run. Cases that could not be judged count as failed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    pub(crate) passed: usize,
    pub(crate) failed: usize,
    pub(crate) errors: usize,
    pub(crate) total: usize,
    /// How many cases got each verdict, in [`Verdict::ALL`] order.
    pub(crate) verdicts: Vec<(Verdict, usize)>,
    pub(crate) elapsed: Duration,
    /// The time charged over every case judged: the run's total solving
    /// time, as the limits count it.
    pub(crate) charged: Duration,
    /// The user stopped the run (Ctrl-C): these are the cases judged before.
    pub(crate) interrupted: bool,
    /// Inputs of the cases not accepted, for `--failed`.
    pub(crate) not_accepted: Vec<PathBuf>,
    /// The cases left unjudged after the first one not accepted
    /// (`--fail-fast`).
    pub(crate) not_run: Vec<NotRun>,
}

/// A case `--fail-fast` left unjudged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NotRun {
    pub(crate) id: OutsideName,
    /// The directory of cases it belongs to, as [`CaseResult::suite`].
    pub(crate) suite: OutsidePath,
}

impl Summary {
    /// Counts one more case in.
    pub(crate) fn add(&mut self, result: &CaseResult) {
        self.total += 1;
        if let CaseOutcome::Judged(judgement) = &result.outcome {
            self.charged += judgement.time;
        }
        if let Some(verdict) = result.verdict() {
            match self.verdicts.iter_mut().find(|(v, _)| *v == verdict) {
                Some((_, n)) => *n += 1,
                None => {
                    self.verdicts.push((verdict, 1));
                    self.verdicts
                        .sort_by_key(|&(v, _)| Verdict::ALL.iter().position(|&w| w == v));
                }
            }
        }
        if result.passed() {
            self.passed += 1;
        } else {
            self.failed += 1;
            self.errors += usize::from(result.verdict().is_none());
            self.not_accepted.push(result.input.as_raw().to_path_buf());
        }
    }

    /// The summary of `results` at once, as the judge tallies it case by case.
    #[cfg(test)]
    pub(crate) fn of(results: &[CaseResult], elapsed: Duration) -> Summary {
        let mut summary = Summary::default();
        for result in results {
            summary.add(result);
        }
        summary.elapsed = elapsed;
        summary
    }
}

/// What the judge tells reporters, in order: `Started`, one
/// `CaseFinished` per case in case order, then `Finished`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Event<'a> {
    Started {
        cases: usize,
        submission: &'a str,
        /// How a source file was built, when one was.
        build: Option<&'a BuildInfo>,
        /// Cases judged at once.
        jobs: usize,
        /// The protections runs get, when submissions run in a sandbox.
        sandbox: Option<&'a crate::runner::sandbox::Protections>,
        /// Files that look like part of a case but are not judged.
        warnings: &'a [Outside],
        /// The problems the cases are judged as (from `--problem` or a
        /// `judge.toml`), each once with its number of cases, in case order.
        problems: &'a [(Problem, usize)],
        /// How the submission answers; `None` when it did not compile.
        interface: Option<Interface>,
        /// How the user's own submission (a source file or a command)
        /// answers; `None` for a built-in solver, and for a file that did
        /// not compile. A real judge refuses one of the wrong kind.
        submitted: Option<Interface>,
        /// The `time_scale` factors (other than 1) the cases' limits are
        /// multiplied by, from `judge.toml` or `--time-scale`.
        time_scales: &'a [f64],
    },
    /// Nothing of a case is kept by the judge after this: a reporter that
    /// needs it at the end keeps its own copy.
    CaseFinished(&'a CaseResult),
    /// The answers checked so far in the run, as they stream in: told as
    /// it grows, a case at a time or every 100 ms inside a long one.
    Answered(usize),
    Finished {
        summary: &'a Summary,
    },
}

pub(crate) trait Reporter {
    fn report(&mut self, event: Event<'_>) -> io::Result<()>;
}
