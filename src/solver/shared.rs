//! What the solvers share: counting the digits a search placed ([`Nodes`],
//! [`Budget`]), reading and writing LeetCode's board as cells, and the
//! candidate masks of rows, columns and boxes ([`Masks`]).

/// How much work a textbook search did on a puzzle: the digits it placed
/// before its first solution, or before it gave up at a cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Nodes {
    pub(crate) count: u64,
    /// The search stopped at its cap: the puzzle needs more than `count`.
    pub(crate) capped: bool,
}

impl std::fmt::Display for Nodes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.capped {
            write!(f, "more than {}", self.count)
        } else {
            write!(f, "{}", self.count)
        }
    }
}

/// Node counting for the textbook solvers: each placement spends one node,
/// and the search stops when none is left. Without a cap it never stops.
pub(crate) struct Budget {
    nodes: u64,
    cap: u64,
}

impl Budget {
    pub(crate) fn new(cap: u64) -> Self {
        Budget { nodes: 0, cap }
    }

    pub(crate) fn unlimited() -> Self {
        Budget::new(u64::MAX)
    }

    /// Counts one placement; false once the cap is reached.
    #[inline]
    pub(crate) fn spend(&mut self) -> bool {
        if self.nodes >= self.cap {
            return false;
        }
        self.nodes += 1;
        true
    }

    /// What was spent, for a search that `solved` or not.
    pub(crate) fn nodes(&self, solved: bool) -> Nodes {
        Nodes {
            count: self.nodes,
            capped: !solved && self.nodes >= self.cap,
        }
    }
}

/// Digits as 1..=9 and empty as 0; `None` unless 9 rows of 9 chars that are
/// `'1'..='9'` or `'.'`. Solvers that work on bytes share this reading of
/// LeetCode's board so that they all refuse the same malformed input.
pub(crate) fn read_cells(board: &[Vec<char>]) -> Option<[u8; 81]> {
    if board.len() != 9 || board.iter().any(|row| row.len() != 9) {
        return None;
    }
    let mut cells = [0; 81];
    // Row by row with no early exit: the fast solvers spend a noticeable
    // share of an easy puzzle's time here, so a bad character is only
    // remembered and refused at the end.
    let mut bad = false;
    for (cells, row) in cells.chunks_exact_mut(9).zip(board) {
        for (cell, &ch) in cells.iter_mut().zip(row) {
            let digit = (ch as u32).wrapping_sub('0' as u32);
            bad |= ch != '.' && !(1..=9).contains(&digit);
            *cell = if ch == '.' { 0 } else { digit as u8 };
        }
    }
    (!bad).then_some(cells)
}

/// Bit `d - 1` stands for digit `d`.
pub(crate) fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// Cells (0 = empty) with bitmasks of the digits used in each row, column
/// and box, so testing a digit is three bit tests instead of a board scan:
/// the state the bitmask solvers search on.
pub(crate) struct Masks {
    pub(crate) cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Masks {
    /// `None` if a cell is above 9 or two givens share a row, column or box.
    pub(crate) fn new(cells: [u8; 81]) -> Option<Self> {
        let mut masks = Masks {
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
                if masks.used(pos) & bit(d) != 0 {
                    return None;
                }
                masks.set(pos, d);
            }
        }
        Some(masks)
    }

    /// The digits already in the row, column and box of `pos`.
    pub(crate) fn used(&self, pos: usize) -> u16 {
        let (r, c) = (pos / 9, pos % 9);
        self.rows[r] | self.cols[c] | self.boxes[r / 3 * 3 + c / 3]
    }

    /// The digits `pos` can still take.
    pub(crate) fn candidates(&self, pos: usize) -> u16 {
        !self.used(pos) & 0x1FF
    }

    /// XOR makes the same call place and remove `d`.
    fn toggle(&mut self, pos: usize, d: u8) {
        let (r, c) = (pos / 9, pos % 9);
        self.rows[r] ^= bit(d);
        self.cols[c] ^= bit(d);
        self.boxes[r / 3 * 3 + c / 3] ^= bit(d);
    }

    pub(crate) fn set(&mut self, pos: usize, d: u8) {
        self.toggle(pos, d);
        self.cells[pos] = d;
    }

    pub(crate) fn clear(&mut self, pos: usize) {
        self.toggle(pos, self.cells[pos]);
        self.cells[pos] = 0;
    }
}

/// Writes solved cells back into LeetCode's board.
pub(crate) fn write_cells(board: &mut [Vec<char>], cells: &[u8; 81]) {
    for (row, cells) in board.iter_mut().zip(cells.chunks_exact(9)) {
        for (ch, &d) in row.iter_mut().zip(cells) {
            *ch = if d == 0 { '.' } else { char::from(b'0' + d) };
        }
    }
}
