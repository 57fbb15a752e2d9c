//! Hacking, as Codeforces hackers do by hand: search for an input on which
//! a submission fails (TLE, WA, RE, MLE, ...), by local search over puzzles
//! with the submission's measured time as the objective.
//!
//! What costs a submission time depends on how it searches, which the hack
//! cannot see; so it starts from inputs that are hard for each kind of
//! search people write (puzzles that need many guesses of a strong solver,
//! many nodes of fewest-candidates search, many nodes of row-major
//! backtracking) and lets the measured time say which kind hurts. Then it
//! mutates the slowest input found so far and keeps what is slower still:
//!
//! - a puzzle made harder for the kind of search that hurts most (the
//!   generator asked for twice the work it last gave);
//! - a neighbour of a puzzle (givens dropped and added, one solution kept);
//! - a puzzle relabelled and laid out anew by the symmetries of Sudoku,
//!   which leave its logic alone but change the order a search meets it in.
//!
//! It stops at the first input the submission fails on, once the failure
//! repeats (a timing that crosses the limit once is no hack, and a TLE
//! must repeat with the limit raised by [`stress::TLE_MARGIN`]), or when
//! the budget is spent, and saves the failing or slowest input as a case.
//! Every input is judged through [`stress::judge_input`], as `stress` does.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;

use crate::board::Board;
use crate::case::Limits;
use crate::generate::{Generator, HardFor, Measure, Target, FIENDISH_GOAL};
use crate::runner::{process, Submission};
use crate::stress::{self, Judged, Pair};
use crate::verdict::Verdict;

/// When to stop searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Budget {
    Rounds(u64),
    Time(Duration),
}

/// What to hack, and how.
pub(crate) struct HackConfig {
    pub(crate) submission: Submission,
    pub(crate) seed: u64,
    pub(crate) budget: Budget,
    /// Puzzles in each input, as in an AcWing 166 input file.
    pub(crate) puzzles: usize,
    pub(crate) limits: Limits,
    /// Where the failing or slowest input is saved.
    pub(crate) save: PathBuf,
}

/// How far a hack got, for progress reports.
pub(crate) trait Progress {
    /// Round `round` judged an input in `time` with `verdict`; `best` is
    /// the slowest time so far.
    fn round(&mut self, round: u64, time: Duration, verdict: Verdict, best: Duration);
    /// A new slowest input, and how it was made.
    fn improved(&mut self, round: u64, time: Duration, how: &str);
}

/// The input a hack ends with.
#[derive(Debug)]
pub(crate) struct Found {
    pub(crate) verdict: Verdict,
    pub(crate) reason: crate::reason::Reason,
    pub(crate) time: Duration,
    /// The round that judged it, counted from 1.
    pub(crate) round: u64,
    pub(crate) rounds: u64,
    pub(crate) elapsed: Duration,
    pub(crate) input: PathBuf,
    pub(crate) expected: PathBuf,
}

/// How a hack ended.
#[derive(Debug)]
pub(crate) enum HackOutcome {
    /// The submission failed on the saved input, twice in a row (a TLE
    /// the second time with the limit raised by [`stress::TLE_MARGIN`]).
    Failed(Found),
    /// The budget ran out; the saved input is the slowest found.
    Survived(Found),
    Interrupted {
        rounds: u64,
    },
}

/// A kind of search that inputs are made hard for: the work a fresh
/// puzzle of that kind starts at (one the generator makes in
/// milliseconds), and the most it is pushed to (past which a fresh puzzle
/// takes the generator longer than judging it does).
#[derive(Clone, Copy, Debug)]
struct SearchKind {
    measure: Measure,
    start: u64,
    most: u64,
}

const KINDS: [SearchKind; 3] = [
    SearchKind {
        measure: Measure::Propagate,
        start: FIENDISH_GOAL / 2,
        most: 400,
    },
    SearchKind {
        measure: Measure::Mrv,
        start: 3_000,
        most: 2_000_000,
    },
    SearchKind {
        measure: Measure::Backtrack,
        start: 500_000,
        most: 200_000_000,
    },
];
/// Neighbours the generator may try for one fresh puzzle.
const ATTEMPTS: usize = 5_000;

/// An input with what made it.
#[derive(Clone)]
struct Candidate {
    puzzles: Vec<Pair>,
    kind: usize,
}

struct Search<'a> {
    config: &'a HackConfig,
    rng: ChaCha8Rng,
    generator: Generator,
    /// The work the next fresh puzzle of each kind is asked for.
    levels: [u64; 3],
}

impl Search<'_> {
    /// A fresh puzzle of kind `k` at its current level; a level the
    /// generator cannot reach in its attempts is lowered again.
    fn fresh(&mut self, k: usize) -> anyhow::Result<Pair> {
        loop {
            let target = Target {
                hard_for: Some(HardFor {
                    measure: KINDS[k].measure,
                    min: self.levels[k],
                }),
                ..Target::default()
            };
            if let Some(made) = self.generator.puzzle(target, ATTEMPTS) {
                return Ok((made.puzzle, made.solution));
            }
            anyhow::ensure!(
                self.levels[k] > KINDS[k].start,
                "the generator made no puzzle{}",
                target.describe()
            );
            self.levels[k] = (self.levels[k] / 2).max(KINDS[k].start);
        }
    }

    /// An input of fresh puzzles of kind `k`.
    fn input(&mut self, k: usize) -> anyhow::Result<Candidate> {
        let puzzles = (0..self.config.puzzles)
            .map(|_| self.fresh(k))
            .collect::<anyhow::Result<_>>()?;
        Ok(Candidate { puzzles, kind: k })
    }

    /// A mutation of `best`, and what it did.
    fn mutate(&mut self, best: &Candidate) -> anyhow::Result<(Candidate, &'static str)> {
        let mut next = best.clone();
        let i = self.rng.random_range(0..next.puzzles.len());
        let (puzzle, solution) = next.puzzles[i];
        let how = match self.rng.random_range(0..3) {
            0 => {
                let k = best.kind;
                self.levels[k] = (self.levels[k] * 2).min(KINDS[k].most);
                next.puzzles[i] = self.fresh(k)?;
                "a puzzle made harder"
            }
            1 => {
                let mut cells = self
                    .generator
                    .neighbour(&puzzle.to_bytes(), &solution.to_bytes());
                if KINDS[best.kind].measure == Measure::Backtrack {
                    cells = Generator::worst_for_backtrack(&cells);
                }
                next.puzzles[i] = pair(&cells);
                "a neighbour of a puzzle"
            }
            _ => {
                let cells = self.generator.shuffle(&puzzle.to_bytes());
                next.puzzles[i] = pair(&cells);
                "a puzzle relabelled"
            }
        };
        Ok((next, how))
    }
}

/// `cells`, a unique puzzle, with its solution.
fn pair(cells: &[u8; 81]) -> Pair {
    let solution = crate::solver::reference::search(cells, 1)
        .first
        .expect("mutations keep one solution");
    (
        Board::from_bytes(cells).expect("digits"),
        Board::from_bytes(&solution).expect("digits"),
    )
}

/// Searches until the submission fails, the budget is spent or the user
/// interrupts; saves the failing or slowest input.
pub(crate) fn run(config: &HackConfig, progress: &mut dyn Progress) -> anyhow::Result<HackOutcome> {
    let started = Instant::now();
    let mut search = Search {
        config,
        rng: ChaCha8Rng::seed_from_u64(config.seed),
        generator: Generator::new(config.seed),
        levels: KINDS.map(|k| k.start),
    };
    let mut best: Option<(Candidate, Judged, u64)> = None;
    let mut round = 0;
    let spent = |round: u64| match config.budget {
        Budget::Rounds(n) => round >= n,
        Budget::Time(t) => started.elapsed() >= t,
    };
    while !spent(round) {
        if process::interrupted() {
            return Ok(HackOutcome::Interrupted { rounds: round });
        }
        // First one input of each kind, then mutations of the slowest.
        let (candidate, how) = match &best {
            Some((b, _, _)) if round as usize >= KINDS.len() => search.mutate(b)?,
            _ => (search.input(round as usize % KINDS.len())?, "fresh puzzles"),
        };
        round += 1;
        let judged = stress::judge_input(&config.submission, &config.limits, &candidate.puzzles)?;
        let Some(mut judged) = judged.filter(|_| !process::interrupted()) else {
            return Ok(HackOutcome::Interrupted { rounds: round });
        };
        let best_time = best.as_ref().map_or(Duration::ZERO, |(_, j, _)| j.time);
        progress.round(
            round,
            judged.time,
            judged.verdict,
            best_time.max(judged.time),
        );
        if judged.verdict != Verdict::AC {
            // A failure must repeat: a time that crosses the limit once is
            // noise, not a hack; and a TLE must repeat with room to spare.
            let limits = stress::confirming(&config.limits, judged.verdict);
            let again = stress::judge_input(&config.submission, &limits, &candidate.puzzles)?;
            let Some(again) = again.filter(|_| !process::interrupted()) else {
                return Ok(HackOutcome::Interrupted { rounds: round });
            };
            if again.verdict == judged.verdict {
                let found = finish(config, &candidate, judged, round, round, started)?;
                return Ok(HackOutcome::Failed(found));
            }
            if judged.verdict == Verdict::TLE && again.verdict == Verdict::AC {
                // Too close to call: the rerun's whole time is what the
                // search goes on from.
                judged = again;
            }
        }
        if judged.time > best_time || best.is_none() {
            progress.improved(round, judged.time, how);
            best = Some((candidate, judged, round));
        }
    }
    let (candidate, judged, at) = best.expect("at least one round");
    Ok(HackOutcome::Survived(finish(
        config, &candidate, judged, at, round, started,
    )?))
}

fn finish(
    config: &HackConfig,
    candidate: &Candidate,
    judged: Judged,
    round: u64,
    rounds: u64,
    started: Instant,
) -> anyhow::Result<Found> {
    let (input, expected) = stress::save(
        &config.save,
        &format!("hack-{}", config.seed),
        &candidate.puzzles,
    )?;
    Ok(Found {
        verdict: judged.verdict,
        reason: judged.reason,
        time: judged.time,
        round,
        rounds,
        elapsed: started.elapsed(),
        input,
        expected,
    })
}

/// Reads `--budget`: a number of rounds (`200`) or a time (`30s`, `2m`).
pub(crate) fn parse_budget(text: &str) -> anyhow::Result<Budget> {
    let text = text.trim();
    if let Ok(rounds) = text.parse::<u64>() {
        anyhow::ensure!(rounds > 0, "a budget of 0 rounds would judge nothing");
        return Ok(Budget::Rounds(rounds));
    }
    let time = crate::case::settings::parse_duration(text).map_err(|_| {
        anyhow::anyhow!("`{text}` is not a budget; write rounds (`200`) or a time (`30s`, `2m`)")
    })?;
    Ok(Budget::Time(time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_rounds_or_times() {
        assert_eq!(parse_budget("200").unwrap(), Budget::Rounds(200));
        assert_eq!(
            parse_budget("30s").unwrap(),
            Budget::Time(Duration::from_secs(30))
        );
        assert_eq!(
            parse_budget("2m").unwrap(),
            Budget::Time(Duration::from_secs(120))
        );
        assert!(parse_budget("0").is_err());
        assert!(parse_budget("soon")
            .unwrap_err()
            .to_string()
            .contains("rounds (`200`) or a time"));
    }
}
