//! Fuzzes `sudoku_judge::fuzz::checker`; its corpus is fuzz/corpus/checker.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoku_judge::fuzz::checker(data));
