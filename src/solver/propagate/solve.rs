//! The ways into the search: LeetCode's [`solve_sudoku`], [`search`] and
//! [`graded_search`] on the fastest copy this CPU runs or on a chosen one
//! ([`search_on`]), and [`count_solutions`].

use super::grid::Grid;
use super::paths::CodePath;
use super::paths::{run, Entry};
use super::search::Search;

/// LeetCode 37's signature: fill `board` in place ('1'..='9' digits, '.'
/// blanks). Leaves the board untouched if it is malformed, has conflicting
/// givens, or has no solution.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    let Some(cells) = super::super::shared::read_cells(board) else {
        return;
    };
    if let Some(solution) = search(&cells, 1).first {
        super::super::shared::write_cells(board, &solution);
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// Solutions found, at most the limit asked for.
    pub solutions: usize,
    /// How many times the search had to guess, until it stopped: at each
    /// branch cell, every candidate tried except the cell's last one, and
    /// one for a digit's two ways through a band (see the module docs). 0
    /// means the rules (singles, locked candidates and triads) settled the
    /// puzzle without branching; for a unique puzzle that does not depend
    /// on the limit.
    pub guesses: u64,
    /// The first solution found, row-major digits 1..=9.
    pub first: Option<[u8; 81]>,
}

/// Searches `cells` (row-major, 0 = empty, 1..=9 = given) for up to `limit`
/// solutions. Conflicting givens or values > 9 give 0 solutions; limit 0
/// gives 0 solutions and does no search.
#[must_use]
pub fn search(cells: &[u8; 81], limit: usize) -> SearchOutcome {
    search_with(cells, limit, false, run)
}

/// [`search`] with its branch choice pinned, for what must not move when
/// the search gets faster: the guesses that grade a puzzle, and the first
/// solutions `gen` builds puzzles from (so a seed keeps making the same
/// files). The rules are the same; only the choice of bivalue cell, and
/// of which digit goes first, is the one the search made before it chose
/// for speed (see [`Grid::branch_cell`]). A test regenerates the shipped
/// generated cases with it, so a change that moves them is seen.
#[must_use]
pub fn graded_search(cells: &[u8; 81], limit: usize) -> SearchOutcome {
    search_with(cells, limit, true, run)
}

/// [`search`] on the copy `path`, `None` where this CPU cannot run it
/// ([`CodePath::available`]). With `graded`, [`graded_search`] instead.
#[must_use]
pub fn search_on(
    path: CodePath,
    cells: &[u8; 81],
    limit: usize,
    graded: bool,
) -> Option<SearchOutcome> {
    Some(search_with(cells, limit, graded, path.entry()?))
}

/// [`search_on`] without asking the CPU whether it can run `path`: for
/// running a copy where the CPU's answer is not the one that counts, as
/// under an emulator, which executes AVX-512 on a CPU without it while the
/// standard library's cached answer is the host's.
///
/// # Safety
/// The CPU executing the search must have the features of `path`
/// (otherwise it raises an illegal-instruction fault, or worse).
///
/// # Panics
/// Where `path` is not compiled at all: its SIMD copies off x86-64.
#[must_use]
pub unsafe fn search_on_unchecked(
    path: CodePath,
    cells: &[u8; 81],
    limit: usize,
    graded: bool,
) -> SearchOutcome {
    let Some((_, entry)) = path.compiled() else {
        panic!("no {} copy of the search on this architecture", path.name())
    };
    search_with(cells, limit, graded, entry)
}

/// [`search`] through one entry point.
pub(super) fn search_with(
    cells: &[u8; 81],
    limit: usize,
    grading: bool,
    entry: Entry,
) -> SearchOutcome {
    let mut search = Search {
        limit,
        grading,
        solutions: 0,
        guesses: 0,
        first: None,
    };
    if limit > 0 {
        if let Some(grid) = Grid::new(cells) {
            entry(&mut search, grid);
        }
    }
    SearchOutcome {
        solutions: search.solutions,
        guesses: search.guesses,
        first: search.first,
    }
}

/// Number of solutions of `cells`, counting no further than `limit` (limit 2
/// = the uniqueness check).
#[must_use]
pub fn count_solutions(cells: &[u8; 81], limit: usize) -> usize {
    search(cells, limit).solutions
}
