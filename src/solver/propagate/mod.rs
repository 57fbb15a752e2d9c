//! Constraint propagation plus search: the project's reference solver (it
//! proves uniqueness, grades puzzles and produces expected answers) and the
//! default built-in. It exists because the textbook fewest-candidates search
//! (`mrv`) needs thousands of guesses on 17-clue puzzles, where a solver that
//! also finds hidden singles needs about one, and because its guess count is
//! a usable difficulty measure.
//!
//! The grid is stored digit by digit: for each band (three rows) and digit, a
//! 27-bit mask of the cells where the digit may still go (`grid`). Before
//! every guess the rules run to a fixpoint: the band rule (a table lookup per
//! band and digit that does hidden singles in rows and boxes and locked
//! candidates), naked singles, the same rule down each stack with hidden
//! singles in columns, and tdoku's triads. Then the search branches
//! (`branch`), each branch on a copy of the 136-byte state.
//!
//! The search is compiled once per instruction set (`paths`); the copies
//! differ only in how fast they reach the same fixpoint (`kernels`, `x86`,
//! and for AVX-512 the `engine`), and tests hold them against each other.
//! Why each piece is as it is, with the measurements and what was tried and
//! dropped: docs/solvers.md.
//!
//! **Guesses** count trial placements: at a branch cell every candidate tried
//! counts one guess except the cell's last one, which is placed without
//! counting because by then it is the only branch left (it reuses the grid
//! instead of copying it). A cell with two candidates therefore costs one
//! guess however its branches turn out, and so does a digit's two ways
//! through a band. The count is deterministic, and 0 exactly when the rules
//! alone settled the puzzle (solved it or proved it has no solution).

mod bits;
mod branch;
#[cfg(target_arch = "x86_64")]
mod engine;
mod grid;
mod kernels;
mod paths;
mod tables;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

use grid::Grid;
use grid::Kernels;
pub use paths::CodePath;
use paths::{run, Entry};

/// Depth-first search over copies of the grid.
struct Search {
    limit: usize,
    /// Branch on the bivalue cell [`graded_search`] pins rather than the
    /// fastest choice.
    grading: bool,
    solutions: usize,
    guesses: u64,
    first: Option<[u8; 81]>,
}

impl Search {
    /// Visits `grid` and everything below it, depth first: propagate, then
    /// (unless solved or dead) branch on `Grid::branch_cell` (or
    /// `Grid::band_branch` without a bivalue cell), trying its digits in
    /// the order it gives, each but the last on a copy. `recurse` is the
    /// caller's own entry point: the body is compiled once per instruction
    /// set (see `paths`), and each copy recurses into itself.
    #[inline(always)]
    fn visit<K: Kernels>(&mut self, mut grid: Grid, recurse: impl Fn(&mut Search, Grid)) {
        let Some(pairs) = grid.propagate::<K>() else {
            return;
        };
        if grid.is_solved() {
            self.solutions += 1;
            if self.first.is_none() {
                self.first = Some(grid.cells());
            }
            return;
        }
        if pairs == [0; 3] {
            if let Some((digit, ways)) = grid.band_branch::<K>() {
                self.guesses += 1;
                let mut trial = grid;
                trial.restrict(digit, ways[0]);
                recurse(self, trial);
                if self.solutions >= self.limit {
                    return;
                }
                // The other way, the only one left: not a guess.
                grid.restrict(digit, ways[1]);
                recurse(self, grid);
                return;
            }
        }
        let (pos, mut digits, high_first) = grid.branch_cell::<K>(pairs, self.grading);
        loop {
            let digit = if high_first {
                31 - digits.leading_zeros()
            } else {
                digits.trailing_zeros()
            } as usize;
            digits &= !(1 << digit);
            if digits == 0 {
                // The only branch left: placed on this grid, not a guess.
                if grid.assign::<K>(digit, pos) {
                    recurse(self, grid);
                }
                return;
            }
            self.guesses += 1;
            let mut trial = grid;
            if trial.assign::<K>(digit, pos) {
                recurse(self, trial);
            }
            if self.solutions >= self.limit {
                return;
            }
        }
    }
}

/// LeetCode 37's signature: fill `board` in place ('1'..='9' digits, '.'
/// blanks). Leaves the board untouched if it is malformed, has conflicting
/// givens, or has no solution.
#[expect(clippy::ptr_arg, reason = "LeetCode's signature")]
pub fn solve_sudoku(board: &mut Vec<Vec<char>>) {
    let Some(cells) = super::read_cells(board) else {
        return;
    };
    if let Some(solution) = search(&cells, 1).first {
        super::write_cells(board, &solution);
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
/// for speed (see `Grid::branch_cell`). A test regenerates the shipped
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
fn search_with(cells: &[u8; 81], limit: usize, grading: bool, entry: Entry) -> SearchOutcome {
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
