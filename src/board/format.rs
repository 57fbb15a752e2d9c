//! The three text formats boards arrive in, detected from content, parsed
//! with errors that point at a line and column, and printed back the same way.
//!
//! - **LeetCode literal**: `[["5","3",".",...],...]`, whitespace anywhere, as
//!   copied from the problem page. Several literals in one file are several boards.
//! - **AcWing lines** (AcWing 166, POJ 3074): one 81-character line per puzzle,
//!   `.` or `0` for blanks, the input closed by a line `end`.
//! - **Grid**: 9 lines of 9 cells, optionally spaced, `.` or `0` for blanks;
//!   several grids follow each other, blank lines between them allowed.
//!   Box rules such as `------+-------+------` and `|` separators are skipped,
//!   so a grid copied from a write-up parses as it is.
//!
//! Parsing never guesses silently: CRLF line endings and a UTF-8 byte order
//! mark are accepted, anything else odd is an error or a warning.
//!
//! A board read keeps its cells as they were written beside the board they
//! read as ([`LocatedBoard`]): a `0` and a `.` are the same blank to judge,
//! but an answer is shown as it was printed.

use std::fmt;

use super::grid::{Board, Cell, Conflict, Digit};
use crate::words::plural;

/// How a case's boards are written; answers are printed the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    LeetCode,
    AcWing,
    /// `spaced`: cells separated by single spaces (`5 3 . . 7 ...`).
    Grid {
        spaced: bool,
    },
}

impl Format {
    /// Every format, each way a grid may be written.
    pub const ALL: [Format; 4] = [
        Format::LeetCode,
        Format::AcWing,
        Format::Grid { spaced: false },
        Format::Grid { spaced: true },
    ];

    /// Short lowercase name, as used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Format::LeetCode => "leetcode",
            Format::AcWing => "acwing",
            Format::Grid { .. } => "grid",
        }
    }

    /// Guesses the format from the text itself: a `[` opens a LeetCode
    /// literal; a first line of 27 cells or more is an AcWing line (a grid row
    /// has 9); anything else is a grid.
    pub(crate) fn detect(text: &str) -> Format {
        let text = strip_bom(text);
        if text.trim_start().starts_with('[') {
            return Format::LeetCode;
        }
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !is_grid_rule(l));
        match first {
            None | Some("end") => Format::AcWing,
            Some(line) if cell_chars(line).count() >= 27 => Format::AcWing,
            Some(line) => Format::Grid {
                spaced: line.contains(' '),
            },
        }
    }
}

/// Reads `input` up to the first line that shows its format (all that
/// [`Format::detect`] looks at), for input read as a stream: the bytes read,
/// to be read again before the rest, and the format.
pub(crate) fn read_head(input: &mut impl std::io::BufRead) -> std::io::Result<(Vec<u8>, Format)> {
    let mut head = Vec::new();
    loop {
        let before = head.len();
        if input.read_until(b'\n', &mut head)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&head[before..]);
        let line = strip_bom(line.trim_start()).trim();
        if !line.is_empty() && !is_grid_rule(line) {
            break;
        }
    }
    let format = Format::detect(&String::from_utf8_lossy(&head));
    Ok((head, format))
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a parse is for. Puzzles must keep the rules and an AcWing input
/// should end with `end`; answers are read leniently, because judging them
/// is the checker's job, not the parser's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Puzzles,
    Answers,
}

/// A malformed board: where (1-based line and column) and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// What was wrong, quoting the text where that helps (`'x' is not a
    /// cell`), escaped and short.
    pub(crate) message: String,
    /// The same without a byte of the text, for a file the user running
    /// the judge does not own (see [`crate::case::Text::own`]); `None` when
    /// the message quotes nothing.
    pub(crate) unquoted: Option<String>,
}

impl ParseError {
    fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            column,
            message: message.into(),
            unquoted: None,
        }
    }

    /// An error whose `message` quotes the text; `unquoted` says the same
    /// without it.
    fn quoting(
        line: usize,
        column: usize,
        message: impl Into<String>,
        unquoted: impl Into<String>,
    ) -> Self {
        Self {
            unquoted: Some(unquoted.into()),
            ..Self::new(line, column, message)
        }
    }

    /// Puzzle `puzzle` (from 1) gives a digit twice in a unit: `conflict`.
    fn breaks_rules(line: usize, column: usize, puzzle: usize, conflict: &Conflict) -> Self {
        Self::quoting(
            line,
            column,
            format!("the givens of puzzle {puzzle} break the rules: {conflict}"),
            format!(
                "the givens of puzzle {puzzle} break the rules: a digit given twice in a row, \
                 column or box"
            ),
        )
    }

    /// What was wrong, quoting the text only when `quote`.
    pub(crate) fn message(&self, quote: bool) -> &str {
        match &self.unquoted {
            Some(unquoted) if !quote => unquoted,
            _ => &self.message,
        }
    }

    /// The error as compilers put it, `source:line:column: message`, and
    /// the format the text was read as, which the error depends on.
    pub(crate) fn at(&self, source: impl fmt::Display, format: Format) -> String {
        self.at_quoting(source, format, true)
    }

    /// [`Self::at`], quoting the text only when `quote`.
    pub(crate) fn at_quoting(
        &self,
        source: impl fmt::Display,
        format: Format,
        quote: bool,
    ) -> String {
        format!(
            "{source}:{}:{}: {} (read as {format} format)",
            self.line,
            self.column,
            self.message(quote)
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// The boards of one text, each with the line it starts on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ParsedBoards {
    pub(crate) boards: Vec<LocatedBoard>,
    /// Things that were accepted but deserve a word, e.g. a missing `end`.
    pub(crate) warnings: Vec<String>,
}

/// One board of a text and the line (1-based) where it starts, so messages
/// about it can point back into the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LocatedBoard {
    pub(crate) line: usize,
    /// What the cells read as: what is judged.
    pub(crate) board: Board,
    /// The cells as they were written, row by row, each `1`–`9`, or the
    /// `.` or `0` that stood for a blank: what is shown.
    pub(crate) cells: [u8; 81],
}

impl ParsedBoards {
    /// The boards alone, for callers that do not report positions.
    pub(crate) fn into_boards(self) -> Vec<Board> {
        self.boards.into_iter().map(|b| b.board).collect()
    }
}

/// Parses `text` as `format`. In [`Mode::Puzzles`] the givens must not
/// break the rules and there must be at least one board.
pub(crate) fn parse(text: &str, format: Format, mode: Mode) -> Result<ParsedBoards, ParseError> {
    let text = strip_bom(text);
    if format == Format::AcWing {
        let mut reader = AcWingReader::new(text.as_bytes(), mode);
        let mut parsed = ParsedBoards::default();
        while let Some(board) = reader.next_located() {
            parsed.boards.push(board?);
        }
        parsed.warnings = reader.lines.warnings;
        return Ok(parsed);
    }
    let mut raw = Vec::new();
    match format {
        Format::LeetCode => parse_leetcode(text, &mut raw)?,
        Format::Grid { .. } => parse_grid(text, &mut raw)?,
        Format::AcWing => unreachable!("read above"),
    }
    if mode == Mode::Puzzles {
        if raw.is_empty() {
            let line = text.lines().count().max(1);
            return Err(ParseError::new(line, 1, "no puzzles in the input"));
        }
        for (n, board) in raw.iter().enumerate() {
            if let Some(conflict) = board.board.conflicts().first() {
                let (line, column) = board.positions[conflict.second.index()];
                return Err(ParseError::breaks_rules(line, column, n + 1, conflict));
            }
        }
    }
    Ok(ParsedBoards {
        boards: raw
            .into_iter()
            .map(|b| LocatedBoard {
                line: b.positions[0].0,
                board: b.board,
                cells: b.cells,
            })
            .collect(),
        warnings: Vec::new(),
    })
}

/// Prints boards in `format`. Rows are taken as they are, so a solver that
/// left a row short or wrote a stray character is shown exactly as it
/// answered, and the checker can say what is wrong with it.
pub(crate) fn render(format: Format, boards: &[Vec<Vec<char>>]) -> String {
    let mut out = String::new();
    for (n, rows) in boards.iter().enumerate() {
        write_board(&mut out, format, n, rows);
    }
    out
}

/// The `n`-th (from 0) of several answers in `format`, as [`render`] prints
/// it among the others: grids after the first are set off by a blank line.
pub(crate) fn render_nth(format: Format, n: usize, rows: &[Vec<char>]) -> String {
    let mut out = String::new();
    write_board(&mut out, format, n, rows);
    out
}

fn write_board(out: &mut String, format: Format, n: usize, rows: &[Vec<char>]) {
    match format {
        Format::LeetCode => {
            out.push('[');
            for (r, row) in rows.iter().enumerate() {
                if r > 0 {
                    out.push(',');
                }
                out.push('[');
                for (c, &ch) in row.iter().enumerate() {
                    if c > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    out.push(ch);
                    out.push('"');
                }
                out.push(']');
            }
            out.push_str("]\n");
        }
        Format::AcWing => {
            out.extend(rows.iter().flatten());
            out.push('\n');
        }
        Format::Grid { spaced } => {
            if n > 0 {
                out.push('\n');
            }
            for row in rows {
                for (c, &ch) in row.iter().enumerate() {
                    if spaced && c > 0 {
                        out.push(' ');
                    }
                    out.push(ch);
                }
                out.push('\n');
            }
        }
    }
}

/// [`render`] for well-formed boards.
pub(crate) fn render_boards(format: Format, boards: &[Board]) -> String {
    let rows: Vec<_> = boards.iter().map(Board::to_rows).collect();
    render(format, &rows)
}

/// The AcWing 166 input for `boards`: one line each, then `end`.
pub(crate) fn acwing_input(boards: &[Board]) -> String {
    let mut out = render_boards(Format::AcWing, boards);
    out.push_str("end\n");
    out
}

/// The puzzle on one AcWing `line`, which must be one.
#[cfg(test)]
pub(crate) fn puzzle(line: &str) -> Board {
    parse(line, Format::AcWing, Mode::Puzzles).unwrap().boards[0].board
}

/// A board as it is read, with how and where each cell was written.
struct RawBoard {
    board: Board,
    cells: [u8; 81],
    positions: [(usize, usize); 81],
}

impl RawBoard {
    fn new() -> Self {
        Self {
            board: Board::EMPTY,
            cells: [b'.'; 81],
            positions: [(0, 0); 81],
        }
    }

    /// Cell `index` is `written`, a cell character (see [`cell_value`]),
    /// which reads as `digit`.
    fn set(
        &mut self,
        index: usize,
        written: char,
        digit: Option<Digit>,
        line: usize,
        column: usize,
    ) {
        self.board.set(Cell::from_index(index), digit);
        self.cells[index] = cell_byte(written);
        self.positions[index] = (line, column);
    }
}

fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The lines of a text, numbered from 1, without their line endings.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate()
        .map(|(i, l)| (i + 1, l))
}

/// A cell character: `'1'..='9'` is a digit, `'.'` and `'0'` are blanks.
fn cell_value(c: char) -> Result<Option<Digit>, ()> {
    match c {
        '.' | '0' => Ok(None),
        _ => Digit::from_char(c).map(Some).ok_or(()),
    }
}

/// A cell character that [`cell_value`] took, as the byte it is (all of
/// them are ASCII).
fn cell_byte(c: char) -> u8 {
    u8::try_from(c).expect("a cell character is ASCII")
}

/// A character quoted, escaped where it is not plainly printable (a
/// control, a bidirectional override).
fn describe(c: char) -> String {
    match c {
        '\0' => "a NUL byte ('\\0')".to_string(),
        '\'' => "\"'\"".to_string(),
        c => format!("{c:?}"),
    }
}

/// A string of the text quoted, escaped and cut short: an excerpt, never
/// a copy of the file.
fn excerpt(text: &str) -> String {
    const SHOWN: usize = 16;
    if text.chars().count() <= SHOWN {
        format!("{text:?}")
    } else {
        let start: String = text.chars().take(SHOWN).collect();
        format!("{start:?}...")
    }
}

/// The characters of a grid row that are cells: not spaces, not `|`.
fn cell_chars(line: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    line.chars()
        .enumerate()
        .filter(|&(_, c)| !c.is_whitespace() && c != '|')
        .map(|(i, c)| (i + 1, c))
}

/// A decoration line of a pretty-printed grid, such as `------+-------+------`.
fn is_grid_rule(line: &str) -> bool {
    line.chars().any(|c| matches!(c, '-' | '+' | '='))
        && line
            .chars()
            .all(|c| matches!(c, '-' | '+' | '=' | '|') || c.is_whitespace())
}

/// What one line of an AcWing file holds.
enum AcWingLine {
    Blank,
    End,
    /// A board, and its cells as written.
    Puzzle(Board, [u8; 81]),
}

/// What a NUL byte where a cell should be says of a program's output: a C
/// string's terminator printed with the cells, as when a `char s[81]` read
/// only 80 of them, or the program prints a fixed count of a shorter array.
const NUL_IN_ANSWER: &str = "a NUL byte ('\\0') where a cell should be: the program printed a C \
                             string's terminator, as when a char array holds fewer cells than \
                             are printed";

/// Reads one AcWing line: `number` counts from 1, `line` is without its
/// ending and trailing whitespace; `mode` says whether a program printed
/// it.
fn acwing_line(number: usize, line: &str, mode: Mode) -> Result<AcWingLine, ParseError> {
    if line.is_empty() {
        return Ok(AcWingLine::Blank);
    }
    if line == "end" {
        return Ok(AcWingLine::End);
    }
    // The common case, 81 cells and nothing else, read byte by byte; the
    // general path below finds and names what is wrong with any other line.
    if let Ok(bytes) = <&[u8; 81]>::try_from(line.as_bytes()) {
        if super::rules::is_cells_line(bytes) {
            return Ok(AcWingLine::Puzzle(super::rules::line_board(bytes), *bytes));
        }
    }
    let mut board = Board::EMPTY;
    let mut cells = [b'.'; 81];
    let mut length = 0;
    for (i, c) in line.chars().enumerate() {
        let value = cell_value(c).map_err(|()| {
            if c == '\0' && mode == Mode::Answers {
                return ParseError::new(number, i + 1, NUL_IN_ANSWER);
            }
            // Spaces between digits are a layout mistake, not a bad cell.
            let hint = if c.is_whitespace() {
                "an AcWing line is its 81 cells with nothing between them"
            } else {
                "use 1-9 for a digit, '.' or '0' for a blank"
            };
            ParseError::quoting(
                number,
                i + 1,
                format!("{} is not a cell: {hint}", describe(c)),
                format!("this character is not a cell: {hint}"),
            )
        })?;
        if i < 81 {
            board.set(Cell::from_index(i), value);
            cells[i] = cell_byte(c);
        }
        length = i + 1;
    }
    if length != 81 {
        return Err(ParseError::new(
            number,
            length.min(81) + 1,
            format!(
                "the line has {length} cells; an AcWing puzzle line needs exactly 81, \
                 one per cell in row order"
            ),
        ));
    }
    Ok(AcWingLine::Puzzle(board, cells))
}

/// The rules of AcWing text, a line at a time: blank lines are skipped, a
/// line `end` closes the input, text after it is ignored with a warning, and
/// every other line must be one board. [`AcWingReader`] pulls lines from a
/// file through it; the checker hands it a submission's output line by line
/// as it arrives.
pub(crate) struct AcWingLines {
    mode: Mode,
    /// The last line taken, counted from 1.
    line: usize,
    end_line: Option<usize>,
    boards: usize,
    warnings: Vec<String>,
    /// Text came after `end`: nothing more is read.
    done: bool,
    /// A submission's output: answers and nothing else, so a line `end`
    /// (the input's, echoed) is not taken as the close of the text.
    output: bool,
}

impl AcWingLines {
    pub(crate) fn new(mode: Mode) -> Self {
        Self {
            mode,
            line: 0,
            end_line: None,
            boards: 0,
            warnings: Vec::new(),
            done: false,
            output: false,
        }
    }

    /// The rules for a submission's output, held as a judge holds it: every
    /// line but blank ones must be an answer. An `end` there is the input's
    /// last line echoed (`while (cin >> s)` without the check), and both
    /// AcWing and POJ call that a Wrong Answer.
    pub(crate) fn output() -> Self {
        Self {
            output: true,
            ..Self::new(Mode::Answers)
        }
    }

    /// The last line taken, counted from 1.
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// Whether text after `end` has closed the input.
    pub(crate) fn is_done(&self) -> bool {
        self.done
    }

    /// Counts the next line and gives it back with its number, without a
    /// byte-order mark or trailing space: `None` once the input is closed,
    /// or after `end` (where text is warned of, once, and closes it).
    fn next_text<'l>(&mut self, line: &'l str) -> Option<(usize, &'l str)> {
        self.line += 1;
        if self.done {
            return None;
        }
        let number = self.line;
        let line = if number == 1 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        }
        .trim_end();
        if let Some(end) = self.end_line {
            if !line.is_empty() {
                self.warnings.push(format!(
                    "line {number}: text after the `end` on line {end} is ignored"
                ));
                self.done = true;
            }
            return None;
        }
        Some((number, line))
    }

    /// Takes the next line (without its ending): the board on it, if any.
    pub(crate) fn take(&mut self, line: &str) -> Result<Option<LocatedBoard>, ParseError> {
        let Some((number, line)) = self.next_text(line) else {
            return Ok(None);
        };
        let board = match acwing_line(number, line, self.mode)? {
            AcWingLine::Blank => return Ok(None),
            AcWingLine::End if self.output => {
                return Err(ParseError::new(
                    number,
                    1,
                    "`end` is not an answer: it closes the input and is not echoed; print one \
                     line per puzzle and nothing else",
                ))
            }
            AcWingLine::End => {
                self.end_line = Some(number);
                return Ok(None);
            }
            AcWingLine::Puzzle(board, cells) => LocatedBoard {
                line: number,
                board,
                cells,
            },
        };
        self.boards += 1;
        if self.mode == Mode::Puzzles && board.board.has_conflict() {
            if let Some(conflict) = board.board.conflicts().first() {
                let column = conflict.second.index() + 1;
                return Err(ParseError::breaks_rules(
                    number,
                    column,
                    self.boards,
                    conflict,
                ));
            }
        }
        Ok(Some(board))
    }

    /// Takes the next line as a board without reading it, when it can be
    /// nothing else: no `end` has come yet. The caller has checked that the
    /// line is the 81 cells of a board in the plain form (see
    /// [`AcWingReader::next_line`]). False when the line must be taken.
    pub(crate) fn take_plain(&mut self) -> bool {
        if self.done || self.end_line.is_some() {
            return false;
        }
        self.line += 1;
        self.boards += 1;
        true
    }

    /// Takes the next line (without its ending) only as far as to know
    /// whether it is a board, without reading its cells: whether it counts
    /// as one. `end`, blank lines and text after `end` are as [`Self::take`]
    /// takes them.
    pub(crate) fn skim(&mut self, line: &str) -> bool {
        let Some((number, line)) = self.next_text(line) else {
            return false;
        };
        match line {
            "" => false,
            "end" => {
                self.end_line = Some(number);
                false
            }
            _ => {
                self.boards += 1;
                true
            }
        }
    }

    /// The checks that need the whole input, once it has been taken.
    pub(crate) fn finish(&mut self) -> Option<ParseError> {
        if self.mode != Mode::Puzzles {
            return None;
        }
        if self.boards == 0 {
            return Some(ParseError::new(
                self.line.max(1),
                1,
                "no puzzles in the input",
            ));
        }
        if self.end_line.is_none() {
            self.warnings.push(format!(
                "line {}: the input has no `end` line; AcWing 166 inputs close with one",
                self.line
            ));
        }
        None
    }
}

/// AcWing 166 lines read one board at a time from any reader, so that an
/// input of a million puzzles is never held whole: the same rules, errors
/// and warnings as [`parse`], which reads AcWing text through it.
///
/// It yields each board with the line it is on and stops after the first
/// error. [`AcWingReader::warnings`] are complete once it has returned
/// `None`.
pub(crate) struct AcWingReader<R> {
    input: R,
    lines: AcWingLines,
    buf: Vec<u8>,
    done: bool,
}

impl<R: std::io::BufRead> AcWingReader<R> {
    pub(crate) fn new(input: R, mode: Mode) -> Self {
        Self {
            input,
            lines: AcWingLines::new(mode),
            buf: Vec::with_capacity(128),
            done: false,
        }
    }

    /// Things accepted that deserve a word, e.g. a missing `end`.
    pub(crate) fn warnings(&self) -> &[String] {
        &self.lines.warnings
    }

    /// Counts the boards to come without reading their cells: each line
    /// that is not blank, `end` or after it counts as one, which it is or
    /// is an error [`Self::next_line`] will name. The warnings are then
    /// complete; an input without a board, a line too long for one or not
    /// UTF-8 text are errors found here.
    pub(crate) fn count(mut self) -> Result<(usize, Vec<String>), ParseError> {
        let mut boards = 0;
        while !self.lines.is_done() {
            if !self.read_line()? {
                break;
            }
            // A line that starts with a cell is neither blank nor `end`,
            // whatever follows; one that is not UTF-8 text counts as a
            // board here and is named where it is streamed.
            let line = match self.buf.first() {
                Some(b'.' | b'0'..=b'9') => "?",
                _ => std::str::from_utf8(&self.buf).unwrap_or("?"),
            };
            boards += usize::from(self.lines.skim(line));
        }
        match self.lines.finish() {
            Some(error) => Err(error),
            None => Ok((boards, self.lines.warnings)),
        }
    }

    /// The next board's line and its number: the line's 81 cells exactly
    /// as written (`.` or `0` for a blank), or, for a board that is not in
    /// that plain form (spaces, a byte order mark), its cells rewritten as
    /// [`Board::to_line`] writes them. The same rules, errors and warnings
    /// as [`Iterator::next`], but a plain line is checked byte by byte and
    /// no board is built: what streams a case of a million puzzles.
    pub(crate) fn next_line(&mut self) -> Option<Result<(usize, [u8; 81]), ParseError>> {
        if self.done {
            return None;
        }
        let item = self.advance(true).map(|read| {
            read.map(|(number, read)| match read {
                Read::Plain(cells) => (number, cells),
                Read::Board(board) => {
                    let line = board.board.to_line();
                    let cells = line.as_bytes().try_into().expect("a board has 81 cells");
                    (number, cells)
                }
            })
        });
        self.done = !matches!(item, Some(Ok(_)));
        item
    }

    /// Reads the next line into `buf`: false at the end of the input.
    fn read_line(&mut self) -> Result<bool, ParseError> {
        self.buf.clear();
        self.input
            .read_until(b'\n', &mut self.buf)
            .map(|n| n > 0)
            .map_err(|e| {
                let number = self.lines.line() + 1;
                match e.kind() {
                    // A line too long for any board says so itself.
                    std::io::ErrorKind::InvalidData => ParseError::new(number, 1, e.to_string()),
                    _ => ParseError::new(number, 1, format!("the line cannot be read: {e}")),
                }
            })
    }

    /// Reads up to the next board. `plain`: a line in the plain form is
    /// given as it is.
    fn advance(&mut self, plain: bool) -> Option<Result<(usize, Read), ParseError>> {
        while !self.lines.is_done() {
            let number = self.lines.line() + 1;
            match self.read_line() {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return Some(Err(e)),
            }
            if plain {
                let cells = self.buf.trim_ascii_end();
                let is_plain = match self.lines.mode {
                    Mode::Puzzles => super::rules::is_puzzle_line(cells),
                    Mode::Answers => super::rules::is_cells_line(cells),
                };
                if is_plain && self.lines.take_plain() {
                    let cells = cells.try_into().expect("a plain line has 81 cells");
                    return Some(Ok((number, Read::Plain(cells))));
                }
            }
            let line = match std::str::from_utf8(&self.buf) {
                Ok(line) => line,
                Err(e) => {
                    let valid = String::from_utf8_lossy(&self.buf[..e.valid_up_to()]);
                    let valid = valid.trim_start_matches('\u{feff}');
                    return Some(Err(ParseError::new(
                        number,
                        valid.chars().count() + 1,
                        "this byte is not UTF-8 text; case files must be UTF-8",
                    )));
                }
            };
            match self.lines.take(line) {
                Ok(None) => {}
                Ok(Some(board)) => return Some(Ok((number, Read::Board(board)))),
                Err(e) => return Some(Err(e)),
            }
        }
        self.lines.finish().map(Err)
    }
}

/// A board as [`AcWingReader::advance`] read it.
enum Read {
    /// A line in the plain form, as written.
    Plain([u8; 81]),
    Board(LocatedBoard),
}

impl<R: std::io::BufRead> AcWingReader<R> {
    /// The next board, with its line and its cells as written: what
    /// [`Iterator::next`] gives, and what a parse keeps.
    fn next_located(&mut self) -> Option<Result<LocatedBoard, ParseError>> {
        if self.done {
            return None;
        }
        let item = self.advance(false).map(|read| {
            read.map(|(_, read)| match read {
                Read::Board(board) => board,
                Read::Plain(_) => unreachable!("plain lines are only read for next_line"),
            })
        });
        self.done = !matches!(item, Some(Ok(_)));
        item
    }
}

impl<R: std::io::BufRead> Iterator for AcWingReader<R> {
    type Item = Result<(usize, Board), ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_located()
            .map(|read| read.map(|board| (board.line, board.board)))
    }
}

fn parse_grid(text: &str, boards: &mut Vec<RawBoard>) -> Result<(), ParseError> {
    let mut current: Option<(RawBoard, usize)> = None;
    let unfinished = |rows: usize, line: usize| {
        ParseError::new(
            line,
            1,
            format!(
                "the grid ends after {}; a grid needs 9 rows of 9 cells",
                plural(rows, "row")
            ),
        )
    };
    let mut last_line = 0;
    for (number, line) in numbered_lines(text) {
        last_line = number;
        if line.trim().is_empty() {
            if let Some((_, rows)) = current {
                return Err(unfinished(rows, number));
            }
            continue;
        }
        if is_grid_rule(line.trim()) {
            continue;
        }
        let (mut board, row) = current.take().unwrap_or_else(|| (RawBoard::new(), 0));
        let mut count = 0;
        for (column, c) in cell_chars(line) {
            let value = cell_value(c).map_err(|()| {
                let hint = "use 1-9 for a digit, '.' or '0' for a blank";
                ParseError::quoting(
                    number,
                    column,
                    format!("{} is not a cell: {hint}", describe(c)),
                    format!("this character is not a cell: {hint}"),
                )
            })?;
            if count == 9 {
                return Err(ParseError::new(
                    number,
                    column,
                    "the row has more than 9 cells; a grid row needs exactly 9",
                ));
            }
            board.set(row * 9 + count, c, value, number, column);
            count += 1;
        }
        if count < 9 {
            return Err(ParseError::new(
                number,
                line.trim_end().chars().count() + 1,
                format!("the row has {count} cells; a grid row needs exactly 9"),
            ));
        }
        if row == 8 {
            boards.push(board);
        } else {
            current = Some((board, row + 1));
        }
    }
    match current {
        Some((_, rows)) => Err(unfinished(rows, last_line)),
        None => Ok(()),
    }
}

/// A token of the LeetCode literal, with its position.
#[derive(Debug)]
enum Token {
    Open,
    Close,
    Comma,
    Str(String),
    Other(char),
}

fn tokenize(text: &str) -> Result<Vec<(Token, usize, usize)>, ParseError> {
    let mut tokens = Vec::new();
    let (mut line, mut column) = (1, 0);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        column += 1;
        if c == '\n' {
            line += 1;
            column = 0;
            continue;
        }
        if c.is_whitespace() {
            continue;
        }
        let token = match c {
            '[' => Token::Open,
            ']' => Token::Close,
            ',' => Token::Comma,
            '"' | '\'' => {
                let (start_line, start_column) = (line, column);
                let mut content = String::new();
                loop {
                    match chars.next() {
                        Some(q) if q == c => {
                            column += 1;
                            break;
                        }
                        Some('\n') | None => {
                            return Err(ParseError::new(
                                start_line,
                                start_column,
                                "this string is never closed",
                            ))
                        }
                        Some(other) => {
                            column += 1;
                            content.push(other);
                        }
                    }
                }
                tokens.push((Token::Str(content), start_line, start_column));
                continue;
            }
            other => Token::Other(other),
        };
        tokens.push((token, line, column));
    }
    Ok(tokens)
}

/// The cell a LeetCode string at `line`:`column` writes: one character,
/// a digit or a blank.
fn leetcode_cell(s: &str, line: usize, column: usize) -> Result<(char, Option<Digit>), ParseError> {
    let mut chars = s.chars();
    let cell = match (chars.next(), chars.next()) {
        (Some(c), None) => cell_value(c).ok().map(|value| (c, value)),
        _ => None,
    };
    cell.ok_or_else(|| {
        let hint = "use \"1\" to \"9\" for a digit, \".\" for a blank";
        ParseError::quoting(
            line,
            column,
            format!("{} is not a cell: {hint}", excerpt(s)),
            format!("this string is not a cell: {hint}"),
        )
    })
}

fn parse_leetcode(text: &str, boards: &mut Vec<RawBoard>) -> Result<(), ParseError> {
    let tokens = tokenize(text)?;
    let end = {
        let lines = text.lines().count().max(1);
        let column = text.lines().last().map_or(0, |l| l.chars().count()) + 1;
        (lines, column)
    };
    let mut tokens = tokens.into_iter().peekable();
    let unexpected = |found: Option<(Token, usize, usize)>, wanted: &str| match found {
        None => ParseError::new(
            end.0,
            end.1,
            format!("the input ends where {wanted} should be"),
        ),
        Some((token, line, column)) => {
            let what = match token {
                Token::Open => "'['".to_string(),
                Token::Close => "']'".to_string(),
                Token::Comma => "','".to_string(),
                Token::Str(s) => excerpt(&s),
                Token::Other(c) => describe(c),
            };
            ParseError::quoting(
                line,
                column,
                format!("found {what} where {wanted} should be"),
                format!("found something else where {wanted} should be"),
            )
        }
    };
    loop {
        match tokens.next() {
            None => return Ok(()),
            // Boards may be separated by commas, as in a list of test cases.
            Some((Token::Comma, ..)) if !boards.is_empty() => continue,
            Some((Token::Open, ..)) => {}
            other => return Err(unexpected(other, "'[' opening a board")),
        }
        let mut board = RawBoard::new();
        let mut row = 0;
        loop {
            let (row_line, row_column) = match tokens.next() {
                Some((Token::Open, line, column)) => (line, column),
                other => return Err(unexpected(other, &format!("'[' opening row {}", row + 1))),
            };
            let mut cells = 0;
            loop {
                match tokens.next() {
                    Some((Token::Str(s), line, column)) => {
                        let (written, value) = leetcode_cell(&s, line, column)?;
                        if row < 9 && cells < 9 {
                            board.set(row * 9 + cells, written, value, line, column);
                        }
                        cells += 1;
                    }
                    other => {
                        return Err(unexpected(
                            other,
                            &format!("a cell such as \"5\" or \".\" in row {}", row + 1),
                        ))
                    }
                }
                match tokens.next() {
                    Some((Token::Comma, ..)) => {}
                    Some((Token::Close, line, column)) => {
                        if cells != 9 {
                            return Err(ParseError::new(
                                line,
                                column,
                                format!("row {} has {cells} cells; a row needs 9", row + 1),
                            ));
                        }
                        break;
                    }
                    other => return Err(unexpected(other, "',' or ']' after a cell")),
                }
            }
            row += 1;
            match tokens.next() {
                Some((Token::Comma, ..)) => {}
                Some((Token::Close, line, column)) => {
                    if row != 9 {
                        return Err(ParseError::new(
                            line,
                            column,
                            format!("the board has {row} rows; a board needs 9 rows of 9 cells"),
                        ));
                    }
                    break;
                }
                other => return Err(unexpected(other, "',' or ']' after a row")),
            }
            if row == 9 {
                return Err(ParseError::new(
                    row_line,
                    row_column,
                    "the board has more than 9 rows; a board needs 9 rows of 9 cells",
                ));
            }
        }
        boards.push(board);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]"#;
    const EXAMPLE_LINE: &str = crate::board::EXAMPLE;
    const SAMPLE: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n\
                          ......52..8.4......3...9...5.1...6..2..7........3.....6...1..........7.4.......3.\n\
                          end\n";

    fn puzzles(text: &str) -> Result<ParsedBoards, ParseError> {
        parse(text, Format::detect(text), Mode::Puzzles)
    }

    fn error(text: &str) -> String {
        puzzles(text).unwrap_err().to_string()
    }

    #[test]
    fn errors_quote_the_text_only_when_asked_and_then_short_and_escaped() {
        let secretish = "root:$6$hash:19000:0:99999:7:::";
        let cases: [(&str, Format); 4] = [
            (secretish, Format::AcWing),
            ("root:x\n", Format::Grid { spaced: false }),
            ("[[\"root:$6$hash:19000:0:99999\"]]", Format::LeetCode),
            ("[root]", Format::LeetCode),
        ];
        for (text, format) in cases {
            let error = parse(text, format, Mode::Puzzles).unwrap_err();
            let quoted = error.at_quoting("f.in", format, true);
            let plain = error.at_quoting("f.in", format, false);
            assert!(
                quoted.contains("'r'") || quoted.contains("\"root"),
                "{quoted}"
            );
            for byte in ["root", "'r'", "$6$", "hash"] {
                assert!(!plain.contains(byte), "{plain}");
            }
            assert!(plain.starts_with(&format!("f.in:{}:{}: ", error.line, error.column)));
        }
        // A long string is an excerpt, a control is escaped.
        let long = format!("[[\"{}\"]]", "7".repeat(100));
        let error = parse(&long, Format::LeetCode, Mode::Puzzles).unwrap_err();
        assert!(error.message.len() < 140, "{}", error.message);
        let error = parse("\u{202e}", Format::AcWing, Mode::Puzzles).unwrap_err();
        assert!(
            error.message.starts_with("'\\u{202e}' is not a cell"),
            "{}",
            error.message
        );
        // The givens breaking the rules name digits: not in the plain form.
        let line = format!("55{}", ".".repeat(79));
        let error = parse(&line, Format::AcWing, Mode::Puzzles).unwrap_err();
        assert!(error.message.contains("two 5s"), "{}", error.message);
        assert!(
            !error.message(false).contains('5'),
            "{}",
            error.message(false)
        );
    }

    #[test]
    fn detects_each_format_from_content() {
        assert_eq!(Format::detect(EXAMPLE), Format::LeetCode);
        assert_eq!(
            Format::detect(&format!("\u{feff}  \n{EXAMPLE}")),
            Format::LeetCode
        );
        assert_eq!(Format::detect(SAMPLE), Format::AcWing);
        assert_eq!(Format::detect("end\n"), Format::AcWing);
        assert_eq!(
            Format::detect("53..7....\n6..195...\n"),
            Format::Grid { spaced: false }
        );
        assert_eq!(
            Format::detect("5 3 . . 7 . . . .\n"),
            Format::Grid { spaced: true }
        );
        // A mistyped AcWing line is still read as one, so its error is about length.
        assert_eq!(Format::detect(&EXAMPLE_LINE[..80]), Format::AcWing);
    }

    #[test]
    fn the_three_formats_read_the_same_board() {
        let leetcode = puzzles(EXAMPLE).unwrap();
        let acwing = puzzles(&format!("{EXAMPLE_LINE}\nend\n")).unwrap();
        let grid_text: String = EXAMPLE_LINE
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect();
        let grid = puzzles(&grid_text).unwrap();
        assert_eq!(leetcode.boards, acwing.boards);
        assert_eq!(grid.boards, acwing.boards);
        assert_eq!(acwing.boards[0].board.to_line(), EXAMPLE_LINE);
        assert!(acwing.warnings.is_empty());
    }

    /// A `0` and a `.` read as the same blank, and each board keeps how
    /// its cells were written, in every format.
    #[test]
    fn cells_are_kept_as_written_in_every_format() {
        let mut written = EXAMPLE_LINE.as_bytes().to_vec();
        written[2] = b'0';
        let written: [u8; 81] = written.try_into().unwrap();
        let rows: Vec<Vec<char>> = written
            .chunks(9)
            .map(|row| row.iter().map(|&b| char::from(b)).collect())
            .collect();
        for format in Format::ALL {
            let text = render(format, std::slice::from_ref(&rows));
            // As a file may have it too: a byte order mark, trailing space.
            let untidy = format!("\u{feff}{}", text.replacen('\n', "  \r\n", 1));
            for text in [text, untidy] {
                let parsed = parse(&text, format, Mode::Answers).unwrap();
                let board = &parsed.boards[0];
                assert_eq!(board.board.to_line(), EXAMPLE_LINE, "{format}");
                assert_eq!(board.cells, written, "{format}: {text:?}");
            }
        }
    }

    #[test]
    fn leetcode_literal_allows_whitespace_anywhere_and_crlf() {
        let spread = EXAMPLE.replace("],[", "],\r\n  [").replace(',', " , ");
        let parsed = puzzles(&format!("\u{feff}{spread}\r\n")).unwrap();
        assert_eq!(parsed.boards[0].board.to_line(), EXAMPLE_LINE);
    }

    #[test]
    fn several_boards_in_one_file() {
        let two = puzzles(SAMPLE).unwrap();
        let lines =
            |parsed: &ParsedBoards| parsed.boards.iter().map(|b| b.line).collect::<Vec<_>>();
        assert_eq!(lines(&two), [1, 2]);
        let literals = puzzles(&format!("{EXAMPLE}\n{EXAMPLE}\n")).unwrap();
        assert_eq!(lines(&literals), [1, 2]);
    }

    #[test]
    fn acwing_accepts_zero_blanks_crlf_and_a_missing_end_with_a_warning() {
        let zeros = EXAMPLE_LINE.replace('.', "0");
        let parsed = puzzles(&format!("{zeros}\r\n")).unwrap();
        assert_eq!(parsed.boards[0].board.to_line(), EXAMPLE_LINE);
        assert_eq!(
            parsed.warnings,
            ["line 1: the input has no `end` line; AcWing 166 inputs close with one"]
        );
        let after = puzzles(&format!("{EXAMPLE_LINE}\nend\nmore\n")).unwrap();
        assert_eq!(
            after.warnings,
            ["line 3: text after the `end` on line 2 is ignored"]
        );
        let answers = parse(EXAMPLE_LINE, Format::AcWing, Mode::Answers).unwrap();
        assert!(answers.warnings.is_empty(), "answers have no `end`");
    }

    #[test]
    fn grid_skips_rules_and_bars() {
        let pretty = "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n\
                      ------+-------+------\n8 . . | . 6 . | . . 3\n4 . . | 8 . 3 | . . 1\n\
                      7 . . | . 2 . | . . 6\n------+-------+------\n. 6 . | . . . | 2 8 .\n\
                      . . . | 4 1 9 | . . 5\n. . . | . 8 . | . 7 9\n";
        assert_eq!(
            puzzles(pretty).unwrap().boards[0].board.to_line(),
            EXAMPLE_LINE
        );
    }

    #[test]
    fn malformed_boards_name_line_column_and_problem() {
        assert_eq!(
            error(&format!("{}\nend\n", &EXAMPLE_LINE[..80])),
            "line 1, column 81: the line has 80 cells; an AcWing puzzle line needs exactly 81, \
             one per cell in row order"
        );
        assert_eq!(
            error(&format!(
                "{EXAMPLE_LINE}\n{}x{}\nend\n",
                &EXAMPLE_LINE[..9],
                &EXAMPLE_LINE[10..]
            )),
            "line 2, column 10: 'x' is not a cell: use 1-9 for a digit, '.' or '0' for a blank"
        );
        assert_eq!(
            error("53..7....\n6..195...\n.98....6.\n"),
            "line 3, column 1: the grid ends after 3 rows; a grid needs 9 rows of 9 cells"
        );
        assert_eq!(
            error("53..7...\n"),
            "line 1, column 9: the row has 8 cells; a grid row needs exactly 9"
        );
        let short_row = EXAMPLE.replacen(r#","."]"#, "]", 1);
        assert_eq!(
            error(&short_row),
            "line 1, column 34: row 1 has 8 cells; a row needs 9"
        );
        let eight_rows = EXAMPLE.replacen(r#"[".",".",".",".","8",".",".","7","9"]"#, "", 1);
        assert!(error(&eight_rows).contains("found ']' where '[' opening row 9 should be"));
        let bad_cell = EXAMPLE.replacen(r#""3""#, r#""x""#, 1);
        assert_eq!(
            error(&bad_cell),
            r#"line 1, column 7: "x" is not a cell: use "1" to "9" for a digit, "." for a blank"#
        );
        assert!(error("").contains("no puzzles in the input"));
        assert!(error(&EXAMPLE[..40]).contains("the input ends where"));
    }

    /// A C program that printed its `char s[81]` read 80 cells and a
    /// terminator: the NUL is named in words, and in a program's answers
    /// explained.
    #[test]
    fn a_nul_where_a_cell_should_be_is_named_and_in_answers_explained() {
        let line = format!("{}\0", &EXAMPLE_LINE[..80]);
        let answer = parse(&line, Format::AcWing, Mode::Answers).unwrap_err();
        assert_eq!(
            answer.to_string(),
            "line 1, column 81: a NUL byte ('\\0') where a cell should be: the program printed \
             a C string's terminator, as when a char array holds fewer cells than are printed"
        );
        assert_eq!(
            error(&format!("{line}\nend\n")),
            "line 1, column 81: a NUL byte ('\\0') is not a cell: use 1-9 for a digit, '.' or \
             '0' for a blank"
        );
    }

    #[test]
    fn givens_that_break_the_rules_are_an_error_at_the_cell() {
        let clash = format!("55{}\nend\n", &EXAMPLE_LINE[2..]);
        assert_eq!(
            error(&clash),
            "line 1, column 2: the givens of puzzle 1 break the rules: \
             row 1 has two 5s (r1c1 and r1c2)"
        );
        // Answers are read as written; judging them is the checker's job.
        assert!(parse(&clash, Format::AcWing, Mode::Answers).is_ok());
    }

    #[test]
    fn render_round_trips_every_format() {
        let parsed = puzzles(SAMPLE).unwrap().into_boards();
        for format in Format::ALL {
            let text = render_boards(format, &parsed);
            assert_eq!(Format::detect(&text), format, "{text}");
            let again = parse(&text, format, Mode::Answers).unwrap();
            assert_eq!(again.into_boards(), parsed, "{format}");
        }
        assert!(acwing_input(&parsed).ends_with(".3.\nend\n"));
    }
}
