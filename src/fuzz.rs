//! What fuzzing drives: the code that reads bytes nobody vouches for. A
//! case file in every format, a `judge.toml`, a submission's output
//! through both checkers, a message to or from the spawner. Each entry
//! point takes any bytes and must return without panicking, and without
//! holding more than the bounds of [`crate::files::read`].
//!
//! The cargo-fuzz targets under `fuzz/` call these, and a test below
//! replays every file of their corpora (`fuzz/corpus/TARGET/`) on the
//! stable toolchain, so a crash found once stays fixed.

use std::io::BufRead as _;

use crate::board::format::{self, AcWingReader, Mode};
use crate::board::{Board, Format};
use crate::case::{settings, CaseData, CheckerKind};
use crate::check::Checker;
use crate::files::LineCapped;

/// An entry point: any bytes in, no panic out.
pub type Target = fn(&[u8]);

/// The fuzz targets, each with its entry point: the names of
/// `fuzz/fuzz_targets/*.rs` and of the corpus directories.
pub const TARGETS: [(&str, Target); 4] = [
    ("case_parsers", case_parsers),
    ("judge_toml", judge_toml),
    ("checker", checker),
    ("spawner_message", spawner_message),
];

/// A case's text read as every format allows: detected, parsed whole in
/// each format and mode, and streamed as AcWing lines.
pub fn case_parsers(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = Format::detect(&text);
    for mode in [Mode::Puzzles, Mode::Answers] {
        for format in Format::ALL {
            if let Ok(parsed) = format::parse(&text, format, mode) {
                for board in &parsed.boards {
                    let _ = format::render_boards(format, std::slice::from_ref(&board.board));
                }
            }
        }
        // A small cap on lines, so long lines are met often.
        let reader = LineCapped::with_cap(data, 200);
        for board in AcWingReader::new(reader, mode).take(10_000) {
            if board.is_err() {
                break;
            }
        }
    }
    let mut head = LineCapped::with_cap(data, 200);
    let _ = format::read_head(&mut head);
    let _ = head.fill_buf();
}

/// A `judge.toml`'s text, and the limits it sets.
pub fn judge_toml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(settings) = settings::from_text(text) {
        let _ = settings.limits();
        let _ = settings.checked_limits();
    }
}

/// A submission's output, checked by both checkers against the LeetCode
/// example with its answer, as AcWing lines and as a LeetCode literal.
pub fn checker(data: &[u8]) {
    let board = |line: &str| -> Vec<Board> {
        format::parse(line, Format::AcWing, Mode::Answers)
            .expect("the example reads")
            .into_boards()
    };
    let case = CaseData::in_memory(
        &board(crate::board::EXAMPLE),
        Some(&board(crate::board::EXAMPLE_ANSWER)),
    );
    for kind in [CheckerKind::Sudoku, CheckerKind::Exact] {
        for format in [Format::AcWing, Format::LeetCode] {
            let Ok(mut checker) = Checker::new(kind, &case, format) else {
                continue;
            };
            // In two pieces, as output arrives.
            let half = data.len() / 2;
            checker.feed(&data[..half]);
            checker.feed(&data[half..]);
            let _ = checker.finish();
        }
    }
}

/// A message as the spawner and the judge read each other's.
pub fn spawner_message(data: &[u8]) {
    crate::runner::spawner::decode_any(data);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every corpus file through its target: what fuzzing found once
    /// never comes back, on the stable toolchain too.
    #[test]
    fn every_corpus_file_replays_without_a_panic() {
        let corpora = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
        for (name, target) in TARGETS {
            let dir = corpora.join(name);
            let mut files: Vec<_> = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            assert!(!files.is_empty(), "{} holds no seeds", dir.display());
            for file in files {
                let data = std::fs::read(&file).unwrap();
                let outcome = std::panic::catch_unwind(|| target(&data));
                assert!(outcome.is_ok(), "{name} panicked on {}", file.display());
            }
        }
    }
}
