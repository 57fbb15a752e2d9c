//! Bitmask backtracking plus naked singles: before the search and at every
//! node, cells with exactly one candidate are filled until none are left
//! (undone on backtrack), then the search branches on the first empty cell.
//! In the product as the "add a little logic" step between `bitmask` and `mrv`.

/// Bit `d - 1` stands for digit `d`.
const ALL: u16 = 0x1FF;

struct Solver {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    /// Every placement made since the start, so a node can undo its own.
    /// Each one fills a distinct empty cell, so 81 entries always suffice.
    trail: [u8; 81],
    trail_len: usize,
}

impl Solver {
    /// `None` if two givens share a row, column or box.
    fn new(cells: [u8; 81]) -> Option<Self> {
        let mut solver = Solver {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            trail: [0; 81],
            trail_len: 0,
        };
        for (pos, &d) in cells.iter().enumerate() {
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

    fn place(&mut self, pos: usize, d: u8) {
        self.toggle(pos, d);
        self.cells[pos] = d;
        self.trail[self.trail_len] = pos as u8;
        self.trail_len += 1;
    }

    fn undo_to(&mut self, mark: usize) {
        while self.trail_len > mark {
            self.trail_len -= 1;
            let pos = usize::from(self.trail[self.trail_len]);
            self.toggle(pos, self.cells[pos]);
            self.cells[pos] = 0;
        }
    }

    /// Fills naked singles until a full sweep finds none; `false` as soon as
    /// some empty cell has no candidate left.
    fn fill_singles(&mut self) -> bool {
        loop {
            let mut progress = false;
            for pos in 0..81 {
                if self.cells[pos] != 0 {
                    continue;
                }
                let cand = self.candidates(pos);
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
        let Some(pos) = self.cells.iter().position(|&d| d == 0) else {
            return true;
        };
        let after_singles = self.trail_len;
        let cand = self.candidates(pos);
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

fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// Fills `board` (9 rows of 9 chars, '1'..='9' or '.') with a solution.
///
/// A board that is malformed, has conflicting givens or has no solution is
/// left exactly as it was.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    // The search runs on a copy, so a failure needs no undo on the board.
    let Some(mut solver) = super::read_cells(board).and_then(Solver::new) else {
        return;
    };
    if solver.search() {
        super::write_cells(board, &solver.cells);
    }
}
