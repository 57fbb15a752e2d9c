//! The Sudoku domain: a 9×9 board of optional digits, the rules it must keep,
//! and the text formats users bring it in (see [`format`](mod@format)).
//!
//! Everything else in the crate speaks in these types, so a bad state (a
//! digit 0 or 10, a board with 80 cells) cannot travel past the parser.

pub(crate) mod format;
mod grid;
pub(crate) mod rules;

pub use format::Format;

pub use grid::{Board, Cell, Conflict, Digit, Unit, EXAMPLE, EXAMPLE_ANSWER};
