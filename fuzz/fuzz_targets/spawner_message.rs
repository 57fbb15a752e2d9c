//! Fuzzes `sudoku_judge::fuzz::spawner_message`; its corpus is fuzz/corpus/spawner_message.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sudoku_judge::fuzz::spawner_message(data));
