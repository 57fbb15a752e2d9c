//! `check`: the corpus is sound, and each kind of fault is found.

use std::fs;

use sudoku_judge::case;
use sudoku_judge::solver::reference::count_solutions;

use super::{manifest_dir, run, run_in};

#[test]
fn the_shipped_corpus_is_sound() {
    // Every input parses, every puzzle has exactly one solution, and every
    // expected answer solves its puzzle, so any valid answer is the expected one.
    let found = case::discover(&[manifest_dir().join("cases")]).unwrap();
    assert!(found.len() >= 10);
    for c in &found {
        let data = case::load(c, true).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(data.warnings.is_empty(), "{}: {:?}", c.id, data.warnings);
        let answers: Vec<_> = data
            .expected_boards()
            .unwrap()
            .expect("shipped cases have answers that parse as boards")
            .map(|b| b.unwrap().1)
            .collect();
        assert_eq!(answers.len(), data.puzzles, "{}", c.id);
        for (n, (puzzle, answer)) in data.puzzles().unwrap().zip(&answers).enumerate() {
            let puzzle = puzzle.unwrap().1;
            assert_eq!(
                count_solutions(&puzzle.to_bytes(), 2),
                1,
                "{} puzzle {}",
                c.id,
                n + 1
            );
            assert!(answer.solves(&puzzle), "{} puzzle {}", c.id, n + 1);
        }
    }
}

/// Every case of a problem suite is an input that judge could send: AcWing
/// sends 81-character lines of digits and `.` closed by `end`; LeetCode a
/// board (here in its literal form) with blanks to fill and one solution.
#[test]
fn the_problem_suites_hold_only_what_their_judge_sends() {
    for case in case::discover(&[manifest_dir().join("cases/acwing166")]).unwrap() {
        let text = fs::read_to_string(&case.input).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.last(), Some(&"end"), "{}", case.id);
        for line in &lines[..lines.len() - 1] {
            assert!(
                line.len() == 81
                    && line
                        .bytes()
                        .all(|b| b == b'.' || (b'1'..=b'9').contains(&b)),
                "{}: {line}",
                case.id
            );
        }
    }
    for case in case::discover(&[manifest_dir().join("cases/leetcode37")]).unwrap() {
        let data = case::load(&case, true).unwrap();
        assert_eq!(data.format.name(), "leetcode", "{}", case.id);
    }
    // LeetCode sends a board with at least one blank and one solution: a
    // full board is not one of its tests (a solution LeetCode accepts may
    // well fail on it, indexing an empty list of blanks).
    for suite in ["cases/leetcode37", "cases/leetcode37-hard"] {
        for case in case::discover(&[manifest_dir().join(suite)]).unwrap() {
            let data = case::load(&case, true).unwrap();
            for puzzle in data.puzzles().unwrap() {
                let bytes = puzzle.unwrap().1.to_bytes();
                assert!(bytes.contains(&0), "{suite}: {} has no blank", case.id);
                assert_eq!(count_solutions(&bytes, 2), 1, "{suite}: {}", case.id);
            }
        }
    }
}

#[test]
fn check_finds_each_kind_of_corpus_fault_and_passes_the_shipped_cases() {
    let found = run(&["check", "tests/fixtures/corpus-faults"]);
    assert_eq!(found.code, 1);
    let dir = "tests/fixtures/corpus-faults";
    for expected in [
        format!("{dir}/contradictory-givens.in:1:2: the givens of puzzle 1 break the rules: row 1 has two 5s (r1c1 and r1c2)"),
        format!("{dir}/no-solution.in:1: the puzzle has no solution"),
        format!("{dir}/several-solutions.in:1: the puzzle has 2 solutions; a judge's puzzle needs exactly one"),
        format!("{dir}/malformed-line.in:2:41: '?' is not a cell"),
        format!("{dir}/wrong-answer.out:1: answer 1 does not solve puzzle 1: r9c9 was given as 9, the answer has 1"),
        format!("{dir}/duplicate.in:2: puzzle 2 is the same as the one at {dir}/duplicate.in:1"),
    ] {
        assert!(found.stdout.contains(&expected), "missing {expected:?} in:\n{}", found.stdout);
    }
    assert!(
        found
            .stdout
            .ends_with("checked 6 cases with 5 puzzles: 6 problems\n"),
        "{}",
        found.stdout
    );

    let shipped = run_in(&manifest_dir(), &["check"], "");
    assert_eq!(shipped.code, 0, "{}", shipped.stdout);
    assert!(
        shipped.stdout.contains(": no problems"),
        "{}",
        shipped.stdout
    );

    // `test` refuses the case no answer could solve.
    let test = run(&["test", "tests/fixtures/corpus-faults/no-solution.in"]);
    assert_eq!(test.code, 2);
    assert!(
        test.stdout
            .contains("puzzle 1 has no solution, so no answer can be right"),
        "{}",
        test.stdout
    );
}
