//! The grid itself: a [`Digit`], a [`Cell`] and the [`Unit`]s it lies in,
//! a [`Conflict`] between two cells, and the [`Board`] of 81 of them.

use std::fmt;

/// LeetCode 37's example puzzle as one AcWing line, '.' for a blank: the
/// board that tests, examples and `driver`'s board.txt start from.
pub const EXAMPLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The one solution of [`EXAMPLE`].
pub const EXAMPLE_ANSWER: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// A digit 1–9. Empty cells are `None`, never a zero digit; being never
/// zero, an optional digit takes one byte, and a board 81.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digit(std::num::NonZeroU8);

impl Digit {
    pub(crate) fn new(value: u8) -> Option<Self> {
        std::num::NonZeroU8::new(value)
            .filter(|v| v.get() <= 9)
            .map(Self)
    }

    /// The digit of a cell character: `'1'..='9'`. Blanks are not digits.
    pub(crate) fn from_char(c: char) -> Option<Self> {
        c.to_digit(10).and_then(|d| Self::new(d as u8))
    }

    pub(crate) fn get(self) -> u8 {
        self.0.get()
    }

    pub(crate) fn to_char(self) -> char {
        char::from(b'0' + self.get())
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

/// A cell index 0..81 in row-major order, named the way Sudoku players do:
/// `r1c1` is the top-left cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    pub(crate) fn new(row: usize, col: usize) -> Self {
        assert!(row < 9 && col < 9, "cell r{row}c{col} is off the board");
        Self((row * 9 + col) as u8)
    }

    pub(crate) fn from_index(index: usize) -> Self {
        assert!(index < 81, "cell index {index} is off the board");
        Self(index as u8)
    }

    pub(crate) fn all() -> impl Iterator<Item = Cell> {
        (0..81).map(Cell)
    }

    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }

    pub(crate) fn row(self) -> usize {
        self.index() / 9
    }

    pub(crate) fn col(self) -> usize {
        self.index() % 9
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// A row, column or 3×3 box: the units in which each digit appears once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Row(usize),
    Col(usize),
    Box(usize),
}

impl Unit {
    pub(crate) fn all() -> impl Iterator<Item = Unit> {
        (0..9)
            .map(Unit::Row)
            .chain((0..9).map(Unit::Col))
            .chain((0..9).map(Unit::Box))
    }

    pub(crate) fn cells(self) -> [Cell; 9] {
        std::array::from_fn(|i| match self {
            Unit::Row(r) => Cell::new(r, i),
            Unit::Col(c) => Cell::new(i, c),
            Unit::Box(b) => Cell::new(b / 3 * 3 + i / 3, b % 3 * 3 + i % 3),
        })
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(r) => write!(f, "row {}", r + 1),
            Unit::Col(c) => write!(f, "column {}", c + 1),
            Unit::Box(b) => write!(f, "box {}", b + 1),
        }
    }
}

/// The same digit twice in one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub(crate) unit: Unit,
    pub(crate) digit: Digit,
    pub(crate) first: Cell,
    pub(crate) second: Cell,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} has two {}s ({} and {})",
            self.unit, self.digit, self.first, self.second
        )
    }
}

/// A 9×9 Sudoku board. Cells hold a digit or nothing.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Option<Digit>; 81],
}

impl Default for Board {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Board {
    pub(crate) const EMPTY: Board = Board { cells: [None; 81] };

    pub(crate) fn get(&self, cell: Cell) -> Option<Digit> {
        self.cells[cell.index()]
    }

    pub(crate) fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        self.cells[cell.index()] = digit;
    }

    /// Number of filled cells (the givens, for a puzzle).
    pub(crate) fn filled(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    /// Every pair of equal digits sharing a unit, the first one found per unit
    /// and digit, in row, column, box order.
    pub(crate) fn conflicts(&self) -> Vec<Conflict> {
        #[derive(Clone, Copy)]
        enum Seen {
            Not,
            At(Cell),
            Reported,
        }
        let mut found = Vec::new();
        for unit in Unit::all() {
            let mut seen = [Seen::Not; 10];
            for cell in unit.cells() {
                let Some(digit) = self.get(cell) else {
                    continue;
                };
                let slot = &mut seen[usize::from(digit.get())];
                match *slot {
                    Seen::Not => *slot = Seen::At(cell),
                    Seen::At(first) => {
                        found.push(Conflict {
                            unit,
                            digit,
                            first,
                            second: cell,
                        });
                        *slot = Seen::Reported;
                    }
                    Seen::Reported => {}
                }
            }
        }
        found
    }

    /// Whether some digit is twice in a row, column or box: the quick
    /// question, without the description [`Board::conflicts`] gives. The
    /// judge asks it of every answer, a million times for a big case.
    pub(crate) fn has_conflict(&self) -> bool {
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        for (i, cell) in self.cells.iter().enumerate() {
            let Some(digit) = cell else {
                continue;
            };
            let bit = 1u16 << digit.get();
            let (r, c) = (i / 9, i % 9);
            let b = r / 3 * 3 + c / 3;
            if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
                return true;
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        false
    }

    /// Is this a complete grid that keeps every given of `puzzle`?
    pub fn solves(&self, puzzle: &Board) -> bool {
        self.cells
            .iter()
            .zip(&puzzle.cells)
            .all(|(answer, given)| answer.is_some() && (given.is_none() || given == answer))
            && !self.has_conflict()
    }

    /// Cells as bytes, 0 for empty: the compact form solvers work on.
    pub fn to_bytes(&self) -> [u8; 81] {
        self.cells.map(|c| c.map_or(0, Digit::get))
    }

    /// The inverse of [`Board::to_bytes`]; `None` if a byte is over 9.
    pub fn from_bytes(bytes: &[u8; 81]) -> Option<Board> {
        let mut board = Board::EMPTY;
        for (i, &b) in bytes.iter().enumerate() {
            if b != 0 {
                board.cells[i] = Some(Digit::new(b)?);
            }
        }
        Some(board)
    }

    /// LeetCode's representation: 9 rows of 9 chars, `'.'` for empty.
    pub fn to_rows(&self) -> Vec<Vec<char>> {
        (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| self.get(Cell::new(r, c)).map_or('.', Digit::to_char))
                    .collect()
            })
            .collect()
    }

    /// The inverse of [`Board::to_rows`]: `None` unless `rows` are 9 rows
    /// of 9 cells, each a digit from 1 to 9 or `'.'`.
    pub(crate) fn from_rows(rows: &[Vec<char>]) -> Option<Board> {
        if rows.len() != 9 || rows.iter().any(|row| row.len() != 9) {
            return None;
        }
        let mut board = Board::EMPTY;
        for (cell, &c) in board.cells.iter_mut().zip(rows.iter().flatten()) {
            *cell = match c {
                '.' => None,
                '1'..='9' => Some(Digit::new(c as u8 - b'0')?),
                _ => return None,
            };
        }
        Some(board)
    }

    /// One 81-character line, `'.'` for empty (the AcWing 166 layout).
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|c| c.map_or('.', Digit::to_char))
            .collect()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &str = super::EXAMPLE_ANSWER;

    fn board(line: &str) -> Board {
        let bytes: Vec<u8> = line
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        Board::from_bytes(&bytes.try_into().unwrap()).unwrap()
    }

    #[test]
    fn cells_are_named_like_players_name_them() {
        assert_eq!(Cell::new(0, 0).to_string(), "r1c1");
        assert_eq!(Cell::new(8, 4).to_string(), "r9c5");
    }

    #[test]
    fn units_cover_their_cells() {
        let boxed: Vec<String> = Unit::Box(4).cells().iter().map(Cell::to_string).collect();
        assert_eq!(
            boxed,
            ["r4c4", "r4c5", "r4c6", "r5c4", "r5c5", "r5c6", "r6c4", "r6c5", "r6c6"]
        );
    }

    #[test]
    fn a_solved_grid_has_no_conflicts_and_solves_its_puzzle() {
        let solved = board(SOLVED);
        assert_eq!(solved.filled(), 81);
        assert!(solved.conflicts().is_empty());
        let mut puzzle = solved;
        puzzle.set(Cell::new(0, 2), None);
        assert!(solved.solves(&puzzle));
        assert!(
            !puzzle.solves(&puzzle),
            "an incomplete board solves nothing"
        );
    }

    #[test]
    fn conflicts_name_unit_digit_and_both_cells() {
        let mut b = board(SOLVED);
        // r1c3 holds 4; writing 5 repeats r1c1's 5 in row 1 and box 1.
        b.set(Cell::new(0, 2), Digit::new(5));
        let messages: Vec<String> = b.conflicts().iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "row 1 has two 5s (r1c1 and r1c3)",
                "column 3 has two 5s (r1c3 and r9c3)",
                "box 1 has two 5s (r1c1 and r1c3)",
            ]
        );
    }

    #[test]
    fn a_changed_given_is_not_a_solution() {
        let solved = board(SOLVED);
        let mut puzzle = Board::EMPTY;
        puzzle.set(Cell::new(0, 0), Digit::new(1));
        assert!(!solved.solves(&puzzle));
    }

    #[test]
    fn bytes_and_rows_round_trip() {
        let b = board(SOLVED);
        assert_eq!(Board::from_bytes(&b.to_bytes()), Some(b));
        assert_eq!(b.to_rows()[0].iter().collect::<String>(), "534678912");
        assert_eq!(b.to_line(), SOLVED);
        assert_eq!(Board::from_bytes(&[10; 81]), None);
    }
}
