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
//! (`branch`), each branch on a copy of the 136-byte state (`search`); its
//! entry points are in `solve`.
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
mod search;
mod solve;
mod tables;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use paths::CodePath;

pub use solve::{
    count_solutions, graded_search, search, search_on, search_on_unchecked, solve_sudoku,
    SearchOutcome,
};
