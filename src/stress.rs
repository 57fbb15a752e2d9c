//! Stress testing (对拍): judge a submission on freshly generated puzzles,
//! round after round, until it fails; then shrink the failing input while
//! it keeps failing the same way, and save it as a case.
//!
//! The reference is the generator itself: every puzzle has exactly one
//! solution, proved by the reference solver, so the expected answers are
//! certain and any valid answer is the right one. A user's own generator
//! (`--gen CMD`, given each round's seed) may print any puzzles; each is
//! solved by the reference solver, and one with no solution is the
//! generator's fault. A user's own brute force (`--brute FILE`) is run on
//! each input first, and its answers are the expected ones (a brute force
//! that fails stops the run: it is the reference).
//!
//! Shrinking first drops puzzles from the input (a bug that needs two
//! puzzles in a row, such as state left over between them, keeps both),
//! then adds givens back from the solution, in halving chunks, keeping
//! each addition that still fails: the saved case is as close to solved as
//! the bug allows, so there is as little search as possible to follow by
//! hand. Added givens keep the puzzle's one solution.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::board::format;
use crate::board::{Board, Cell, Format};
use crate::case::{self, CaseData};
use crate::case::{CheckerKind, Limits};
use crate::check::{Checked, Checker};
use crate::generate::{Generator, Target};
use crate::reason::Reason;
use crate::runner::lang::launch::{Launch, Runtime};
use crate::runner::{process, Submission};
use crate::verdict::Verdict;

/// A puzzle with its one solution.
pub(crate) type Pair = (Board, Board);

/// An input shrunk as far as it would go: its puzzles, the runs spent and
/// the reason of its last failure.
struct Shrunk {
    puzzles: Vec<Pair>,
    runs: usize,
    reason: Reason,
}

/// What to stress, and how long.
pub(crate) struct StressConfig {
    pub(crate) submission: Submission,
    pub(crate) seed: u64,
    /// At most this many rounds; `None`: no cap (the run is bounded by
    /// `time`).
    pub(crate) rounds: Option<u64>,
    /// Stop after this long even if rounds remain.
    pub(crate) time: Option<Duration>,
    pub(crate) puzzles_per_round: usize,
    pub(crate) target: Target,
    pub(crate) limits: Limits,
    pub(crate) save: PathBuf,
    /// At most this many runs spent shrinking.
    pub(crate) shrink_runs: usize,
    /// The user's generator, run with each round's seed as its last
    /// argument, instead of the built-in one.
    pub(crate) generator: Option<Launch>,
    /// The user's brute force, whose answers are the expected ones.
    pub(crate) brute: Option<Submission>,
}

/// How long a user's generator may take to print a round's input.
const GENERATOR_TIME: Duration = Duration::from_secs(10);

/// Runs the user's generator with `seed` as its last argument, in the
/// sandbox as submissions are, and reads the puzzles it printed (any case
/// format: AcWing lines, LeetCode literals, grids).
fn generated(generator: &Launch, seed: u64) -> anyhow::Result<Vec<Board>> {
    let mut launch = generator.clone();
    if let Runtime::Exec { argv, .. } = &mut launch.runtime {
        argv.push(seed.to_string().into());
    }
    let command = format!("{} {seed}", generator.label.trim_matches('`'));
    let limits = Limits {
        time: GENERATOR_TIME,
        memory_kb: 1 << 20,
        wall_factor: 2,
    };
    let mut spec = launch.spec(&limits, false);
    spec.kill_after = GENERATOR_TIME * 2;
    spec.kill_after_cpu = Some(GENERATOR_TIME);
    spec.kill_above_memory_kb = Some(limits.memory_kb);
    spec.stdout_limit = 64 << 20;
    let (finished, stdout) = process::run_captured(spec, b"")
        .with_context(|| format!("failed to run the generator `{command}`"))?;
    let stderr = String::from_utf8_lossy(&finished.stderr);
    let stderr = stderr.trim_end();
    let said = if stderr.is_empty() {
        String::new()
    } else {
        format!("; it said: {stderr}")
    };
    if let Some(kill) = finished.killed {
        anyhow::bail!(
            "the generator `{command}` was stopped at its limit ({kill:?}): it must print a case \
             within {} s and 1 GB{said}",
            GENERATOR_TIME.as_secs()
        );
    }
    if finished.exit != process::Exit::Code(0) {
        anyhow::bail!(
            "the generator `{command}` failed ({}){said}; run it by hand to see why",
            crate::runner::crash(finished.exit, stderr)
        );
    }
    let text = String::from_utf8_lossy(&stdout);
    let found = Format::detect(&text);
    let parsed = format::parse(&text, found, format::Mode::Puzzles).map_err(|e| {
        anyhow::anyhow!(
            "the generator `{command}` printed no case: line {}, column {}: {} (read as {found} \
             format); it should print puzzles as a case, e.g. 81-character lines ('.' for a \
             blank) then `end`",
            e.line,
            e.column,
            e.message
        )
    })?;
    anyhow::ensure!(
        !parsed.boards.is_empty(),
        "the generator `{command}` printed no puzzle; it should print a case, e.g. 81-character \
         lines ('.' for a blank) then `end`"
    );
    Ok(parsed.into_boards())
}

/// Each puzzle with the reference solver's solution; a puzzle with none is
/// the generator's fault.
fn solved(puzzles: Vec<Board>, seed: u64) -> anyhow::Result<Vec<Pair>> {
    puzzles
        .into_iter()
        .enumerate()
        .map(|(n, puzzle)| {
            let solution = crate::solver::reference::search(&puzzle.to_bytes(), 1)
                .first
                .and_then(|cells| Board::from_bytes(&cells))
                .with_context(|| {
                    format!(
                        "puzzle {} the generator printed for seed {seed} has no solution, so no \
                         answer can be right; fix the generator",
                        n + 1
                    )
                })?;
            Ok((puzzle, solution))
        })
        .collect()
}

/// The user's brute force's answers to `puzzles`: the expected ones;
/// `None` when the user interrupted it.
fn brute_answers(
    brute: &Submission,
    limits: &Limits,
    puzzles: Vec<Pair>,
    seed: u64,
) -> anyhow::Result<Option<Vec<Pair>>> {
    let boards: Vec<Board> = puzzles.iter().map(|(p, _)| *p).collect();
    let case = CaseData::in_memory(&boards, None);
    let format = brute.answer_format(&case);
    let mut checker = Checker::new(CheckerKind::Sudoku, &case, format)?;
    let run = brute.run(&case, limits, &mut checker)?;
    let Some(Checked {
        verdict,
        reason,
        output,
        ..
    }) = crate::verdict_rules::decide(&case, &run, limits, checker.finish()?)
    else {
        return Ok(None);
    };
    if verdict != Verdict::AC {
        anyhow::bail!(
            "the brute force {} is not accepted on the input of seed {seed} ({verdict}: \
             {}), so it cannot say what is right; fix it, or raise --time-limit for it",
            brute.label(),
            reason.sentence()
        );
    }
    let answers = format::parse(&output, format, format::Mode::Answers)
        .map_err(|e| anyhow::anyhow!("cannot read the brute force's answers: {}", e.message))?
        .into_boards();
    anyhow::ensure!(
        answers.len() == boards.len(),
        "the brute force answered {} of {} puzzles",
        answers.len(),
        boards.len()
    );
    Ok(Some(boards.into_iter().zip(answers).collect()))
}

/// How far a stress run got, for progress reports.
pub(crate) trait Progress {
    /// `done` rounds accepted, of `total` when the rounds are capped.
    fn round(&mut self, done: u64, total: Option<u64>);
    fn shrinking(&mut self, runs: usize, puzzles: usize, givens: usize);
    /// Round `round` (from 0) ran out of time, then took `time` with the
    /// limit raised to `raised` and did not run out again: too close to
    /// call a failure, so the run goes on.
    fn close_call(&mut self, round: u64, time: Duration, raised: Duration);
}

/// A failure found, shrunk and saved.
#[derive(Debug)]
pub(crate) struct Failure {
    /// The round that failed, counted from 0, and the seed that replays it
    /// as round 0.
    pub(crate) round: u64,
    pub(crate) round_seed: u64,
    pub(crate) verdict: Verdict,
    pub(crate) reason: Reason,
    pub(crate) original_puzzles: usize,
    pub(crate) original_givens: usize,
    pub(crate) puzzles: usize,
    pub(crate) givens: usize,
    pub(crate) shrink_runs: usize,
    pub(crate) input: PathBuf,
    pub(crate) expected: PathBuf,
}

/// How a stress run ended.
#[derive(Debug)]
pub(crate) enum StressOutcome {
    /// Every round was accepted.
    Passed {
        rounds: u64,
        elapsed: Duration,
        /// It stopped because `--time` was up (with rounds left, if they
        /// were capped).
        on_time: bool,
        /// Rounds accepted although they ran out of time once: within
        /// [`TLE_MARGIN`] of the limit on their rerun.
        close_calls: u64,
    },
    Failed(Box<Failure>),
    Interrupted {
        rounds: u64,
    },
}

/// The seed that makes round `round`'s puzzles on its own.
pub(crate) fn round_seed(seed: u64, round: u64) -> u64 {
    seed.wrapping_add(round)
}

fn case_of(puzzles: &[Pair]) -> CaseData {
    let boards: Vec<Board> = puzzles.iter().map(|(p, _)| *p).collect();
    let answers: Vec<Board> = puzzles.iter().map(|(_, s)| *s).collect();
    CaseData::in_memory(&boards, Some(&answers))
}

/// What one judging of an input said.
#[derive(Clone, Debug)]
pub(crate) struct Judged {
    pub(crate) verdict: Verdict,
    pub(crate) reason: Reason,
    /// The time charged against the limit.
    pub(crate) time: Duration,
}

/// A TLE on a generated input is a failure only when it repeats with the
/// time limit raised by this factor ([`confirming`]). A run just over the
/// limit on a busy machine, which a quieter run of the same input passes,
/// would otherwise be saved as a case that fails only now and then.
pub(crate) const TLE_MARGIN: f64 = 1.5;

/// The limits an input that failed with `verdict` is judged again under
/// before `stress` or `hack` calls it a failure: for a TLE, `limits` with
/// the time limit raised by [`TLE_MARGIN`]; for anything else, `limits`.
pub(crate) fn confirming(limits: &Limits, verdict: Verdict) -> Limits {
    match verdict {
        Verdict::TLE => Limits {
            time: raised(limits.time),
            ..*limits
        },
        _ => *limits,
    }
}

/// The time limit a TLE's confirming run is judged under: `limit` times
/// [`TLE_MARGIN`].
pub(crate) fn raised(limit: Duration) -> Duration {
    limit.mul_f64(TLE_MARGIN)
}

/// Judges `puzzles`, as one AcWing input, with `submission` under
/// `limits`. The one place where `stress` and `hack` run a submission, so
/// that a change in how runs are made or charged is made here alone.
/// `None` when the user interrupted the run: it has no verdict.
pub(crate) fn judge_input(
    submission: &Submission,
    limits: &Limits,
    puzzles: &[Pair],
) -> anyhow::Result<Option<Judged>> {
    let case = case_of(puzzles);
    // A run the machine starved of CPU is run again; still starved, it is
    // no failure of the submission's, and the search stops saying so.
    let ran = crate::runner::run_patiently(*limits, |patient| {
        let mut checker =
            Checker::new(CheckerKind::Sudoku, &case, submission.answer_format(&case))?
                .answered_by(submission.answerer());
        let run = submission.run(&case, patient, &mut checker)?;
        Ok((run, checker))
    })?;
    let (run, checker, patient) = ran.map_err(anyhow::Error::msg)?;
    Ok(
        crate::verdict_rules::decide(&case, &run, &patient, checker.finish()?).map(|checked| {
            Judged {
                verdict: checked.verdict,
                reason: checked.reason,
                time: run.time,
            }
        }),
    )
}

fn givens(puzzles: &[Pair]) -> usize {
    puzzles.iter().map(|(p, _)| p.filled()).sum()
}

/// A round's puzzles with their solutions: from the user's generator, or
/// made here for the target difficulty.
fn round_puzzles(config: &StressConfig, seed: u64) -> anyhow::Result<Vec<Pair>> {
    if let Some(generator) = &config.generator {
        return solved(generated(generator, seed)?, seed);
    }
    let mut generator = Generator::new(seed);
    (0..config.puzzles_per_round)
        .map(|_| {
            let made = generator.puzzle(config.target, 10_000).with_context(|| {
                format!(
                    "could not make a puzzle for {:?} from seed {seed}",
                    config.target
                )
            })?;
            Ok((made.puzzle, made.solution))
        })
        .collect()
}

/// Runs rounds until one fails, then shrinks and saves it.
pub(crate) fn run(
    config: &StressConfig,
    progress: &mut dyn Progress,
) -> anyhow::Result<StressOutcome> {
    let started = Instant::now();
    let mut close_calls = 0;
    for round in 0..config.rounds.unwrap_or(u64::MAX) {
        if process::interrupted() {
            return Ok(StressOutcome::Interrupted { rounds: round });
        }
        if config.time.is_some_and(|t| started.elapsed() >= t) {
            return Ok(StressOutcome::Passed {
                rounds: round,
                elapsed: started.elapsed(),
                on_time: true,
                close_calls,
            });
        }
        progress.round(round, config.rounds);
        let seed = round_seed(config.seed, round);
        let mut puzzles = round_puzzles(config, seed)?;
        if let Some(brute) = &config.brute {
            if process::interrupted() {
                return Ok(StressOutcome::Interrupted { rounds: round });
            }
            match brute_answers(brute, &config.limits, puzzles, seed)? {
                Some(answered) => puzzles = answered,
                None => return Ok(StressOutcome::Interrupted { rounds: round }),
            }
        }
        let judged = judge_input(&config.submission, &config.limits, &puzzles)?;
        let Some(Judged {
            verdict, reason, ..
        }) = judged.filter(|_| !process::interrupted())
        else {
            return Ok(StressOutcome::Interrupted { rounds: round });
        };
        if verdict == Verdict::AC {
            continue;
        }
        // A TLE must repeat with room to spare, and the smaller inputs
        // shrinking keeps must run out of time with that room too.
        let tle = verdict == Verdict::TLE;
        let limits = confirming(&config.limits, verdict);
        if tle {
            let again = judge_input(&config.submission, &limits, &puzzles)?;
            let Some(again) = again.filter(|_| !process::interrupted()) else {
                return Ok(StressOutcome::Interrupted { rounds: round });
            };
            if again.verdict != Verdict::TLE {
                progress.close_call(round, again.time, limits.time);
                close_calls += 1;
                continue;
            }
        }
        let (original_puzzles, original_givens) = (puzzles.len(), givens(&puzzles));
        let Shrunk {
            puzzles: shrunk,
            runs,
            reason,
        } = shrink(
            puzzles,
            verdict,
            reason,
            config.shrink_runs,
            &mut |candidate| judge_input(&config.submission, &limits, candidate),
            progress,
        )?;
        // The reason at the limit the user gave, which the printed command
        // replays, rather than at the raised one.
        let reason = if tle {
            match judge_input(&config.submission, &config.limits, &shrunk)? {
                Some(judged) if judged.verdict == Verdict::TLE => judged.reason,
                _ => reason,
            }
        } else {
            reason
        };
        let (input, expected) = save(&config.save, &format!("stress-{seed}"), &shrunk)?;
        return Ok(StressOutcome::Failed(Box::new(Failure {
            round,
            round_seed: seed,
            verdict,
            reason,
            original_puzzles,
            original_givens,
            puzzles: shrunk.len(),
            givens: givens(&shrunk),
            shrink_runs: runs,
            input,
            expected,
        })));
    }
    Ok(StressOutcome::Passed {
        rounds: config.rounds.unwrap_or(u64::MAX),
        elapsed: started.elapsed(),
        on_time: false,
        close_calls,
    })
}

/// What one try of a smaller input said.
enum Try {
    /// It fails the same way, for this reason: keep it.
    Fails(Reason),
    /// It passes, or fails another way: keep the input before it.
    Differs,
    /// No more tries: the budget is spent or the user interrupted.
    Stop,
}

/// Judges an input for [`shrink`]; `None` when the user interrupted it.
/// Tests give a fake submission here.
type Judge<'a> = dyn FnMut(&[Pair]) -> anyhow::Result<Option<Judged>> + 'a;

/// Shrinks `puzzles`, which fail with `verdict` for `reason`, while they
/// keep failing with that verdict, within `budget` runs of `judge`. Returns the
/// smallest input found, the runs spent and its reason. An interrupted run
/// is no verdict: shrinking stops at the last input that did fail.
fn shrink(
    mut puzzles: Vec<Pair>,
    verdict: Verdict,
    mut reason: Reason,
    budget: usize,
    judge: &mut Judge<'_>,
    progress: &mut dyn Progress,
) -> anyhow::Result<Shrunk> {
    let mut runs = 0;
    let mut still_fails = |candidate: &[Pair], runs: &mut usize| -> anyhow::Result<Try> {
        if *runs >= budget || process::interrupted() {
            return Ok(Try::Stop);
        }
        *runs += 1;
        Ok(match judge(candidate)? {
            None => Try::Stop,
            Some(judged) if judged.verdict == verdict => Try::Fails(judged.reason),
            Some(_) => Try::Differs,
        })
    };

    // Out of tries, the input as far as it got is the answer.
    'tries: {
        // Fewer puzzles: drop one at a time while it keeps failing.
        let mut i = 0;
        while puzzles.len() > 1 && i < puzzles.len() {
            progress.shrinking(runs, puzzles.len(), givens(&puzzles));
            let mut fewer = puzzles.clone();
            fewer.remove(i);
            match still_fails(&fewer, &mut runs)? {
                Try::Fails(r) => {
                    puzzles = fewer;
                    reason = r;
                }
                Try::Differs => i += 1,
                Try::Stop => break 'tries,
            }
        }

        // More givens: add back solution digits in halving chunks.
        for n in 0..puzzles.len() {
            let mut pending: Vec<Cell> = Cell::all()
                .filter(|&c| puzzles[n].0.get(c).is_none())
                .collect();
            let mut chunk = pending.len().div_ceil(2).max(1);
            while !pending.is_empty() {
                progress.shrinking(runs, puzzles.len(), givens(&puzzles));
                let mut rest = Vec::new();
                let mut progressed = false;
                for group in pending.chunks(chunk) {
                    let mut candidate = puzzles.clone();
                    let (puzzle, solution) = &mut candidate[n];
                    for &cell in group {
                        puzzle.set(cell, solution.get(cell));
                    }
                    match still_fails(&candidate, &mut runs)? {
                        Try::Fails(r) => {
                            puzzles = candidate;
                            reason = r;
                            progressed = true;
                        }
                        Try::Differs => rest.extend_from_slice(group),
                        Try::Stop => break 'tries,
                    }
                }
                pending = rest;
                if chunk == 1 && !progressed {
                    break;
                }
                chunk = chunk.div_ceil(2).max(1);
            }
        }
    }
    Ok(Shrunk {
        puzzles,
        runs,
        reason,
    })
}

/// Writes `puzzles` as a flat AcWing pair `NAME.in`/`NAME.out` under `dir`,
/// never over an existing file: a taken name gets a number.
pub(crate) fn save(dir: &Path, name: &str, puzzles: &[Pair]) -> anyhow::Result<(PathBuf, PathBuf)> {
    std::fs::create_dir_all(dir).with_context(|| format!("failed to create {}", dir.display()))?;
    let boards: Vec<Board> = puzzles.iter().map(|(p, _)| *p).collect();
    let answers: Vec<Board> = puzzles.iter().map(|(_, s)| *s).collect();
    let input_text = format::acwing_input(&boards);
    let expected_text = format::render_boards(Format::AcWing, &answers);
    for n in 1.. {
        let stem = if n == 1 {
            name.to_string()
        } else {
            format!("{name}-{n}")
        };
        let (input, expected) = (
            dir.join(format!("{stem}.in")),
            dir.join(format!("{stem}.out")),
        );
        if input.exists() || expected.exists() {
            continue;
        }
        case::write_new(&input, &input_text)?;
        case::write_new(&expected, &expected_text)?;
        return Ok((input, expected));
    }
    unreachable!("some name is free")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell as Counter;

    struct Quiet;

    impl Progress for Quiet {
        fn close_call(&mut self, _: u64, _: Duration, _: Duration) {}
        fn round(&mut self, _: u64, _: Option<u64>) {}
        fn shrinking(&mut self, _: usize, _: usize, _: usize) {}
    }

    fn pairs(n: usize) -> Vec<Pair> {
        let mut generator = Generator::new(7);
        (0..n)
            .map(|_| {
                let made = generator
                    .puzzle(Target::default(), 10_000)
                    .expect("a puzzle");
                (made.puzzle, made.solution)
            })
            .collect()
    }

    /// A reason that says `what`, to tell the failures apart.
    fn said(what: &str) -> Reason {
        Reason::Crashed {
            how: what.into(),
            progress: Default::default(),
        }
    }

    fn judged(verdict: Verdict, reason: Reason) -> Option<Judged> {
        Some(Judged {
            verdict,
            reason,
            time: Duration::ZERO,
        })
    }

    /// Shrinks `input`, which first failed with `verdict`, judging each
    /// smaller input with `judge`.
    fn shrunk(
        input: &[Pair],
        verdict: Verdict,
        budget: usize,
        mut judge: impl FnMut(&[Pair]) -> anyhow::Result<Option<Judged>>,
    ) -> Shrunk {
        let first = said("the first failure");
        shrink(
            input.to_vec(),
            verdict,
            first,
            budget,
            &mut judge,
            &mut Quiet,
        )
        .unwrap()
    }

    #[test]
    fn shrinking_keeps_the_failing_puzzle_and_fills_it_while_it_fails() {
        let input = pairs(3);
        let culprit = input[1].1;
        // A fake submission that gets puzzle 2 wrong while it has fewer
        // than 60 givens, and everything else right.
        let judge = |candidate: &[Pair]| -> anyhow::Result<Option<Judged>> {
            Ok(match candidate.iter().find(|(_, s)| *s == culprit) {
                Some((p, _)) if p.filled() < 60 => judged(
                    Verdict::WA,
                    said(&format!("wrong with {} givens", p.filled())),
                ),
                _ => judged(Verdict::AC, Reason::Accepted),
            })
        };
        let shrunk = shrunk(&input, Verdict::WA, 10_000, judge);
        assert_eq!(shrunk.puzzles.len(), 1);
        let (puzzle, solution) = shrunk.puzzles[0];
        assert_eq!(solution, culprit);
        assert_eq!(puzzle.filled(), 59, "as close to solved as the bug allows");
        assert_eq!(shrunk.reason, said("wrong with 59 givens"));
        // The givens added are the solution's: the puzzle still has it.
        for cell in Cell::all() {
            if let Some(d) = input[1].0.get(cell) {
                assert_eq!(puzzle.get(cell), Some(d));
            }
            if puzzle.get(cell).is_some() {
                assert_eq!(puzzle.get(cell), solution.get(cell));
            }
        }
    }

    #[test]
    fn a_failure_of_another_kind_is_not_kept() {
        let input = pairs(2);
        // Any smaller input gets a WA, never the TLE being shrunk.
        let judge = |_: &[Pair]| -> anyhow::Result<Option<Judged>> {
            Ok(judged(Verdict::WA, said("a wrong answer")))
        };
        let shrunk = shrunk(&input, Verdict::TLE, 10_000, judge);
        assert_eq!(shrunk.puzzles, input);
        assert_eq!(shrunk.reason, said("the first failure"));
        assert!(shrunk.runs > 2);
    }

    #[test]
    fn an_interrupted_run_stops_shrinking_and_is_not_a_failure() {
        let input = pairs(3);
        let calls = Counter::new(0);
        // The first smaller input fails as the original did; then the user
        // presses Ctrl-C during the next run.
        let judge = |_: &[Pair]| -> anyhow::Result<Option<Judged>> {
            calls.set(calls.get() + 1);
            Ok(match calls.get() {
                1 => judged(Verdict::TLE, said("the second failure")),
                _ => None,
            })
        };
        let shrunk = shrunk(&input, Verdict::TLE, 10_000, judge);
        assert_eq!(calls.get(), 2, "no run after the interrupted one");
        assert_eq!(shrunk.runs, 2);
        assert_eq!(
            shrunk.puzzles,
            input[1..],
            "the input before the interrupted run"
        );
        assert_eq!(shrunk.reason, said("the second failure"));
    }

    #[test]
    fn shrinking_stops_at_its_budget() {
        let input = pairs(3);
        let judge = |_: &[Pair]| -> anyhow::Result<Option<Judged>> {
            Ok(judged(Verdict::AC, Reason::Accepted))
        };
        let shrunk = shrunk(&input, Verdict::RE, 4, judge);
        assert_eq!(shrunk.runs, 4);
        assert_eq!(shrunk.puzzles, input);
    }
}
