//! Fitting the report to the terminal: which columns of the table there is
//! room for, and text wrapped at word boundaries under a hanging indent;
//! and the plain tables of other commands, their columns as wide as their
//! widest cells.
//!
//! A width of `None` means the report does not go to a terminal (a pipe, a
//! file): every column is kept and no line is wrapped or cut, so what a
//! script or a log reads is whole.

/// The table keeps every column from this width on; narrower, `cpu` and
/// `wall` (the process's own times, beside the charged `time`) go first.
const ALL_COLUMNS: usize = 120;
/// Narrower than this, `%limit` goes too.
const LIMIT_COLUMN: usize = 64;

/// A note that would start with less room than this starts on a line of
/// its own instead.
const MIN_ROOM: usize = 16;

/// The columns of the table, chosen once for the whole table so that its
/// rows line up under one header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Columns {
    pub(crate) limit: bool,
    pub(crate) cpu_wall: bool,
}

/// The measurements of one row, as text, before the case's id.
pub(crate) struct Cells<'a> {
    pub(crate) time: &'a str,
    pub(crate) percent: &'a str,
    pub(crate) cpu: &'a str,
    pub(crate) wall: &'a str,
    pub(crate) memory: &'a str,
}

impl Columns {
    pub(crate) fn for_width(width: Option<usize>) -> Self {
        let width = width.unwrap_or(usize::MAX);
        Columns {
            limit: width >= LIMIT_COLUMN,
            cpu_wall: width >= ALL_COLUMNS,
        }
    }

    /// The measurements, right-aligned under the header, with the space
    /// that follows the verdict's code.
    pub(crate) fn cells(&self, cells: &Cells<'_>) -> String {
        let mut line = format!(" {:>9}", cells.time);
        if self.limit {
            line.push_str(&format!(" {:>6}", cells.percent));
        }
        if self.cpu_wall {
            line.push_str(&format!(" {:>9} {:>9}", cells.cpu, cells.wall));
        }
        line.push_str(&format!(" {:>8}", cells.memory));
        line
    }

    /// The header line, aligned with [`Columns::cells`] after a 5-character code.
    pub(crate) fn header(&self) -> String {
        let cells = self.cells(&Cells {
            time: "time",
            percent: "%limit",
            cpu: "cpu",
            wall: "wall",
            memory: "memory",
        });
        format!("{:<5}{cells}  case", "")
    }

    /// How many characters come before the case's id.
    pub(crate) fn id_column(&self) -> usize {
        self.header().chars().count() - "case".len()
    }
}

/// `text` after `first` (which is `first_width` characters wide on screen),
/// wrapped at spaces to `width` with later lines indented by `indent`
/// spaces. Without a width, or when it all fits, one line. A word longer
/// than a line is left whole rather than cut.
pub(crate) fn wrap(
    first: &str,
    first_width: usize,
    text: &str,
    indent: usize,
    width: Option<usize>,
) -> String {
    wrap_lines(first, first_width, text, indent, width, usize::MAX)
}

/// As [`wrap`], in at most `max_lines` lines: the last one kept ends in `…`
/// when text is left over.
pub(crate) fn wrap_lines(
    first: &str,
    first_width: usize,
    text: &str,
    indent: usize,
    width: Option<usize>,
    max_lines: usize,
) -> String {
    let Some(width) = width else {
        return format!("{first}{text}");
    };
    if first_width + text.chars().count() <= width {
        return format!("{first}{text}");
    }
    let pad = " ".repeat(indent);
    // Each line with its width on screen.
    let mut lines: Vec<(String, usize)> = Vec::new();
    let mut line = (first.to_string(), first_width);
    let mut line_start = true;
    if width.saturating_sub(first_width) < MIN_ROOM && first_width > indent {
        lines.push((first.trim_end().to_string(), 0));
        line = (pad.clone(), indent);
    }
    for word in text.split(' ') {
        let len = word.chars().count();
        if !line_start && line.1 + 1 + len > width {
            lines.push(std::mem::replace(&mut line, (pad.clone(), indent)));
            line_start = true;
        }
        if !line_start {
            line.0.push(' ');
            line.1 += 1;
        }
        line.0.push_str(word);
        line.1 += len;
        line_start = false;
    }
    lines.push(line);
    if lines.len() > max_lines.max(1) {
        lines.truncate(max_lines.max(1));
        let (last, last_width) = lines.last_mut().expect("at least one line");
        // Room for the `…`: drop characters (then a dangling space) until it fits.
        while *last_width + 1 > width && *last_width > indent {
            last.pop();
            *last_width -= 1;
        }
        let trimmed = last.trim_end().len();
        last.truncate(trimmed);
        last.push('…');
    }
    lines
        .into_iter()
        .map(|(text, _)| text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `rows` as lines of a table: each column as wide as its widest cell,
/// two spaces between columns, the columns numbered in `left` aligned left
/// and the rest right (numbers), and no spaces at the end of a line.
pub(crate) fn aligned(rows: &[Vec<String>], left: &[usize]) -> Vec<String> {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        widths.resize(widths.len().max(row.len()), 0);
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |row: &Vec<String>| {
        let cells: Vec<String> = (row.iter().zip(&widths).enumerate())
            .map(|(i, (cell, &w))| match left.contains(&i) {
                true => format!("{cell:<w$}"),
                false => format!("{cell:>w$}"),
            })
            .collect();
        cells.join("  ").trim_end().to_string()
    };
    rows.iter().map(line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_go_least_important_first() {
        assert_eq!(
            Columns::for_width(None),
            Columns {
                limit: true,
                cpu_wall: true
            }
        );
        assert_eq!(Columns::for_width(Some(200)), Columns::for_width(None));
        assert_eq!(
            Columns::for_width(Some(80)),
            Columns {
                limit: true,
                cpu_wall: false
            }
        );
        assert_eq!(
            Columns::for_width(Some(50)),
            Columns {
                limit: false,
                cpu_wall: false
            }
        );
        let full = Columns::for_width(None);
        assert_eq!(
            full.header(),
            "           time %limit       cpu      wall   memory  case"
        );
        assert_eq!(full.id_column(), 53);
        assert_eq!(
            Columns::for_width(Some(80)).header(),
            "           time %limit   memory  case"
        );
    }

    #[test]
    fn text_wraps_at_spaces_under_its_indent() {
        let text = "puzzle 2 (input line 2): row 9 has two 9s (r9c8 and r9c9)";
        assert_eq!(wrap("WA  a  ", 7, text, 4, None), format!("WA  a  {text}"));
        assert_eq!(
            wrap("WA  a  ", 7, text, 4, Some(80)),
            format!("WA  a  {text}")
        );
        assert_eq!(
            wrap("WA  a  ", 7, text, 4, Some(40)),
            "WA  a  puzzle 2 (input line 2): row 9\n    has two 9s (r9c8 and r9c9)"
        );
        // Too little room after the first part: the text starts below it.
        assert_eq!(
            wrap("a long first part  ", 19, "short words here", 2, Some(30)),
            "a long first part\n  short words here"
        );
        // No line is longer than the width, but for a word that is.
        let long = "x".repeat(50);
        let wrapped = wrap("", 0, &format!("a {long} b"), 2, Some(20));
        assert_eq!(wrapped, format!("a\n  {long}\n  b"));
        // At most so many lines, the last one ending in `…`.
        assert_eq!(
            wrap_lines("WA  a  ", 7, text, 4, Some(30), 2),
            "WA  a  puzzle 2 (input line\n    2): row 9 has two 9s (r9c…"
        );
    }
}
