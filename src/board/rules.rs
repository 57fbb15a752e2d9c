//! The rules an answer must keep to solve its puzzle, and what breaks
//! them, in the words a solver author needs. The checker judges answers
//! with them and case loading proves expected answers with them; both
//! depend on the board, not on each other.

use std::fmt;

use super::{Board, Cell, Conflict, Digit};

/// Something wrong with one answer, in the words a solver author needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mistake {
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
    pub fn cells(&self) -> Vec<Cell> {
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
pub fn mistakes(puzzle: &Board, answer: &Board) -> Vec<Mistake> {
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
