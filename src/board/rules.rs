//! The rules an answer must keep to solve its puzzle, and what breaks
//! them, in the words a solver author needs. The checker judges answers
//! with them and case loading proves expected answers with them; both
//! depend on the board, not on each other.

use std::fmt;

use super::grid::{Board, Cell, Conflict, Digit};

/// Something wrong with one answer, in the words a solver author needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mistake {
    ChangedGiven {
        cell: Cell,
        given: Digit,
        got: Option<Digit>,
    },
    Empty(Cell),
    Conflict(Conflict),
}

impl Mistake {
    /// The cells a reader should look at.
    pub(crate) fn cells(&self) -> Vec<Cell> {
        match self {
            Mistake::ChangedGiven { cell, .. } | Mistake::Empty(cell) => vec![*cell],
            Mistake::Conflict(c) => vec![c.first, c.second],
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mistake::ChangedGiven {
                cell,
                given,
                got: Some(got),
            } => write!(f, "{cell} was given as {given}, the answer has {got}"),
            Mistake::ChangedGiven {
                cell,
                given,
                got: None,
            } => write!(f, "{cell} was given as {given}, the answer left it empty"),
            Mistake::Empty(cell) => write!(f, "{cell} is empty"),
            Mistake::Conflict(conflict) => conflict.fmt(f),
        }
    }
}

/// Everything that keeps `answer` from solving `puzzle`: changed givens,
/// empty cells, then broken rows, columns and boxes. Empty when it solves it.
pub(crate) fn mistakes(puzzle: &Board, answer: &Board) -> Vec<Mistake> {
    let mut found = Vec::new();
    if answer.solves(puzzle) {
        return found;
    }
    for cell in Cell::all() {
        if let Some(given) = puzzle.get(cell) {
            if answer.get(cell) != Some(given) {
                found.push(Mistake::ChangedGiven {
                    cell,
                    given,
                    got: answer.get(cell),
                });
            }
        }
    }
    found.extend(
        Cell::all()
            .filter(|&c| answer.get(c).is_none() && puzzle.get(c).is_none())
            .map(Mistake::Empty),
    );
    found.extend(answer.conflicts().into_iter().map(Mistake::Conflict));
    found
}

/// The row, column and box of each cell, for the checks on lines below.
const UNITS: [(u8, u8, u8); 81] = {
    let mut units = [(0, 0, 0); 81];
    let mut i = 0;
    while i < 81 {
        let (r, c) = (i / 9, i % 9);
        units[i] = (r as u8, c as u8, (r / 3 * 3 + c / 3) as u8);
        i += 1;
    }
    units
};

/// Whether every byte of `line` is a cell: `1`–`9`, `.` or `0`. A loop
/// without an early exit, which the compiler turns into a few vector
/// instructions.
fn all_cells(line: &[u8]) -> bool {
    line.iter()
        .fold(true, |ok, &b| ok & (b == b'.' || b.wrapping_sub(b'0') <= 9))
}

/// Whether `line` is the plain form of an AcWing line: its 81 cells, each
/// `1`–`9`, `.` or `0`, and nothing else.
pub(crate) fn is_cells_line(line: &[u8]) -> bool {
    line.len() == 81 && all_cells(line)
}

/// The board of a line in the plain form (see [`is_cells_line`]).
pub(crate) fn line_board(cells: &[u8; 81]) -> Board {
    let bytes = cells.map(|b| if b == b'.' { 0 } else { b.wrapping_sub(b'0') });
    Board::from_bytes(&bytes).expect("cells are blanks or digits")
}

/// Whether `line` is a puzzle as an AcWing line writes it, read byte by
/// byte: 81 cells, each `1`–`9`, `.` or `0`, and no given twice in a unit.
/// The quick question asked of every line of a big case; a line it turns
/// down goes to the parser, which says what is wrong with it.
pub(crate) fn is_puzzle_line(line: &[u8]) -> bool {
    if !is_cells_line(line) {
        return false;
    }
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (&b, &(r, c, x)) in line.iter().zip(&UNITS) {
        if b <= b'0' {
            continue;
        }
        let bit = 1u16 << (b - b'0');
        let (r, c, x) = (usize::from(r), usize::from(c), usize::from(x));
        if (rows[r] | cols[c] | boxes[x]) & bit != 0 {
            return false;
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[x] |= bit;
    }
    true
}

/// Whether the AcWing line `answer` solves the AcWing line `puzzle` (one
/// that [`is_puzzle_line`]): 81 digits `1`–`9`, every given kept, no digit
/// twice in a unit. The same question as [`Board::solves`], asked of the
/// text as it came, so that a right answer is never parsed.
pub(crate) fn line_solves(puzzle: &[u8; 81], answer: &[u8]) -> bool {
    let Ok(answer) = <&[u8; 81]>::try_from(answer) else {
        return false;
    };
    let digits_keep_givens = answer.iter().zip(puzzle).fold(true, |ok, (&a, &p)| {
        ok & (a.wrapping_sub(b'1') <= 8) & (p == b'.' || p == b'0' || p == a)
    });
    if !digits_keep_givens {
        return false;
    }
    // Nine digits in a unit are all different exactly when together they
    // are all nine.
    let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
    for (&a, &(r, c, x)) in answer.iter().zip(&UNITS) {
        let bit = 1u16 << (a - b'0');
        rows[usize::from(r)] |= bit;
        cols[usize::from(c)] |= bit;
        boxes[usize::from(x)] |= bit;
    }
    const ALL: u16 = 0b11_1111_1110;
    rows.iter().chain(&cols).chain(&boxes).all(|&m| m == ALL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{EXAMPLE, EXAMPLE_ANSWER};

    fn line(text: &str) -> [u8; 81] {
        text.as_bytes().try_into().unwrap()
    }

    fn with(text: &str, index: usize, b: u8) -> Vec<u8> {
        let mut bytes = text.as_bytes().to_vec();
        bytes[index] = b;
        bytes
    }

    #[test]
    fn a_puzzle_line_is_81_cells_whose_givens_keep_the_rules() {
        assert!(is_puzzle_line(EXAMPLE.as_bytes()));
        assert!(is_puzzle_line(EXAMPLE.replace('.', "0").as_bytes()));
        assert!(is_puzzle_line(EXAMPLE_ANSWER.as_bytes()));
        assert!(!is_puzzle_line(&EXAMPLE.as_bytes()[..80]));
        assert!(!is_puzzle_line(&with(EXAMPLE, 3, b'x')));
        // r1c3 = 5 repeats r1c1's 5.
        assert!(!is_puzzle_line(&with(EXAMPLE, 2, b'5')));
    }

    /// The byte check agrees with the board's on every kind of mistake.
    #[test]
    fn a_line_solves_its_puzzle_exactly_when_its_board_does() {
        let puzzle = line(EXAMPLE);
        let board = |bytes: &[u8]| line_board(bytes.try_into().unwrap());
        let right = EXAMPLE_ANSWER.as_bytes();
        let mut swapped = right.to_vec();
        swapped.swap(79, 80);
        for (answer, solves) in [
            (right.to_vec(), true),
            (with(EXAMPLE_ANSWER, 2, b'.'), false),
            (with(EXAMPLE_ANSWER, 2, b'0'), false),
            (with(EXAMPLE_ANSWER, 0, b'1'), false),
            (with(EXAMPLE_ANSWER, 2, b'5'), false),
            (swapped, false),
        ] {
            assert_eq!(line_solves(&puzzle, &answer), solves, "{answer:?}");
            assert_eq!(board(&answer).solves(&board(&puzzle)), solves);
        }
        assert!(!line_solves(&puzzle, &right[..80]));
        assert!(!line_solves(&puzzle, &with(EXAMPLE_ANSWER, 4, b'a')));
    }
}
