//! Fewest-candidates-first search, the classic AcWing 166 accepted approach:
//! bitmasks of candidates per cell, always branch on the empty cell with the
//! fewest candidates, and walk them with lowest-set-bit tricks.
//!
//! The same search also counts its nodes ([`count_nodes`]), so `rate` and
//! `gen --hard-for mrv` say how hard a puzzle is for this approach.

use super::shared::{Budget, Masks, Nodes};

/// The empty cell with the fewest candidates and its candidate mask, or
/// `None` when the grid is full. A mask of 0 means a dead end.
fn most_constrained(grid: &Masks) -> Option<(usize, u16)> {
    let mut best: Option<(usize, u16)> = None;
    let mut best_count = u32::MAX;
    for pos in 0..81 {
        if grid.cells[pos] != 0 {
            continue;
        }
        let cand = grid.candidates(pos);
        let count = cand.count_ones();
        if count < best_count {
            best = Some((pos, cand));
            best_count = count;
            // Nothing beats a forced cell or a dead end; stop scanning.
            if count <= 1 {
                break;
            }
        }
    }
    best
}

/// Stops at the first solution and leaves it in `cells`; false when
/// there is none below, or when the budget ran out.
fn search(grid: &mut Masks, budget: &mut Budget) -> bool {
    let Some((pos, mut cand)) = most_constrained(grid) else {
        return true;
    };
    while cand != 0 {
        if !budget.spend() {
            return false;
        }
        let d = cand.trailing_zeros() as u8 + 1;
        cand &= cand - 1;
        grid.set(pos, d);
        if search(grid, budget) {
            return true;
        }
        grid.clear(pos);
    }
    false
}

/// The nodes (digits placed) this search needs to reach its first solution
/// of `cells` (row-major, 0 = empty), stopping once it has placed `cap`.
pub(crate) fn count_nodes(cells: &[u8; 81], cap: u64) -> Nodes {
    let Some(mut grid) = Masks::new(*cells) else {
        return Nodes::default();
    };
    let mut budget = Budget::new(cap);
    let solved = search(&mut grid, &mut budget);
    budget.nodes(solved)
}

/// Fills `board` (9 rows of 9 chars, '1'..='9' or '.') with a solution.
///
/// A board that is malformed, has conflicting givens or has no solution is
/// left exactly as it was.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub(crate) fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    // The search runs on a copy, so a failure needs no undo on the board.
    let Some(mut grid) = super::shared::read_cells(board).and_then(Masks::new) else {
        return;
    };
    if search(&mut grid, &mut Budget::unlimited()) {
        super::shared::write_cells(board, &grid.cells);
    }
}
