// sudoku-judge's LeetCode driver for Rust. Supplies `struct Solution;` as
// LeetCode does, includes the submission as pasted, says "ready" on the
// answer channel (the path in SUDOKU_JUDGE_ANSWERS), then reads one
// 81-character puzzle a line until `end`, calls `Solution::solve_sudoku` on
// each board and writes "<row>/<row>/.../<row>" on the channel, apart from
// the submission's own stdout. The judge sends the next
// board only after this answer, and times each board from outside.
#![allow(dead_code, unused_imports, unused_variables, unused_mut)]

struct Solution;

include!("@NAME@");

fn main() {
    use std::io::{BufRead as _, Write as _};
    let channel = std::env::var_os("SUDOKU_JUDGE_ANSWERS").expect("SUDOKU_JUDGE_ANSWERS is not set");
    let mut answers = std::fs::OpenOptions::new()
        .write(true)
        .open(channel)
        .expect("cannot open the answer channel");
    answers.write_all(b"ready\n").expect("cannot write to the answer channel");
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("cannot read stdin");
        let line = line.trim_end();
        if line == "end" {
            break;
        }
        if line.chars().count() != 81 {
            continue;
        }
        let cells: Vec<char> = line.chars().collect();
        let mut board: Vec<Vec<char>> = cells.chunks(9).map(|row| row.to_vec()).collect();
        Solution::solve_sudoku(&mut board);
        // What it printed goes out with the board it printed it for.
        let _ = std::io::stdout().flush();
        let rows: Vec<String> = board.iter().map(|row| row.iter().collect()).collect();
        writeln!(answers, "{}", rows.join("/")).expect("cannot write an answer");
    }
}
