//! Fewest-candidates-first search, the classic AcWing 166 accepted approach:
//! bitmasks of candidates per cell, always branch on the empty cell with the
//! fewest candidates, and walk them with lowest-set-bit tricks. In the product
//! as the reference solver, and as the solution counter for generated puzzles.
//!
//! The same search also counts its nodes ([`count_nodes`]), so `rate` and
//! `gen --hard-for mrv` say how hard a puzzle is for this approach.

use super::{Budget, Nodes};

/// Bit `d - 1` stands for digit `d`.
const ALL: u16 = 0x1FF;

struct Solver {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Solver {
    /// `None` if a cell is not 0..=9 or two givens share a row, column or box.
    fn new(cells: &[u8; 81]) -> Option<Self> {
        let mut solver = Solver {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for (pos, &d) in cells.iter().enumerate() {
            if d > 9 {
                return None;
            }
            if d != 0 {
                if solver.candidates(pos) & bit(d) == 0 {
                    return None;
                }
                solver.toggle(pos, d);
                solver.cells[pos] = d;
            }
        }
        Some(solver)
    }

    fn candidates(&self, pos: usize) -> u16 {
        let (r, c) = (pos / 9, pos % 9);
        !(self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3]) & ALL
    }

    /// XOR makes the same call place and remove `d`.
    fn toggle(&mut self, pos: usize, d: u8) {
        let (r, c) = (pos / 9, pos % 9);
        self.rows[r] ^= bit(d);
        self.cols[c] ^= bit(d);
        self.boxes[r / 3 * 3 + c / 3] ^= bit(d);
    }

    /// The empty cell with the fewest candidates and its candidate mask, or
    /// `None` when the grid is full. A mask of 0 means a dead end.
    fn most_constrained(&self) -> Option<(usize, u16)> {
        let mut best: Option<(usize, u16)> = None;
        let mut best_count = u32::MAX;
        for pos in 0..81 {
            if self.cells[pos] != 0 {
                continue;
            }
            let cand = self.candidates(pos);
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
    fn search(&mut self, budget: &mut Budget) -> bool {
        let Some((pos, mut cand)) = self.most_constrained() else {
            return true;
        };
        while cand != 0 {
            if !budget.spend() {
                return false;
            }
            let d = cand.trailing_zeros() as u8 + 1;
            cand &= cand - 1;
            self.toggle(pos, d);
            self.cells[pos] = d;
            if self.search(budget) {
                return true;
            }
            self.toggle(pos, d);
            self.cells[pos] = 0;
        }
        false
    }

    /// Adds solutions below this node to `found`, stopping once it hits
    /// `limit`; always restores the grid.
    fn count(&mut self, limit: usize, found: &mut usize) {
        let Some((pos, mut cand)) = self.most_constrained() else {
            *found += 1;
            return;
        };
        while cand != 0 && *found < limit {
            let d = cand.trailing_zeros() as u8 + 1;
            cand &= cand - 1;
            self.toggle(pos, d);
            self.cells[pos] = d;
            self.count(limit, found);
            self.toggle(pos, d);
            self.cells[pos] = 0;
        }
    }
}

fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// Number of solutions of `cells` (row-major, 0 = empty, 1..=9 digits),
/// counting no further than `limit`.
///
/// Conflicting givens or a value above 9 give 0. With `limit == 2` this is
/// the usual "is the puzzle unique" check.
#[must_use]
pub fn count_solutions(cells: &[u8; 81], limit: usize) -> usize {
    let Some(mut solver) = Solver::new(cells) else {
        return 0;
    };
    let mut found = 0;
    if limit > 0 {
        solver.count(limit, &mut found);
    }
    found
}

/// Fills `cells` (row-major, 0 = empty, 1..=9 digits) with the first solution
/// found and returns `true`; otherwise leaves it untouched and returns `false`.
pub fn solve_cells(cells: &mut [u8; 81]) -> bool {
    let Some(mut solver) = Solver::new(cells) else {
        return false;
    };
    let solved = solver.search(&mut Budget::unlimited());
    if solved {
        *cells = solver.cells;
    }
    solved
}

/// The nodes (digits placed) this search needs to reach its first solution
/// of `cells` (row-major, 0 = empty), stopping once it has placed `cap`.
pub fn count_nodes(cells: &[u8; 81], cap: u64) -> Nodes {
    let Some(mut solver) = Solver::new(cells) else {
        return Nodes::default();
    };
    let mut budget = Budget::new(cap);
    let solved = solver.search(&mut budget);
    budget.nodes(solved)
}

/// Fills `board` (9 rows of 9 chars, '1'..='9' or '.') with a solution.
///
/// A board that is malformed, has conflicting givens or has no solution is
/// left exactly as it was.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    let Some(mut cells) = super::read_cells(board) else {
        return;
    };
    if solve_cells(&mut cells) {
        super::write_cells(board, &cells);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = crate::board::EXAMPLE;
    const ANSWER: &str = crate::board::EXAMPLE_ANSWER;

    fn cells(s: &str) -> [u8; 81] {
        let mut out = [0; 81];
        for (cell, b) in out.iter_mut().zip(s.bytes()) {
            *cell = if b == b'.' { 0 } else { b - b'0' };
        }
        out
    }

    #[test]
    fn example_has_one_solution() {
        assert_eq!(count_solutions(&cells(EXAMPLE), 2), 1);
        assert_eq!(count_solutions(&cells(ANSWER), 2), 1);
    }

    #[test]
    fn conflicting_givens_have_no_solution() {
        let bad = cells(&format!("5.......5{}", ".".repeat(72)));
        assert_eq!(count_solutions(&bad, 2), 0);
        let mut unchanged = bad;
        assert!(!solve_cells(&mut unchanged));
        assert_eq!(unchanged, bad);
    }

    #[test]
    fn out_of_range_value_has_no_solution() {
        let mut bad = cells(EXAMPLE);
        bad[2] = 10;
        assert_eq!(count_solutions(&bad, 2), 0);
    }

    #[test]
    fn empty_board_reaches_limit() {
        let empty = [0; 81];
        assert_eq!(count_solutions(&empty, 2), 2);
        assert_eq!(count_solutions(&empty, 1000), 1000);
        assert_eq!(count_solutions(&empty, 0), 0);
    }

    #[test]
    fn deadly_rectangle_has_two_solutions() {
        // r2c8=4, r2c9=8, r7c8=8, r7c9=4 in the answer: the two columns share
        // a stack, so swapping 4 and 8 in all four cells is also a solution.
        let mut open = cells(ANSWER);
        for pos in [16, 17, 61, 62] {
            open[pos] = 0;
        }
        assert_eq!(count_solutions(&open, 10), 2);
        let mut filled = open;
        assert!(solve_cells(&mut filled));
        assert!(filled.iter().all(|&d| d != 0));
    }
}
