//! `bench`: submissions timed side by side.

use super::{run, write, PUZZLE};

#[test]
fn bench_columns_line_up_beside_a_long_command() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = write(dir.path(), "puzzles.txt", &format!("{PUZZLE}\n{PUZZLE}\n"));
    let command = format!("{} solve", env!("CARGO_BIN_EXE_sudoku-judge"));
    let run = run(&[
        "bench",
        puzzles.to_str().unwrap(),
        "--solver",
        "mrv",
        "--cmd",
        &command,
        "--rounds",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", run.stdout);
    // Each number ends where its header does.
    let header: Vec<char> = lines[0].chars().collect();
    for name in ["puzzles", "guesses"] {
        let column: Vec<char> = name.chars().collect();
        let end = header
            .windows(column.len())
            .position(|w| w == column)
            .unwrap()
            + column.len();
        for row in &lines[1..3] {
            let row: Vec<char> = row.chars().collect();
            assert!(
                matches!(row.get(end - 1), Some('2' | '-'))
                    && row.get(end).is_none_or(|&c| c == ' '),
                "{name} is out of line:\n{}",
                run.stdout
            );
        }
    }
}
