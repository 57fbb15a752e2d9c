//! The `solvers` listing: one solver a line, name first (scripts take the
//! first word), its summary wrapped under itself to fit a terminal.

use std::io::{self, Write};

use super::layout;
use crate::solver::Solver;

/// The summaries start in this column.
const NAME_WIDTH: usize = 23;

/// Writes one line per solver, or more on a terminal `width` columns wide.
pub(crate) fn list<'a>(
    out: &mut dyn Write,
    solvers: impl IntoIterator<Item = &'a Solver>,
    width: Option<usize>,
) -> io::Result<()> {
    for solver in solvers {
        let name = format!("{:<w$}", solver.name, w = NAME_WIDTH - 1);
        let first = format!("{name} ");
        let first_width = first.chars().count();
        writeln!(
            out,
            "{}",
            layout::wrap(&first, first_width, solver.summary, NAME_WIDTH, width)
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::ALL;

    fn render(width: Option<usize>) -> String {
        let mut out = Vec::new();
        list(&mut out, ALL.iter().filter(|s| !s.faulty), width).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn whole_lines_in_a_pipe_and_wrapped_on_a_terminal() {
        let whole = render(None);
        let sound = ALL.iter().filter(|s| !s.faulty).count();
        assert_eq!(whole.lines().count(), sound);
        let narrow = render(Some(80));
        assert!(narrow.lines().all(|l| l.chars().count() <= 80), "{narrow}");
        // Continuation lines start under the summaries; names stay first.
        for line in narrow.lines() {
            let starts_with_name = ALL.iter().any(|s| line.starts_with(s.name));
            assert!(
                starts_with_name || line.starts_with(&" ".repeat(NAME_WIDTH)),
                "{line}"
            );
        }
        let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(words(&narrow), words(&whole));
    }
}
