//! What `stress` says: the line that opens a run, its progress, and how it
//! ended, with the commands that rerun and reproduce a failure.

use std::io::{self, Write};

use crate::stress::{Config, Outcome};
use crate::words::{plural, seconds};

/// The opening line: what is judged against what, on which inputs.
/// `generator` is the user's `--gen` command as they gave it.
pub fn started(out: &mut dyn Write, config: &Config, generator: Option<&str>) -> io::Result<()> {
    let against = match &config.brute {
        Some(brute) => format!("the brute force {}", brute.label()),
        None => "the reference solver".to_string(),
    };
    let inputs = match generator {
        Some(gen) => format!("what `{gen} SEED` prints"),
        None => format!("{} a round", plural(config.puzzles_per_round, "puzzle")),
    };
    writeln!(
        out,
        "stress: {} against {against}, {inputs}, seed {}",
        config.submission.label(),
        config.seed
    )
}

/// Off a terminal, where no bar shows: a line now and then.
pub fn rounds_line(done: u64, total: u64) -> String {
    format!("stress: {done} of {total} rounds accepted")
}

/// Off a terminal: how far shrinking has got.
pub fn shrinking_line(runs: usize, puzzles: usize, givens: usize) -> String {
    format!(
        "stress: shrinking the failing input: {} with {givens} givens after {}",
        plural(puzzles, "puzzle"),
        plural(runs, "run")
    )
}

/// On a terminal: the progress bar's message while shrinking.
pub fn shrinking_message(runs: usize, puzzles: usize, givens: usize) -> String {
    format!(
        "shrinking: {}, {givens} givens, {}",
        plural(puzzles, "puzzle"),
        plural(runs, "run")
    )
}

/// How the run ended. `rerun` names the submission as `test` takes it;
/// `same` holds the flags that shape a round, to replay the failing one.
pub fn outcome(
    out: &mut dyn Write,
    outcome: &Outcome,
    seed: u64,
    rerun: &str,
    same: &str,
) -> io::Result<()> {
    match outcome {
        Outcome::Passed { rounds, elapsed } => writeln!(
            out,
            "all {rounds} rounds accepted in {} (seeds {seed}..{}); no failure found",
            seconds(*elapsed, 1),
            seed + rounds
        ),
        Outcome::Interrupted { rounds } => {
            writeln!(out, "interrupted after {rounds} accepted rounds")
        }
        Outcome::Failed(f) => {
            writeln!(
                out,
                "round {} failed with {}: {}",
                f.round + 1,
                f.verdict,
                f.reason
            )?;
            writeln!(
                out,
                "shrunk in {}: {} with {} givens -> {} with {} givens",
                plural(f.shrink_runs, "run"),
                plural(f.original_puzzles, "puzzle"),
                f.original_givens,
                plural(f.puzzles, "puzzle"),
                f.givens
            )?;
            writeln!(
                out,
                "saved:     {} with {}",
                f.input.display(),
                f.expected.display()
            )?;
            writeln!(
                out,
                "rerun:     sudoku-judge test {} {rerun}",
                f.input.display()
            )?;
            writeln!(
                out,
                "reproduce: sudoku-judge stress {rerun} --seed {} --rounds 1{same}",
                f.round_seed
            )
        }
    }
}
