//! What `gen` says of the cases it wrote: each file with its puzzles'
//! grades, then the totals and how to check them.

use std::io::{self, Write};

use crate::generate::{GenPlan, HardFor, Written};
use crate::words::plural;

pub(crate) fn written(out: &mut dyn Write, written: &[Written], plan: &GenPlan) -> io::Result<()> {
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

/// On a terminal, while a hard target's search climbs: the most work it
/// has reached for the puzzle it is making, against the work asked for.
pub(crate) fn climbed(reached: u64, hard: HardFor) -> String {
    format!(
        "reached {reached} of {} {} {}",
        hard.min,
        hard.measure.name(),
        hard.measure.unit()
    )
}

/// Ctrl-C stopped `gen` before it wrote anything.
pub(crate) fn interrupted(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "interrupted; nothing was written")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::format;
    use crate::board::{Format, EXAMPLE};
    use crate::generate::{self, Layout, Target};
    use std::path::PathBuf;

    /// Two cases rated by the reference search: the easy LeetCode example,
    /// and a 17-given puzzle of the AcWing sample with the example.
    #[test]
    fn lists_each_case_with_its_grades_then_the_totals() {
        let hard = format::puzzle(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let easy = format::puzzle(EXAMPLE);
        let plan = generate::GenPlan {
            seed: 7,
            files: 2,
            per_file: 2,
            target: Target::default(),
            format: Format::AcWing,
            layout: Layout::Flat,
            out: PathBuf::from("cases/mine"),
            name: "gen-".into(),
            attempts: 10_000,
        };
        let cases = [
            Written {
                input: PathBuf::from("cases/mine/gen-001.in"),
                ratings: vec![generate::rate(&easy)],
            },
            Written {
                input: PathBuf::from("cases/mine/gen-002.in"),
                ratings: vec![generate::rate(&hard), generate::rate(&easy)],
            },
        ];
        let mut out = Vec::new();
        written(&mut out, &cases, &plan).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("easy (30 givens, 0 guesses)"), "{text}");
        assert!(text.contains("2 cases with 3 puzzles"), "{text}");
        insta::assert_snapshot!(text);
    }
}
