//! What `stress` says: the line that opens a run, its progress, and how it
//! ended, with the commands that rerun and reproduce a failure.

use std::io::{self, Write};
use std::time::Duration;

use crate::outside::{Outside, OutsidePath};
use crate::stress::{StressConfig, StressOutcome};
use crate::words::{plural, seconds, whole_ms};

/// The opening line: what is judged against what, on which inputs.
/// `generator` is the user's `--gen` command as they gave it.
pub(crate) fn started(
    out: &mut dyn Write,
    config: &StressConfig,
    generator: Option<&str>,
) -> io::Result<()> {
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

/// Off a terminal, where no bar shows: a line now and then; `total`
/// when the rounds are capped.
pub(crate) fn rounds_line(done: u64, total: Option<u64>, elapsed: Duration) -> String {
    match total {
        Some(total) => format!("stress: {done} of {total} rounds accepted"),
        None => format!(
            "stress: {} accepted in {}",
            plural(done as usize, "round"),
            seconds(elapsed, 0)
        ),
    }
}

/// On a terminal, with no cap on rounds: the spinner's message, with the
/// time the run stops at.
pub(crate) fn rounds_message(done: u64, time: Option<Duration>) -> String {
    let accepted = format!("{} accepted", plural(done as usize, "round"));
    match time {
        Some(time) => format!("{accepted}, stopping at {}", super::progress::short(time)),
        None => accepted,
    }
}

/// A round that ran out of time but not with the limit raised: said on a
/// terminal or not, since the run goes on as if it had passed.
pub(crate) fn close_call_line(round: u64, time: Duration, raised: Duration) -> String {
    format!(
        "stress: round {} ran out of time, then took {} with the limit raised to {}: \
         too close to call, not a failure",
        round + 1,
        whole_ms(time),
        whole_ms(raised)
    )
}

/// Off a terminal: how far shrinking has got.
pub(crate) fn shrinking_line(runs: usize, puzzles: usize, givens: usize) -> String {
    format!(
        "stress: shrinking the failing input: {} with {givens} givens after {}",
        plural(puzzles, "puzzle"),
        plural(runs, "run")
    )
}

/// On a terminal: the progress bar's message while shrinking.
pub(crate) fn shrinking_message(runs: usize, puzzles: usize, givens: usize) -> String {
    format!(
        "shrinking: {}, {givens} givens, {}",
        plural(puzzles, "puzzle"),
        plural(runs, "run")
    )
}

/// How the run ended. `rerun` names the submission as `test` takes it;
/// `same` holds the flags that shape a round, to replay the failing one.
pub(crate) fn outcome(
    out: &mut dyn Write,
    outcome: &StressOutcome,
    seed: u64,
    rerun: &str,
    same: &str,
) -> io::Result<()> {
    match outcome {
        StressOutcome::Passed {
            rounds,
            elapsed,
            on_time,
            close_calls,
        } => writeln!(
            out,
            "all {rounds} rounds accepted in {} (seeds {seed}..{}){}; no failure found{}",
            seconds(*elapsed, 1),
            seed + rounds,
            if *on_time { ", stopped at --time" } else { "" },
            match close_calls {
                0 => String::new(),
                n => format!(
                    ", but {} ran out of time once and passed only with the limit raised by half",
                    plural(*n as usize, "round")
                ),
            }
        ),
        StressOutcome::Interrupted { rounds } => {
            writeln!(out, "interrupted after {rounds} accepted rounds")
        }
        StressOutcome::Failed(f) => {
            writeln!(
                out,
                "round {} failed with {}: {}",
                f.round + 1,
                f.verdict,
                Outside::new(f.reason.sentence()).terminal()
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
                OutsidePath::new(&f.input).terminal(),
                OutsidePath::new(&f.expected).terminal()
            )?;
            writeln!(
                out,
                "rerun:     sudoku-judge test {} {rerun}",
                crate::outside::shell_path(&f.input)
            )?;
            writeln!(
                out,
                "reproduce: sudoku-judge stress {rerun} --seed {} --rounds 1{same}",
                f.round_seed
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Limits;
    use crate::generate::Target;
    use crate::runner::Submission;
    use crate::stress::Failure;
    use crate::verdict::Verdict;
    use std::path::PathBuf;

    fn config(brute: bool) -> StressConfig {
        StressConfig {
            submission: Submission::NotCompiled {
                label: "main.cpp".into(),
            },
            seed: 40,
            rounds: Some(1000),
            time: None,
            puzzles_per_round: 5,
            target: Target::default(),
            limits: Limits {
                time: Duration::from_secs(1),
                memory_kb: 256 * 1024,
                wall_factor: 2,
            },
            save: PathBuf::from("stress-cases"),
            shrink_runs: 300,
            generator: None,
            brute: brute.then(|| Submission::NotCompiled {
                label: "brute.py".into(),
            }),
        }
    }

    /// Every line `stress` can print, for each way a run ends; the elapsed
    /// time is fixed, never measured.
    #[test]
    fn says_how_a_run_started_went_and_ended() {
        let mut out = Vec::new();
        started(&mut out, &config(false), None).unwrap();
        started(&mut out, &config(true), Some("python3 gen.py")).unwrap();
        writeln!(out, "{}", rounds_line(120, Some(1000), Duration::ZERO)).unwrap();
        writeln!(
            out,
            "{}",
            rounds_line(120, None, Duration::from_millis(5_200))
        )
        .unwrap();
        writeln!(out, "{}", rounds_message(1, Some(Duration::from_secs(8)))).unwrap();
        writeln!(
            out,
            "{}",
            close_call_line(11, Duration::from_millis(1210), Duration::from_millis(1500))
        )
        .unwrap();
        writeln!(out, "{}", shrinking_line(1, 5, 120)).unwrap();
        writeln!(out, "{}", shrinking_message(37, 1, 24)).unwrap();
        let rerun = "--submission main.cpp";
        let same = " --puzzles 5 --time-limit 1s";
        let passed = |rounds, elapsed_ms, on_time, close_calls| StressOutcome::Passed {
            rounds,
            elapsed: Duration::from_millis(elapsed_ms),
            on_time,
            close_calls,
        };
        let failed = StressOutcome::Failed(Box::new(Failure {
            round: 6,
            round_seed: 46,
            verdict: Verdict::WA,
            reason: crate::reason::fixtures::two_fives_in_row_one(),
            original_puzzles: 5,
            original_givens: 120,
            puzzles: 1,
            givens: 24,
            shrink_runs: 37,
            input: PathBuf::from("stress-cases/stress-46.in"),
            expected: PathBuf::from("stress-cases/stress-46.out"),
        }));
        for ended in [
            passed(1000, 12_340, false, 0),
            passed(2470, 8_003, true, 0),
            passed(200, 95_100, false, 2),
            StressOutcome::Interrupted { rounds: 17 },
            failed,
        ] {
            outcome(&mut out, &ended, 40, rerun, same).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("(seeds 40..1040)"), "{text}");
        assert!(
            text.contains("stress: round 12 ran out of time, then took 1210 ms with the limit raised to 1500 ms: too close to call, not a failure\n"),
            "{text}"
        );
        assert!(text.contains("--seed 46 --rounds 1 --puzzles 5"), "{text}");
        insta::assert_snapshot!(text);
    }
}
