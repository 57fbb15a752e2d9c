//! The command line, as clap derive types. `main.rs` turns these into the
//! library's configuration.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use sudoku_judge::check::CheckerKind;
use sudoku_judge::problem::Problem;

/// A local online judge for Sudoku submissions: LeetCode 37 "Sudoku Solver"
/// and AcWing 166 / POJ 3074.
///
/// Judge solvers against case directories the way the real judges do:
/// verdicts (AC, WA, PE, TLE, MLE, OLE, RE, CE), the reason for a wrong
/// answer with a 9×9 diff, and the time and memory each case took against
/// its limits.
#[derive(Debug, Parser)]
#[command(name = "sudoku-judge", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    sudoku-judge test                       judge the default solver on cases/\n  \
    sudoku-judge test cases/acwing166 --solver backtrack --time-limit 2s\n  \
    sudoku-judge test --format json > report.json\n  \
    sudoku-judge solve < puzzles.txt        solve puzzles in any format\n  \
    sudoku-judge solvers                    list the built-in solvers")]
pub struct Cli {
    /// When to colour the output: on a terminal (auto, and never when
    /// NO_COLOR is set), always, or never.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Judge a solver on cases and print a verdict table.
    ///
    /// A case is a directory holding input.txt and expected.txt (also
    /// input/expected, in/out), or a flat pair NAME.in with NAME.out or
    /// NAME.ans. The expected file may be missing: then the rules of Sudoku
    /// alone judge the answer. Each case's format (LeetCode literal, AcWing
    /// lines closed by `end`, or a 9-line grid) is detected from its content.
    ///
    /// A judge.toml in a suite directory sets that suite's defaults:
    /// problem = "acwing166", time_limit = "1s", memory_limit = "64M",
    /// checker = "exact". Flags override it.
    ///
    /// Exit code: 0 when every case is accepted, 1 when some case is not,
    /// 2 when a case could not be judged (e.g. a malformed input).
    Test(TestArgs),

    /// Solve puzzles read on stdin and print them in the same format.
    ///
    /// Reads LeetCode literals, AcWing 166 lines (closed by `end`) or grids,
    /// so this command is itself a working AcWing 166 submission.
    Solve {
        /// Built-in solver to use (see `sudoku-judge solvers`).
        #[arg(long, value_name = "NAME")]
        solver: Option<String>,
    },

    /// List the built-in solvers, one a line, name first; the first is the default.
    Solvers {
        /// Also list the deliberately broken solvers, one for each way a
        /// submission fails, to see what each verdict looks like.
        #[arg(long)]
        all: bool,
    },

    /// Internal: host a built-in solver for the judge (one puzzle a line on
    /// stdin, one JSON reply a line on stdout).
    #[command(hide = true)]
    Worker {
        #[arg(long)]
        solver: String,
    },
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// Suite directories, case directories or case files to judge.
    #[arg(value_name = "PATH", default_value = "cases")]
    pub paths: Vec<PathBuf>,

    /// Built-in solver to judge (default: the fastest; see `sudoku-judge solvers`).
    #[arg(long, value_name = "NAME")]
    pub solver: Option<String>,

    /// How answers are checked: sudoku accepts any valid solution that keeps
    /// the givens (a special judge); exact compares text with the expected
    /// file, ignoring CRLF and trailing whitespace.
    #[arg(long, value_enum)]
    pub checker: Option<CheckerKind>,

    /// Judge on this problem's terms: its time and memory limits
    /// (acwing166 and poj3074: 1 s, 64 MB; leetcode37 publishes none: 1 s, 256 MB).
    #[arg(long, value_enum)]
    pub problem: Option<Problem>,

    /// Time limit for each case file, e.g. 1s or 1500ms [default: 1s].
    #[arg(long, value_name = "TIME")]
    pub time_limit: Option<String>,

    /// Memory limit for each case, e.g. 64M or 256MB [default: 256M].
    #[arg(long, value_name = "SIZE")]
    pub memory_limit: Option<String>,

    /// Run each case N times and report the median time (min/max in JSON).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeat: u32,

    /// Report format: a table for people, or one JSON document.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Table,
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
