//! Checking answers as they arrive. The runner hands the submission's
//! output over chunk by chunk while it runs; AcWing answer lines are parsed
//! and judged the moment each line is complete, against cursors that read
//! the case's puzzles and expected answers from their files in step. So a
//! case of a million puzzles is judged with a few kilobytes of state: what
//! is kept is the verdict so far, the first few wrong answers with their
//! grids, and the first [`KEEP`] bytes of output for a line diff.
//!
//! Answers in the other formats (a LeetCode literal, grids) come from small
//! cases; they are kept whole and read at the end, through the same tallies.

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::board::format::{self, AcWingLines, Mode, ParseError};
use crate::board::rules::{self, mistakes, Mistake};
use crate::board::{Board, Cell, Format};
use crate::case::{Boards, CaseData, CheckerKind, Malformed};

use super::checked::{Checked, SHOWN};
use super::diff;
use crate::reason::{Answerer, Reason, Wrong, WrongAnswer, WrongAnswers};
use crate::verdict::Verdict;
use crate::words::plural;

/// How much of the output (and of the expected output) is kept to show a
/// line diff when the output does not read as answers. A smaller output
/// is kept whole, and then right answers in the wrong format are told
/// apart (PE) from wrong ones.
pub(crate) const KEEP: usize = 64 << 10;

/// The first [`KEEP`] bytes of a stream, and whether they are all of it.
#[derive(Default)]
pub(crate) struct Head {
    bytes: Vec<u8>,
    cut: bool,
}

impl Head {
    pub(crate) fn push(&mut self, chunk: &[u8]) {
        let room = KEEP.saturating_sub(self.bytes.len());
        self.bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
        self.cut |= chunk.len() > room;
    }

    /// Whether nothing was cut.
    pub(crate) fn is_whole(&self) -> bool {
        !self.cut
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// A stream that arrives in pieces, cut into lines (without their `\n`);
/// only the unfinished last line is held, and of a line longer than
/// [`KEEP`] only its first [`KEEP`] bytes (no answer is that long), so a
/// submission printing one endless line cannot make the judge grow.
#[derive(Default)]
pub(crate) struct LineSplitter {
    partial: Vec<u8>,
}

impl LineSplitter {
    /// Hands every line that `chunk` completes to `line`.
    pub(crate) fn push(&mut self, chunk: &[u8], mut line: impl FnMut(&[u8])) {
        let mut rest = chunk;
        while let Some(at) = rest.iter().position(|&b| b == b'\n') {
            if self.partial.is_empty() {
                line(&rest[..at.min(KEEP)]);
            } else {
                self.hold(&rest[..at]);
                line(&std::mem::take(&mut self.partial));
            }
            rest = &rest[at + 1..];
        }
        self.hold(rest);
    }

    fn hold(&mut self, bytes: &[u8]) {
        let room = KEEP.saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The last line, when the stream ended without a `\n`.
    pub(crate) fn rest(&mut self) -> Option<Vec<u8>> {
        Some(std::mem::take(&mut self.partial)).filter(|rest| !rest.is_empty())
    }
}

/// Judges one run's output; see the module docs. Feed it with
/// [`Checker::feed`], then [`Checker::finish`].
pub(crate) struct Checker<'a> {
    case: &'a CaseData,
    /// The format the answers should be in.
    format: Format,
    /// AcWing lines, judged one by one as they complete; `None` for the
    /// other formats, whose output is kept whole in `whole` and read at
    /// the end.
    lines: Option<(LineSplitter, AcWingLines)>,
    whole: Vec<u8>,
    /// The boards a function left that were judged as boards
    /// ([`Checker::feed_board`]), as the format prints them: the output
    /// before `whole`.
    shown: String,
    /// Boards fed with [`Checker::feed_board`].
    boards_fed: usize,
    /// The line an AcWing answer's rows are joined into, kept from board
    /// to board: a case may hold a million.
    joined: String,
    head: Head,
    /// The first line that is not an answer.
    unreadable: Option<ParseError>,
    answers: usize,
    tally: Tally<'a>,
    /// Counts every answer read, for a progress display.
    counter: Option<&'a AtomicUsize>,
    /// A case file that could not be read again: the harness's failure.
    failure: Option<anyhow::Error>,
}

/// What the answers are held to.
enum Tally<'a> {
    Sudoku(SudokuTally<'a>),
    Exact(ExactTally<'a>),
}

impl<'a> Checker<'a> {
    /// A checker of `kind` for answers to `case` printed in `format`.
    pub(crate) fn new(
        kind: CheckerKind,
        case: &'a CaseData,
        format: Format,
    ) -> anyhow::Result<Self> {
        let tally = match kind {
            CheckerKind::Sudoku => Tally::Sudoku(SudokuTally::new(case)?),
            CheckerKind::Exact => Tally::Exact(ExactTally::new(case, format)?),
        };
        Ok(Checker {
            case,
            format,
            lines: (format == Format::AcWing)
                .then(|| (LineSplitter::default(), AcWingLines::output())),
            whole: Vec::new(),
            shown: String::new(),
            boards_fed: 0,
            joined: String::new(),
            head: Head::default(),
            unreadable: None,
            answers: 0,
            tally,
            counter: None,
            failure: None,
        })
    }

    /// Also counts each answer read in `counter`.
    pub(crate) fn counting(mut self, counter: Option<&'a AtomicUsize>) -> Self {
        self.counter = counter;
        self
    }

    /// Says an answer that is its puzzle unchanged in the words of `who`
    /// gave it: `your solveSudoku left the board unchanged: ...`.
    pub(crate) fn answered_by(mut self, who: Answerer) -> Self {
        match &mut self.tally {
            Tally::Sudoku(tally) => tally.answerer = who,
            Tally::Exact(tally) => tally.answerer = who,
        }
        self
    }

    /// How many answers have been read so far.
    pub(crate) fn answered(&self) -> usize {
        self.answers
    }

    /// Takes the next piece of output.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        self.head.push(bytes);
        match self.lines.take() {
            Some((mut splitter, mut rules)) => {
                splitter.push(bytes, |line| self.output_line(&mut rules, line));
                self.lines = Some((splitter, rules));
            }
            None => self.whole.extend_from_slice(bytes),
        }
    }

    /// Takes a function's answer: the board it left, as rows of whatever
    /// it left in them. In a case's own format such a board is judged as
    /// the board it is, without printing it and reading it back; it is
    /// printed only to be shown (and held to an exact expected output).
    /// Rows that are not a board (a cell that is no digit, a row short)
    /// are printed and read as any output is, and so is every answer after
    /// them, so that what is wrong is told as for any output.
    pub(crate) fn feed_board(&mut self, rows: &[Vec<char>]) {
        let n = self.boards_fed;
        self.boards_fed += 1;
        if self.lines.is_some() {
            // An AcWing answer is its rows on one line.
            let mut line = std::mem::take(&mut self.joined);
            line.clear();
            line.extend(rows.iter().flatten());
            line.push('\n');
            self.feed(line.as_bytes());
            self.joined = line;
            return;
        }
        let text = format::render_nth(self.format, n, rows);
        match Board::from_rows(rows) {
            Some(board) if self.whole.is_empty() => {
                self.head.push(text.as_bytes());
                if let Tally::Exact(exact) = &mut self.tally {
                    for line in text.lines() {
                        exact.output_line(line.trim_end(), &mut self.failure);
                    }
                }
                self.shown.push_str(&text);
                self.answer(&board, &written(rows));
            }
            _ => self.feed(text.as_bytes()),
        }
    }

    fn output_line(&mut self, rules: &mut AcWingLines, raw: &[u8]) {
        if self.plain_answer(rules, raw) {
            return;
        }
        let raw = match rules.line() {
            0 => raw.strip_prefix("\u{feff}".as_bytes()).unwrap_or(raw),
            _ => raw,
        };
        let text = String::from_utf8_lossy(raw);
        if let Tally::Exact(exact) = &mut self.tally {
            exact.output_line(text.trim_end(), &mut self.failure);
        }
        if self.unreadable.is_some() {
            return;
        }
        match rules.take(&text) {
            Err(error) => self.unreadable = Some(error),
            Ok(Some(read)) => self.answer(&read.board, &read.cells),
            Ok(None) => {}
        }
    }

    /// Judges a line in the plain form of an answer (its 81 cells and
    /// nothing else) without parsing it, when the Sudoku checker judges:
    /// compared with the expected line byte for byte, then held to the
    /// rules byte by byte, and parsed only when it breaks them, to say
    /// why. False when the line is not in that form, or comes where it
    /// cannot be an answer (after `end`, after unreadable output): the
    /// parser takes it.
    fn plain_answer(&mut self, rules: &mut AcWingLines, raw: &[u8]) -> bool {
        let Tally::Sudoku(tally) = &mut self.tally else {
            return false;
        };
        let cells = raw.trim_ascii_end();
        let plain = rules::is_cells_line(cells);
        if self.unreadable.is_some() || !plain || !rules.take_plain() {
            return false;
        }
        let n = self.answers;
        self.answers += 1;
        if let Some(counter) = self.counter {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        if self.failure.is_none() {
            let cells = cells.try_into().expect("81 cells");
            if let Err(error) = tally.answer_line(n, cells) {
                self.failure = Some(error);
            }
        }
        true
    }

    /// Judges the next answer, `board`, which was written as `cells`:
    /// the board is judged, the cells are what its grid shows.
    fn answer(&mut self, board: &Board, cells: &[u8; 81]) {
        let n = self.answers;
        self.answers += 1;
        if let Some(counter) = self.counter {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        if self.failure.is_some() {
            // The case is at fault: the answers are not judged.
            return;
        }
        let result = match &mut self.tally {
            Tally::Sudoku(tally) => tally.answer(n, board, cells),
            Tally::Exact(tally) => tally.answer(n, board, cells),
        };
        if let Err(error) = result {
            self.failure.get_or_insert(error);
        }
    }

    /// The verdict on everything fed. `Err` only when a case file could not
    /// be read again.
    pub(crate) fn finish(mut self) -> anyhow::Result<Checked> {
        let (output, output_whole) = match self.lines.take() {
            Some((mut splitter, mut rules)) => {
                if let Some(last) = splitter.rest() {
                    self.output_line(&mut rules, &last);
                }
                (self.head.text(), self.head.is_whole())
            }
            None => {
                let text = String::from_utf8_lossy(&std::mem::take(&mut self.whole)).into_owned();
                if let Tally::Exact(exact) = &mut self.tally {
                    for line in text.lines() {
                        exact.output_line(line.trim_end(), &mut self.failure);
                    }
                }
                // What came after the boards judged as boards is read
                // where it stands in the whole output.
                let before = self.shown.matches('\n').count();
                if self.shown.is_empty() || !text.is_empty() {
                    match format::parse(&text, self.format, Mode::Answers) {
                        Ok(parsed) => parsed
                            .boards
                            .iter()
                            .for_each(|b| self.answer(&b.board, &b.cells)),
                        Err(mut error) => {
                            error.line += before;
                            self.unreadable = Some(error);
                        }
                    }
                }
                (std::mem::take(&mut self.shown) + &text, true)
            }
        };
        if let (None, Tally::Sudoku(tally)) = (&self.failure, &mut self.tally) {
            // The rest of the case is checked whatever the submission
            // answered: a fault in it is the case's, never a verdict.
            self.failure = tally.read_to_end().err();
        }
        if let Some(error) = self.failure {
            return Err(error);
        }
        let mut checked = match (self.tally, self.unreadable) {
            (Tally::Exact(exact), unreadable) => {
                exact.finish(self.answers, unreadable.is_none(), &output, output_whole)?
            }
            (Tally::Sudoku(_), Some(error)) => {
                unreadable_output(self.case, self.format, &error, &output, output_whole)?
            }
            (Tally::Sudoku(tally), None) => tally.finish(self.answers),
        };
        checked.output = output;
        Ok(checked)
    }
}

/// Output that does not read as boards in the format it should be in. If
/// it reads in another format and solves every puzzle, the answers are
/// right and only the presentation is wrong; if every answer line is right
/// and other lines come between or after them, those lines are what is
/// wrong. That is only decided when the output was kept whole.
fn unreadable_output(
    case: &CaseData,
    format: Format,
    error: &ParseError,
    output: &str,
    output_whole: bool,
) -> anyhow::Result<Checked> {
    if output_whole {
        let other = Format::detect(output);
        if other != format {
            if let Ok(parsed) = format::parse(output, other, Mode::Answers) {
                let mut all_solve = parsed.boards.len() == case.puzzles;
                for (answer, puzzle) in parsed.boards.iter().zip(case.puzzles()?) {
                    all_solve &= answer.board.solves(&puzzle?.1);
                }
                if all_solve {
                    return Ok(Checked {
                        verdict: Verdict::PE,
                        reason: Reason::Wrong(Wrong::OtherFormat {
                            printed: other,
                            wanted: format,
                        }),
                        details: String::new(),
                        output: String::new(),
                    });
                }
            }
        }
        if let Some(extra) = extra_lines(case, format, output)? {
            return Ok(Checked::wrong(
                extra,
                line_diff(case, format, output, output_whole)?,
            ));
        }
    }
    Ok(Checked::wrong(
        Wrong::Unreadable {
            format,
            error: error.clone(),
        },
        line_diff(case, format, output, output_whole)?,
    ))
}

/// AcWing answers that are all right, with other lines among them: debug
/// lines on stdout, or the input's `end` echoed. Both judges compare the
/// whole output, so those lines make it a Wrong Answer; this names them.
/// `None` when the answer lines are not one right answer per puzzle.
fn extra_lines(case: &CaseData, format: Format, output: &str) -> anyhow::Result<Option<Wrong>> {
    if format != Format::AcWing {
        return Ok(None);
    }
    let mut answers = Vec::new();
    let mut extra = Vec::new();
    for (n, line) in output.lines().enumerate() {
        let text = match n {
            0 => line.trim_start_matches('\u{feff}'),
            _ => line,
        }
        .trim_end();
        match <&[u8; 81]>::try_from(text.as_bytes()) {
            Ok(cells) if rules::is_cells_line(cells) => answers.push(rules::line_board(cells)),
            _ if text.is_empty() => {}
            _ => extra.push((n + 1, text)),
        }
    }
    let Some(&(first_line, first_text)) = extra.first() else {
        return Ok(None);
    };
    if answers.len() != case.puzzles {
        return Ok(None);
    }
    for (answer, puzzle) in answers.iter().zip(case.puzzles()?) {
        if !answer.solves(&puzzle?.1) {
            return Ok(None);
        }
    }
    Ok(Some(Wrong::ExtraLines {
        answers: answers.len(),
        extra: extra.len(),
        first_line,
        first_text: first_text.chars().take(200).collect(),
    }))
}

/// A line diff of the expected output against the kept `output`; when
/// either was cut at [`KEEP`] bytes, it says so.
fn line_diff(
    case: &CaseData,
    format: Format,
    output: &str,
    output_whole: bool,
) -> anyhow::Result<String> {
    let (expected, expected_whole) = expected_prefix(case, format)?;
    let mut details = diff::lines(&expected, output);
    if !(output_whole && expected_whole) {
        details.push_str(&format!(
            "(only the first {} KB of each are compared here)\n",
            KEEP >> 10
        ));
    }
    Ok(details)
}

/// The cells of `rows` that [`Board::from_rows`] read, as they are
/// written: digits and `.`, all ASCII.
fn written(rows: &[Vec<char>]) -> [u8; 81] {
    let mut cells = [b'.'; 81];
    for (cell, &c) in cells.iter_mut().zip(rows.iter().flatten()) {
        *cell = u8::try_from(c).expect("a board's rows hold ASCII cells");
    }
    cells
}

/// The place of the `n`-th answer (from 0) in a case of several puzzles:
/// its puzzle's number (from 1) and input `line`; `None` for a case of one.
fn place(case: &CaseData, n: usize, line: usize) -> Option<(usize, usize)> {
    (case.puzzles > 1).then_some((n + 1, line))
}

/// How an answer is named: by its puzzle's [`place`] when there are several.
fn label(place: Option<(usize, usize)>) -> String {
    match place {
        None => "the answer".to_string(),
        Some((n, line)) => format!("puzzle {n} (input line {line})"),
    }
}

/// A fault of the case's files, found while judging it.
fn malformed(message: String) -> anyhow::Error {
    anyhow::Error::new(Malformed(message))
}

/// The next board of a cursor, which was read once already: running out or
/// failing now means the file changed during the run.
fn next_board(boards: &mut Boards<'_>, what: &str) -> anyhow::Result<(usize, Board)> {
    boards.next().unwrap_or_else(|| {
        anyhow::bail!("the {what} ended early; did the case change while it was judged?")
    })
}

/// The cells of `answer` that differ from the expected answer: with one to
/// compare with, exactly the wrong cells, and never the right cell of a
/// duplicate.
fn differing(want: &Board, answer: &Board) -> [bool; 81] {
    std::array::from_fn(|i| want.get(Cell::from_index(i)) != answer.get(Cell::from_index(i)))
}

/// Without an expected answer, the cells to blame for `found`: a changed
/// given, an empty cell, and of two cells that clash, the one that is not
/// a given the answer kept. Of two filled cells that clash, neither is
/// blamed when one of them is already to blame (a wrong digit explains
/// every clash it is in); else the one in more clashes, or both when that
/// does not tell.
fn to_blame(puzzle: &Board, answer: &Board, found: &[Mistake]) -> [bool; 81] {
    let kept = |c: Cell| puzzle.get(c).is_some() && puzzle.get(c) == answer.get(c);
    let mut marked = [false; 81];
    let mut clashes = [0usize; 81];
    let mut open = Vec::new();
    for problem in found {
        if let Mistake::Conflict(conflict) = problem {
            let (a, b) = (conflict.first, conflict.second);
            clashes[a.index()] += 1;
            clashes[b.index()] += 1;
            open.push((a, b));
        } else {
            for cell in problem.cells() {
                marked[cell.index()] = true;
            }
        }
    }
    // A clash with a kept given blames the other cell for certain.
    let mut filled = Vec::new();
    for (a, b) in open {
        match (kept(a), kept(b)) {
            (true, false) => marked[b.index()] = true,
            (false, true) => marked[a.index()] = true,
            _ => filled.push((a, b)),
        }
    }
    for (a, b) in filled {
        if marked[a.index()] || marked[b.index()] {
            continue;
        }
        let (ca, cb) = (clashes[a.index()], clashes[b.index()]);
        marked[a.index()] = ca >= cb;
        marked[b.index()] = cb >= ca;
    }
    marked
}

/// The special judge: every answer must solve its puzzle. It reads the
/// case's puzzles and expected answers in step with the answers, checking
/// them as they come (see [`crate::case::open`]): a fault found in them is
/// a [`Malformed`] case.
struct SudokuTally<'a> {
    case: &'a CaseData,
    puzzles: Boards<'a>,
    expected: Option<Boards<'a>>,
    /// Puzzles read so far.
    read: usize,
    wrong: usize,
    /// Wrong answers that are their puzzle as given: a solution that has
    /// not started, or an echo.
    unchanged: usize,
    answerer: Answerer,
    /// The first [`SHOWN`] wrong answers, spelled out.
    shown: Vec<WrongAnswer>,
    details: String,
}

/// A puzzle as its line of cells, and the answer expected for it.
struct Pair {
    /// The puzzle's line in the input.
    line: usize,
    puzzle: [u8; 81],
    /// The expected answer and its line in the expected output.
    want: Option<(usize, [u8; 81])>,
}

impl<'a> SudokuTally<'a> {
    fn new(case: &'a CaseData) -> anyhow::Result<Self> {
        Ok(SudokuTally {
            case,
            puzzles: case.puzzles()?,
            expected: case.expected_boards()?,
            read: 0,
            wrong: 0,
            unchanged: 0,
            answerer: Answerer::default(),
            shown: Vec::new(),
            details: String::new(),
        })
    }

    fn expected_path(&self) -> String {
        match &self.case.expected {
            Some(expected) => expected.text.to_string(),
            None => String::new(),
        }
    }

    /// The expected output holds `answers` answers, not one per puzzle.
    fn miscounted(&self, answers: usize) -> anyhow::Error {
        malformed(format!(
            "{} has {} for {}",
            self.expected_path(),
            plural(answers, "answer"),
            plural(self.case.puzzles, "puzzle"),
        ))
    }

    /// The next puzzle and its expected answer, which is proven to solve it.
    fn next_pair(&mut self) -> anyhow::Result<Pair> {
        let (line, puzzle) = match self.puzzles.next_line() {
            Some(read) => read?,
            None => {
                anyhow::bail!("the input ended early; did the case change while it was judged?")
            }
        };
        let n = self.read;
        self.read += 1;
        let want = match &mut self.expected {
            None => None,
            Some(expected) => match expected.next_line() {
                Some(read) => Some(read?),
                None => return Err(self.miscounted(n)),
            },
        };
        if let Some((want_line, want)) = &want {
            if !rules::line_solves(&puzzle, want) {
                let why = mistakes(&rules::line_board(&puzzle), &rules::line_board(want))
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                return Err(malformed(format!(
                    "{}:{want_line}: answer {count} does not solve puzzle {count}: {why}",
                    self.expected_path(),
                    count = n + 1,
                )));
            }
        }
        Ok(Pair { line, puzzle, want })
    }

    /// Judges the `n`-th answer, given as a line of 81 cells: right when it
    /// is the expected line byte for byte, or else when it keeps the rules
    /// (a puzzle may have several solutions); only a wrong one is parsed,
    /// to say why.
    fn answer_line(&mut self, n: usize, answer: &[u8; 81]) -> anyhow::Result<()> {
        if n >= self.case.puzzles {
            return Ok(());
        }
        let pair = self.next_pair()?;
        if pair.want.is_some_and(|(_, want)| want == *answer)
            || rules::line_solves(&pair.puzzle, answer)
        {
            return Ok(());
        }
        self.wrong_answer(n, &pair, &rules::line_board(answer), answer);
        Ok(())
    }

    /// Judges the `n`-th answer, `answer`, which was printed as `printed`.
    fn answer(&mut self, n: usize, answer: &Board, printed: &[u8; 81]) -> anyhow::Result<()> {
        if n >= self.case.puzzles {
            return Ok(());
        }
        let pair = self.next_pair()?;
        if !answer.solves(&rules::line_board(&pair.puzzle)) {
            self.wrong_answer(n, &pair, answer, printed);
        }
        Ok(())
    }

    /// A wrong answer, and its cells as they were `printed`.
    fn wrong_answer(&mut self, n: usize, pair: &Pair, answer: &Board, printed: &[u8; 81]) {
        self.wrong += 1;
        let puzzle = rules::line_board(&pair.puzzle);
        let unchanged = *answer == puzzle;
        self.unchanged += usize::from(unchanged);
        if self.wrong > SHOWN {
            return;
        }
        let want = pair.want.map(|(_, want)| rules::line_board(&want));
        let found = mistakes(&puzzle, answer);
        let place = place(self.case, n, pair.line);
        self.shown.push(WrongAnswer {
            puzzle: place,
            unchanged,
            // Dozens of empty cells say less than that nothing was filled
            // in: an unchanged answer is said as that.
            mistakes: if unchanged { Vec::new() } else { found.clone() },
        });
        let (left_title, left, marked) = match &want {
            Some(want) => ("expected", want, differing(want, answer)),
            None => ("puzzle", &puzzle, to_blame(&puzzle, answer, &found)),
        };
        self.details.push_str(&format!("{}:\n", label(place)));
        self.details.push_str(&diff::grids_as_printed(
            left_title,
            left,
            "your answer",
            answer,
            printed,
            &puzzle,
            &marked,
        ));
    }

    /// Reads what the answers left of the case, checking it: the puzzles
    /// and expected answers not yet read, and that the two end together.
    fn read_to_end(&mut self) -> anyhow::Result<()> {
        while self.read < self.case.puzzles {
            self.next_pair()?;
        }
        if let Some(extra) = self.puzzles.next_line() {
            extra?;
            anyhow::bail!("the input grew while it was judged; judge the case again");
        }
        let Some(expected) = &mut self.expected else {
            return Ok(());
        };
        let mut answers = self.read;
        while let Some(read) = expected.next_line() {
            read?;
            answers += 1;
        }
        if answers != self.case.puzzles {
            return Err(self.miscounted(answers));
        }
        Ok(())
    }

    fn finish(self, answers: usize) -> Checked {
        let wrong = WrongAnswers {
            puzzles: self.case.puzzles,
            count: (answers != self.case.puzzles).then_some(answers),
            shown: self.shown,
            wrong: self.wrong,
            unchanged: self.unchanged,
            answerer: self.answerer,
        };
        if wrong.count.is_none() && wrong.wrong == 0 {
            return Checked::accepted();
        }
        let mut details = self.details;
        if !details.is_empty() {
            details.push_str(match self.expected {
                Some(_) => diff::GRID_LEGEND,
                None => diff::GRID_LEGEND_RULES,
            });
        }
        Checked::wrong(Wrong::Answers(wrong), details)
    }
}

/// Lines of a text without CR and trailing whitespace, and without its
/// trailing blank lines, read lazily.
type Lines<'a> = Box<dyn Iterator<Item = anyhow::Result<String>> + 'a>;

/// The expected answers printed in `format`, one answer's text at a time,
/// as [`format::render`] prints them together. For a program answering a
/// case written in another format.
fn rendered_expected(
    case: &CaseData,
    format: Format,
) -> anyhow::Result<impl Iterator<Item = anyhow::Result<String>> + '_> {
    let boards = case
        .expected_boards()?
        .ok_or_else(|| anyhow::anyhow!("the expected output does not read as boards"))?;
    Ok(boards
        .enumerate()
        .map(move |(n, board)| Ok(format::render_nth(format, n, &board?.1.to_rows()))))
}

/// The expected output's lines as they should be printed in `format`: the
/// expected file's own, or its answers rendered in `format` when that
/// differs from the case's.
fn expected_lines(case: &CaseData, format: Format) -> anyhow::Result<Option<Lines<'_>>> {
    let Some(expected) = &case.expected else {
        return Ok(None);
    };
    let lines: Lines<'_> = if format == case.format || !expected.boards {
        Box::new(
            std::io::BufRead::split(expected.text.open()?, b'\n').map(|line| {
                let line = line?;
                Ok(String::from_utf8_lossy(&line).trim_end().to_string())
            }),
        )
    } else {
        Box::new(rendered_expected(case, format)?.flat_map(|answer| {
            let lines: Vec<anyhow::Result<String>> = match answer {
                Ok(text) => text.lines().map(|line| Ok(line.to_string())).collect(),
                Err(error) => vec![Err(error)],
            };
            lines
        }))
    };
    Ok(Some(Box::new(WithoutTrailingBlanks {
        lines,
        blanks: 0,
        next: None,
    })))
}

/// Holds blank lines back until a line with text follows them.
struct WithoutTrailingBlanks<'a> {
    lines: Lines<'a>,
    /// Blank lines read and not yet given out.
    blanks: usize,
    /// The line with text that ended them.
    next: Option<anyhow::Result<String>>,
}

impl Iterator for WithoutTrailingBlanks<'_> {
    type Item = anyhow::Result<String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.blanks > 0 && self.next.is_some() {
            self.blanks -= 1;
            return Some(Ok(String::new()));
        }
        if let Some(line) = self.next.take() {
            return Some(line);
        }
        loop {
            match self.lines.next()? {
                Ok(line) if line.is_empty() => self.blanks += 1,
                other => {
                    if self.blanks == 0 {
                        return Some(other);
                    }
                    self.next = Some(other);
                    self.blanks -= 1;
                    return Some(Ok(String::new()));
                }
            }
        }
    }
}

/// The first [`KEEP`] bytes of the expected output as it should be printed
/// in `format`, and whether that is all of it; empty without one.
fn expected_prefix(case: &CaseData, format: Format) -> anyhow::Result<(String, bool)> {
    let Some(expected) = &case.expected else {
        return Ok((String::new(), true));
    };
    if format == case.format || !expected.boards {
        return expected.text.prefix(KEEP);
    }
    let mut text = String::new();
    for answer in rendered_expected(case, format)? {
        if text.len() >= KEEP {
            return Ok((text, false));
        }
        text.push_str(&answer?);
    }
    Ok((text, true))
}

/// The exact checker: the output's lines must be the expected file's.
struct ExactTally<'a> {
    case: &'a CaseData,
    format: Format,
    expected: Lines<'a>,
    /// Expected lines taken so far.
    taken: usize,
    /// Output lines compared so far (trailing blank lines are held back).
    compared: usize,
    blanks: usize,
    first_difference: Option<usize>,
    /// For grids of the differing boards: the puzzles' lines and the
    /// expected boards, in step with the answers.
    puzzles: Boards<'a>,
    expected_boards: Option<Boards<'a>>,
    differing: Vec<Differing>,
    /// Answers that are their puzzle as given.
    unchanged: usize,
    answerer: Answerer,
}

/// An answer that is not the expected one, to draw.
struct Differing {
    /// Its [`place`].
    place: Option<(usize, usize)>,
    puzzle: Board,
    want: Board,
    got: Board,
    /// Its cells as they were printed.
    printed: [u8; 81],
}

impl<'a> ExactTally<'a> {
    fn new(case: &'a CaseData, format: Format) -> anyhow::Result<Self> {
        Ok(ExactTally {
            case,
            format,
            // The judge refuses such a case before it runs anything.
            expected: expected_lines(case, format)?.ok_or_else(|| {
                anyhow::anyhow!(
                    "the exact checker needs an expected output file, and this case has none"
                )
            })?,
            taken: 0,
            compared: 0,
            blanks: 0,
            first_difference: None,
            unchanged: 0,
            answerer: Answerer::default(),
            puzzles: case.puzzles()?,
            expected_boards: case.expected_boards()?,
            differing: Vec::new(),
        })
    }

    fn output_line(&mut self, line: &str, failure: &mut Option<anyhow::Error>) {
        if line.is_empty() {
            self.blanks += 1;
            return;
        }
        for _ in 0..std::mem::take(&mut self.blanks) {
            self.compare("", failure);
        }
        self.compare(line, failure);
    }

    fn compare(&mut self, got: &str, failure: &mut Option<anyhow::Error>) {
        let at = self.compared;
        self.compared += 1;
        if self.first_difference.is_some() {
            return;
        }
        match self.expected.next() {
            Some(Ok(want)) => {
                self.taken += 1;
                if want != got {
                    self.first_difference = Some(at);
                }
            }
            Some(Err(error)) => {
                failure.get_or_insert(error);
            }
            None => self.first_difference = Some(at),
        }
    }

    /// Takes the `n`-th answer, `answer`, which was printed as `printed`.
    fn answer(&mut self, n: usize, answer: &Board, printed: &[u8; 81]) -> anyhow::Result<()> {
        let Some(expected) = &mut self.expected_boards else {
            return Ok(());
        };
        if n >= self.case.puzzles {
            return Ok(());
        }
        let (line, puzzle) = next_board(&mut self.puzzles, "input")?;
        let (_, want) = next_board(expected, "expected output")?;
        self.unchanged += usize::from(puzzle == *answer && want != *answer);
        if want != *answer && self.differing.len() < SHOWN {
            self.differing.push(Differing {
                place: place(self.case, n, line),
                puzzle,
                want,
                got: *answer,
                printed: *printed,
            });
        }
        Ok(())
    }

    fn finish(
        self,
        answers: usize,
        readable: bool,
        output: &str,
        output_whole: bool,
    ) -> anyhow::Result<Checked> {
        let (got, mut want) = (self.compared, self.taken);
        for line in self.expected {
            line?;
            want += 1;
        }
        let line = match self.first_difference {
            Some(line) => line,
            None if got == want => return Ok(Checked::accepted()),
            None => got.min(want),
        };
        let reason = if line < got && line < want {
            Wrong::LineDiffers { line: line + 1 }
        } else if line < want {
            Wrong::EndsEarly { got, want }
        } else {
            Wrong::TooLong { got, want }
        };
        // Right answers with other lines among them: say which.
        let reason = match output_whole {
            true => extra_lines(self.case, self.format, output)?.unwrap_or(reason),
            false => reason,
        };
        // Every puzzle printed back as given: said as that, not as a line.
        let puzzles = self.case.puzzles;
        let reason = if readable && answers == puzzles && self.unchanged == puzzles {
            Wrong::Answers(WrongAnswers {
                puzzles,
                count: None,
                shown: self
                    .differing
                    .iter()
                    .map(|d| WrongAnswer {
                        puzzle: d.place,
                        unchanged: true,
                        mistakes: Vec::new(),
                    })
                    .collect(),
                wrong: puzzles,
                unchanged: puzzles,
                answerer: self.answerer,
            })
        } else {
            reason
        };
        // Boards on both sides: show where they differ cell by cell.
        let details = if self.expected_boards.is_some() && readable && answers == self.case.puzzles
        {
            let mut out = String::new();
            for d in &self.differing {
                out.push_str(&format!("{}:\n", label(d.place)));
                out.push_str(&diff::grids_as_printed(
                    "expected",
                    &d.want,
                    "your answer",
                    &d.got,
                    &d.printed,
                    &d.puzzle,
                    &differing(&d.want, &d.got),
                ));
            }
            out.push_str(diff::GRID_LEGEND);
            out
        } else {
            line_diff(self.case, self.format, output, output_whole)?
        };
        Ok(Checked::wrong(reason, details))
    }
}
