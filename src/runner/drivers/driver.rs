// sudoku-judge's LeetCode driver for Rust. Supplies `struct Solution;` as
// LeetCode does, includes the submission as pasted, then reads one
// 81-character puzzle a line until `end`, calls `Solution::solve_sudoku` on
// each board and writes "<ns> <row>/<row>/.../<row>" per board to the file
// named by the first argument, apart from the submission's own stdout.
#![allow(dead_code, unused_imports, unused_variables, unused_mut)]

struct Solution;

include!("SUBMISSION");

fn main() {
    use std::io::{BufRead as _, Write as _};
    let path = std::env::args().nth(1).expect("usage: driver ANSWERS-FILE < puzzles");
    let mut answers = std::fs::File::create(&path).expect("cannot create the answers file");
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
        let started = std::time::Instant::now();
        Solution::solve_sudoku(&mut board);
        let ns = started.elapsed().as_nanos();
        let rows: Vec<String> = board.iter().map(|row| row.iter().collect()).collect();
        writeln!(answers, "{ns} {}", rows.join("/")).expect("cannot write an answer");
        answers.flush().expect("cannot write an answer");
    }
}
