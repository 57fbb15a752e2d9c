//! Reading a case: its puzzles and its expected answers, checked before any
//! submission sees them. A fault here is the corpus's, so it is reported as
//! a harness error naming the file, line and column, never as a verdict.
//!
//! A case is never held whole. Loading reads it through once to check it
//! and count its puzzles; every later use (the submission's stdin, the
//! checker's cursor over the puzzles and over the expected answers) reads
//! it again from the start, one board at a time. That keeps the harness's
//! memory flat on an AcWing input of a million puzzles, at the price of
//! reading a file two or three times, which the page cache makes cheap.
//! LeetCode literals and grids are small and are parsed whole each time.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context as _};

use super::discover::Case;
use crate::board::format::{self, AcWingReader, Mode};
use crate::board::{Board, Format};
use crate::files::{self as file, Fence, LineCapped};
use crate::words::plural;

/// How much of a file is looked at to tell its format.
const DETECT_BYTES: usize = 64 << 10;

/// Where a case's text comes from.
#[derive(Clone, Debug)]
pub enum Text {
    /// A file, read afresh by every pass (each open checked again).
    File(SuiteFile),
    /// A file small enough to keep: read once, its bytes as they were.
    Read { file: SuiteFile, bytes: Arc<[u8]> },
    /// Text made in memory, e.g. a stress round's puzzles.
    Memory(Arc<str>),
}

/// A file of a suite: where it is, the fence it is read within (see
/// [`Fence::open`]), and whether the user running the judge owns it, so
/// that errors may quote it.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    pub(crate) path: PathBuf,
    fence: Fence,
    own: bool,
}

impl SuiteFile {
    /// Opens `path` within `fence` (`what` names it in errors): refused
    /// before a byte is read when it may not be read.
    fn open(fence: &Fence, path: &Path, what: &str) -> anyhow::Result<(SuiteFile, File)> {
        let opened = fence.open(path, what)?;
        let file = SuiteFile {
            path: path.to_path_buf(),
            fence: fence.clone(),
            own: opened.own,
        };
        Ok((file, opened.file))
    }

    /// Opens it again, as checked as the first time. A file that changed
    /// hands meanwhile is refused: its errors would quote it as before.
    fn reopen(&self) -> anyhow::Result<File> {
        let opened = self.fence.open(&self.path, "file")?;
        if opened.own != self.own {
            bail!(
                "{} changed owner while it was judged, so it is not read again",
                self.path.display()
            );
        }
        Ok(opened.file)
    }
}

/// Files up to this size are read once and kept ([`Text::Read`]) rather
/// than opened again by every pass over them (the format detection, the
/// count, the run, the checker): most cases are a few lines.
const KEPT_BYTES: usize = DETECT_BYTES;

impl Text {
    /// The file at `path` within `fence` (`what` names it in errors):
    /// kept in memory when it is small, else read afresh by every pass.
    pub(crate) fn of_file(fence: &Fence, path: &Path, what: &str) -> anyhow::Result<Text> {
        let (file, opened) = SuiteFile::open(fence, path, what)?;
        Text::read_from(file, opened)
    }

    /// [`Self::of_file`] for a file already checked.
    fn read_from(file: SuiteFile, opened: File) -> anyhow::Result<Text> {
        let mut bytes = Vec::new();
        opened
            .take(KEPT_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("failed to read {}", file.path.display()))?;
        Ok(if bytes.len() <= KEPT_BYTES {
            Text::Read {
                file,
                bytes: bytes.into(),
            }
        } else {
            Text::File(file)
        })
    }

    /// The file it was read from, if any.
    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            Text::File(file) | Text::Read { file, .. } => Some(&file.path),
            Text::Memory(_) => None,
        }
    }

    /// Whether its bytes may be quoted in errors: text of the judge's own,
    /// or a file that the user running the judge owns.
    pub(crate) fn own(&self) -> bool {
        match self {
            Text::File(file) | Text::Read { file, .. } => file.own,
            Text::Memory(_) => true,
        }
    }

    /// The text from its start.
    pub fn open(&self) -> anyhow::Result<Box<dyn BufRead + '_>> {
        Ok(match self {
            Text::File(file) => Box::new(LineCapped::new(BufReader::with_capacity(
                64 << 10,
                file.reopen()?,
            ))),
            // Capped like a file, so a long line fails the same way.
            Text::Read { bytes, .. } => Box::new(LineCapped::new(&bytes[..])),
            Text::Memory(text) => Box::new(text.as_bytes()),
        })
    }

    /// The first `max` bytes at most, cut back to a whole line and to valid
    /// UTF-8, and whether that is all of it.
    pub(crate) fn prefix(&self, max: usize) -> anyhow::Result<(String, bool)> {
        let mut bytes = Vec::new();
        self.open()?
            .take(max as u64 + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("failed to read {self}"))?;
        let whole = bytes.len() <= max;
        if !whole {
            bytes.truncate(max);
            let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            bytes.truncate(end);
        }
        Ok((String::from_utf8_lossy(&bytes).into_owned(), whole))
    }

    /// All of it, for the formats that are parsed whole.
    fn read_all(&self) -> anyhow::Result<String> {
        let bytes = file::read_whole(self.open()?, self)?;
        String::from_utf8(bytes).map_err(|e| {
            anyhow::anyhow!(
                "{self} is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )
        })
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Text::File(file) | Text::Read { file, .. } => file.path.display().fmt(f),
            Text::Memory(_) => f.write_str("the generated input"),
        }
    }
}

/// A case read from disk, checked, and ready to judge.
#[derive(Clone, Debug)]
pub struct CaseData {
    pub format: Format,
    /// The input exactly as written (programs on AcWing cases get these bytes).
    pub(crate) input: Text,
    /// How many puzzles the input holds.
    pub puzzles: usize,
    pub(crate) expected: Option<Expected>,
    /// Accepted oddities worth a word, each prefixed with its file.
    pub warnings: Vec<String>,
}

/// A case's expected output.
#[derive(Clone, Debug)]
pub struct Expected {
    pub(crate) text: Text,
    /// Whether the text reads as boards in the case's format; each of them
    /// has been checked to solve its puzzle.
    pub(crate) boards: bool,
}

impl CaseData {
    /// A case made in memory: AcWing lines for `puzzles`, and `answers` as
    /// the expected output when given.
    pub(crate) fn in_memory(puzzles: &[Board], answers: Option<&[Board]>) -> CaseData {
        CaseData {
            format: Format::AcWing,
            input: Text::Memory(format::acwing_input(puzzles).into()),
            puzzles: puzzles.len(),
            expected: answers.map(|answers| Expected {
                text: Text::Memory(format::render_boards(Format::AcWing, answers).into()),
                boards: true,
            }),
            warnings: Vec::new(),
        }
    }

    /// The puzzles from the first, each with the line it starts on.
    pub fn puzzles(&self) -> anyhow::Result<Boards<'_>> {
        Boards::open(&self.input, self.format, Mode::Puzzles)
    }

    /// The expected boards from the first, when the expected output reads
    /// as boards.
    pub fn expected_boards(&self) -> anyhow::Result<Option<Boards<'_>>> {
        match &self.expected {
            Some(expected) if expected.boards => {
                Boards::open(&expected.text, self.format, Mode::Answers).map(Some)
            }
            _ => Ok(None),
        }
    }
}

/// Boards read one at a time: streamed for AcWing lines, parsed whole for
/// the other formats.
pub struct Boards<'a> {
    text: &'a Text,
    format: Format,
    inner: Inner<'a>,
}

enum Inner<'a> {
    Stream(AcWingReader<Box<dyn BufRead + 'a>>),
    Parsed {
        boards: std::vec::IntoIter<(usize, Board)>,
        warnings: Vec<String>,
    },
    Failed(Option<format::ParseError>),
}

impl<'a> Boards<'a> {
    fn open(text: &'a Text, format: Format, mode: Mode) -> anyhow::Result<Boards<'a>> {
        let inner = if format == Format::AcWing {
            Inner::Stream(AcWingReader::new(text.open()?, mode))
        } else {
            match format::parse(&text.read_all()?, format, mode) {
                Ok(parsed) => Inner::Parsed {
                    boards: parsed
                        .boards
                        .into_iter()
                        .map(|b| (b.line, b.board))
                        .collect::<Vec<_>>()
                        .into_iter(),
                    warnings: parsed.warnings,
                },
                Err(e) => Inner::Failed(Some(e)),
            }
        };
        Ok(Boards {
            text,
            format,
            inner,
        })
    }

    /// The next board and its line, or where and why it cannot be read.
    fn next_parsed(&mut self) -> Option<Result<(usize, Board), format::ParseError>> {
        match &mut self.inner {
            Inner::Stream(reader) => reader.next(),
            Inner::Parsed { boards, .. } => boards.next().map(Ok),
            Inner::Failed(error) => error.take().map(Err),
        }
    }

    /// The next board as its line of 81 cells and the line it starts on,
    /// without building a board where the text is in the plain AcWing form
    /// (see [`AcWingReader::next_line`]); `Err` names the file, line and
    /// column of what could not be read.
    pub(crate) fn next_line(&mut self) -> Option<anyhow::Result<(usize, [u8; 81])>> {
        let read = match &mut self.inner {
            Inner::Stream(reader) => reader.next_line()?,
            Inner::Parsed { boards, .. } => {
                let (line, board) = boards.next()?;
                let cells = board.to_line().into_bytes().try_into();
                Ok((line, cells.expect("a board has 81 cells")))
            }
            Inner::Failed(error) => Err(error.take()?),
        };
        Some(read.map_err(|e| parse_error(self.text, self.format, &e)))
    }

    /// Warnings about the text, complete once every board has been read.
    pub(crate) fn warnings(&self) -> &[String] {
        match &self.inner {
            Inner::Stream(reader) => reader.warnings(),
            Inner::Parsed { warnings, .. } => warnings,
            Inner::Failed(_) => &[],
        }
    }
}

/// A case error naming the file, line and column; quoting the text only
/// when it is the user's own.
fn parse_error(text: &Text, format: Format, e: &format::ParseError) -> anyhow::Error {
    anyhow::Error::new(Malformed(e.at_quoting(text, format, text.own())))
}

/// A case file found not to read as it must while its case is judged (its
/// lines are checked as they stream): the case's fault, never the
/// submission's, whatever was running when it was found. The message names
/// the file, line and column.
#[derive(Debug)]
pub struct Malformed(pub(crate) String);

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Malformed {}

impl Iterator for Boards<'_> {
    /// A board and the line it starts on; `Err` names the file, line and
    /// column of what could not be read.
    type Item = anyhow::Result<(usize, Board)>;

    fn next(&mut self) -> Option<Self::Item> {
        let (text, format) = (self.text, self.format);
        Some(
            self.next_parsed()?
                .map_err(|e| parse_error(text, format, &e)),
        )
    }
}

/// Reads and checks a case. `need_boards`: the checker needs the expected
/// output to read as boards (the default, Sudoku-aware checker does; an exact
/// text comparison does not).
pub fn load(case: &Case, need_boards: bool) -> anyhow::Result<CaseData> {
    let (input, expected) = open_input(case)?;
    let (head, _) = input.prefix(DETECT_BYTES)?;
    load_from(case, input, expected, Format::detect(&head), need_boards)
}

/// Checks that a case's files may be read (see [`Fence::open`]) and reads
/// its input (see [`Text::of_file`]); its expected output is checked, not
/// read, and comes back open.
fn open_input(case: &Case) -> anyhow::Result<(Text, Option<(SuiteFile, File)>)> {
    let fence = Fence::new(&case.root, case.links);
    let input = Text::of_file(&fence, &case.input, "case input")?;
    let expected = case
        .expected
        .as_ref()
        .map(|path| SuiteFile::open(&fence, path, "expected output"))
        .transpose()?;
    Ok((input, expected))
}

/// [`load`] with the input already opened and its format told.
fn load_from(
    case: &Case,
    input: Text,
    expected: Option<(SuiteFile, File)>,
    format: Format,
    need_boards: bool,
) -> anyhow::Result<CaseData> {
    let (puzzles, mut warnings) = {
        let mut boards = Boards::open(&input, format, Mode::Puzzles)?;
        let mut puzzles = 0;
        for board in &mut boards {
            board?;
            puzzles += 1;
        }
        let warnings: Vec<String> = boards
            .warnings()
            .iter()
            .map(|w| format!("{}: {w}", case.input.display()))
            .collect();
        (puzzles, warnings)
    };
    let mut data = CaseData {
        format,
        input,
        puzzles,
        expected: None,
        warnings: Vec::new(),
    };
    if let Some((file, opened)) = expected {
        let text = Text::read_from(file, opened)?;
        data.expected = Some(load_expected(text, &data, need_boards, &mut warnings)?);
    }
    data.warnings = warnings;
    Ok(data)
}

/// Opens a case for judging with the Sudoku-aware checker, which checks
/// its files as they stream: an AcWing input is only counted here (its
/// puzzles and warnings, not its cells), and its expected output is taken
/// to be answers, each proven to solve its puzzle when the checker reads
/// it. A fault in either is then found during the run, and reported as a
/// [`Malformed`] case. Other formats are small and are [`load`]ed.
pub fn open(case: &Case) -> anyhow::Result<CaseData> {
    let (input, expected) = open_input(case)?;
    let (head, _) = input.prefix(DETECT_BYTES)?;
    let format = Format::detect(&head);
    if format != Format::AcWing {
        return load_from(case, input, expected, format, true);
    }
    let (puzzles, warnings) = AcWingReader::new(input.open()?, Mode::Puzzles)
        .count()
        .map_err(|e| parse_error(&input, format, &e))?;
    Ok(CaseData {
        format,
        input,
        puzzles,
        expected: expected.map(|(file, _)| Expected {
            text: Text::File(file),
            boards: true,
        }),
        warnings: warnings
            .iter()
            .map(|w| format!("{}: {w}", case.input.display()))
            .collect(),
    })
}

/// Reads the expected output alongside the puzzles, one pair at a time. A
/// syntax error anywhere is reported first, then a count that does not
/// match, then the first answer that does not solve its puzzle.
fn load_expected(
    text: Text,
    data: &CaseData,
    need_boards: bool,
    warnings: &mut Vec<String>,
) -> anyhow::Result<Expected> {
    let path = text.path().unwrap_or(Path::new("expected output"));
    let quote = text.own();
    let format = data.format;
    let mut answers = Boards::open(&text, format, Mode::Answers)?;
    let mut puzzles = data.puzzles()?;
    let mut count = 0;
    let mut wrong: Option<anyhow::Error> = None;
    while let Some(answer) = answers.next_parsed() {
        let (line, answer) = match answer {
            Ok(answer) => answer,
            Err(e) if need_boards => bail!(
                "{}:{}:{}: {} (expected output of a {format} case)",
                path.display(),
                e.line,
                e.column,
                e.message(quote)
            ),
            Err(e) => {
                warnings.push(format!(
                    "{}:{}:{}: the expected output does not read as boards, so it is compared \
                     as text only: {}",
                    path.display(),
                    e.line,
                    e.column,
                    e.message(quote)
                ));
                return Ok(Expected {
                    text: text.clone(),
                    boards: false,
                });
            }
        };
        count += 1;
        let Some(puzzle) = puzzles.next() else {
            continue;
        };
        let (_, puzzle) = puzzle?;
        if wrong.is_none() && !answer.solves(&puzzle) {
            // The mistake names digits of the file: the user's own only.
            let why = if quote {
                crate::board::rules::mistakes(&puzzle, &answer)
                    .first()
                    .map(|mistake| format!(": {mistake}"))
                    .unwrap_or_default()
            } else {
                String::new()
            };
            wrong = Some(anyhow::anyhow!(
                "{}:{line}: answer {count} does not solve puzzle {count}{why}",
                path.display(),
            ));
        }
    }
    if count != data.puzzles {
        bail!(
            "{} has {} for {}",
            path.display(),
            plural(count, "answer"),
            plural(data.puzzles, "puzzle"),
        );
    }
    if let Some(error) = wrong {
        return Err(error);
    }
    Ok(Expected {
        text: text.clone(),
        boards: true,
    })
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

    #[test]
    fn a_small_file_is_read_once_and_kept_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("small.in");
        // Not UTF-8: the kept bytes are the file's, not a lossy copy.
        let bytes = b"4.....8.5\xff\nend\n".to_vec();
        std::fs::write(&path, &bytes).unwrap();
        let text = Text::of_file(&fence(dir.path()), &path, "case input").unwrap();
        assert!(matches!(text, Text::Read { .. }), "{text:?}");
        assert_eq!(text.to_string(), path.display().to_string());
        // Gone from disk, still read whole: no pass opens it again.
        std::fs::remove_file(&path).unwrap();
        for _ in 0..2 {
            let mut read = Vec::new();
            text.open().unwrap().read_to_end(&mut read).unwrap();
            assert_eq!(read, bytes);
        }

        let big = dir.path().join("big.in");
        std::fs::write(&big, vec![b'.'; KEPT_BYTES + 1]).unwrap();
        let text = Text::of_file(&fence(dir.path()), &big, "case input").unwrap();
        assert!(matches!(text, Text::File(_)), "read afresh, not kept");
        let missing = Text::of_file(
            &fence(dir.path()),
            &dir.path().join("none.in"),
            "case input",
        )
        .unwrap_err();
        assert!(format!("{missing:#}").contains("none.in"), "{missing:#}");
    }

    fn fence(dir: &Path) -> Fence {
        Fence::new(dir, file::OutsideLinks::Refused)
    }

    fn case(dir: &Path, input: impl AsRef<[u8]>, expected: Option<&str>) -> Case {
        let input_path = dir.join("c.in");
        std::fs::write(&input_path, input).unwrap();
        let expected = expected.map(|text| {
            let path = dir.join("c.out");
            std::fs::write(&path, text).unwrap();
            path
        });
        Case {
            id: "c".into(),
            root: dir.to_path_buf(),
            links: file::OutsideLinks::Refused,
            input: input_path,
            expected,
        }
    }

    #[test]
    fn reads_puzzles_and_checks_expected_answers() {
        let tmp = tempfile::tempdir().unwrap();
        let data = load(&case(tmp.path(), SAMPLE, Some(ANSWERS)), true).unwrap();
        assert_eq!(data.format, Format::AcWing);
        assert_eq!(data.puzzles, 2);
        assert!(data.expected.as_ref().unwrap().boards);
        assert!(data.warnings.is_empty());
        // Every later pass reads the boards afresh.
        let lines: Vec<usize> = data.puzzles().unwrap().map(|b| b.unwrap().0).collect();
        assert_eq!(lines, [1, 2]);
        assert_eq!(data.expected_boards().unwrap().unwrap().count(), 2);
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
        assert_eq!(data.puzzles, 2);
    }

    #[test]
    fn faults_name_the_file_line_and_column() {
        let tmp = tempfile::tempdir().unwrap();
        let fault = |input: &str, expected: Option<&str>| {
            load(&case(tmp.path(), input, expected), true)
                .unwrap_err()
                .to_string()
        };
        let err = fault(&SAMPLE.replacen("4.....", "4..x..", 1), None);
        assert!(err.ends_with("c.in:1:4: 'x' is not a cell: use 1-9 for a digit, '.' or '0' for a blank (read as acwing format)"), "{err}");

        let one_answer = ANSWERS.lines().next().unwrap();
        let err = fault(SAMPLE, Some(one_answer));
        assert!(err.ends_with("c.out has 1 answer for 2 puzzles"), "{err}");

        let wrong = ANSWERS.replacen("417", "117", 1);
        let err = fault(SAMPLE, Some(&wrong));
        assert!(
            err.contains(
                "c.out:1: answer 1 does not solve puzzle 1: r1c1 was given as 4, the answer has 1"
            ),
            "{err}"
        );

        let err = fault(SAMPLE, Some("417\n"));
        assert!(err.contains("c.out:1:4: the line has 3 cells"), "{err}");
        // The exact checker compares text, so unreadable boards are only a warning.
        let data = load(&case(tmp.path(), SAMPLE, Some("417\n")), false).unwrap();
        assert!(!data.expected.unwrap().boards);
        assert_eq!(data.warnings.len(), 1);
        assert!(
            data.warnings[0].ends_with("c.out:1:4: the expected output does not read as boards, so it is compared as text only: the line has 3 cells; an AcWing puzzle line needs exactly 81, one per cell in row order"),
            "{:?}",
            data.warnings
        );
    }

    #[test]
    fn a_bad_byte_is_named_by_line_and_column() {
        let tmp = tempfile::tempdir().unwrap();
        let mut input = SAMPLE.as_bytes().to_vec();
        input[82 + 3] = 0xFF;
        let err = load(&case(tmp.path(), input, None), true)
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with("c.in:2:4: this byte is not UTF-8 text; case files must be UTF-8 (read as acwing format)"),
            "{err}"
        );
    }

    #[test]
    fn a_missing_file_is_named() {
        let missing = Case {
            id: "gone".into(),
            root: PathBuf::from("no/such"),
            links: file::OutsideLinks::Refused,
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
