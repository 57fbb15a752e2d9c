//! sudoku-judge: a local online judge for Sudoku submissions, the LeetCode 37
//! function interface and the AcWing 166 / POJ 3074 stdin format.
//!
//! The data flows one way: the CLI builds a [`judge::Config`], [`case`]
//! discovers sorted cases, [`runner`] runs the submission on each, [`check`]
//! turns its output into a [`verdict::Verdict`], and [`report`] renders the
//! events. Only `main.rs` and `report` write to the terminal.

pub mod baseline;
pub mod bench;
pub mod board;
pub mod calibrate;
pub mod case;
pub mod check;
pub mod corpus;
pub mod generate;
pub mod hack;
pub mod judge;
pub mod problem;
pub mod report;
pub mod runner;
pub mod solver;
pub mod stress;
pub mod verdict;
pub mod watch;
