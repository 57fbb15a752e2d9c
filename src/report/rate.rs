//! The `rate` table: a row per puzzle with its givens, solutions, guesses,
//! grade and the textbook solvers' work, then the means when there are
//! several.

use std::io::{self, Write};

use crate::generate::Rated;

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
        r.place.clone(),
        r.rating.givens.to_string(),
        solutions,
        r.rating.guesses.to_string(),
        r.rating.grade.map_or("-", |g| g.name()).to_string(),
        r.backtrack.to_string(),
        r.mrv.to_string(),
    ]
}

/// Writes the table; `max_nodes` is where the node counts were stopped.
pub fn table(out: &mut dyn Write, rated: &[Rated], max_nodes: u64) -> io::Result<()> {
    let header = HEADER.map(String::from);
    let rows: Vec<[String; 7]> = rated.iter().map(cells).collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            std::iter::once(&header)
                .chain(&rows)
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in std::iter::once(&header).chain(&rows) {
        // The puzzle and its grade read left to right; numbers line up right.
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| match i {
                0 | 4 => format!("{cell:<w$}"),
                _ => format!("{cell:>w$}"),
            })
            .collect();
        writeln!(out, "{}", cells.join("  ").trim_end())?;
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
                    " ({capped} counts stopped at --max-nodes {max_nodes}, so the means are \
                     lower bounds)"
                )
            } else {
                String::new()
            }
        )?;
    }
    Ok(())
}
