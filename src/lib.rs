//! sudoku-judge: a local online judge for Sudoku submissions, the LeetCode 37
//! function interface and the AcWing 166 / POJ 3074 stdin format.
//!
//! The data flows one way: [`app`] parses the command line (its types in
//! `cli`) and hands it to a command's handler (`commands`), which builds a
//! [`judge::JudgeConfig`], [`case`]
//! discovers sorted cases and reads their settings, [`runner`] runs the
//! submission on each, [`check`] judges its answers, [`verdict_rules`] turns the
//! run and the answers into a [`verdict::Verdict`], the [`judge`] gathers
//! [`results`], and [`report`] renders the events. Only [`app`], the
//! command handlers and [`report`] write to the terminal. `tests/layout.rs`
//! fails on an import cycle between these modules.

#![deny(unsafe_code)]

pub mod app;
pub(crate) mod baseline;
pub mod bench;
pub mod board;
pub(crate) mod calibrate;
pub mod case;
pub(crate) mod check;
pub(crate) mod cli;
pub(crate) mod commands;
pub(crate) mod corpus;
pub(crate) mod doctor;
pub(crate) mod files;
pub mod fuzz;
pub mod generate;
pub(crate) mod hack;
pub(crate) mod judge;
pub(crate) mod outside;
pub(crate) mod practice;
pub mod problem;
pub(crate) mod quote;
pub(crate) mod reason;
pub(crate) mod report;
pub(crate) mod results;
pub mod runner;
pub mod shipped;
pub mod solver;
pub(crate) mod state;
pub(crate) mod stats;
pub(crate) mod stress;
pub(crate) mod verdict;
pub(crate) mod verdict_rules;
pub(crate) mod watch;
pub mod words;
