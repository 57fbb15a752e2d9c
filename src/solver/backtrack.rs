//! Plain row-major backtracking with a validity scan: for each empty cell, try
//! '1'..='9' and check the row, column and box by scanning the board itself.
//! This is the first solution most people write; it is in the product as the
//! baseline submission, and it is slow on hard 17-clue puzzles.
//!
//! The same search also counts its nodes ([`count_nodes`]): `rate` and `gen
//! --hard-for backtrack` measure how hard a puzzle is for this approach with
//! the code that is judged, not with a model of it.

use super::shared::{Budget, Nodes};

/// Fills `board` (9 rows of 9 chars, '1'..='9' or '.') with a solution.
///
/// A board that is malformed, has conflicting givens or has no solution is
/// left exactly as it was.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub(crate) fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    // Conflicting givens would not make the search wrong, only hopeless: it
    // would explore the whole tree under the bad cells. Reject them up front.
    if !well_formed(board) || !givens_consistent(board) {
        return;
    }
    // A failed search resets every tentative digit to '.', so there is
    // nothing to restore when it returns false.
    solve_from(board, 0, &mut Budget::unlimited());
}

/// The nodes (digits placed) this search needs to reach its first solution
/// of `cells` (row-major, 0 = empty), stopping once it has placed `cap`.
pub(crate) fn count_nodes(cells: &[u8; 81], cap: u64) -> Nodes {
    let mut board = vec![vec!['.'; 9]; 9];
    super::shared::write_cells(&mut board, cells);
    if !well_formed(&board) || !givens_consistent(&board) {
        return Nodes::default();
    }
    let mut budget = Budget::new(cap);
    let solved = solve_from(&mut board, 0, &mut budget);
    budget.nodes(solved)
}

fn well_formed(board: &[Vec<char>]) -> bool {
    board.len() == 9
        && board
            .iter()
            .all(|row| row.len() == 9 && row.iter().all(|ch| matches!(ch, '.' | '1'..='9')))
}

fn givens_consistent(board: &[Vec<char>]) -> bool {
    (0..81).all(|pos| {
        let (r, c) = (pos / 9, pos % 9);
        board[r][c] == '.' || fits(board, r, c, board[r][c])
    })
}

/// Whether `d` appears nowhere in the row, column and box of `(r, c)`,
/// ignoring the cell itself so the same check validates the givens.
fn fits(board: &[Vec<char>], r: usize, c: usize, d: char) -> bool {
    let (box_r, box_c) = (r / 3 * 3, c / 3 * 3);
    (0..9).all(|i| {
        let (br, bc) = (box_r + i / 3, box_c + i % 3);
        (i == c || board[r][i] != d)
            && (i == r || board[i][c] != d)
            && ((br, bc) == (r, c) || board[br][bc] != d)
    })
}

/// Cells before `start` are all filled, so the scan for the next empty cell
/// resumes there instead of at the top-left corner.
/// Returns false both when no solution lies below and when the budget ran out.
fn solve_from(board: &mut [Vec<char>], start: usize, budget: &mut Budget) -> bool {
    let Some(pos) = (start..81).find(|&p| board[p / 9][p % 9] == '.') else {
        return true;
    };
    let (r, c) = (pos / 9, pos % 9);
    for d in '1'..='9' {
        if fits(board, r, c, d) {
            if !budget.spend() {
                break;
            }
            board[r][c] = d;
            if solve_from(board, pos + 1, budget) {
                return true;
            }
        }
    }
    board[r][c] = '.';
    false
}
