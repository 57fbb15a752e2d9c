//! Reading a case: its puzzles and its expected answers, checked before any
//! submission sees them. A fault here is the corpus's, so it is reported as
//! a harness error naming the file, line and column, never as a verdict.

use std::path::Path;

use anyhow::{bail, Context as _};

use super::Case;
use crate::board::format::{self, Mode};
use crate::board::{Board, Format};

/// A case read from disk and ready to judge.
#[derive(Clone, Debug)]
pub struct CaseData {
    pub format: Format,
    /// The input exactly as written (programs on AcWing cases get these bytes).
    pub input_text: String,
    pub puzzles: Vec<Board>,
    /// The line of the input on which each puzzle starts.
    pub start_lines: Vec<usize>,
    pub expected: Option<Expected>,
    /// Accepted oddities worth a word, each prefixed with its file.
    pub warnings: Vec<String>,
}

/// A case's expected output.
#[derive(Clone, Debug)]
pub struct Expected {
    pub text: String,
    /// The expected boards, when the text reads as boards in the case's
    /// format. Each one has been checked to solve its puzzle.
    pub boards: Option<Vec<Board>>,
}

fn read_text(path: &Path, what: &str) -> anyhow::Result<String> {
    let bytes =
        std::fs::read(path).with_context(|| format!("failed to read {what} {}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{what} {} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Reads and checks a case. `need_boards`: the checker needs the expected
/// output to read as boards (the default, Sudoku-aware checker does; an exact
/// text comparison does not).
pub fn load(case: &Case, need_boards: bool) -> anyhow::Result<CaseData> {
    let input_text = read_text(&case.input, "case input")?;
    let format = Format::detect(&input_text);
    let parsed = format::parse(&input_text, format, Mode::Puzzles).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: {} (read as {format} format)",
            case.input.display(),
            e.line,
            e.column,
            e.message
        )
    })?;
    let mut warnings: Vec<String> = parsed
        .warnings
        .iter()
        .map(|w| format!("{}: {w}", case.input.display()))
        .collect();
    let expected = match &case.expected {
        None => None,
        Some(path) => Some(load_expected(
            path,
            format,
            &parsed.boards,
            need_boards,
            &mut warnings,
        )?),
    };
    Ok(CaseData {
        format,
        input_text,
        puzzles: parsed.boards,
        start_lines: parsed.start_lines,
        expected,
        warnings,
    })
}

fn load_expected(
    path: &Path,
    format: Format,
    puzzles: &[Board],
    need_boards: bool,
    warnings: &mut Vec<String>,
) -> anyhow::Result<Expected> {
    let text = read_text(path, "expected output")?;
    let (boards, lines) = match format::parse(&text, format, Mode::Answers) {
        Ok(parsed) => (Some(parsed.boards), parsed.start_lines),
        Err(e) if need_boards => bail!(
            "{}:{}:{}: {} (expected output of a {format} case)",
            path.display(),
            e.line,
            e.column,
            e.message
        ),
        Err(e) => {
            warnings.push(format!(
                "{}:{}:{}: the expected output does not read as boards, so it is compared as text only: {}",
                path.display(),
                e.line,
                e.column,
                e.message
            ));
            (None, Vec::new())
        }
    };
    if let Some(boards) = &boards {
        if boards.len() != puzzles.len() {
            bail!(
                "{} has {} answer{} for {} puzzle{}",
                path.display(),
                boards.len(),
                if boards.len() == 1 { "" } else { "s" },
                puzzles.len(),
                if puzzles.len() == 1 { "" } else { "s" },
            );
        }
        for (n, (answer, puzzle)) in boards.iter().zip(puzzles).enumerate() {
            if !answer.solves(puzzle) {
                let why = crate::check::problems(puzzle, answer)
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                bail!(
                    "{}:{}: answer {} does not solve puzzle {}: {why}",
                    path.display(),
                    lines.get(n).copied().unwrap_or(1),
                    n + 1,
                    n + 1
                );
            }
        }
    }
    Ok(Expected { text, boards })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    const SAMPLE: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
                          ......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.\n\
                          end\n";
    const ANSWERS: &str = "417369825632158947958724316825437169791586432346912758289643571573291684164875293\n\
                           416837529982465371735129468571298643293746185864351297647913852359682714128574936\n";

    fn case(dir: &Path, input: &str, expected: Option<&str>) -> Case {
        let input_path = dir.join("c.in");
        std::fs::write(&input_path, input).unwrap();
        let expected = expected.map(|text| {
            let path = dir.join("c.out");
            std::fs::write(&path, text).unwrap();
            path
        });
        Case {
            id: "c".into(),
            input: input_path,
            expected,
        }
    }

    #[test]
    fn reads_puzzles_and_checks_expected_answers() {
        let tmp = tempfile::tempdir().unwrap();
        let data = load(&case(tmp.path(), SAMPLE, Some(ANSWERS)), true).unwrap();
        assert_eq!(data.format, Format::AcWing);
        assert_eq!(data.puzzles.len(), 2);
        assert_eq!(data.expected.unwrap().boards.unwrap().len(), 2);
        assert!(data.warnings.is_empty());
    }

    #[test]
    fn crlf_and_bom_are_accepted() {
        let tmp = tempfile::tempdir().unwrap();
        let input = format!("\u{feff}{}", SAMPLE.replace('\n', "\r\n"));
        let data = load(
            &case(tmp.path(), &input, Some(&ANSWERS.replace('\n', "\r\n"))),
            true,
        )
        .unwrap();
        assert_eq!(data.puzzles.len(), 2);
    }

    #[test]
    fn faults_name_the_file_line_and_column() {
        let tmp = tempfile::tempdir().unwrap();
        let bad_input = SAMPLE.replacen("4.....", "4..x..", 1);
        let err = load(&case(tmp.path(), &bad_input, None), true)
            .unwrap_err()
            .to_string();
        assert!(err.ends_with("c.in:1:4: 'x' is not a cell: use 1-9 for a digit, '.' or '0' for a blank (read as acwing format)"), "{err}");

        let one_answer = ANSWERS.lines().next().unwrap();
        let err = load(&case(tmp.path(), SAMPLE, Some(one_answer)), true)
            .unwrap_err()
            .to_string();
        assert!(err.ends_with("c.out has 1 answer for 2 puzzles"), "{err}");

        let wrong = ANSWERS.replacen("417", "117", 1);
        let err = load(&case(tmp.path(), SAMPLE, Some(&wrong)), true)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(
                "c.out:1: answer 1 does not solve puzzle 1: r1c1 was given as 4, the answer has 1"
            ),
            "{err}"
        );

        let err = load(&case(tmp.path(), SAMPLE, Some("417\n")), true)
            .unwrap_err()
            .to_string();
        assert!(err.contains("c.out:1:4: the line has 3 cells"), "{err}");
        // The exact checker compares text, so unreadable boards are only a warning.
        let data = load(&case(tmp.path(), SAMPLE, Some("417\n")), false).unwrap();
        assert!(data.expected.unwrap().boards.is_none());
        assert_eq!(data.warnings.len(), 1);
    }

    #[test]
    fn a_missing_file_is_named() {
        let missing = Case {
            id: "gone".into(),
            input: PathBuf::from("no/such/case.in"),
            expected: None,
        };
        let err = format!("{:#}", load(&missing, true).unwrap_err());
        assert!(
            err.starts_with("failed to read case input no/such/case.in:"),
            "{err}"
        );
    }
}
