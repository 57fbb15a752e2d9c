//! Throughput of solvers on puzzle files: `sudoku-judge bench`.
//!
//! Built-in solvers are called in-process on every puzzle of a file, once
//! to warm up and validate (a wrong answer disqualifies the solver: a fast
//! wrong solver cannot score), then for several timed rounds. The figure is
//! microseconds per puzzle for a whole round, so timer overhead does not
//! count; the median round is the headline, min and max show the noise.
//! An external command is timed as a whole process on an AcWing-format
//! input of the same puzzles, which is what a judge sees.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};

use crate::board::format::{self, Mode};
use crate::board::{Board, Format};
use crate::runner::lang::launch::Launch;
use crate::runner::process;
use crate::solver::{reference, Solver};

/// Puzzles read from a file.
#[derive(Clone, Debug)]
pub struct PuzzleSet {
    pub(crate) path: PathBuf,
    pub puzzles: Vec<Board>,
}

/// The largest puzzle file `bench` reads: some three million puzzles of
/// one line each.
pub(crate) const MAX_PUZZLE_FILE_BYTES: u64 = 256 << 20;

/// Reads puzzles from `path`: one 81-character line each (dataset files,
/// with `#` comments and blank lines skipped) or any format `test` reads.
/// The file is read through the file door ([`crate::files::read_lines`]):
/// a regular file with one link, at most [`MAX_PUZZLE_FILE_BYTES`], no
/// line longer than a board can be.
pub fn read_puzzles(path: &Path, limit: Option<usize>) -> anyhow::Result<PuzzleSet> {
    let text = crate::files::read_lines(path, "puzzle file", MAX_PUZZLE_FILE_BYTES)?;
    let mut puzzles = parse_puzzle_file(&path.display().to_string(), &text)?.into_boards();
    if let Some(limit) = limit {
        puzzles.truncate(limit);
    }
    if puzzles.is_empty() {
        bail!("{} holds no puzzles", path.display());
    }
    Ok(PuzzleSet {
        path: path.to_path_buf(),
        puzzles,
    })
}

/// Reads the puzzles of a puzzle file named `name`: dataset files (one
/// puzzle a line, `#` comments, blank lines) or any format `test` reads.
pub(crate) fn parse_puzzle_file(name: &str, text: &str) -> anyhow::Result<format::ParsedBoards> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Comments become blank lines, so line numbers in errors stay true.
    let cleaned: String = text
        .lines()
        .map(|l| if l.starts_with('#') { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n");
    let format = Format::detect(&cleaned);
    format::parse(&cleaned, format, Mode::Puzzles).map_err(|e| anyhow::anyhow!(e.at(name, format)))
}

/// How rounds are run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rounds {
    pub(crate) warmup: usize,
    pub(crate) measured: usize,
}

/// The timing of one solver on one file.
#[derive(Clone, Debug)]
pub(crate) struct Measurement {
    pub(crate) solver: String,
    /// The puzzle file, named by the user or found in a pack.
    pub(crate) file: crate::outside::OutsidePath,
    pub(crate) puzzles: usize,
    /// Microseconds per puzzle: (min, median, max) over the rounds.
    pub(crate) us_per_puzzle: Option<(f64, f64, f64)>,
    /// Guesses per puzzle, for the reference search.
    pub(crate) guesses_per_puzzle: Option<f64>,
    /// Puzzles answered wrongly or left unsolved; such a solver gets no time.
    pub(crate) wrong: usize,
    /// The first wrong answer, for the report.
    pub(crate) first_wrong: Option<usize>,
}

fn spread(mut per_puzzle: Vec<f64>) -> Option<(f64, f64, f64)> {
    per_puzzle.sort_by(f64::total_cmp);
    Some((
        *per_puzzle.first()?,
        per_puzzle[per_puzzle.len() / 2],
        *per_puzzle.last()?,
    ))
}

/// Times `solver` on `set`.
pub(crate) fn builtin(solver: &Solver, set: &PuzzleSet, rounds: Rounds) -> Measurement {
    let boards: Vec<Vec<Vec<char>>> = set.puzzles.iter().map(Board::to_rows).collect();
    // Validation round: it also warms caches and the branch predictor.
    let mut wrong = 0;
    let mut first_wrong = None;
    for (n, (rows, puzzle)) in boards.iter().zip(&set.puzzles).enumerate() {
        let mut answer = rows.clone();
        (solver.solve)(&mut answer);
        let solved = crate::solver::read_cells(&answer)
            .and_then(|cells| Board::from_bytes(&cells))
            .is_some_and(|a| a.solves(puzzle));
        if !solved {
            wrong += 1;
            first_wrong.get_or_insert(n + 1);
        }
    }
    let guesses_per_puzzle = (solver.name == crate::solver::default_solver().name).then(|| {
        let total: u64 = set
            .puzzles
            .iter()
            .map(|p| reference::search(&p.to_bytes(), 1).guesses)
            .sum();
        total as f64 / set.puzzles.len() as f64
    });
    let mut measurement = Measurement {
        solver: solver.name.to_string(),
        file: set.path.as_path().into(),
        puzzles: set.puzzles.len(),
        us_per_puzzle: None,
        guesses_per_puzzle,
        wrong,
        first_wrong,
    };
    if wrong > 0 {
        return measurement;
    }
    let mut per_puzzle = Vec::with_capacity(rounds.measured);
    for round in 0..rounds.warmup.saturating_sub(1) + rounds.measured {
        // Copies are made before the clock starts; only solving is timed.
        let mut work = boards.clone();
        let started = Instant::now();
        for board in &mut work {
            (solver.solve)(board);
        }
        let elapsed = started.elapsed();
        std::hint::black_box(&work);
        if round + 1 >= rounds.warmup {
            per_puzzle.push(elapsed.as_secs_f64() * 1e6 / boards.len() as f64);
        }
    }
    measurement.us_per_puzzle = spread(per_puzzle);
    measurement
}

/// Times an external program on `set` given as one AcWing input: whole
/// process time per puzzle, as a judge sees it.
pub(crate) fn command(
    launch: &Launch,
    set: &PuzzleSet,
    rounds: Rounds,
) -> anyhow::Result<Measurement> {
    let input = format::acwing_input(&set.puzzles);
    let name = launch.label.trim_matches('`');
    let run = || -> anyhow::Result<(Duration, String)> {
        let limits = crate::case::Limits {
            time: Duration::from_secs(300),
            memory_kb: 4 << 20,
            wall_factor: 2,
        };
        let mut spec = launch.spec(&limits, false);
        spec.kill_after = Duration::from_secs(600);
        spec.stdout_limit = crate::case::Limits::output_bytes(set.puzzles.len());
        spec.stderr_tail = 4096;
        let (finished, stdout) = process::run_captured(spec, input.as_bytes())
            .with_context(|| format!("failed to start `{name}`"))?;
        if finished.killed.is_some() || finished.exit != process::Exit::Code(0) {
            let stderr = String::from_utf8_lossy(&finished.stderr);
            let how = match finished.killed {
                Some(process::Kill::Wall) => "killed after 600 s of wall time".to_string(),
                Some(process::Kill::Cpu) => "killed after 300 s of CPU time".to_string(),
                Some(process::Kill::Memory) => "killed at 4 GB of memory".to_string(),
                Some(process::Kill::Output) => "killed for printing more than the output limit \
                                                 (256 bytes a puzzle)"
                    .to_string(),
                Some(process::Kill::Interrupted) => "interrupted".to_string(),
                Some(process::Kill::Startup) | None => crate::runner::crash(finished.exit, &stderr),
            };
            let stderr = stderr.trim_end();
            bail!(
                "`{name}` failed on {}: {how} (bench gives it the puzzles as one AcWing input on \
                 stdin, closed by `end`, and times it while it answers them all){}",
                set.path.display(),
                if stderr.is_empty() {
                    String::new()
                } else {
                    format!("; its stderr:\n{stderr}")
                },
            );
        }
        Ok((finished.wall, String::from_utf8_lossy(&stdout).into_owned()))
    };
    let (_, output) = run()?;
    let answers = format::parse(&output, Format::AcWing, Mode::Answers)
        .map(|p| p.into_boards())
        .unwrap_or_default();
    let wrong_puzzles: Vec<usize> = set
        .puzzles
        .iter()
        .enumerate()
        .filter(|(n, p)| !answers.get(*n).is_some_and(|a| a.solves(p)))
        .map(|(n, _)| n + 1)
        .collect();
    let (wrong, first_wrong) = (wrong_puzzles.len(), wrong_puzzles.first().copied());
    let mut measurement = Measurement {
        solver: format!("`{name}`"),
        file: set.path.as_path().into(),
        puzzles: set.puzzles.len(),
        us_per_puzzle: None,
        guesses_per_puzzle: None,
        wrong,
        first_wrong,
    };
    if wrong == 0 {
        let mut per_puzzle = Vec::with_capacity(rounds.measured);
        for _ in 0..rounds.warmup.saturating_sub(1) {
            run()?;
        }
        for _ in 0..rounds.measured {
            let (wall, _) = run()?;
            per_puzzle.push(wall.as_secs_f64() * 1e6 / set.puzzles.len() as f64);
        }
        measurement.us_per_puzzle = spread(per_puzzle);
    }
    Ok(measurement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::EXAMPLE;
    use crate::solver;

    /// `solver` measured over a data set file holding `text`, with how
    /// many puzzles were read from it.
    fn measured(text: &str, solver: &solver::Solver) -> (usize, Measurement) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("set.txt");
        std::fs::write(&path, text).unwrap();
        let set = read_puzzles(&path, None).unwrap();
        let rounds = Rounds {
            warmup: 1,
            measured: 3,
        };
        (set.puzzles.len(), builtin(solver, &set, rounds))
    }

    #[test]
    fn dataset_files_with_comments_are_read() {
        let text = format!("# a comment\n{EXAMPLE}\n\n");
        let (puzzles, m) = measured(&text, solver::default_solver());
        assert_eq!(puzzles, 1);
        assert_eq!(m.wrong, 0);
        let (min, median, max) = m.us_per_puzzle.unwrap();
        assert!(min <= median && median <= max);
    }

    #[test]
    fn a_wrong_solver_gets_no_time() {
        let wrong = solver::find("faulty-wrong-digit").unwrap();
        let (_, m) = measured(&format!("{EXAMPLE}\n"), wrong);
        assert_eq!(
            (m.wrong, m.first_wrong, m.us_per_puzzle),
            (1, Some(1), None)
        );
    }
}
