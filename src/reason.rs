//! Decides nothing: why a case got its verdict, as data (which limit a run
//! met and how far it got, or what is wrong with its answers). [`crate::check`]
//! and [`crate::verdict_rules`] fill these in; only [`crate::report::reason_words`]
//! puts them into words, a sentence and a short form for a table row (the
//! JSON report also carries the fields, for tools).

use std::time::Duration;

use serde::Serialize;

use crate::board::format::ParseError;
use crate::board::rules::Mistake;
use crate::board::Format;

/// Why a case got its verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Reason {
    /// Accepted: there is nothing to say.
    Accepted,
    /// The compiler rejected the submission; its message is shown once.
    CompileError,
    /// The judge killed the run at a limit while it ran.
    Killed { at: KilledAt, progress: Progress },
    /// An allocation failed under the memory limit (`std::bad_alloc`,
    /// `MemoryError`): the line that says so.
    AllocationFailed {
        message: String,
        limit_kb: u64,
        memory_kb: u64,
    },
    /// It ended by itself, but over the time limit.
    OverTime {
        #[serde(rename = "time_ms", serialize_with = "ms")]
        time: Duration,
        #[serde(rename = "limit_ms", serialize_with = "ms")]
        limit: Duration,
        answers_right: bool,
    },
    /// It ended by itself, but over the wall-clock limit.
    OverWall {
        #[serde(rename = "wall_ms", serialize_with = "ms")]
        wall: Duration,
        #[serde(rename = "limit_ms", serialize_with = "ms")]
        limit: Duration,
        /// The wall-clock limit as a multiple of the time limit.
        factor: u32,
        #[serde(rename = "cpu_ms", serialize_with = "ms")]
        cpu: Duration,
        /// How long of that wall time it waited for a CPU, where the
        /// kernel says (too little to explain it: else it would have been
        /// judged again, see `Run::starved`).
        #[serde(rename = "cpu_wait_ms", serialize_with = "ms_or_null")]
        cpu_wait: Option<Duration>,
        answers_right: bool,
    },
    /// It ended by itself, but over the memory limit.
    OverMemory {
        memory_kb: u64,
        limit_kb: u64,
        answers_right: bool,
    },
    /// A built-in solver panicked, on the puzzle it was solving.
    Panicked {
        message: String,
        puzzle: usize,
        puzzles: usize,
    },
    /// Any other abnormal end, as the runner names it (`killed by SIGSEGV`).
    Crashed { how: String, progress: Progress },
    /// The run ended well within its limits, and its answers are wrong.
    Wrong(Wrong),
}

impl Reason {
    /// Every text in it that the judge did not write (what a runner or a
    /// submission said, a line of its output), to be escaped when shown.
    pub(crate) fn texts_mut(&mut self) -> Vec<&mut String> {
        match self {
            Reason::AllocationFailed { message, .. } | Reason::Panicked { message, .. } => {
                vec![message]
            }
            Reason::Crashed { how, .. } => vec![how],
            Reason::Wrong(Wrong::Unreadable { error, .. }) => vec![&mut error.message],
            Reason::Wrong(Wrong::ExtraLines { first_text, .. }) => vec![first_text],
            _ => Vec::new(),
        }
    }
}

/// The limit a run was killed at, with what it had used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "limit", rename_all = "snake_case")]
pub(crate) enum KilledAt {
    Wall {
        #[serde(rename = "wall_ms", serialize_with = "ms")]
        wall: Duration,
        #[serde(rename = "cpu_ms", serialize_with = "ms")]
        cpu: Duration,
        #[serde(rename = "limit_ms", serialize_with = "ms")]
        limit: Duration,
    },
    Cpu {
        #[serde(rename = "time_ms", serialize_with = "ms")]
        time: Duration,
        #[serde(rename = "limit_ms", serialize_with = "ms")]
        limit: Duration,
    },
    /// A LeetCode-style file's runtime did not reach its first board.
    Startup {
        seconds: u64,
    },
    Memory {
        memory_kb: u64,
        limit_kb: u64,
    },
    Output {
        limit_mb: usize,
    },
}

/// How far a run got, and what else is worth knowing of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Progress {
    pub(crate) answered: usize,
    pub(crate) puzzles: usize,
    /// A program killed before it printed anything, on a case of several
    /// puzzles: what it answered may have died in its output buffer.
    pub(crate) maybe_buffered: bool,
    /// The program's language, and how its runtime writes stdout: what
    /// the words on `maybe_buffered` say (`None`: a `--cmd`, a function).
    #[serde(skip)]
    pub(crate) buffering: Option<(&'static str, Stdout)>,
    /// Forks the kernel refused at the task limit.
    pub(crate) forks_refused: u64,
}

/// How a language's runtime writes a program's stdout into a pipe (each
/// language declares its own, beside its other traits): a program killed
/// at a limit loses what its runtime still held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stdout {
    /// Held until a block fills or the program flushes it; how to flush,
    /// in the language's words.
    Buffered { flush: &'static str },
    /// Written at every line (or every write): what reached the judge is
    /// all it printed, but what it held in a buffer of its own, such as
    /// this one.
    Lines { own_buffer: &'static str },
}

/// What is wrong with the answers of a run that ended within its limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "wrong", rename_all = "snake_case")]
pub(crate) enum Wrong {
    /// The right answers, printed in another format (Presentation Error).
    OtherFormat {
        #[serde(serialize_with = "format_name")]
        printed: Format,
        #[serde(serialize_with = "format_name")]
        wanted: Format,
    },
    /// The output does not read as answers in the format it should be in.
    Unreadable {
        #[serde(serialize_with = "format_name")]
        format: Format,
        #[serde(serialize_with = "parse_error")]
        error: ParseError,
    },
    /// Every answer is right, but the output has other lines besides:
    /// debugging on stdout, or the input's `end` echoed.
    ExtraLines {
        answers: usize,
        extra: usize,
        /// The first of them: its line in the output and its text (cut).
        first_line: usize,
        first_text: String,
    },
    /// Answers, one per puzzle, some of them wrong.
    Answers(WrongAnswers),
    /// `--checker exact`: a line differs from the expected output's.
    LineDiffers { line: usize },
    /// `--checker exact`: the output has fewer lines than expected.
    EndsEarly { got: usize, want: usize },
    /// `--checker exact`: the output has more lines than expected.
    TooLong { got: usize, want: usize },
}

/// The answers of a run held to the rules of Sudoku.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct WrongAnswers {
    pub(crate) puzzles: usize,
    /// How many answers it gave, when that is not one per puzzle.
    pub(crate) count: Option<usize>,
    /// The first few wrong answers, spelled out.
    pub(crate) shown: Vec<WrongAnswer>,
    /// How many wrong answers there are in all.
    pub(crate) wrong: usize,
    /// How many answers were their puzzles unchanged.
    pub(crate) unchanged: usize,
    pub(crate) answerer: Answerer,
}

impl WrongAnswers {
    /// Whether every answer of a case of several is its puzzle unchanged,
    /// which is said once rather than per puzzle.
    pub(crate) fn all_unchanged(&self) -> bool {
        self.puzzles > 1 && self.unchanged == self.puzzles && self.count.is_none()
    }
}

/// One wrong answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct WrongAnswer {
    /// Its puzzle's number (from 1) and the input line it starts on, in a
    /// case of several; `None` for a case of one.
    pub(crate) puzzle: Option<(usize, usize)>,
    /// The answer is the puzzle as given.
    pub(crate) unchanged: bool,
    /// What keeps it from solving its puzzle, all of it.
    #[serde(serialize_with = "mistakes")]
    pub(crate) mistakes: Vec<Mistake>,
}

/// Who gives the answers, so that an answer that is its puzzle unchanged
/// is said in the user's terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Answerer {
    /// Not known: the answer itself is named.
    #[default]
    Unknown,
    /// A program printing answer lines.
    Program,
    /// LeetCode's function, by its name in the submission's language
    /// (`solveSudoku`, `solve_sudoku`).
    Function(&'static str),
}

fn ms<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((d.as_secs_f64() * 1_000_000.0).round() / 1000.0)
}

fn ms_or_null<S: serde::Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => ms(d, s),
        None => s.serialize_none(),
    }
}

fn parse_error<S: serde::Serializer>(e: &ParseError, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct as _;
    let mut out = s.serialize_struct("ParseError", 3)?;
    out.serialize_field("line", &e.line)?;
    out.serialize_field("column", &e.column)?;
    out.serialize_field("message", &e.message)?;
    out.end()
}

fn mistakes<S: serde::Serializer>(found: &[Mistake], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(found.iter().map(ToString::to_string))
}

fn format_name<S: serde::Serializer>(format: &Format, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(format.name())
}

/// Reasons the judge really gives, for the reporters' tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;
    use crate::board::{Cell, Conflict, Digit, Unit};

    /// Puzzle 2 of a case of 5 has two 5s in row 1.
    pub(crate) fn two_fives_in_row_one() -> Reason {
        let five = Digit::new(5).expect("a digit");
        Reason::Wrong(Wrong::Answers(WrongAnswers {
            puzzles: 5,
            count: None,
            shown: vec![WrongAnswer {
                puzzle: Some((2, 2)),
                unchanged: false,
                mistakes: vec![Mistake::Conflict(Conflict {
                    unit: Unit::Row(0),
                    digit: five,
                    first: Cell::from_index(2),
                    second: Cell::from_index(4),
                })],
            }],
            wrong: 1,
            unchanged: 0,
            answerer: Answerer::Program,
        }))
    }

    /// Killed at the CPU limit before it answered its one puzzle.
    pub(crate) fn killed_at_the_cpu_limit(limit: Duration) -> Reason {
        Reason::Killed {
            at: KilledAt::Cpu { time: limit, limit },
            progress: Progress {
                answered: 0,
                puzzles: 1,
                ..Progress::default()
            },
        }
    }
}
