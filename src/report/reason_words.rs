//! Decides nothing: a `Reason` in words, in two lengths: the sentence of a failure's
//! block, the JSON report and JUnit (what happened, with the figures and
//! what to do), and the short form of a table row, which fits in a line
//! beside the case's name (`changed 3 given cells (r2c6 3→1, …)`,
//! `row 4 repeats 7`). The checker and the verdict rules decide; only
//! this module writes their words.
//!
//! The words hold what a submission printed and the cases' names, so a
//! case's reason is [`Outside`] text: each report escapes it for its
//! medium.

use std::time::Duration;

use crate::board::rules::Mistake;
use crate::outside::{Outside, OutsideName};
use crate::reason::{
    Answerer, KilledAt, Progress, Reason, Stdout, Wrong, WrongAnswer, WrongAnswers,
};
use crate::results::{Judgement, Unjudged};

use crate::words::{format_mb as mb, plural, whole_ms as ms};

/// Why a case got its verdict, in full: the reason, and what the judge
/// learnt from running it again (alone, or `--repeat`).
pub(crate) fn sentence(j: &Judgement) -> Outside {
    let mut said = j.reason.sentence();
    if let Some(earlier) = j.kept_state_after {
        said.push_str(&format!(
            "; it passes alone, and fails after {}: the solution keeps state between tests (a \
             global or static not reset), as LeetCode would find on Submit",
            plural(earlier, "earlier case")
        ));
    }
    if let Some((n, of)) = j.failed_run {
        said.push_str(&format!(" (run {n} of {of})"));
    }
    said.into()
}

/// Why a case could not be judged, in full.
pub(crate) fn unjudged(error: &Unjudged) -> Outside {
    let said = match error {
        Unjudged::Unreadable(said) | Unjudged::Refused(said) | Unjudged::TooBusy(said) => {
            return said.clone()
        }
        Unjudged::JudgeFailed(said) => {
            format!(
                "the judge failed while running the submission: {}",
                said.as_raw()
            )
        }
        Unjudged::NoExpected { input } => format!(
            "{}: the exact checker needs an expected output beside the input; add one, or \
             judge this case with `--checker sudoku`",
            input.as_raw().display()
        ),
        Unjudged::Unsolvable {
            input,
            line,
            puzzle,
        } => format!(
            "{}:{line}: puzzle {puzzle} has no solution, so no answer can be right; fix the \
             case (`sudoku-judge check` finds such faults)",
            input.as_raw().display()
        ),
    };
    said.into()
}

/// [`sentence`] in a few words, for the case's row: one line, as a name
/// is (a panic's message it quotes may hold a newline).
pub(crate) fn short(j: &Judgement) -> OutsideName {
    let mut said = j.reason.short();
    if let Some(earlier) = j.kept_state_after {
        said.push_str(&format!(
            "; passes alone, fails after {}",
            plural(earlier, "earlier case")
        ));
    }
    if let Some((n, of)) = j.failed_run {
        said.push_str(&format!(" (run {n} of {of})"));
    }
    said.into()
}

/// At most this many mistakes of one answer are spelled out in a sentence.
const MISTAKES_SHOWN: usize = 3;

impl Reason {
    /// The whole reason: a sentence (or a few, joined by `;`), empty for an
    /// accepted case.
    pub(crate) fn sentence(&self) -> String {
        match self {
            Reason::Accepted => String::new(),
            Reason::CompileError => "compile error, message at the end".into(),
            Reason::Killed { at, progress } => killed(at, progress),
            Reason::AllocationFailed {
                message,
                limit_kb,
                memory_kb,
            } => format!(
                "an allocation failed under the {} limit ({message}); peak memory {}",
                mb(*limit_kb),
                mb(*memory_kb)
            ),
            Reason::OverTime {
                time,
                limit,
                answers_right,
            } => {
                let over = 100.0 * (time.as_secs_f64() / limit.as_secs_f64() - 1.0);
                format!(
                    "took {}, {over:.0}% over the {} limit ({})",
                    ms(*time),
                    ms(*limit),
                    answers(*answers_right)
                )
            }
            Reason::OverWall {
                wall,
                limit,
                factor,
                cpu,
                cpu_wait,
                answers_right,
            } => format!(
                "ran for {} of wall time, over the {} wall-clock limit ({} the time limit), \
                 using {} of CPU{}; is it waiting or sleeping? ({})",
                ms(*wall),
                ms(*limit),
                match factor {
                    2 => "twice".to_string(),
                    n => format!("{n} times"),
                },
                ms(*cpu),
                match cpu_wait {
                    Some(waited) => format!(" and waiting only {} for one", ms(*waited)),
                    None => ", how long it waited for one this system does not say".into(),
                },
                answers(*answers_right)
            ),
            Reason::OverMemory {
                memory_kb,
                limit_kb,
                answers_right,
            } => format!(
                "peak memory {}, over the {} limit ({})",
                mb(*memory_kb),
                mb(*limit_kb),
                answers(*answers_right)
            ),
            Reason::Panicked {
                message,
                puzzle,
                puzzles,
            } => format!("{message} (puzzle {puzzle} of {puzzles})"),
            Reason::Crashed { how, progress } => {
                format!("{how}; {}{}", answered(progress), forks(progress))
            }
            Reason::Wrong(wrong) => wrong_sentence(wrong),
        }
    }

    /// The reason in a few words, for a table row: the figures that tell
    /// what happened, none of the advice (which the failure's block has).
    pub(crate) fn short(&self) -> String {
        match self {
            Reason::Accepted => String::new(),
            Reason::CompileError => "compile error".into(),
            Reason::Killed { at, progress } => {
                let at = match at {
                    KilledAt::Wall { wall, cpu, .. } => {
                        format!("killed at {} of wall time (cpu {})", ms(*wall), ms(*cpu))
                    }
                    // The row's columns show what was charged: a figure
                    // past the limit is said to be one.
                    KilledAt::Cpu { time, limit } if shown_over(*time, *limit) => {
                        format!("killed at the {} limit, {} charged", ms(*limit), ms(*time))
                    }
                    KilledAt::Cpu { limit, .. } => {
                        format!("killed at the {} CPU limit", ms(*limit))
                    }
                    KilledAt::Startup { seconds } => {
                        return format!("its runtime took over {seconds} s to start");
                    }
                    KilledAt::Memory {
                        memory_kb,
                        limit_kb,
                    } if mb(*memory_kb) != mb(*limit_kb) && memory_kb > limit_kb => format!(
                        "killed at the {} limit, {} in use",
                        mb(*limit_kb),
                        mb(*memory_kb)
                    ),
                    KilledAt::Memory { limit_kb, .. } => {
                        format!("killed at the {} memory limit", mb(*limit_kb))
                    }
                    KilledAt::Output { limit_mb } => {
                        format!("killed after {limit_mb} MB of output")
                    }
                };
                format!("{at}; {}", short_answered(progress))
            }
            Reason::AllocationFailed { limit_kb, .. } => {
                format!("an allocation failed under {}", mb(*limit_kb))
            }
            Reason::OverTime { time, limit, .. } => {
                let over = 100.0 * (time.as_secs_f64() / limit.as_secs_f64() - 1.0);
                format!("took {}, {over:.0}% over the limit", ms(*time))
            }
            Reason::OverWall { wall, limit, .. } => {
                format!("{} of wall time, over {}", ms(*wall), ms(*limit))
            }
            Reason::OverMemory {
                memory_kb,
                limit_kb,
                ..
            } => format!("peak {}, over {}", mb(*memory_kb), mb(*limit_kb)),
            Reason::Panicked {
                message, puzzle, ..
            } => {
                // `panicked at FILE:LINE:COL: what`: the what.
                let first = message.lines().next().unwrap_or_default();
                let what = first
                    .strip_prefix("panicked at ")
                    .and_then(|rest| {
                        let place = rest.find(": ")?;
                        Some(&rest[place + 2..])
                    })
                    .unwrap_or(first);
                format!("panic on puzzle {puzzle}: {}", cut(what, 60))
            }
            Reason::Crashed { how, progress } => {
                format!("{how}; {}", short_answered(progress))
            }
            Reason::Wrong(wrong) => wrong_short(wrong),
        }
    }
}

/// Whether `time`, in whole milliseconds as shown, is past `limit`.
fn shown_over(time: Duration, limit: Duration) -> bool {
    let shown = |d: Duration| (d.as_secs_f64() * 1000.0).round();
    shown(time) > shown(limit)
}

fn answers(right: bool) -> &'static str {
    if right {
        "the answers were right"
    } else {
        "the answers were wrong too"
    }
}

fn killed(at: &KilledAt, progress: &Progress) -> String {
    let (answered, forks) = (answered(progress), forks(progress));
    match at {
        KilledAt::Wall { wall, cpu, limit } => format!(
            "killed after {} of wall time (CPU {}), over the {} limit; {answered}{forks}",
            ms(*wall),
            ms(*cpu),
            ms(*limit),
        ),
        KilledAt::Cpu { time, limit } if shown_over(*time, *limit) => format!(
            "killed at the {} limit, with {} of CPU time charged by the time it stopped; \
             {answered}{forks}",
            ms(*limit),
            ms(*time),
        ),
        KilledAt::Cpu { time, limit } => format!(
            "killed at the {} limit, with {} of CPU time charged; {answered}{forks}",
            ms(*limit),
            ms(*time),
        ),
        KilledAt::Startup { seconds } => format!(
            "killed before its first board: starting the runtime and loading the solution took \
             over {seconds} s (code run when the file is loaded counts here){forks}"
        ),
        KilledAt::Memory {
            memory_kb,
            limit_kb,
        } => {
            // The kernel's cap counts what it holds for the run too (page
            // tables, the stacks of its processes, files in memory), which
            // no process's resident set shows.
            let at = if memory_kb >= limit_kb {
                format!("killed at {} of memory", mb(*memory_kb))
            } else {
                format!(
                    "stopped by the kernel at the memory cap ({} in its processes' own pages, \
                     the rest held by the kernel for them: page tables, stacks, files in memory)",
                    mb(*memory_kb)
                )
            };
            format!("{at}, over the {} limit; {answered}{forks}", mb(*limit_kb))
        }
        KilledAt::Output { limit_mb } => {
            format!("killed after printing more than {limit_mb} MB, the output limit; {answered}")
        }
    }
}

/// How far a run got through the puzzles. More answer lines than puzzles
/// (a flood, or a program that reads past the input's end) are said as
/// they are: never "3 of 2 puzzles answered".
fn answered(progress: &Progress) -> String {
    let Progress {
        answered, puzzles, ..
    } = *progress;
    let mut said = if answered <= puzzles {
        format!("{answered} of {} answered", plural(puzzles, "puzzle"))
    } else {
        format!(
            "printed {} for {}, so it went on past the last one",
            plural(answered, "answer line"),
            plural(puzzles, "puzzle")
        )
    };
    // A program killed before it printed anything may well have answered:
    // into a buffer that died with it, its runtime's or its own.
    if progress.maybe_buffered {
        said.push_str(&match progress.buffering {
            Some((language, Stdout::Buffered { flush })) => format!(
                " (its output may be buffered: {language} holds what a program prints into a \
                 pipe until its buffer fills, and a killed program's buffer is lost; flush \
                 after each answer, with {flush}, to see how far it got)"
            ),
            Some((language, Stdout::Lines { own_buffer })) => format!(
                " (nothing reached the judge: {language} writes each line as it is printed, so \
                 only answers held in a buffer of its own, such as {own_buffer}, would be lost \
                 when it is killed)"
            ),
            None => " (if its output is buffered, what is printed but not flushed is lost \
                     when a program is killed; flush after each answer to see how far it got)"
                .to_string(),
        });
    }
    said
}

fn short_answered(progress: &Progress) -> String {
    let Progress {
        answered, puzzles, ..
    } = *progress;
    let mut said = if answered <= puzzles {
        format!("{answered} of {puzzles} answered")
    } else {
        format!(
            "{} for {}",
            plural(answered, "answer line"),
            plural(puzzles, "puzzle")
        )
    };
    if progress.forks_refused > 0 {
        said.push_str(&format!(
            ", {} refused",
            plural(progress.forks_refused as usize, "fork")
        ));
    }
    said
}

fn forks(progress: &Progress) -> String {
    if progress.forks_refused == 0 {
        return String::new();
    }
    format!(
        "; {} refused: it reached the limit of {} processes and threads",
        plural(progress.forks_refused as usize, "fork"),
        crate::runner::TASKS
    )
}

fn wrong_sentence(wrong: &Wrong) -> String {
    match wrong {
        Wrong::OtherFormat { printed, wanted } => format!(
            "the answers are right but printed in {printed} format; they should be in {wanted} \
             format"
        ),
        Wrong::Unreadable { format, error } => {
            format!("the output does not read as {format} answers: {error}")
        }
        Wrong::ExtraLines {
            answers,
            extra,
            first_line,
            first_text,
        } if *extra == 1 && first_text == "end" => format!(
            "{} right, but the output echoes the input's `end` (line {first_line}); a judge \
             compares the whole output, so a line that is not an answer makes it a Wrong Answer: \
             print the answers and nothing else",
            every_answer(*answers)
        ),
        Wrong::ExtraLines {
            answers,
            extra,
            first_line,
            first_text,
        } => format!(
            "{} right, but the output has {} besides (the first, line {first_line}: `{}`); a judge \
             compares the whole output, so {} a Wrong Answer: write debugging output to stderr, \
             which no judge reads",
            every_answer(*answers),
            plural(*extra, "other line"),
            cut(first_text, 40),
            if *extra == 1 { "it makes it" } else { "they make it" }
        ),
        Wrong::Answers(answers) => answers_sentence(answers),
        Wrong::LineDiffers { line } => format!("line {line} differs from the expected output"),
        Wrong::EndsEarly { got, want } => format!(
            "the output ends after {}; the expected output has {want}",
            plural(*got, "line")
        ),
        Wrong::TooLong { got, want } => format!(
            "the output has {}; the expected output has {want}",
            plural(*got, "line")
        ),
    }
}

fn every_answer(answers: usize) -> String {
    match answers {
        1 => "the answer is".into(),
        2 => "both answers are".into(),
        n => format!("all {n} answers are"),
    }
}

fn wrong_short(wrong: &Wrong) -> String {
    match wrong {
        Wrong::OtherFormat { printed, wanted } => {
            format!("right answers, printed in {printed} format, not {wanted}")
        }
        Wrong::Unreadable { error, .. } => {
            // The message's first clause: what is wrong, not the advice.
            let what = error.message.split(": ").next().unwrap_or_default();
            format!(
                "unreadable at line {}, column {}: {}",
                error.line,
                error.column,
                cut(what, 50)
            )
        }
        Wrong::ExtraLines {
            extra, first_text, ..
        } if *extra == 1 && first_text == "end" => {
            "answers right, then the input's `end` echoed".into()
        }
        Wrong::ExtraLines { extra, .. } => format!(
            "answers right, plus {} (debugging on stdout?)",
            plural(*extra, "other line")
        ),
        Wrong::Answers(answers) => answers_short(answers),
        Wrong::LineDiffers { line } => format!("line {line} differs"),
        Wrong::EndsEarly { got, want } => format!("{got} of {want} lines"),
        Wrong::TooLong { got, want } => format!("{got} lines, {want} expected"),
    }
}

fn answers_sentence(answers: &WrongAnswers) -> String {
    let mut reasons = Vec::new();
    if let Some(count) = answers.count {
        reasons.push(format!(
            "expected {} (one per puzzle), got {count}",
            plural(answers.puzzles, "answer"),
        ));
    }
    // Every puzzle back as it was given is said once, not per puzzle.
    let all_unchanged = answers.all_unchanged();
    if all_unchanged {
        reasons.push(all_unchanged_words(answers.answerer, answers.puzzles));
    } else {
        for wrong in &answers.shown {
            let said = match (wrong.unchanged, wrong.puzzle) {
                (true, None) => unchanged_words(answers.answerer),
                (true, Some(_)) => {
                    format!("{}: {}", label(wrong), unchanged_words(answers.answerer))
                }
                (false, _) => format!("{}: {}", label(wrong), mistakes_sentence(&wrong.mistakes)),
            };
            reasons.push(said);
        }
    }
    let shown = answers.shown.len();
    if answers.wrong > shown && !all_unchanged {
        reasons.push(format!(
            "{} more wrong",
            plural(answers.wrong - shown, "answer")
        ));
    }
    reasons.join("; ")
}

fn answers_short(answers: &WrongAnswers) -> String {
    let mut said = Vec::new();
    if let Some(count) = answers.count {
        said.push(format!(
            "{} for {}",
            plural(count, "answer"),
            plural(answers.puzzles, "puzzle")
        ));
    }
    if answers.all_unchanged() {
        said.push(format!("every board unchanged (all {})", answers.puzzles));
    } else if let Some(first) = answers.shown.first() {
        let what = if first.unchanged {
            match answers.answerer {
                Answerer::Function(name) => format!("{name} left the board unchanged"),
                _ => "the puzzle unchanged".to_string(),
            }
        } else {
            mistakes_short(&first.mistakes)
        };
        said.push(match first.puzzle {
            Some((n, _)) => format!("puzzle {n}: {what}"),
            None => what,
        });
        if answers.wrong > 1 {
            said.push(format!("{} more wrong", answers.wrong - 1));
        }
    }
    said.join("; ")
}

/// How a wrong answer is named: by its puzzle's place in a case of several.
fn label(wrong: &WrongAnswer) -> String {
    match wrong.puzzle {
        None => "the answer".to_string(),
        Some((n, line)) => format!("puzzle {n} (input line {line})"),
    }
}

fn unchanged_words(answerer: Answerer) -> String {
    match answerer {
        Answerer::Unknown => "the answer is the puzzle unchanged".into(),
        Answerer::Program => "your program printed the puzzle unchanged".into(),
        Answerer::Function(name) => format!(
            "your {name} left the board unchanged: fill in the board it is given, in place \
             (what {name} returns is ignored, and `board = ...` only rebinds a local name)"
        ),
    }
}

fn all_unchanged_words(answerer: Answerer, puzzles: usize) -> String {
    match answerer {
        Answerer::Unknown => format!("every answer is its puzzle unchanged (all {puzzles})"),
        Answerer::Program => {
            format!("your program printed every puzzle unchanged (all {puzzles})")
        }
        Answerer::Function(name) => format!(
            "your {name} left every board unchanged (all {puzzles}): fill in the board it is \
             given, in place (what {name} returns is ignored)"
        ),
    }
}

fn mistakes_sentence(found: &[Mistake]) -> String {
    let mut text: Vec<String> = found
        .iter()
        .take(MISTAKES_SHOWN)
        .map(ToString::to_string)
        .collect();
    if found.len() > MISTAKES_SHOWN {
        text.push(format!("and {} more", found.len() - MISTAKES_SHOWN));
    }
    text.join("; ")
}

/// The first kind of mistake an answer makes, counted: `changed 3 given
/// cells (r2c6 3→1, …)`, `5 empty cells`, `row 4 repeats 7`.
fn mistakes_short(found: &[Mistake]) -> String {
    let changed: Vec<String> = found
        .iter()
        .filter_map(|m| match m {
            Mistake::ChangedGiven { cell, given, got } => Some(match got {
                Some(got) => format!("{cell} {given}→{got}"),
                None => format!("{cell} {given}→."),
            }),
            _ => None,
        })
        .collect();
    if let Some(first) = changed.first() {
        let more = if changed.len() > 1 { ", …" } else { "" };
        return format!(
            "changed {} ({first}{more})",
            plural(changed.len(), "given cell")
        );
    }
    let empty = found
        .iter()
        .filter(|m| matches!(m, Mistake::Empty(_)))
        .count();
    if empty > 0 {
        return format!("{} left empty", plural(empty, "cell"));
    }
    let conflicts: Vec<_> = found
        .iter()
        .filter_map(|m| match m {
            Mistake::Conflict(c) => Some(c),
            _ => None,
        })
        .collect();
    match conflicts.as_slice() {
        [] => String::new(),
        [one] => format!("{} repeats {}", one.unit, one.digit),
        [first, rest @ ..] => format!(
            "{} repeats {} (and {} more {})",
            first.unit,
            first.digit,
            rest.len(),
            if rest.len() == 1 { "clash" } else { "clashes" }
        ),
    }
}

/// `text` cut to at most `width` characters, with `…` where it was cut.
pub(crate) fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let kept: String = text.chars().take(width - 1).collect();
        format!("{kept}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Conflict, Digit, Unit};
    use std::time::Duration;

    #[test]
    fn a_failure_that_needs_the_earlier_cases_says_the_solution_keeps_state() {
        let crate::results::CaseOutcome::Judged(mut j) = crate::report::fixtures::judged(
            crate::verdict::Verdict::WA,
            crate::reason::fixtures::two_fives_in_row_one(),
            3,
        ) else {
            unreachable!("a judged case")
        };
        j.kept_state_after = Some(2);
        j.failed_run = Some((2, 5));
        assert!(
            sentence(&j).as_raw().ends_with(
                "; it passes alone, and fails after 2 earlier cases: the solution keeps state \
                 between tests (a global or static not reset), as LeetCode would find on Submit \
                 (run 2 of 5)"
            ),
            "{:?}",
            sentence(&j)
        );
        assert_eq!(
            short(&j).as_raw(),
            "puzzle 2: row 1 repeats 5; passes alone, fails after 2 earlier cases (run 2 of 5)"
        );
    }

    fn digit(d: u8) -> Digit {
        Digit::new(d).expect("a digit")
    }

    fn one_wrong(mistakes: Vec<Mistake>, puzzle: Option<(usize, usize)>) -> Reason {
        Reason::Wrong(Wrong::Answers(WrongAnswers {
            puzzles: 3,
            count: None,
            shown: vec![WrongAnswer {
                puzzle,
                unchanged: false,
                mistakes,
            }],
            wrong: 1,
            unchanged: 0,
            answerer: Answerer::Program,
        }))
    }

    #[test]
    fn a_short_reason_counts_the_first_kind_of_mistake() {
        let changed = |index, given, got| Mistake::ChangedGiven {
            cell: Cell::from_index(index),
            given: digit(given),
            got: Some(digit(got)),
        };
        let three = one_wrong(
            vec![changed(14, 3, 1), changed(16, 5, 2), changed(20, 7, 9)],
            Some((2, 2)),
        );
        assert_eq!(
            three.short(),
            "puzzle 2: changed 3 given cells (r2c6 3→1, …)"
        );
        let clash = one_wrong(
            vec![Mistake::Conflict(Conflict {
                unit: Unit::Row(3),
                digit: digit(7),
                first: Cell::from_index(27),
                second: Cell::from_index(30),
            })],
            None,
        );
        assert_eq!(clash.short(), "row 4 repeats 7");
        let empty = one_wrong(
            (0..12)
                .map(|i| Mistake::Empty(Cell::from_index(i)))
                .collect(),
            None,
        );
        assert_eq!(empty.short(), "12 cells left empty");
    }

    /// A program killed before its first answer line, in `language`.
    fn killed_silent(language: Option<&str>) -> String {
        let buffering = language.map(|id| {
            let spec = crate::runner::lang::Language::find(id).unwrap().spec();
            (spec.name, spec.stdout)
        });
        let progress = Progress {
            answered: 0,
            puzzles: 10,
            maybe_buffered: true,
            buffering,
            forks_refused: 0,
        };
        let limit = Duration::from_millis(1000);
        Reason::Killed {
            at: KilledAt::Cpu { time: limit, limit },
            progress,
        }
        .sentence()
    }

    /// Each runtime as it writes into a pipe: C, C++, Python, Ruby and
    /// Racket hold a block, and are told how to flush in their own words;
    /// Rust, Java, Go, C#, Node and PHP write each line, so a silent run
    /// answered nothing but into a buffer of the program's own.
    #[test]
    fn the_buffer_hint_speaks_of_the_programs_own_runtime() {
        let python = killed_silent(Some("python"));
        assert!(
            python.contains("flush after each answer, with print(..., flush=True)"),
            "{python}"
        );
        assert!(!python.contains("endl"), "{python}");
        let cpp = killed_silent(Some("cpp"));
        assert!(
            cpp.contains("with endl, or fflush(stdout) after printf"),
            "{cpp}"
        );
        let ruby = killed_silent(Some("ruby"));
        assert!(ruby.contains("$stdout.flush"), "{ruby}");
        for (id, own) in [
            ("rust", "a BufWriter"),
            ("java", "a PrintWriter"),
            ("go", "bufio"),
        ] {
            let said = killed_silent(Some(id));
            assert!(said.contains("nothing reached the judge"), "{said}");
            assert!(said.contains(own), "{said}");
            assert!(
                !said.contains("may be buffered") && !said.contains("endl"),
                "{said}"
            );
        }
        let command = killed_silent(None);
        assert!(command.contains("if its output is buffered"), "{command}");
        assert!(!command.contains("endl"), "{command}");
    }

    #[test]
    fn a_short_reason_fits_a_row_whatever_the_sentence() {
        let progress = Progress {
            answered: 3,
            puzzles: 10,
            maybe_buffered: true,
            buffering: None,
            forks_refused: 0,
        };
        let killed = Reason::Killed {
            at: KilledAt::Cpu {
                time: Duration::from_millis(1003),
                limit: Duration::from_millis(1000),
            },
            progress,
        };
        assert_eq!(
            killed.short(),
            "killed at the 1000 ms limit, 1003 ms charged; 3 of 10 answered"
        );
        assert!(killed.sentence().contains("flush after each answer"));
        let debug = Reason::Wrong(Wrong::ExtraLines {
            answers: 2,
            extra: 20,
            first_line: 1,
            first_text: "solving...".into(),
        });
        assert_eq!(
            debug.short(),
            "answers right, plus 20 other lines (debugging on stdout?)"
        );
        assert!(debug
            .sentence()
            .contains("write debugging output to stderr"));
        for reason in [killed, debug] {
            assert!(reason.short().chars().count() < 70, "{}", reason.short());
        }
    }
}
