//! The built-in solvers. Each has exactly LeetCode 37's Rust signature,
//! `fn solve_sudoku(board: &mut Vec<Vec<char>>)`, lives in its own file, and
//! is registered once in [`ALL`] (in `registry`), which the CLI, the judge
//! and the tests all read; what the solvers share is in `shared`.

pub(crate) mod backtrack;
pub(crate) mod bitmask;
pub(crate) mod faulty;
pub(crate) mod mrv;
#[expect(unsafe_code, reason = "SIMD intrinsics for the bit masks")]
pub(crate) mod propagate;
pub mod reference;
mod registry;
mod shared;
pub(crate) mod singles;

pub(crate) use registry::pick;
pub use registry::{default_solver, find, SolveFn, Solver, ALL};
pub(crate) use shared::read_cells;
pub(crate) use shared::Nodes;
