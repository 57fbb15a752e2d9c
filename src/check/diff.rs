//! Drawing the difference between what was expected and what came out:
//! two 9×9 grids side by side with the wrong cells bracketed, readable in a
//! log without colour; and, for output that is not boards at all, a line
//! diff made with `similar`, with invisible characters made visible.

use std::fmt::Write as _;
use std::time::Duration;

use similar::{Algorithm, ChangeTag, TextDiff};

use crate::board::{Board, Cell};

/// Printed once under a block of grid diffs.
pub const GRID_LEGEND: &str =
    "[x] marks a cell of your answer that breaks a rule, changes a given or differs from the expected answer\n";

/// At most this many diff lines are shown; a flood of output is cut.
const MAX_DIFF_LINES: usize = 60;

fn grid_row(board: &Board, row: usize, marked: Option<&[bool; 81]>) -> String {
    let mut line = String::from("|");
    for col in 0..9 {
        let cell = Cell::new(row, col);
        let value = board.get(cell).map_or('.', |d| d.to_char());
        if marked.is_some_and(|m| m[cell.index()]) {
            let _ = write!(line, "[{value}]");
        } else {
            let _ = write!(line, " {value} ");
        }
        if col % 3 == 2 {
            line.push('|');
        }
    }
    line
}

/// `left` beside `right`, the `marked` cells of `right` in brackets.
pub fn grids(
    left_title: &str,
    left: &Board,
    right_title: &str,
    right: &Board,
    marked: &[bool; 81],
) -> String {
    const RULE: &str = "+---------+---------+---------+";
    let width = RULE.len();
    let mut out = format!("  {left_title:<width$}   {right_title}\n");
    for row in 0..9 {
        if row % 3 == 0 {
            let _ = writeln!(out, "  {RULE}   {RULE}");
        }
        let _ = writeln!(
            out,
            "  {}   {}",
            grid_row(left, row, None),
            grid_row(right, row, Some(marked))
        );
    }
    let _ = writeln!(out, "  {RULE}   {RULE}");
    out
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
pub fn lines(expected: &str, actual: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Digit;

    #[test]
    fn grids_bracket_the_marked_cells() {
        let mut answer = Board::EMPTY;
        answer.set(Cell::new(0, 2), Digit::new(5));
        let mut marked = [false; 81];
        marked[2] = true;
        let text = grids("expected", &Board::EMPTY, "your answer", &answer, &marked);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 14);
        assert_eq!(
            lines[0].trim_end(),
            "  expected                          your answer"
        );
        assert_eq!(
            lines[2],
            "  | .  .  . | .  .  . | .  .  . |   | .  . [5]| .  .  . | .  .  . |"
        );
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
