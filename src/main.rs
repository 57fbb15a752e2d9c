//! The `sudoku-judge` binary: everything it does is the library's
//! ([`sudoku_judge::app`]).

#![deny(unsafe_code)]

fn main() -> std::process::ExitCode {
    sudoku_judge::app::main()
}
