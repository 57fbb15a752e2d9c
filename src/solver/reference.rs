//! The reference search every tool trusts: it proves uniqueness for `gen`
//! and `check`, and stands behind the expected answers of `stress`. It is
//! the fastest built-in solver, `propagate`; this module names the role, so
//! callers do not depend on which solver fills it. `rate` and `gen` grade
//! and build puzzles with `graded_search`, the same search with its branch
//! choice pinned, so that a faster search moves no grade and no generated
//! file.

pub use super::propagate::{
    count_solutions, graded_search, search, search_on, search_on_unchecked, CodePath, SearchOutcome,
};
