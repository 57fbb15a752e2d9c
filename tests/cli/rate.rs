//! `rate`: givens, solutions, grade and the textbook solvers' work.

use sudoku_judge::case;

use super::{drawings, manifest_dir, on_terminal, on_terminal_writing, rate_rows, run, run_in};

/// `rate` reads a suite directory, its columns line up under the header
/// whatever the width of a name, and `gen` counts "1 guess".
#[test]
fn rate_reads_suites_in_aligned_columns_and_gen_says_one_guess() {
    let rate = run(&["rate", "cases/acwing166", "--max-nodes", "1000"]);
    assert_eq!(rate.code, 0, "{}{}", rate.stdout, rate.stderr);
    let rows = rate_rows(&rate.stdout);
    let puzzles: usize = case::discover(&[manifest_dir().join("cases/acwing166")])
        .unwrap()
        .iter()
        .map(|c| case::load(c, true).unwrap().puzzles)
        .sum();
    assert_eq!(rows.len(), puzzles);
    // The last column is right-aligned, so aligned rows are as long as the
    // header, however long a puzzle's name.
    let lines: Vec<&str> = rate.stdout.lines().take(puzzles + 1).collect();
    for line in &lines {
        assert_eq!(line.len(), lines[0].len(), "{line}");
    }
    assert!(rate.stdout.contains("more than 1000"), "{}", rate.stdout);

    let dir = tempfile::tempdir().unwrap();
    let made = run_in(
        dir.path(),
        &[
            "gen",
            "--out",
            "m",
            "--grade",
            "medium",
            "--count",
            "1",
            "--per-file",
            "10",
            "--seed",
            "166",
        ],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stdout.contains(", 1 guess)"), "{}", made.stdout);
    assert!(!made.stdout.contains(" 1 guesses"), "{}", made.stdout);
}

#[test]
fn rate_says_how_many_solutions_and_grades_only_unique_puzzles() {
    let rate = run(&[
        "rate",
        "tests/fixtures/corpus-faults/several-solutions.in",
        "cases/acwing166/sample.in",
    ]);
    assert_eq!(rate.code, 1, "a puzzle without one solution has no grade");
    let rows = rate_rows(&rate.stdout);
    assert_eq!(rows[0][2], "2+", "{}", rate.stdout);
    assert_eq!(rows[0][4], "-", "{}", rate.stdout);
    for row in &rows[1..] {
        assert_eq!(row[2], "1", "{}", rate.stdout);
        assert!(
            ["easy", "medium", "hard", "fiendish"].contains(&row[4]),
            "{row:?}"
        );
    }
}

/// Counting the textbook solvers' work takes seconds on a suite: on a
/// terminal a bar says how far `rate` has got, within the width; in a pipe
/// nothing is drawn, and the table is the same.
#[test]
fn rate_draws_progress_on_a_terminal_and_nothing_in_a_pipe() {
    let args = ["rate", "cases/acwing166", "--max-nodes", "100000"];
    let piped = run(&args);
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert_eq!(piped.stderr, "", "nothing but the table in a pipe");
    let Some(screen) = on_terminal(80, &args) else {
        return;
    };
    let bars = drawings(&screen, "rating [");
    assert!(!bars.is_empty(), "no bar was drawn: {screen:?}");
    assert!(
        bars.iter().any(|bar| bar.contains(" cases/acwing166/")),
        "the bar names no puzzle: {bars:?}"
    );
    for bar in bars {
        assert!(bar.chars().count() <= 77, "{bar:?}");
    }
    let last_row = piped.stdout.lines().last().unwrap();
    assert!(screen.contains(last_row), "{screen:?}");
}

#[test]
fn rate_draws_progress_on_the_terminal_while_the_table_goes_to_a_file() {
    let args = ["rate", "cases/acwing166", "--max-nodes", "100000"];
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ratings.txt");
    let Some(screen) = on_terminal_writing(80, &args, Some(&file)) else {
        return;
    };
    assert!(
        !drawings(&screen, "rating [").is_empty(),
        "no bar was drawn: {screen:?}"
    );
    // The file holds the table as a pipe gets it: no line of progress.
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written, run(&args).stdout);
}
