//! Deliberately broken solvers, one per way a submission goes wrong. They
//! let a user see what each verdict looks like (`sudoku-judge test --solver
//! faulty-loop`) and let the test suite prove that each failure is caught.
//! `sudoku-judge solvers` hides them unless asked with `--all`.

use std::hint::black_box;

/// Solves, then writes a wrong digit into the last cell: WA.
pub(crate) fn wrong_digit(board: &mut Vec<Vec<char>>) {
    super::mrv::solve_sudoku(board);
    let last = &mut board[8][8];
    *last = if *last == '9' { '1' } else { '9' };
}

/// Solves, then overwrites the first given with another digit: WA.
pub(crate) fn changes_given(board: &mut Vec<Vec<char>>) {
    let given = board.iter().flatten().position(|&c| c != '.');
    super::mrv::solve_sudoku(board);
    if let Some(pos) = given {
        let cell = &mut board[pos / 9][pos % 9];
        *cell = if *cell == '1' { '2' } else { '1' };
    }
}

/// Stops one cell short of a solution: WA.
pub(crate) fn leaves_blank(board: &mut Vec<Vec<char>>) {
    let blank = board.iter().flatten().position(|&c| c == '.');
    super::mrv::solve_sudoku(board);
    if let Some(pos) = blank {
        board[pos / 9][pos % 9] = '.';
    }
}

/// Indexes past the end of the board, as an off-by-one does: RE.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub(crate) fn panics(board: &mut Vec<Vec<char>>) {
    let row = black_box(9);
    board[row][0] = '1';
}

/// Spins forever without touching memory: TLE, and it must be killed.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub(crate) fn endless_loop(board: &mut Vec<Vec<char>>) {
    let mut n: u64 = 0;
    loop {
        n = black_box(n.wrapping_add(board.len() as u64));
    }
}
