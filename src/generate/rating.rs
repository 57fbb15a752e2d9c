//! How hard a puzzle is: its [`Grade`] by the techniques that solve it
//! ([`rate`], [`Rating`]), and the work textbook solvers spend on it
//! ([`Rated`]).

use std::fmt;

use crate::board::Board;
use crate::solver::reference::graded_search;

/// How hard a puzzle is for a solver, from the reference search with its
/// branch choice pinned ([`crate::solver::reference::graded_search`]), so that a faster
/// search never moves a grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Grade {
    /// Logic alone solves it (naked and hidden singles, locked
    /// candidates, triads): no guess at all.
    Easy,
    /// One to three guesses.
    Medium,
    /// Four to twenty guesses.
    Hard,
    /// More than twenty guesses: the hardest known puzzles live here.
    Fiendish,
}

impl Grade {
    /// The grade of a search that needed `guesses` guesses.
    pub(crate) fn of_guesses(guesses: u64) -> Grade {
        match guesses {
            0 => Grade::Easy,
            1..=3 => Grade::Medium,
            4..=20 => Grade::Hard,
            _ => Grade::Fiendish,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Fiendish => "fiendish",
        }
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the reference search says of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rating {
    pub(crate) givens: usize,
    /// Solutions found, counting no further than [`Rating::COUNT_LIMIT`].
    pub(crate) solutions: usize,
    /// Guesses the graded search ([`crate::solver::reference::graded_search`]) needed to
    /// find every solution up to the limit (for a unique puzzle: to solve
    /// it and prove nothing else fits); see [`crate::solver::propagate`] for how
    /// they are counted.
    pub(crate) guesses: u64,
    /// `None` unless the puzzle has exactly one solution.
    pub(crate) grade: Option<Grade>,
    pub(crate) solution: Option<Board>,
}

impl Rating {
    /// How far solutions are counted: enough to say "several".
    pub(crate) const COUNT_LIMIT: usize = 2;
}

/// Rates `puzzle` with the reference search.
pub(crate) fn rate(puzzle: &Board) -> Rating {
    let outcome = graded_search(&puzzle.to_bytes(), Rating::COUNT_LIMIT);
    Rating {
        givens: puzzle.filled(),
        solutions: outcome.solutions,
        guesses: outcome.guesses,
        grade: (outcome.solutions == 1).then(|| Grade::of_guesses(outcome.guesses)),
        solution: outcome
            .first
            .filter(|_| outcome.solutions == 1)
            .and_then(|cells| Board::from_bytes(&cells)),
    }
}

/// A puzzle's rating with the work the textbook solvers do on it, as
/// `rate` shows it: the digits plain row-major backtracking and
/// fewest-candidates backtracking place before their first solution.
#[derive(Clone, Debug)]
pub(crate) struct Rated {
    /// Where the puzzle is, as `file:line`.
    pub(crate) place: crate::outside::OutsideName,
    pub(crate) rating: Rating,
    pub(crate) backtrack: crate::solver::Nodes,
    pub(crate) mrv: crate::solver::Nodes,
}

impl Rated {
    /// Rates `puzzle` and counts the textbook solvers' work on it, each
    /// stopped at `max_nodes`. Counted with the built-in solvers
    /// themselves, as they are judged.
    pub(crate) fn of(place: String, puzzle: &Board, max_nodes: u64) -> Rated {
        let cells = puzzle.to_bytes();
        Rated {
            place: place.into(),
            rating: rate(puzzle),
            backtrack: crate::solver::backtrack::count_nodes(&cells, max_nodes),
            mrv: crate::solver::mrv::count_nodes(&cells, max_nodes),
        }
    }
}
