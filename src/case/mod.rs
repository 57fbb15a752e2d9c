//! Finding cases on disk. A case is an input file and, optionally, the
//! expected output beside it, in either of the two layouts judges use:
//!
//! - a directory holding `input.txt` and `expected.txt` (also `input` /
//!   `expected`, `in` / `out`);
//! - flat pairs `NAME.in` with `NAME.out` or `NAME.ans`, the convention of
//!   online-judge-tools and Codeforces.
//!
//! The pairing rule lives in [`case_in_dir`] and [`flat_expected`]; discovery
//! walks the given paths with walkdir in natural order (`case2` before
//! `case10`), skipping hidden and backup files.

mod discover;
mod judge_toml;
mod load;
pub(crate) mod settings;
mod suite;
pub(crate) mod trust;

pub use load::{load, open, Boards, CaseData, Expected, Malformed, Text};
pub(crate) use settings::{CheckerKind, Limits, Settings, SettingsCache};
pub(crate) use suite::{Listed, Suite};

pub(crate) use discover::find;
pub use discover::{absolute, case_in_dir, discover, flat_expected, write_new, Case, Found};
