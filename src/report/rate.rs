//! The `rate` table: a row per puzzle with its givens, solutions, guesses,
//! grade and the textbook solvers' work, then the means when there are
//! several.

use std::io::{self, Write};

use crate::generate::Rated;
use crate::words::plural;

const HEADER: [&str; 7] = [
    "puzzle",
    "givens",
    "solutions",
    "guesses",
    "grade",
    "backtrack nodes",
    "mrv nodes",
];

fn cells(r: &Rated) -> [String; 7] {
    let solutions = match r.rating.solutions {
        0 => "none".to_string(),
        1 => "1".to_string(),
        n => format!("{n}+"),
    };
    [
        r.place.terminal().to_string(),
        r.rating.givens.to_string(),
        solutions,
        r.rating.guesses.to_string(),
        r.rating.grade.map_or("-", |g| g.name()).to_string(),
        r.backtrack.to_string(),
        r.mrv.to_string(),
    ]
}

/// Writes the table; `max_nodes` is where the node counts were stopped.
pub(crate) fn table(out: &mut dyn Write, rated: &[Rated], max_nodes: u64) -> io::Result<()> {
    let header = HEADER.map(String::from).to_vec();
    let rows: Vec<Vec<String>> = std::iter::once(header)
        .chain(rated.iter().map(|r| cells(r).to_vec()))
        .collect();
    // The puzzle and its grade read left to right; numbers line up right.
    for line in super::layout::aligned(&rows, &[0, 4]) {
        writeln!(out, "{line}")?;
    }
    if rated.len() > 1 {
        let n = rated.len() as f64;
        let guesses: u64 = rated.iter().map(|r| r.rating.guesses).sum();
        let backtrack: u64 = rated.iter().map(|r| r.backtrack.count).sum();
        let mrv: u64 = rated.iter().map(|r| r.mrv.count).sum();
        let capped = rated
            .iter()
            .map(|r| usize::from(r.backtrack.capped) + usize::from(r.mrv.capped))
            .sum::<usize>();
        writeln!(
            out,
            "{} puzzles: mean {:.1} guesses, {:.0} backtrack nodes, {:.0} mrv nodes{}",
            rated.len(),
            guesses as f64 / n,
            backtrack as f64 / n,
            mrv as f64 / n,
            if capped > 0 {
                format!(
                    " ({} stopped at --max-nodes {max_nodes}, so the means are \
                     lower bounds)",
                    plural(capped, "count")
                )
            } else {
                String::new()
            }
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::format;
    use crate::board::EXAMPLE;

    fn rated(place: &str, line: &str, max_nodes: u64) -> Rated {
        Rated::of(place.into(), &format::puzzle(line), max_nodes)
    }

    /// The LeetCode example, a 17-given puzzle whose node counts stop at
    /// the cap, and an empty grid with many solutions: every column, the
    /// ungraded puzzle and the means that are lower bounds.
    #[test]
    fn rates_in_aligned_columns_with_the_means() {
        let max_nodes = 5_000;
        let puzzles = [
            rated("cases/leetcode37/example1/input.txt:1", EXAMPLE, max_nodes),
            rated(
                "sample.in:1",
                "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
                max_nodes,
            ),
            rated("empty.txt:3", &".".repeat(81), max_nodes),
        ];
        assert!(puzzles[1].backtrack.capped, "the cap is reached");
        assert_eq!(puzzles[2].rating.grade, None, "many solutions: no grade");
        let mut out = Vec::new();
        table(&mut out, &puzzles, max_nodes).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("--max-nodes 5000, so the means are lower bounds"));
        insta::assert_snapshot!(text);
    }
}
