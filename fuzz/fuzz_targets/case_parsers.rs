//! Fuzzes `sudoku_judge::fuzz::case_parsers`; its corpus is fuzz/corpus/case_parsers.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoku_judge::fuzz::case_parsers(data));
