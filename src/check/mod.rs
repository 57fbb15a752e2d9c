//! Is the answer right, and if not, why. Deciding the verdict and drawing
//! the difference are separate steps: [`check`] decides, [`diff`] draws.
//!
//! The default checker is a special judge: any complete, valid grid that
//! keeps every given is accepted, as on LeetCode and AcWing. `exact` compares
//! text with the expected file, ignoring CRLF and trailing whitespace.

pub mod diff;

use std::fmt;

use clap::ValueEnum;
use serde::{Deserialize, Serialize};

use crate::board::format::{self, Mode};
use crate::board::{Board, Cell, Conflict, Digit, Format};
use crate::case::CaseData;
use crate::verdict::Verdict;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum CheckerKind {
    /// Any valid solution that keeps the givens (a special judge).
    #[default]
    Sudoku,
    /// The text must equal the expected output (CRLF and trailing whitespace ignored).
    Exact,
}

impl CheckerKind {
    pub fn name(self) -> &'static str {
        match self {
            CheckerKind::Sudoku => "sudoku",
            CheckerKind::Exact => "exact",
        }
    }
}

/// What a checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub verdict: Verdict,
    /// One line saying why, empty when accepted.
    pub reason: String,
    /// Multi-line evidence: grid diffs or a line diff. Plain text, readable
    /// without colour.
    pub details: String,
}

impl Checked {
    fn accepted() -> Self {
        Self {
            verdict: Verdict::AC,
            reason: String::new(),
            details: String::new(),
        }
    }

    fn wrong(reason: String, details: String) -> Self {
        Self {
            verdict: Verdict::WA,
            reason,
            details,
        }
    }
}

/// Something wrong with one answer, in the words a solver author needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    ChangedGiven {
        cell: Cell,
        given: Digit,
        got: Option<Digit>,
    },
    Empty(Cell),
    Conflict(Conflict),
}

impl Problem {
    /// The cells a reader should look at.
    fn cells(&self) -> Vec<Cell> {
        match self {
            Problem::ChangedGiven { cell, .. } | Problem::Empty(cell) => vec![*cell],
            Problem::Conflict(c) => vec![c.first, c.second],
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::ChangedGiven {
                cell,
                given,
                got: Some(got),
            } => write!(f, "{cell} was given as {given}, the answer has {got}"),
            Problem::ChangedGiven {
                cell,
                given,
                got: None,
            } => write!(f, "{cell} was given as {given}, the answer left it empty"),
            Problem::Empty(cell) => write!(f, "{cell} is empty"),
            Problem::Conflict(conflict) => conflict.fmt(f),
        }
    }
}

/// Everything that keeps `answer` from solving `puzzle`: changed givens,
/// empty cells, then broken rows, columns and boxes. Empty when it solves it.
pub fn problems(puzzle: &Board, answer: &Board) -> Vec<Problem> {
    let mut found = Vec::new();
    for cell in Cell::all() {
        if let Some(given) = puzzle.get(cell) {
            if answer.get(cell) != Some(given) {
                found.push(Problem::ChangedGiven {
                    cell,
                    given,
                    got: answer.get(cell),
                });
            }
        }
    }
    found.extend(
        Cell::all()
            .filter(|&c| answer.get(c).is_none() && puzzle.get(c).is_none())
            .map(Problem::Empty),
    );
    found.extend(answer.conflicts().into_iter().map(Problem::Conflict));
    found
}

/// At most this many problems are spelled out per answer, and at most this
/// many wrong answers get a grid.
const SHOWN: usize = 3;

fn summarize(problems: &[Problem]) -> String {
    let mut text: Vec<String> = problems
        .iter()
        .take(SHOWN)
        .map(ToString::to_string)
        .collect();
    if problems.len() > SHOWN {
        text.push(format!("and {} more", problems.len() - SHOWN));
    }
    text.join("; ")
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// Judges `output`, the submission's answers, which should be printed in
/// `format`: the case's own format for a function submission, AcWing lines
/// for a program.
pub fn check(kind: CheckerKind, case: &CaseData, output: &str, format: Format) -> Checked {
    match kind {
        CheckerKind::Sudoku => check_sudoku(case, output, format),
        CheckerKind::Exact => check_exact(case, output, format),
    }
}

fn check_sudoku(case: &CaseData, output: &str, format: Format) -> Checked {
    let answers = match format::parse(output, format, Mode::Answers) {
        Ok(parsed) => parsed.boards,
        Err(error) => return unreadable(case, output, format, &error),
    };
    let expected = case.expected.as_ref().and_then(|e| e.boards.as_deref());
    let mut reasons = Vec::new();
    let mut details = String::new();
    if answers.len() != case.puzzles.len() {
        reasons.push(format!(
            "expected {} (one per puzzle), got {}",
            plural(case.puzzles.len(), "answer"),
            answers.len()
        ));
    }
    let mut wrong = 0;
    for (n, (puzzle, answer)) in case.puzzles.iter().zip(&answers).enumerate() {
        let found = problems(puzzle, answer);
        if found.is_empty() {
            continue;
        }
        wrong += 1;
        if wrong > SHOWN {
            continue;
        }
        let label = puzzle_label(case, n);
        reasons.push(format!("{label}: {}", summarize(&found)));
        let mut marked = [false; 81];
        for cell in found.iter().flat_map(Problem::cells) {
            marked[cell.index()] = true;
        }
        let (left_title, left) = match expected.and_then(|e| e.get(n)) {
            Some(want) => {
                for cell in Cell::all().filter(|&c| want.get(c) != answer.get(c)) {
                    marked[cell.index()] = true;
                }
                ("expected", want)
            }
            None => ("puzzle", puzzle),
        };
        details.push_str(&format!("{label}:\n"));
        details.push_str(&diff::grids(
            left_title,
            left,
            "your answer",
            answer,
            &marked,
        ));
    }
    if wrong > SHOWN {
        reasons.push(format!("{} more wrong", plural(wrong - SHOWN, "answer")));
    }
    if reasons.is_empty() {
        return Checked::accepted();
    }
    if !details.is_empty() {
        details.push_str(diff::GRID_LEGEND);
    }
    Checked::wrong(reasons.join("; "), details)
}

fn puzzle_label(case: &CaseData, n: usize) -> String {
    if case.puzzles.len() == 1 {
        "the answer".to_string()
    } else {
        format!("puzzle {} (input line {})", n + 1, case.start_lines[n])
    }
}

/// Output that does not read as boards in the case's format. If it reads in
/// another format and solves every puzzle, the answers are right and only the
/// presentation is wrong.
fn unreadable(
    case: &CaseData,
    output: &str,
    format: Format,
    error: &format::ParseError,
) -> Checked {
    let other = Format::detect(output);
    if other != format {
        if let Ok(parsed) = format::parse(output, other, Mode::Answers) {
            let all_solve = parsed.boards.len() == case.puzzles.len()
                && parsed
                    .boards
                    .iter()
                    .zip(&case.puzzles)
                    .all(|(a, p)| a.solves(p));
            if all_solve {
                return Checked {
                    verdict: Verdict::PE,
                    reason: format!(
                        "the answers are right but printed in {other} format; they should be in {format} format"
                    ),
                    details: String::new(),
                };
            }
        }
    }
    let reason = format!("the output does not read as {format} answers: {error}");
    let details = diff::lines(&expected_text(case, format).unwrap_or_default(), output);
    Checked::wrong(reason, details)
}

/// Lines without CR and trailing whitespace, trailing blank lines dropped.
fn normalized(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// The expected output as it should be printed in `format`: the expected
/// file itself, or its answers rendered in `format` when that differs from
/// the case's.
fn expected_text(case: &CaseData, format: Format) -> Option<String> {
    let expected = case.expected.as_ref()?;
    match &expected.boards {
        Some(boards) if format != case.format => Some(format::render_boards(format, boards)),
        _ => Some(expected.text.clone()),
    }
}

fn check_exact(case: &CaseData, output: &str, format: Format) -> Checked {
    let (Some(expected), Some(expected_text)) = (&case.expected, expected_text(case, format))
    else {
        return Checked::wrong(
            "the exact checker needs an expected output file, and this case has none".into(),
            String::new(),
        );
    };
    let (want, got) = (normalized(&expected_text), normalized(output));
    let Some(line) = want
        .iter()
        .zip(&got)
        .position(|(a, b)| a != b)
        .or_else(|| (want.len() != got.len()).then_some(want.len().min(got.len())))
    else {
        return Checked::accepted();
    };
    let reason = match (want.get(line), got.get(line)) {
        (Some(_), Some(_)) => format!("line {} differs from the expected output", line + 1),
        (Some(_), None) => format!(
            "the output ends after {}; the expected output has {}",
            plural(got.len(), "line"),
            want.len()
        ),
        _ => format!(
            "the output has {}; the expected output has {}",
            plural(got.len(), "line"),
            want.len()
        ),
    };
    // Boards on both sides: show where they differ cell by cell.
    let answers = format::parse(output, format, Mode::Answers).ok();
    let details = match (&expected.boards, answers) {
        (Some(want), Some(got)) if want.len() == got.boards.len() => {
            let mut out = String::new();
            let differing = want
                .iter()
                .zip(&got.boards)
                .enumerate()
                .filter(|(_, (w, g))| w != g);
            for (n, (want, got)) in differing.take(SHOWN) {
                let marked: [bool; 81] = std::array::from_fn(|i| {
                    want.get(Cell::from_index(i)) != got.get(Cell::from_index(i))
                });
                out.push_str(&format!("{}:\n", puzzle_label(case, n)));
                out.push_str(&diff::grids("expected", want, "your answer", got, &marked));
            }
            out.push_str(diff::GRID_LEGEND);
            out
        }
        _ => diff::lines(&expected_text, output),
    };
    Checked::wrong(reason, details)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Expected;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const ANSWER: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn case(format: Format, expected: Option<&str>) -> CaseData {
        let input = format!("{PUZZLE}\nend\n");
        let parsed = format::parse(&input, Format::AcWing, Mode::Puzzles).unwrap();
        let expected = expected.map(|text| Expected {
            text: text.to_string(),
            boards: format::parse(text, format, Mode::Answers)
                .ok()
                .map(|p| p.boards),
        });
        CaseData {
            format,
            input_text: input,
            puzzles: parsed.boards,
            start_lines: parsed.start_lines,
            expected,
            warnings: vec![],
        }
    }

    fn with(answer: &str, index: usize, c: char) -> String {
        let mut chars: Vec<char> = answer.chars().collect();
        chars[index] = c;
        chars.into_iter().collect()
    }

    #[test]
    fn accepts_any_valid_solution() {
        let sudoku = case(Format::AcWing, Some(ANSWER));
        assert_eq!(
            check(
                CheckerKind::Sudoku,
                &sudoku,
                &format!("{ANSWER}\n"),
                Format::AcWing
            )
            .verdict,
            Verdict::AC
        );
        // Without an expected file the rules alone decide.
        let bare = case(Format::AcWing, None);
        assert_eq!(
            check(CheckerKind::Sudoku, &bare, ANSWER, Format::AcWing).verdict,
            Verdict::AC
        );
    }

    #[test]
    fn says_why_an_answer_is_wrong() {
        let sudoku = case(Format::AcWing, Some(ANSWER));
        let changed = check(
            CheckerKind::Sudoku,
            &sudoku,
            &with(ANSWER, 0, '1'),
            Format::AcWing,
        );
        assert_eq!(changed.verdict, Verdict::WA);
        assert_eq!(
            changed.reason,
            "the answer: r1c1 was given as 5, the answer has 1; row 1 has two 1s (r1c1 and r1c8); \
             column 1 has two 1s (r1c1 and r3c1); and 1 more"
        );
        let empty = check(
            CheckerKind::Sudoku,
            &sudoku,
            &with(ANSWER, 2, '.'),
            Format::AcWing,
        );
        assert_eq!(empty.reason, "the answer: r1c3 is empty");
        let broken = check(
            CheckerKind::Sudoku,
            &sudoku,
            &with(ANSWER, 2, '5'),
            Format::AcWing,
        );
        assert!(broken
            .reason
            .starts_with("the answer: row 1 has two 5s (r1c1 and r1c3)"));
        assert!(broken.details.contains("[5]"), "{}", broken.details);
        let none = check(CheckerKind::Sudoku, &sudoku, "", Format::AcWing);
        assert_eq!(none.reason, "expected 1 answer (one per puzzle), got 0");
    }

    #[test]
    fn unreadable_output_gets_a_line_diff() {
        let sudoku = case(Format::AcWing, Some(ANSWER));
        let result = check(CheckerKind::Sudoku, &sudoku, "hello\n", Format::AcWing);
        assert_eq!(result.verdict, Verdict::WA);
        assert!(result
            .reason
            .starts_with("the output does not read as acwing answers: line 1, column 1"));
        assert!(result.details.contains("+hello"), "{}", result.details);
    }

    #[test]
    fn right_answers_in_the_wrong_format_are_a_presentation_error() {
        let sudoku = case(Format::AcWing, Some(ANSWER));
        let grid = format::render_boards(
            Format::Grid { spaced: true },
            &sudoku
                .puzzles
                .iter()
                .map(|_| {
                    format::parse(ANSWER, Format::AcWing, Mode::Answers)
                        .unwrap()
                        .boards[0]
                })
                .collect::<Vec<_>>(),
        );
        let result = check(CheckerKind::Sudoku, &sudoku, &grid, Format::AcWing);
        assert_eq!(result.verdict, Verdict::PE);
        assert_eq!(
            result.reason,
            "the answers are right but printed in grid format; they should be in acwing format"
        );
    }

    #[test]
    fn exact_ignores_crlf_and_trailing_space_only() {
        let exact = case(Format::AcWing, Some(&format!("{ANSWER}\n")));
        let ok = check(
            CheckerKind::Exact,
            &exact,
            &format!("{ANSWER}  \r\n\n"),
            Format::AcWing,
        );
        assert_eq!(ok.verdict, Verdict::AC);
        let wrong = check(
            CheckerKind::Exact,
            &exact,
            &with(ANSWER, 80, '8'),
            Format::AcWing,
        );
        assert_eq!(wrong.verdict, Verdict::WA);
        assert_eq!(wrong.reason, "line 1 differs from the expected output");
        assert!(wrong.details.contains("[8]"), "{}", wrong.details);
        let extra = check(
            CheckerKind::Exact,
            &exact,
            &format!("{ANSWER}\nextra\n"),
            Format::AcWing,
        );
        assert_eq!(
            extra.reason,
            "the output has 2 lines; the expected output has 1"
        );
        let missing = check(
            CheckerKind::Exact,
            &case(Format::AcWing, None),
            ANSWER,
            Format::AcWing,
        );
        assert!(missing.reason.contains("needs an expected output file"));
    }

    #[test]
    fn a_program_answers_a_leetcode_case_in_acwing_lines() {
        let literal = format::render(
            Format::LeetCode,
            &[ANSWER
                .chars()
                .collect::<Vec<_>>()
                .chunks(9)
                .map(<[char]>::to_vec)
                .collect()],
        );
        let leetcode = case(Format::LeetCode, Some(&literal));
        for kind in [CheckerKind::Sudoku, CheckerKind::Exact] {
            let ok = check(kind, &leetcode, &format!("{ANSWER}\n"), Format::AcWing);
            assert_eq!(ok.verdict, Verdict::AC, "{kind:?}: {}", ok.reason);
        }
        let literal_back = check(CheckerKind::Sudoku, &leetcode, &literal, Format::AcWing);
        assert_eq!(literal_back.verdict, Verdict::PE, "{}", literal_back.reason);
    }
}
