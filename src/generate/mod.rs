//! Making puzzles: random full grids, puzzles with exactly one solution
//! carved out of them, and a difficulty grade that means something to a
//! solver author.
//!
//! Everything is reproducible from a seed: the generator draws from ChaCha8,
//! whose stream is fixed by its specification, so a seed gives the same
//! puzzles on every machine and every version of `rand`.
//!
//! - A full grid is a valid base pattern shuffled by the symmetries of
//!   Sudoku (relabel digits, permute rows within a band, bands, columns
//!   within a stack, stacks, transpose), which reach every essentially
//!   different grid's relabellings uniformly enough for testing.
//! - A puzzle is carved by removing givens in random order, keeping a
//!   removal only while the puzzle keeps exactly one solution (the
//!   reference solver counts to two).
//! - Fewer than 22 givens is beyond what carving reaches in reasonable time
//!   (minimal puzzles carved at random mostly keep 22 to 26), so those
//!   start from a known 17-given puzzle, shuffled by the same symmetries
//!   (which keep a puzzle unique), with givens added back from its solution
//!   up to the target.
//! - Fiendish puzzles and puzzles hard for a named solver are beyond
//!   carving too: they come from the hill climbing of [`search`].
//!
//! [`write`](mod@write) puts the cases on disk all at once or not at all.

mod generator;
mod goal;
mod rating;
mod search;
mod write;

pub use goal::{HardFor, Measure, Target, FIENDISH_GOAL};
pub use write::{write_cases, write_cases_with, GenPlan, Layout, Written};

pub use generator::{Generator, Puzzle};
#[cfg(test)]
pub(crate) use rating::rate;
pub(crate) use rating::{Grade, Rated};
