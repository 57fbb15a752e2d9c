//! What `hack` says: the line that opens a search, its progress, and what
//! it found, with the command that judges the saved input again.

use std::io::{self, Write};
use std::time::Duration;

use crate::hack::{HackConfig, HackOutcome};
use crate::outside::{Outside, OutsidePath};
use crate::stress;
use crate::verdict::Verdict;
use crate::words::{plural, seconds, whole_ms};

/// The opening line; `budget` as the user gave it.
pub(crate) fn started(out: &mut dyn Write, config: &HackConfig, budget: &str) -> io::Result<()> {
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
pub(crate) fn round_message(
    round: u64,
    time: Duration,
    verdict: Verdict,
    best: Duration,
) -> String {
    format!(
        "round {round}: last {verdict} in {}, slowest {}",
        whole_ms(time),
        whole_ms(best)
    )
}

/// A line each time the hack finds a slower input.
pub(crate) fn improved_line(round: u64, time: Duration, how: &str) -> String {
    format!(
        "round {round}: {}, the slowest so far ({how})",
        whole_ms(time)
    )
}

/// How the search ended. `reproduce` is what follows `sudoku-judge test
/// INPUT` to judge the saved input again.
pub(crate) fn outcome(
    out: &mut dyn Write,
    outcome: &HackOutcome,
    limit: Duration,
    reproduce: &str,
) -> io::Result<()> {
    let found = match outcome {
        HackOutcome::Interrupted { rounds } => {
            return writeln!(out, "interrupted after {rounds} rounds");
        }
        HackOutcome::Failed(found) => {
            // A TLE was confirmed with the limit raised (`stress::confirming`).
            let rerun = match found.verdict {
                Verdict::TLE => format!(
                    "a rerun with the limit raised to {}",
                    whole_ms(stress::raised(limit))
                ),
                _ => "a rerun".to_string(),
            };
            writeln!(
                out,
                "hacked: {} in round {} after {} (and again on {rerun}): {}",
                found.verdict,
                found.round,
                seconds(found.elapsed, 1),
                Outside::new(found.reason.sentence()).terminal()
            )?;
            found
        }
        HackOutcome::Survived(found) => {
            writeln!(
                out,
                "no failure in {} rounds ({}); the slowest input took {} of the {} limit \
                 (round {}){}",
                found.rounds,
                seconds(found.elapsed, 1),
                whole_ms(found.time),
                whole_ms(limit),
                found.round,
                if found.time > limit {
                    format!(
                        ": over it, but within {} on a rerun, too close to call a TLE",
                        whole_ms(stress::raised(limit))
                    )
                } else {
                    String::new()
                }
            )?;
            found
        }
    };
    writeln!(
        out,
        "saved:     {} with {}",
        OutsidePath::new(&found.input).terminal(),
        OutsidePath::new(&found.expected).terminal()
    )?;
    writeln!(
        out,
        "reproduce: sudoku-judge test {} {reproduce}",
        crate::outside::shell_path(&found.input)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Limits;
    use crate::hack::{Budget, Found};
    use crate::reason::{fixtures, Reason};
    use crate::runner::Submission;
    use std::path::PathBuf;

    fn found(verdict: Verdict, reason: Reason, time_ms: u64) -> Found {
        Found {
            verdict,
            reason,
            time: Duration::from_millis(time_ms),
            round: 12,
            rounds: 40,
            elapsed: Duration::from_millis(60_250),
            input: PathBuf::from("hack-cases/hack-12.in"),
            expected: PathBuf::from("hack-cases/hack-12.out"),
        }
    }

    /// Every line `hack` can print, for each way a search ends; times are
    /// fixed, never measured.
    #[test]
    fn says_how_a_search_started_went_and_ended() {
        let config = HackConfig {
            submission: Submission::NotCompiled {
                label: "dfs.cpp".into(),
            },
            seed: 3,
            budget: Budget::Time(Duration::from_secs(60)),
            puzzles: 5,
            limits: Limits {
                time: Duration::from_secs(1),
                memory_kb: 256 * 1024,
                wall_factor: 2,
            },
            save: PathBuf::from("hack-cases"),
        };
        let limit = config.limits.time;
        let again = "--submission dfs.cpp --time-limit 1s";
        let mut out = Vec::new();
        started(&mut out, &config, "60s").unwrap();
        let (time, best) = (Duration::from_micros(412_400), Duration::from_millis(733));
        writeln!(out, "{}", round_message(9, time, Verdict::AC, best)).unwrap();
        writeln!(
            out,
            "{}",
            improved_line(10, best, "mutated round 7's input")
        )
        .unwrap();
        let cpu_limit = fixtures::killed_at_the_cpu_limit(Duration::from_millis(1000));
        for ended in [
            HackOutcome::Failed(found(Verdict::TLE, cpu_limit, 1000)),
            HackOutcome::Failed(found(Verdict::WA, fixtures::two_fives_in_row_one(), 40)),
            HackOutcome::Survived(found(Verdict::AC, Reason::Accepted, 733)),
            HackOutcome::Survived(found(Verdict::AC, Reason::Accepted, 1210)),
            HackOutcome::Interrupted { rounds: 8 },
        ] {
            outcome(&mut out, &ended, limit, again).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("took 733 ms of the 1000 ms limit (round 12)\n"),
            "{text}"
        );
        assert!(
            text.contains("(and again on a rerun with the limit raised to 1500 ms)"),
            "{text}"
        );
        assert!(
            text.contains("WA in round 12 after 60.2 s (and again on a rerun):"),
            "{text}"
        );
        assert!(
            text.contains("took 1210 ms of the 1000 ms limit (round 12): over it, but within 1500 ms on a rerun, too close to call a TLE"),
            "{text}"
        );
        insta::assert_snapshot!(text);
    }
}
