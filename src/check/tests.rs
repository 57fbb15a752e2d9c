//! The checkers against answers right, wrong and malformed, and what
//! they show of each.

use super::answers::Checker;
use super::checked::*;
use super::diff;
use crate::board::format::{self, Mode};
use crate::board::{Format, EXAMPLE as PUZZLE, EXAMPLE_ANSWER as ANSWER};
use crate::case::{CaseData, CheckerKind, Expected, Text};
use crate::reason::Answerer;
use crate::verdict::Verdict;

fn case(format: Format, expected: Option<&str>) -> CaseData {
    let input = match format {
        Format::AcWing => format!("{PUZZLE}\nend\n"),
        _ => format::render_boards(format, &[format::puzzle(PUZZLE)]),
    };
    let expected = expected.map(|text| Expected {
        text: Text::Memory(text.into()),
        boards: format::parse(text, format, Mode::Answers).is_ok(),
    });
    CaseData {
        format,
        input: Text::Memory(input.into()),
        puzzles: 1,
        expected,
        warnings: vec![],
    }
}

/// Checks AcWing answers in `output`, as [`check_as`] does.
fn check(kind: CheckerKind, case: &CaseData, output: &str) -> Checked {
    check_as(kind, case, output, Format::AcWing)
}

/// Checks `output` as a runner hands it over: in small pieces.
fn check_as(kind: CheckerKind, case: &CaseData, output: &str, format: Format) -> Checked {
    let mut checker = Checker::new(kind, case, format).unwrap();
    for piece in output.as_bytes().chunks(7) {
        checker.feed(piece);
    }
    checker.finish().unwrap()
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
        check(CheckerKind::Sudoku, &sudoku, &format!("{ANSWER}\n")).verdict,
        Verdict::AC
    );
    // Without an expected file the rules alone decide.
    let bare = case(Format::AcWing, None);
    assert_eq!(
        check(CheckerKind::Sudoku, &bare, ANSWER).verdict,
        Verdict::AC
    );
}

#[test]
fn says_why_an_answer_is_wrong() {
    let sudoku = case(Format::AcWing, Some(ANSWER));
    let changed = check(CheckerKind::Sudoku, &sudoku, &with(ANSWER, 0, '1'));
    assert_eq!(changed.verdict, Verdict::WA);
    assert_eq!(
        changed.reason.sentence(),
        "the answer: r1c1 was given as 5, the answer has 1; row 1 has two 1s (r1c1 and r1c8); \
         column 1 has two 1s (r1c1 and r3c1); and 1 more"
    );
    let empty = check(CheckerKind::Sudoku, &sudoku, &with(ANSWER, 2, '.'));
    assert_eq!(empty.reason.sentence(), "the answer: r1c3 is empty");
    let broken = check(CheckerKind::Sudoku, &sudoku, &with(ANSWER, 2, '5'));
    assert!(broken
        .reason
        .sentence()
        .starts_with("the answer: row 1 has two 5s (r1c1 and r1c3)"));
    assert!(broken.details.contains("[5]"), "{}", broken.details);
    let none = check(CheckerKind::Sudoku, &sudoku, "");
    assert_eq!(
        none.reason.sentence(),
        "expected 1 answer (one per puzzle), got 0"
    );
}

/// A case of `n` copies of the example, as an AcWing input.
fn copies(n: usize) -> CaseData {
    let puzzles: Vec<_> = std::iter::repeat_n(format::puzzle(PUZZLE), n).collect();
    CaseData::in_memory(&puzzles, None)
}

fn check_by(case: &CaseData, output: &str, who: Answerer) -> Checked {
    let mut checker = Checker::new(CheckerKind::Sudoku, case, Format::AcWing)
        .unwrap()
        .answered_by(who);
    checker.feed(output.as_bytes());
    checker.finish().unwrap()
}

#[test]
fn an_answer_that_is_its_puzzle_unchanged_is_said_so() {
    let one = case(Format::AcWing, Some(ANSWER));
    let echo = format!("{PUZZLE}\n");
    for (who, reason) in [
        (
            Answerer::Function("solve_sudoku"),
            "your solve_sudoku left the board unchanged: fill in the board it is given, in \
             place (what solve_sudoku returns is ignored, and `board = ...` only rebinds a \
             local name)",
        ),
        (
            Answerer::Program,
            "your program printed the puzzle unchanged",
        ),
        (Answerer::Unknown, "the answer is the puzzle unchanged"),
    ] {
        let checked = check_by(&one, &echo, who);
        assert_eq!(
            (checked.verdict, checked.reason.sentence()),
            (Verdict::WA, reason.to_string())
        );
        // The grids still show it.
        assert!(
            checked.details.contains("your answer"),
            "{}",
            checked.details
        );
    }
    // Every puzzle of a case echoed: said once.
    let five = copies(5);
    let all = check_by(&five, &echo.repeat(5), Answerer::Program);
    assert_eq!(
        all.reason.sentence(),
        "your program printed every puzzle unchanged (all 5)"
    );
    // Some of them: each is named, the others as they are wrong.
    let mixed = format!("{PUZZLE}\n{}\n{ANSWER}\n", with(ANSWER, 2, '.'));
    let three = copies(3);
    let some = check_by(&three, &mixed, Answerer::Function("solveSudoku"));
    assert_eq!(
        some.reason.sentence(),
        "puzzle 1 (input line 1): your solveSudoku left the board unchanged: fill in the \
         board it is given, in place (what solveSudoku returns is ignored, and `board = ...` \
         only rebinds a local name); puzzle 2 (input line 2): r1c3 is empty"
    );
    // One puzzle filled in by one digit is no longer unchanged.
    let started = check_by(
        &one,
        &format!("{}\n", with(PUZZLE, 2, '4')),
        Answerer::Program,
    );
    assert!(
        started.reason.sentence().starts_with("the answer: "),
        "{}",
        started.reason.sentence()
    );
}

/// Row `row` of the answer's grid, as drawn under the reason.
fn answer_row(details: &str, row: usize) -> &str {
    let line = details
        .lines()
        .filter(|l| diff::grid_row_parts(l).is_some())
        .nth(row)
        .unwrap();
    line.split("   ").nth(1).unwrap()
}

/// A `0` where a digit should be is drawn as the `0` printed, marked,
/// with a word on what it reads as; a `.` stays a `.`.
#[test]
fn a_0_printed_in_an_answer_is_shown_as_printed() {
    for expected in [Some(ANSWER), None] {
        let case = case(Format::AcWing, expected);
        let zero = check(CheckerKind::Sudoku, &case, &with(ANSWER, 2, '0'));
        assert_eq!(
            answer_row(&zero.details, 0),
            "|*5 *3 [0]| 6 *7  8 | 9  1  2 |"
        );
        assert!(
            zero.details
                .contains("[0]: a 0 was printed there, which is no digit"),
            "{}",
            zero.details
        );
        let dot = check(CheckerKind::Sudoku, &case, &with(ANSWER, 2, '.'));
        assert_eq!(
            answer_row(&dot.details, 0),
            "|*5 *3 [.]| 6 *7  8 | 9  1  2 |"
        );
        assert!(!dot.details.contains("[0]"), "{}", dot.details);
    }
}

/// The same in every format an answer is printed in, and under either
/// checker: the grid shows the `0` printed, while the verdict and the
/// reason are those of the blank it reads as, as for a `.`.
#[test]
fn a_0_printed_is_shown_as_printed_in_every_format() {
    let answer = format::puzzle(ANSWER);
    for format in Format::ALL {
        let expected = match format {
            Format::AcWing => format!("{ANSWER}\n"),
            _ => format::render_boards(format, &[answer]),
        };
        let printed = |blank: char| {
            let mut rows = answer.to_rows();
            rows[0][2] = blank;
            format::render(format, &[rows])
        };
        for (kind, expected) in [
            (CheckerKind::Sudoku, Some(expected.as_str())),
            (CheckerKind::Sudoku, None),
            (CheckerKind::Exact, Some(expected.as_str())),
        ] {
            let case = case(format, expected);
            let zero = check_as(kind, &case, &printed('0'), format);
            let dot = check_as(kind, &case, &printed('.'), format);
            let what = format!("{format:?} {kind:?} {}", expected.is_some());
            assert_eq!(
                (zero.verdict, zero.reason.sentence()),
                (dot.verdict, dot.reason.sentence()),
                "{what}"
            );
            assert_eq!(zero.verdict, Verdict::WA, "{what}");
            assert_eq!(
                answer_row(&zero.details, 0),
                "|*5 *3 [0]| 6 *7  8 | 9  1  2 |",
                "{what}"
            );
            // Only the cell and a note on what it reads as differ.
            let note = "  [0]: a 0 was printed there, which is no digit: it reads as a blank\n";
            assert!(zero.details.contains(note), "{what}: {}", zero.details);
            assert_eq!(
                zero.details.replacen(note, "", 1).replace("[0]", "[.]"),
                dot.details,
                "{what}"
            );
            assert_eq!(
                answer_row(&dot.details, 0),
                "|*5 *3 [.]| 6 *7  8 | 9  1  2 |",
                "{what}"
            );
        }
    }
}

#[test]
fn a_duplicate_marks_the_wrong_cell_not_the_right_one() {
    // r1c3 should be 4; a 5 there clashes with the given 5 in r1c1 and
    // with the right 5 in r9c3.
    // With no expected answer the rules decide: the clash with a given
    // blames the other cell, which explains its clash with r9c3 too.
    let wrong = with(ANSWER, 2, '5');
    for (expected, snapshot) in [
        (Some(ANSWER), "grid_against_the_expected_answer"),
        (None, "grid_against_the_rules"),
    ] {
        let result = check(CheckerKind::Sudoku, &case(Format::AcWing, expected), &wrong);
        assert_eq!(
            answer_row(&result.details, 0),
            "|*5 *3 [5]| 6 *7  8 | 9  1  2 |"
        );
        assert_eq!(
            answer_row(&result.details, 8),
            "| 3  4  5 | 2 *8  6 | 1 *7 *9 |"
        );
        insta::assert_snapshot!(snapshot, result.details);
    }
}

#[test]
fn unreadable_output_gets_a_line_diff() {
    let sudoku = case(Format::AcWing, Some(ANSWER));
    let result = check(CheckerKind::Sudoku, &sudoku, "hello\n");
    assert_eq!(result.verdict, Verdict::WA);
    assert!(result
        .reason
        .sentence()
        .starts_with("the output does not read as acwing answers: line 1, column 1"));
    assert!(result.details.contains("+hello"), "{}", result.details);
}

#[test]
fn digits_with_spaces_between_them_are_told_so() {
    let sudoku = case(Format::AcWing, Some(ANSWER));
    let spaced: String = ANSWER.chars().map(|c| format!("{c} ")).collect();
    let result = check(
        CheckerKind::Sudoku,
        &sudoku,
        &format!("{}\n", spaced.trim_end()),
    );
    assert_eq!(result.verdict, Verdict::WA);
    assert_eq!(
        result.reason.sentence(),
        "the output does not read as acwing answers: line 1, column 2: ' ' is not a cell: \
         an AcWing line is its 81 cells with nothing between them"
    );
}

#[test]
fn right_answers_in_the_wrong_format_are_a_presentation_error() {
    let sudoku = case(Format::AcWing, Some(ANSWER));
    let grid = format::render_boards(Format::Grid { spaced: true }, &[format::puzzle(ANSWER)]);
    let result = check(CheckerKind::Sudoku, &sudoku, &grid);
    assert_eq!(result.verdict, Verdict::PE);
    assert_eq!(
        result.reason.sentence(),
        "the answers are right but printed in grid format; they should be in acwing format"
    );
}

#[test]
fn exact_ignores_crlf_and_trailing_space_only() {
    let exact = case(Format::AcWing, Some(&format!("{ANSWER}\n")));
    let ok = check(CheckerKind::Exact, &exact, &format!("{ANSWER}  \r\n\n"));
    assert_eq!(ok.verdict, Verdict::AC);
    let wrong = check(CheckerKind::Exact, &exact, &with(ANSWER, 80, '8'));
    assert_eq!(wrong.verdict, Verdict::WA);
    assert_eq!(
        wrong.reason.sentence(),
        "line 1 differs from the expected output"
    );
    assert!(wrong.details.contains("[8]"), "{}", wrong.details);
    let twice = check(CheckerKind::Exact, &exact, &format!("{ANSWER}\n{ANSWER}\n"));
    assert_eq!(
        twice.reason.sentence(),
        "the output has 2 lines; the expected output has 1"
    );
    // A right answer with a line of debugging: that line is named.
    let extra = check(CheckerKind::Exact, &exact, &format!("{ANSWER}\nextra\n"));
    assert_eq!(extra.verdict, Verdict::WA);
    assert!(
        extra
            .reason
            .sentence()
            .starts_with("the answer is right, but the output has 1 other line besides"),
        "{:?}",
        extra.reason
    );
    let no_expected = case(Format::AcWing, None);
    let missing = Checker::new(CheckerKind::Exact, &no_expected, Format::AcWing);
    assert_eq!(
        missing.err().unwrap().to_string(),
        "the exact checker needs an expected output file, and this case has none"
    );
}

/// LeetCode's answer with r1c4, r1c5, r4c4 and r4c5 blanked: a
/// puzzle with two solutions, the answer and the one with those four
/// cells' 6 and 7 swapped.
fn two_solutions() -> (String, String, String) {
    let mut puzzle = ANSWER.as_bytes().to_vec();
    let mut other = puzzle.clone();
    for (cell, swapped) in [(3, b'7'), (4, b'6'), (30, b'6'), (31, b'7')] {
        puzzle[cell] = b'.';
        other[cell] = swapped;
    }
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (text(puzzle), ANSWER.to_string(), text(other))
}

/// An AcWing case of `puzzles`, each expected to be answered as in
/// `expected`, both streamed from memory.
fn streamed(puzzles: &[&str], expected: &[&str]) -> CaseData {
    CaseData {
        format: Format::AcWing,
        input: Text::Memory(format!("{}\nend\n", puzzles.join("\n")).into()),
        puzzles: puzzles.len(),
        expected: Some(Expected {
            text: Text::Memory(format!("{}\n", expected.join("\n")).into()),
            boards: true,
        }),
        warnings: vec![],
    }
}

#[test]
fn an_answer_other_than_the_expected_one_is_right_when_it_solves_the_puzzle() {
    let (puzzle, expected, other) = two_solutions();
    let case = streamed(&[&puzzle, PUZZLE], &[&expected, ANSWER]);
    for answers in [[&expected, ANSWER], [&other, ANSWER]] {
        let output = format!("{}\n{}\n", answers[0], answers[1]);
        let result = check(CheckerKind::Sudoku, &case, &output);
        assert_eq!(result.verdict, Verdict::AC, "{}", result.reason.sentence());
    }
    // Neither solution, though it differs from the expected answer
    // where the other one does, is still wrong, and said why.
    let mut neither = other.into_bytes();
    neither[3] = b'6';
    let neither = String::from_utf8(neither).unwrap();
    let result = check(
        CheckerKind::Sudoku,
        &case,
        &format!("{neither}\n{ANSWER}\n"),
    );
    assert_eq!(result.verdict, Verdict::WA);
    assert!(
        result
            .reason
            .sentence()
            .starts_with("puzzle 1 (input line 1): row 1 has two 6s (r1c4 and r1c5)"),
        "{}",
        result.reason.sentence()
    );
}

#[test]
fn a_fault_of_the_case_found_as_it_streams_is_an_error_naming_its_place() {
    let (puzzle, expected, _) = two_solutions();
    let mut bad = PUZZLE.as_bytes().to_vec();
    bad[6] = b'x';
    let bad = String::from_utf8(bad).unwrap();
    let wrong_expected = expected.replacen('5', "1", 1);
    for (case, answered, message) in [
        // Past the answers given: the rest of the case is read too.
        (
            streamed(&[PUZZLE, PUZZLE, &bad], &[ANSWER, ANSWER, ANSWER]),
            1,
            "the generated input:3:7: 'x' is not a cell: use 1-9 for a digit, '.' or '0' \
             for a blank (read as acwing format)",
        ),
        (
            streamed(&[PUZZLE, &puzzle], &[ANSWER, &wrong_expected]),
            2,
            "the generated input:2: answer 2 does not solve puzzle 2: r1c1 was given as 5, \
             the answer has 1",
        ),
        (
            streamed(&[PUZZLE, PUZZLE], &[ANSWER]),
            2,
            "the generated input has 1 answer for 2 puzzles",
        ),
        (
            streamed(&[PUZZLE], &[ANSWER, ANSWER]),
            1,
            "the generated input has 2 answers for 1 puzzle",
        ),
    ] {
        let mut checker = Checker::new(CheckerKind::Sudoku, &case, Format::AcWing).unwrap();
        for _ in 0..answered {
            checker.feed(format!("{ANSWER}\n").as_bytes());
        }
        let error = checker.finish().unwrap_err();
        assert!(error.is::<crate::case::Malformed>(), "{error:#}");
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn a_functions_boards_are_judged_as_the_text_they_print() {
    let rows = |line: &str| format::puzzle(line).to_rows();
    let right = rows(ANSWER);
    let mut wrong = right.clone();
    wrong[8][8] = if wrong[8][8] == '9' { '1' } else { '9' };
    let mut odd = right.clone();
    odd[0][2] = '?';
    let mut short = right.clone();
    short[4].pop();
    let mut zero = right.clone();
    zero[0][2] = '0';
    let blank = rows(PUZZLE);
    let puzzles = [format::puzzle(PUZZLE); 2];
    for format in Format::ALL {
        let input = match format {
            Format::AcWing => format!("{PUZZLE}\n{PUZZLE}\nend\n"),
            _ => format::render_boards(format, &puzzles),
        };
        let expected = format::render(format, &[right.clone(), right.clone()]);
        for kind in [CheckerKind::Sudoku, CheckerKind::Exact] {
            let case = CaseData {
                format,
                input: Text::Memory(input.clone().into()),
                puzzles: 2,
                expected: Some(Expected {
                    text: Text::Memory(expected.clone().into()),
                    boards: true,
                }),
                warnings: vec![],
            };
            for answers in [
                [&right, &right],
                [&right, &wrong],
                [&blank, &right],
                [&odd, &right],
                [&right, &odd],
                [&right, &short],
                [&zero, &right],
                [&right, &zero],
            ] {
                let mut checker = Checker::new(kind, &case, format).unwrap();
                answers.iter().for_each(|rows| checker.feed_board(rows));
                let by_board = checker.finish().unwrap();
                let boards: Vec<Vec<Vec<char>>> = answers.map(Vec::clone).to_vec();
                let by_text = check_as(kind, &case, &format::render(format, &boards), format);
                let said = |c: &Checked| {
                    (
                        c.verdict,
                        c.reason.sentence(),
                        c.details.clone(),
                        c.output.clone(),
                    )
                };
                assert_eq!(said(&by_board), said(&by_text), "{format:?} {kind:?}");
            }
        }
    }
}

#[test]
fn a_program_answers_a_leetcode_case_in_acwing_lines() {
    let literal = format::render_boards(Format::LeetCode, &[format::puzzle(ANSWER)]);
    let leetcode = case(Format::LeetCode, Some(&literal));
    for kind in [CheckerKind::Sudoku, CheckerKind::Exact] {
        let ok = check(kind, &leetcode, &format!("{ANSWER}\n"));
        assert_eq!(
            ok.verdict,
            Verdict::AC,
            "{kind:?}: {}",
            ok.reason.sentence()
        );
    }
    let literal_back = check(CheckerKind::Sudoku, &leetcode, &literal);
    assert_eq!(
        literal_back.verdict,
        Verdict::PE,
        "{}",
        literal_back.reason.sentence()
    );
}
