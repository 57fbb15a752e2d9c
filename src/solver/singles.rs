//! Bitmask backtracking plus naked singles: before the search and at every
//! node, cells with exactly one candidate are filled until none are left
//! (undone on backtrack), then the search branches on the first empty cell.
//! In the product as the "add a little logic" step between `bitmask` and `mrv`.

use super::shared::{bit, Masks};

struct Solver {
    grid: Masks,
    /// Every placement made since the start, so a node can undo its own.
    /// Each one fills a distinct empty cell, so 81 entries always suffice.
    trail: [u8; 81],
    trail_len: usize,
}

impl Solver {
    fn place(&mut self, pos: usize, d: u8) {
        self.grid.set(pos, d);
        self.trail[self.trail_len] = pos as u8;
        self.trail_len += 1;
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail_len > mark {
            self.trail_len -= 1;
            self.grid.clear(usize::from(self.trail[self.trail_len]));
        }
    }

    /// Fills naked singles until a full sweep finds none; `false` as soon as
    /// some empty cell has no candidate left.
    fn fill_singles(&mut self) -> bool {
        loop {
            let mut progress = false;
            for pos in 0..81 {
                if self.grid.cells[pos] != 0 {
                    continue;
                }
                let cand = self.grid.candidates(pos);
                match cand.count_ones() {
                    0 => return false,
                    1 => {
                        self.place(pos, cand.trailing_zeros() as u8 + 1);
                        progress = true;
                    }
                    _ => {}
                }
            }
            if !progress {
                return true;
            }
        }
    }

    /// On failure, every placement made by this call or below is undone.
    fn search(&mut self) -> bool {
        let entry = self.trail_len;
        if !self.fill_singles() {
            self.undo_to(entry);
            return false;
        }
        let Some(pos) = self.grid.cells.iter().position(|&d| d == 0) else {
            return true;
        };
        let after_singles = self.trail_len;
        let cand = self.grid.candidates(pos);
        for d in 1..=9 {
            if cand & bit(d) != 0 {
                self.place(pos, d);
                if self.search() {
                    return true;
                }
                self.undo_to(after_singles);
            }
        }
        self.undo_to(entry);
        false
    }
}

/// Fills `board` (9 rows of 9 chars, '1'..='9' or '.') with a solution.
///
/// A board that is malformed, has conflicting givens or has no solution is
/// left exactly as it was.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub(crate) fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    // The search runs on a copy, so a failure needs no undo on the board.
    let Some(grid) = super::shared::read_cells(board).and_then(Masks::new) else {
        return;
    };
    let mut solver = Solver {
        grid,
        trail: [0; 81],
        trail_len: 0,
    };
    if solver.search() {
        super::shared::write_cells(board, &solver.grid.cells);
    }
}
