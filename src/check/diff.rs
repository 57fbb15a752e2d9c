//! Drawing the difference between what was expected and what came out:
//! two 9×9 grids side by side with the wrong cells bracketed and the givens
//! starred, readable in a log without colour; and, for output that is not
//! boards at all, a line diff made with `similar`, with invisible
//! characters made visible.
//!
//! An answer's grid shows its cells as they were printed (a `0` as the `0`
//! printed, not the blank it reads as), and its marks come from the board
//! they read as, which is what was judged: the checker hands over both.
//!
//! The grids are plain text. A reporter that colours them reads each row
//! back with [`grid_row_parts`], so the text and its colouring cannot disagree.

use std::fmt::Write as _;
use std::time::Duration;

use similar::{Algorithm, ChangeTag, TextDiff};

use crate::board::{Board, Cell};

/// Printed once under a block of grid diffs against expected answers; with
/// the details' indent it fits 80 columns.
pub(crate) const GRID_LEGEND: &str =
    "*5 is a given; [5] is where your answer differs from the expected one\n";

/// Printed once under a block of grid diffs against the puzzles alone,
/// when a case has no expected output.
pub(crate) const GRID_LEGEND_RULES: &str =
    "*5 is a given; [5] breaks a rule, changes a given or is left empty\n";

/// At most this many diff lines are shown; a flood of output is cut.
const MAX_DIFF_LINES: usize = 60;

/// What a cell of a drawn grid is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CellKind {
    /// A digit of the puzzle, drawn `*5 `.
    Given,
    /// A digit filled in, or a blank, drawn ` 5 `.
    Filled,
    /// A cell to look at, drawn `[5]`.
    Marked,
}

/// A piece of a drawn grid row: rules and spaces, or one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowPart<'a> {
    Text(&'a str),
    Cell(CellKind, &'a str),
}

fn grid_row(
    board: &Board,
    row: usize,
    givens: Option<&Board>,
    marked: Option<&[bool; 81]>,
    printed: Option<&[u8; 81]>,
) -> String {
    let mut line = String::from("|");
    for col in 0..9 {
        let cell = Cell::new(row, col);
        // A blank as it was printed: `0` is shown as a `0`, not as a `.`.
        let blank = printed
            .map(|p| p[cell.index()])
            .filter(|&b| b == b'0')
            .map_or('.', char::from);
        let value = board.get(cell).map_or(blank, |d| d.to_char());
        if marked.is_some_and(|m| m[cell.index()]) {
            let _ = write!(line, "[{value}]");
        } else if givens.is_some_and(|g| g.get(cell).is_some()) {
            let _ = write!(line, "*{value} ");
        } else {
            let _ = write!(line, " {value} ");
        }
        if col % 3 == 2 {
            line.push('|');
        }
    }
    line
}

/// [`grids_as_printed`] for an answer printed as its board reads, `.`
/// for a blank.
#[cfg(test)]
pub(crate) fn grids(
    left_title: &str,
    left: &Board,
    right_title: &str,
    right: &Board,
    puzzle: &Board,
    marked: &[bool; 81],
) -> String {
    let printed = right.to_line().into_bytes().try_into().unwrap();
    grids_as_printed(
        left_title,
        left,
        right_title,
        right,
        &printed,
        puzzle,
        marked,
    )
}

/// What a `0` drawn in an answer is, said under its grids.
const ZERO_NOTE: &str = "  [0]: a 0 was printed there, which is no digit: it reads as a blank\n";

/// `left` beside `right`, the givens of `puzzle` starred in both (but in
/// `left` when it is the puzzle itself: every digit there is a given) and
/// the `marked` cells of `right` in brackets.
///
/// `right` is an answer as it reads, which was judged; `printed` is its 81
/// cells as its text wrote them, whatever the format it came in, and its
/// blanks are drawn as that has them: a blank printed as `0` shows the
/// `0`, and a line under the grids says it reads as a blank.
pub(crate) fn grids_as_printed(
    left_title: &str,
    left: &Board,
    right_title: &str,
    right: &Board,
    printed: &[u8; 81],
    puzzle: &Board,
    marked: &[bool; 81],
) -> String {
    const RULE: &str = "+---------+---------+---------+";
    let width = RULE.len();
    let left_givens = (left != puzzle).then_some(puzzle);
    let mut out = format!("  {left_title:<width$}   {right_title}\n");
    for row in 0..9 {
        if row % 3 == 0 {
            let _ = writeln!(out, "  {RULE}   {RULE}");
        }
        let _ = writeln!(
            out,
            "  {}   {}",
            grid_row(left, row, left_givens, None, None),
            grid_row(right, row, Some(puzzle), Some(marked), Some(printed))
        );
    }
    let _ = writeln!(out, "  {RULE}   {RULE}");
    if printed.contains(&b'0') {
        out.push_str(ZERO_NOTE);
    }
    out
}

/// Reads a row of digits drawn by [`grids_as_printed`] back into its parts, or `None`
/// for any other line (a rule, a title, a line of a line diff). A row of
/// one grid, as [`stacked`] draws them, reads too.
pub(crate) fn grid_row_parts(line: &str) -> Option<Vec<RowPart<'_>>> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let (lead, rest) = line.split_at(indent);
    let mut parts = vec![RowPart::Text(lead)];
    match rest.split_once("   ") {
        Some((left, right)) => {
            row_parts(left, &mut parts)?;
            parts.push(RowPart::Text("   "));
            row_parts(right, &mut parts)?;
        }
        None => row_parts(rest, &mut parts)?,
    }
    Some(parts)
}

/// How wide a line of two grids side by side is, with the report's indent
/// of its details: narrower terminals get them [`stacked`].
pub(crate) const SIDE_BY_SIDE_COLUMNS: usize = 72;

/// `details` with every pair of grids drawn by [`grids_as_printed`] one above the
/// other, each under its title, for a terminal too narrow to show them
/// side by side. Every other line is kept as it is.
pub(crate) fn stacked(details: &str) -> String {
    const GRID: usize = 31;
    const GAP: &str = "   ";
    // A line of two grids: the indent, a rule or a row, the gap, another.
    let halves = |line: &str| -> Option<(usize, String, String)> {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        if !rest.is_ascii() || rest.len() != 2 * GRID + GAP.len() || &rest[GRID..GRID + 3] != GAP {
            return None;
        }
        let (left, right) = (&rest[..GRID], &rest[GRID + GAP.len()..]);
        let framed = |g: &str| {
            (g.starts_with('+') && g.ends_with('+')) || (g.starts_with('|') && g.ends_with('|'))
        };
        (framed(left) && framed(right)).then(|| (indent, left.to_string(), right.to_string()))
    };
    let lines: Vec<&str> = details.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let block = lines[i + 1..]
            .iter()
            .map_while(|l| halves(l))
            .collect::<Vec<_>>();
        let title = lines[i];
        let title_indent = title.len() - title.trim_start_matches(' ').len();
        if block.is_empty() || !title.is_ascii() || title.len() < title_indent + GRID + GAP.len() {
            out.push_str(title);
            out.push('\n');
            i += 1;
            continue;
        }
        let (left_title, right_title) = title.split_at(title_indent + GRID + GAP.len());
        let indent = " ".repeat(block[0].0);
        out.push_str(left_title.trim_end());
        out.push('\n');
        for (_, left, _) in &block {
            out.push_str(&format!("{indent}{left}\n"));
        }
        out.push_str(&format!("{indent}{}\n", right_title.trim()));
        for (_, _, right) in &block {
            out.push_str(&format!("{indent}{right}\n"));
        }
        i += 1 + block.len();
    }
    out
}

/// The parts of one drawn row, `|` + three groups of three cells and `|`.
fn row_parts<'a>(row: &'a str, parts: &mut Vec<RowPart<'a>>) -> Option<()> {
    if !row.is_ascii() || row.len() != 31 {
        return None;
    }
    for group in 0..3 {
        let start = group * 10;
        if &row[start..=start] != "|" {
            return None;
        }
        parts.push(RowPart::Text("|"));
        for cell in 0..3 {
            let text = &row[start + 1 + cell * 3..start + 4 + cell * 3];
            let bytes = text.as_bytes();
            let value = bytes[1];
            if !(value == b'.' || value.is_ascii_digit()) {
                return None;
            }
            let kind = match (bytes[0], bytes[2]) {
                (b'[', b']') => CellKind::Marked,
                (b'*', b' ') => CellKind::Given,
                (b' ', b' ') => CellKind::Filled,
                _ => return None,
            };
            parts.push(RowPart::Cell(kind, text));
        }
    }
    (&row[30..] == "|").then_some(())?;
    parts.push(RowPart::Text("|"));
    Some(())
}

/// Shows what a line holds, including what a terminal would hide: a CR
/// as `␍`, trailing spaces as `·`, tabs as `→`.
fn visible(line: &str) -> String {
    let body = line.trim_end_matches([' ', '\t']);
    let tail = &line[body.len()..];
    let mut out: String = body
        .chars()
        .map(|c| match c {
            '\r' => '␍',
            '\t' => '→',
            c => c,
        })
        .collect();
    out.extend(tail.chars().map(|c| if c == '\t' { '→' } else { '·' }));
    out
}

/// A unified line diff of `expected` against `actual`: `-` lines are
/// expected but missing, `+` lines were printed but not expected.
pub(crate) fn lines(expected: &str, actual: &str) -> String {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(Duration::from_millis(200))
        .diff_lines(expected, actual);
    let mut out = String::from("--- expected\n+++ your output\n");
    let mut shown = 0;
    for group in diff.grouped_ops(2) {
        let first = &group[0];
        let _ = writeln!(
            out,
            "@@ expected line {}, output line {} @@",
            first.old_range().start + 1,
            first.new_range().start + 1
        );
        for op in &group {
            for change in diff.iter_changes(op) {
                if shown == MAX_DIFF_LINES {
                    let _ = writeln!(out, "... (diff cut at {MAX_DIFF_LINES} lines)");
                    return out;
                }
                shown += 1;
                let sign = match change.tag() {
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                    ChangeTag::Equal => ' ',
                };
                let text = change.value();
                let line = text.strip_suffix('\n').unwrap_or(text);
                let _ = writeln!(out, "{sign}{}", visible(line));
                if change.missing_newline() {
                    out.push_str("\\ no newline at the end\n");
                }
            }
        }
    }
    out
}

/// A puzzle with one given (r1c1), an answer that adds r1c3, and that cell
/// marked: for tests of drawing and of colouring what is drawn.
#[cfg(test)]
pub(crate) fn example_boards() -> (Board, Board, [bool; 81]) {
    use crate::board::Digit;
    let mut puzzle = Board::EMPTY;
    puzzle.set(Cell::new(0, 0), Digit::new(4));
    let mut answer = puzzle;
    answer.set(Cell::new(0, 2), Digit::new(5));
    let mut marked = [false; 81];
    marked[2] = true;
    (puzzle, answer, marked)
}

/// [`example_boards`] drawn, the answer beside itself as expected.
#[cfg(test)]
pub(crate) fn example() -> String {
    let (puzzle, answer, marked) = example_boards();
    grids(
        "expected",
        &answer,
        "your answer",
        &answer,
        &puzzle,
        &marked,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_bracket_the_marked_cells_and_star_the_givens() {
        let text = example();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 14);
        assert_eq!(
            lines[0].trim_end(),
            "  expected                          your answer"
        );
        assert_eq!(
            lines[2],
            "  |*4  .  5 | .  .  . | .  .  . |   |*4  . [5]| .  .  . | .  .  . |"
        );
        // Against the puzzle itself, every digit on the left is a given:
        // none is starred there.
        let (puzzle, answer, marked) = example_boards();
        let text = grids("puzzle", &puzzle, "your answer", &answer, &puzzle, &marked);
        assert!(
            text.contains("  | 4  .  . | .  .  . | .  .  . |   |*4  . [5]|"),
            "{text}"
        );
    }

    /// A `0` the program printed is drawn as printed, marked, and reads
    /// back as the cell it is.
    #[test]
    fn a_blank_printed_as_0_is_drawn_as_0() {
        let (puzzle, mut answer, mut marked) = example_boards();
        answer.set(Cell::new(0, 0), None);
        marked[0] = true;
        let drawn = |printed: &[u8; 81]| {
            grids_as_printed(
                "expected",
                &puzzle,
                "your answer",
                &answer,
                printed,
                &puzzle,
                &marked,
            )
        };
        let mut printed = [b'.'; 81];
        printed[0] = b'0';
        let text = drawn(&printed);
        let row = text.lines().nth(2).unwrap();
        assert!(
            row.ends_with("|   |[0] . [5]| .  .  . | .  .  . |"),
            "{row}"
        );
        let parts = grid_row_parts(row).unwrap();
        assert!(parts.contains(&RowPart::Cell(CellKind::Marked, "[0]")));
        // Under the grids, once, a word on what the 0 reads as.
        assert_eq!(text.lines().last(), Some(ZERO_NOTE.trim_end()), "{text}");
        assert_eq!(text.matches(ZERO_NOTE).count(), 1);
        // Printed with a `.`, the same grids say nothing more.
        printed[0] = b'.';
        let dot = drawn(&printed);
        assert_eq!(dot, text.replacen(ZERO_NOTE, "", 1).replace("[0]", "[.]"));
        assert_eq!(
            dot,
            grids(
                "expected",
                &puzzle,
                "your answer",
                &answer,
                &puzzle,
                &marked
            )
        );
    }

    #[test]
    fn drawn_rows_read_back_into_their_cells() {
        let line = "  |*4  .  5 | .  .  . | .  .  . |   |*4  . [5]| .  .  . | .  .  . |";
        let parts = grid_row_parts(line).unwrap();
        let cells: Vec<(CellKind, &str)> = parts
            .iter()
            .filter_map(|p| match p {
                RowPart::Cell(kind, text) => Some((*kind, *text)),
                RowPart::Text(_) => None,
            })
            .collect();
        assert_eq!(cells.len(), 18);
        assert_eq!(cells[0], (CellKind::Given, "*4 "));
        assert_eq!(cells[2], (CellKind::Filled, " 5 "));
        assert_eq!(cells[11], (CellKind::Marked, "[5]"));
        let joined: String = parts
            .iter()
            .map(|p| match p {
                RowPart::Text(text) | RowPart::Cell(_, text) => *text,
            })
            .collect();
        assert_eq!(joined, line);
        for other in [
            "  +---------+---------+---------+   +---------+---------+---------+",
            "  expected                          your answer",
            "+| 1  2  3 | 4  5  6 | 7  8  9 |",
            "  | 1  2  3 | 4  5  6 | 7  8  9 |   | 1  2  3 | 4  5  6 | 7  8  x |",
        ] {
            assert_eq!(grid_row_parts(other), None, "{other}");
        }
    }

    /// A program's answers against the expected ones: a wrong line, a
    /// line with a carriage return and trailing spaces, and a missing last
    /// newline, in hunks with their context.
    #[test]
    fn line_diff_of_a_programs_answers() {
        let expected = "534678912\n672195348\n198342567\n859761423\n426853791\n\
                        713924856\n961537284\n287419635\n345286179\n";
        let actual = "534678912\n672195348\n198342567\n859761423\n426853791\n\
                      713924856\n961537284\n287419653\n345286179  \r\nend";
        insta::assert_snapshot!(lines(expected, actual));
    }

    #[test]
    fn line_diff_shows_hidden_characters() {
        let text = lines("123\n456\n", "123\r\n457  \n");
        assert!(text.contains("-456\n"), "{text}");
        assert!(text.contains("+457··\n"), "{text}");
        assert!(text.contains("+123␍\n"), "{text}");
        let cut = lines("", &"x\n".repeat(500));
        assert!(cut.contains("diff cut at 60 lines"));
    }
}
