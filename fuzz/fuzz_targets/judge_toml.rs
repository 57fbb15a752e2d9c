//! Fuzzes `sudoku_judge::fuzz::judge_toml`; its corpus is fuzz/corpus/judge_toml.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoku_judge::fuzz::judge_toml(data));
