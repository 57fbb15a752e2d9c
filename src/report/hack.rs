//! What `hack` says: the line that opens a search, its progress, and what
//! it found, with the command that judges the saved input again.

use std::io::{self, Write};
use std::time::Duration;

use crate::hack::{Config, Outcome};
use crate::verdict::Verdict;
use crate::words::{plural, seconds, whole_ms};

/// The opening line; `budget` as the user gave it.
pub fn started(out: &mut dyn Write, config: &Config, budget: &str) -> io::Result<()> {
    writeln!(
        out,
        "hack: {}, {} an input, time limit {}, seed {}, budget {budget}",
        config.submission.label(),
        plural(config.puzzles, "puzzle"),
        whole_ms(config.limits.time),
        config.seed,
    )
}

/// The progress bar's message after each round.
pub fn round_message(round: u64, time: Duration, verdict: Verdict, best: Duration) -> String {
    format!(
        "round {round}: last {verdict} in {}, slowest {}",
        whole_ms(time),
        whole_ms(best)
    )
}

/// A line each time the hack finds a slower input.
pub fn improved_line(round: u64, time: Duration, how: &str) -> String {
    format!(
        "round {round}: {}, the slowest so far ({how})",
        whole_ms(time)
    )
}

/// How the search ended. `reproduce` is what follows `sudoku-judge test
/// INPUT` to judge the saved input again.
pub fn outcome(
    out: &mut dyn Write,
    outcome: &Outcome,
    limit: Duration,
    reproduce: &str,
) -> io::Result<()> {
    let found = match outcome {
        Outcome::Interrupted { rounds } => {
            return writeln!(out, "interrupted after {rounds} rounds");
        }
        Outcome::Failed(found) => {
            writeln!(
                out,
                "hacked: {} in round {} after {} (and again on a rerun): {}",
                found.verdict,
                found.round,
                seconds(found.elapsed, 1),
                found.reason
            )?;
            found
        }
        Outcome::Survived(found) => {
            writeln!(
                out,
                "no failure in {} rounds ({}); the slowest input took {} of the {} limit \
                 (round {})",
                found.rounds,
                seconds(found.elapsed, 1),
                whole_ms(found.time),
                whole_ms(limit),
                found.round
            )?;
            found
        }
    };
    writeln!(
        out,
        "saved:     {} with {}",
        found.input.display(),
        found.expected.display()
    )?;
    writeln!(
        out,
        "reproduce: sudoku-judge test {} {reproduce}",
        found.input.display()
    )
}
