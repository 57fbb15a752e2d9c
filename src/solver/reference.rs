//! The reference search every tool trusts: it proves uniqueness for `gen`
//! and `check`, grades puzzles for `rate`, and stands behind the expected
//! answers of `stress`. It is the fastest built-in solver, `propagate`; this
//! module names the role, so callers do not depend on which solver fills it.

pub use super::propagate::{count_solutions, search, SearchOutcome};
