//! The `bench` table: one row per solver (or command) and file. Columns are
//! as wide as their widest cell, so a long command or file name moves the
//! columns after it instead of pushing its own row out of line.

use std::io::{self, Write};

use crate::bench::{Measurement, Rounds};
use crate::solver::reference::CodePath;
use crate::words::plural;

const HEADERS: [&str; 7] = [
    "file",
    "solver",
    "puzzles",
    "µs/puzzle",
    "min",
    "max",
    "guesses",
];

/// The cells of one row, as text; a disqualified solver's row ends in a
/// note instead of timings.
fn cells(m: &Measurement) -> (Vec<String>, Option<String>) {
    let file = m
        .file
        .file_name()
        .as_ref()
        .unwrap_or(&m.file)
        .terminal()
        .to_string();
    let mut cells = vec![file, m.solver.clone(), m.puzzles.to_string()];
    match m.us_per_puzzle {
        Some((min, median, max)) => {
            cells.extend([median, min, max].map(|us| format!("{us:.2}")));
            cells.push(
                m.guesses_per_puzzle
                    .map_or_else(|| "-".to_string(), |g| format!("{g:.2}")),
            );
            (cells, None)
        }
        None => (
            cells,
            Some(format!(
                "WRONG on {} (first: puzzle {}); not timed",
                plural(m.wrong, "puzzle"),
                m.first_wrong.unwrap_or(0)
            )),
        ),
    }
}

/// Writes the table and the lines that say how it was measured: `path` is
/// the copy of the reference search this CPU ran (see [`CodePath`]).
pub(crate) fn table(
    out: &mut dyn Write,
    results: &[Measurement],
    rounds: Rounds,
    path: CodePath,
) -> io::Result<()> {
    let (mut rows, notes): (Vec<Vec<String>>, Vec<Option<String>>) =
        results.iter().map(cells).unzip();
    rows.insert(0, HEADERS.map(String::from).to_vec());
    // Names are left-aligned, numbers right-aligned.
    let lines = super::layout::aligned(&rows, &[0, 1]);
    writeln!(out, "{}", lines[0])?;
    for (line, note) in lines[1..].iter().zip(&notes) {
        match note {
            None => writeln!(out, "{line}")?,
            Some(note) => writeln!(out, "{line}  {note}")?,
        }
    }
    writeln!(
        out,
        "median of {} after {} warm-up; µs per puzzle over whole rounds",
        plural(rounds.measured, "timed round"),
        rounds.warmup
    )?;
    if results.iter().any(|m| m.solver == "propagate") {
        writeln!(
            out,
            "propagate ran its {} copy, the default on this CPU",
            path.name()
        )?;
    }
    Ok(())
}

/// The same results as one JSON document, for scripts.
pub(crate) fn json(
    out: &mut dyn Write,
    results: &[Measurement],
    rounds: Rounds,
    path: CodePath,
) -> io::Result<()> {
    let rows: Vec<serde_json::Value> = results
        .iter()
        .map(|m| {
            serde_json::json!({
                "file": m.file,
                "solver": m.solver,
                "puzzles": m.puzzles,
                "us_per_puzzle": m.us_per_puzzle.map(|(min, median, max)| serde_json::json!({
                    "min": min, "median": median, "max": max
                })),
                "guesses_per_puzzle": m.guesses_per_puzzle,
                "wrong": m.wrong,
                "first_wrong": m.first_wrong,
            })
        })
        .collect();
    serde_json::to_writer_pretty(
        &mut *out,
        &serde_json::json!({
            "rounds": rounds.measured,
            "warmup": rounds.warmup,
            "propagate_code_path": path.name(),
            "results": rows,
        }),
    )?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn measured(solver: &str, file: &str, us: Option<f64>) -> Measurement {
        Measurement {
            solver: solver.into(),
            file: PathBuf::from(file).into(),
            puzzles: 20,
            us_per_puzzle: us.map(|us| (us * 0.9, us, us * 1.2)),
            guesses_per_puzzle: (solver == "propagate").then_some(0.1),
            wrong: usize::from(us.is_none()),
            first_wrong: us.is_none().then_some(3),
        }
    }

    /// A long command and a slow solver keep every column in line.
    #[test]
    fn columns_line_up_whatever_their_contents() {
        let results = [
            measured("mrv", "sets/medium.txt", Some(54.46)),
            measured("propagate", "sets/medium.txt", Some(20.57)),
            measured(
                "`./target/release/sudoku-judge solve`",
                "sets/medium.txt",
                Some(164.39),
            ),
            measured("mrv", "sample.in", Some(102_845.99)),
            measured("faulty-wrong-digit", "sample.in", None),
        ];
        let mut out = Vec::new();
        table(
            &mut out,
            &results,
            Rounds {
                warmup: 1,
                measured: 5,
            },
            CodePath::Portable,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let header = text.lines().next().unwrap();
        for row in text.lines().skip(1).take(4) {
            // Right-aligned numbers end where their headers end.
            let chars: Vec<char> = row.chars().collect();
            assert_eq!(chars.len(), header.chars().count(), "{row}");
            for column in ["puzzles", "µs/puzzle", "max"] {
                let end =
                    header[..header.find(column).unwrap()].chars().count() + column.chars().count();
                assert_ne!(chars[end - 1], ' ', "{column} in {row}");
                assert_eq!(chars[end], ' ', "{column} in {row}");
            }
        }
        insta::assert_snapshot!(text);
    }

    /// The same kind of results for scripts: every field, a disqualified
    /// solver with no timings.
    #[test]
    fn json_has_every_field() {
        let results = [
            measured("propagate", "sets/medium.txt", Some(20.0)),
            measured("faulty-wrong-digit", "sample.in", None),
        ];
        let rounds = Rounds {
            warmup: 1,
            measured: 5,
        };
        let mut out = Vec::new();
        json(&mut out, &results, rounds, CodePath::Avx2).unwrap();
        let text = String::from_utf8(out).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value["results"][1]["us_per_puzzle"],
            serde_json::Value::Null
        );
        insta::assert_snapshot!(text);
    }
}
