//! Large AcWing cases are checked as they stream: a fault found in the
//! middle of one is the case's, named by file, line and column, whatever
//! the submission did with it; and an answer is compared with the expected
//! line first, then held to the rules, so a puzzle with several solutions
//! accepts any of them.

use std::path::Path;

use super::{cases_of, run_in, write, ANSWER, PUZZLE};

/// Puzzles in the large case: enough for the feed and the answers to
/// stream through their pipes many times over.
const PUZZLES: usize = 20_000;

/// A case `big.in` of [`PUZZLES`] copies of LeetCode's example, with its
/// expected output `big.out`; `bad_input` and `bad_expected` change one
/// line (1-based) of each, when given.
fn big_case(dir: &Path, bad_input: Option<(usize, &str)>, bad_expected: Option<(usize, &str)>) {
    let lines = |line: &str, bad: Option<(usize, &str)>| {
        let mut text = String::with_capacity(PUZZLES * 82 + 4);
        for n in 1..=PUZZLES {
            text.push_str(match bad {
                Some((at, bad)) if at == n => bad,
                _ => line,
            });
            text.push('\n');
        }
        text
    };
    write(dir, "big.in", &(lines(PUZZLE, bad_input) + "end\n"));
    write(dir, "big.out", &lines(ANSWER, bad_expected));
}

/// Judges `big` in `dir` with `args` and checks that it is an error of the
/// case's own naming `place` and `words`, with no verdict.
fn assert_case_error(dir: &Path, args: &[&str], place: &str, words: &str) {
    let mut all = vec!["test", "big.in", "--time-limit", "60s"];
    all.extend_from_slice(args);
    let json = run_in(dir, &[&all[..], &["--format", "json"]].concat(), "");
    assert_eq!(json.code, 2, "{args:?}: {}{}", json.stdout, json.stderr);
    let report = json.json();
    let case = &cases_of(&report)[0];
    assert!(case["verdict"].is_null(), "{args:?}: {case}");
    let error = case["error"].as_str().unwrap();
    assert!(
        error.starts_with(place) && error.contains(words),
        "{args:?}: {error}"
    );
    assert_eq!(
        (&report["errors"], &report["passed"], &report["total"]),
        (&1.into(), &0.into(), &1.into()),
        "{args:?}: {report}"
    );
    // The table lays the fault at the case's door, not the submission's.
    let table = run_in(dir, &all, "");
    assert_eq!(table.code, 2);
    assert!(
        table.stdout.contains("hint:     fix the case files"),
        "{args:?}: {}",
        table.stdout
    );
}

#[test]
fn a_malformed_line_in_the_middle_of_a_large_case_is_the_cases_fault() {
    let dir = tempfile::tempdir().unwrap();
    let mut bad = PUZZLE.to_string();
    bad.replace_range(6..7, "x");
    big_case(dir.path(), Some((12_345, &bad)), None);
    let program = format!("{} solve", env!("CARGO_BIN_EXE_sudoku-judge"));
    // A built-in solver is never fed the line; a program is fed the case
    // as it is, and fails on it (`solve` exits 2), which is not its fault.
    for args in [&[][..], &["--cmd", &program][..]] {
        assert_case_error(
            dir.path(),
            args,
            "big.in:12345:7: 'x' is not a cell",
            "(read as acwing format)",
        );
    }
    // A line of the expected output, past the first that are judged.
    big_case(dir.path(), None, Some((15_000, &ANSWER[..80])));
    assert_case_error(
        dir.path(),
        &[],
        "big.out:15000:81: the line has 80 cells",
        "an AcWing puzzle line needs exactly 81",
    );
    let mut wrong = ANSWER.to_string();
    wrong.replace_range(80..81, "1");
    big_case(dir.path(), None, Some((PUZZLES, &wrong)));
    assert_case_error(
        dir.path(),
        &[],
        &format!("big.out:{PUZZLES}: answer {PUZZLES} does not solve puzzle {PUZZLES}"),
        "r9c9 was given as 9, the answer has 1",
    );
}

#[test]
fn a_puzzle_with_several_solutions_is_accepted_answered_otherwise_than_expected() {
    // LeetCode's answer with four cells blanked that may hold 6 and 7
    // either way round: two solutions.
    let mut puzzle = ANSWER.as_bytes().to_vec();
    let mut other = puzzle.clone();
    for (cell, swapped) in [(3, b'7'), (4, b'6'), (30, b'6'), (31, b'7')] {
        puzzle[cell] = b'.';
        other[cell] = swapped;
    }
    let (puzzle, other) = (
        String::from_utf8(puzzle).unwrap(),
        String::from_utf8(other).unwrap(),
    );
    let dir = tempfile::tempdir().unwrap();
    let solved = run_in(dir.path(), &["solve"], &format!("{puzzle}\nend\n"));
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let answer = solved.stdout.trim_end();
    assert!(answer == ANSWER || answer == other, "{answer}");
    // The expected answer is the solution the solver does not give.
    let expected = if answer == ANSWER { &other } else { ANSWER };
    write(
        dir.path(),
        "two.in",
        &format!("{PUZZLE}\n{puzzle}\n{PUZZLE}\nend\n"),
    );
    write(
        dir.path(),
        "two.out",
        &format!("{ANSWER}\n{expected}\n{ANSWER}\n"),
    );
    let program = format!("{} solve", env!("CARGO_BIN_EXE_sudoku-judge"));
    for args in [&[][..], &["--cmd", &program][..]] {
        let run = run_in(
            dir.path(),
            &[&["test", "two.in", "--format", "json"], args].concat(),
            "",
        );
        assert_eq!(run.code, 0, "{args:?}: {}", run.stdout);
        let report = run.json();
        assert_eq!(cases_of(&report)[0]["verdict"], "AC", "{args:?}: {report}");
    }
}
