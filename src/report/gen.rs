//! What `gen` says of the cases it wrote: each file with its puzzles'
//! grades, then the totals and how to check them.

use std::io::{self, Write};

use crate::generate::{Plan, Written};
use crate::words::plural;

pub fn written(out: &mut dyn Write, written: &[Written], plan: &Plan) -> io::Result<()> {
    for case in written {
        let grades: Vec<String> = case
            .ratings
            .iter()
            .map(|r| {
                format!(
                    "{} ({} givens, {})",
                    r.grade.map_or("?", |g| g.name()),
                    r.givens,
                    plural(r.guesses, "guess")
                )
            })
            .collect();
        writeln!(out, "wrote {}  {}", case.input.display(), grades.join(", "))?;
    }
    let puzzles: usize = written.iter().map(|w| w.ratings.len()).sum();
    writeln!(
        out,
        "{} with {} in {} (seed {}); check them with `sudoku-judge check {}`",
        plural(written.len(), "case"),
        plural(puzzles, "puzzle"),
        plan.out.display(),
        plan.seed,
        plan.out.display()
    )
}

/// Ctrl-C stopped `gen` before it wrote anything.
pub fn interrupted(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "interrupted; nothing was written")
}
