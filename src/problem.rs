//! The judges whose Sudoku problems users practise, and the limits each one
//! enforces, so `--problem acwing166` judges on the same terms as AcWing.

use std::time::Duration;

use serde::Deserialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Problem {
    /// LeetCode 37 "Sudoku Solver": one board, solved in place.
    Leetcode37,
    /// AcWing 166 "数独": many puzzles on stdin, closed by `end`.
    Acwing166,
    /// POJ 3074 "Sudoku": the same input as AcWing 166.
    Poj3074,
}

/// The time limit when neither a flag, a `judge.toml` nor a problem sets one:
/// AcWing 166 and POJ 3074 allow 1000 ms for the whole input.
pub(crate) const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);
/// The memory limit when nothing sets one, as on most judges.
pub(crate) const DEFAULT_MEMORY_LIMIT_KB: u64 = 256 * 1024;

impl Problem {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Problem::Leetcode37 => "leetcode37",
            Problem::Acwing166 => "acwing166",
            Problem::Poj3074 => "poj3074",
        }
    }

    /// The judge's name, as its users know it: "AcWing would say ...".
    pub(crate) fn judge(self) -> &'static str {
        match self {
            Problem::Leetcode37 => "LeetCode",
            Problem::Acwing166 => "AcWing",
            Problem::Poj3074 => "POJ",
        }
    }

    /// Time limit for one input file.
    pub(crate) fn time_limit(self) -> Duration {
        // LeetCode publishes no limit; 1 s per board is generous for Sudoku.
        DEFAULT_TIME_LIMIT
    }

    pub(crate) fn memory_limit_kb(self) -> u64 {
        match self {
            // POJ states 65536K; AcWing states 64 MB.
            Problem::Acwing166 | Problem::Poj3074 => 64 * 1024,
            // LeetCode publishes no limit.
            Problem::Leetcode37 => DEFAULT_MEMORY_LIMIT_KB,
        }
    }
}
