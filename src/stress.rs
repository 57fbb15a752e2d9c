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
use crate::check::{Checker, CheckerKind};
use crate::generate::{Generator, Target};
use crate::judge;
use crate::runner::external::{Launch, Runtime};
use crate::runner::{process, Limits, Submission};
use crate::verdict::Verdict;

/// A puzzle with its one solution.
pub type Pair = (Board, Board);

/// An input shrunk as far as it would go: its puzzles, the runs spent and
/// the reason of its last failure.
struct Shrunk {
    puzzles: Vec<Pair>,
    runs: usize,
    reason: String,
}

/// What to stress, and how long.
pub struct Config {
    pub submission: Submission,
    pub seed: u64,
    pub rounds: u64,
    /// Stop after this long even if rounds remain.
    pub time: Option<Duration>,
    pub puzzles_per_round: usize,
    pub target: Target,
    pub limits: Limits,
    pub save: PathBuf,
    /// At most this many runs spent shrinking.
    pub shrink_runs: usize,
    /// The user's generator, run with each round's seed as its last
    /// argument, instead of the built-in one.
    pub generator: Option<Launch>,
    /// The user's brute force, whose answers are the expected ones.
    pub brute: Option<Submission>,
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
    let how = match finished.exit {
        process::Exit::Code(0) => None,
        process::Exit::Code(code) => Some(format!("exited with code {code}")),
        process::Exit::Signal(signal) => Some(format!(
            "was killed by {}",
            process::describe_signal(signal)
        )),
    };
    if let Some(how) = how {
        anyhow::bail!("the generator `{command}` {how}{said}; run it by hand to see why");
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
    Ok(parsed.boards)
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

/// The user's brute force's answers to `puzzles`: the expected ones.
fn brute_answers(
    brute: &Submission,
    limits: &Limits,
    puzzles: Vec<Pair>,
    seed: u64,
) -> anyhow::Result<Vec<Pair>> {
    let boards: Vec<Board> = puzzles.iter().map(|(p, _)| *p).collect();
    let case = CaseData::in_memory(&boards, None);
    let format = brute.answer_format(&case);
    let mut checker = Checker::new(CheckerKind::Sudoku, &case, format)?;
    let run = brute.run(&case, limits, &mut checker)?;
    let mut checked = checker.finish()?;
    let output = std::mem::take(&mut checked.output);
    let (verdict, reason, _) = judge::decide(&case, &run, limits, checked);
    if verdict != Verdict::AC {
        anyhow::bail!(
            "the brute force {} is not accepted on the input of seed {seed} ({verdict}: \
             {reason}), so it cannot say what is right; fix it, or raise --time-limit for it",
            brute.label()
        );
    }
    let answers = format::parse(&output, format, format::Mode::Answers)
        .map_err(|e| anyhow::anyhow!("cannot read the brute force's answers: {}", e.message))?
        .boards;
    anyhow::ensure!(
        answers.len() == boards.len(),
        "the brute force answered {} of {} puzzles",
        answers.len(),
        boards.len()
    );
    Ok(boards.into_iter().zip(answers).collect())
}

/// How far a stress run got, for progress reports.
pub trait Progress {
    fn round(&mut self, done: u64, total: u64);
    fn shrinking(&mut self, runs: usize, puzzles: usize, givens: usize);
}

/// A failure found, shrunk and saved.
#[derive(Debug)]
pub struct Failure {
    /// The round that failed, counted from 0, and the seed that replays it
    /// as round 0.
    pub round: u64,
    pub round_seed: u64,
    pub verdict: Verdict,
    pub reason: String,
    pub original_puzzles: usize,
    pub original_givens: usize,
    pub puzzles: usize,
    pub givens: usize,
    pub shrink_runs: usize,
    pub input: PathBuf,
    pub expected: PathBuf,
}

/// How a stress run ended.
#[derive(Debug)]
pub enum Outcome {
    /// Every round was accepted.
    Passed {
        rounds: u64,
        elapsed: Duration,
    },
    Failed(Box<Failure>),
    Interrupted {
        rounds: u64,
    },
}

/// The seed that makes round `round`'s puzzles on its own.
pub fn round_seed(seed: u64, round: u64) -> u64 {
    seed.wrapping_add(round)
}

fn case_of(puzzles: &[Pair]) -> CaseData {
    let boards: Vec<Board> = puzzles.iter().map(|(p, _)| *p).collect();
    let answers: Vec<Board> = puzzles.iter().map(|(_, s)| *s).collect();
    CaseData::in_memory(&boards, Some(&answers))
}

/// What one judging of an input said.
#[derive(Clone, Debug)]
pub struct Judged {
    pub verdict: Verdict,
    pub reason: String,
    /// The time charged against the limit.
    pub time: Duration,
}

/// Judges `puzzles`, as one AcWing input, with `submission` under
/// `limits`. The one place where `stress` and `hack` run a submission, so
/// that a change in how runs are made or charged is made here alone.
pub fn judge_input(
    submission: &Submission,
    limits: &Limits,
    puzzles: &[Pair],
) -> anyhow::Result<Judged> {
    let case = case_of(puzzles);
    let mut checker = Checker::new(CheckerKind::Sudoku, &case, submission.answer_format(&case))?;
    let run = submission.run(&case, limits, &mut checker)?;
    let (verdict, reason, _) = judge::decide(&case, &run, limits, checker.finish()?);
    Ok(Judged {
        verdict,
        reason,
        time: run.time,
    })
}

/// Judges `puzzles` once: the verdict and its reason.
fn judge_once(config: &Config, puzzles: &[Pair]) -> anyhow::Result<(Verdict, String)> {
    let judged = judge_input(&config.submission, &config.limits, puzzles)?;
    Ok((judged.verdict, judged.reason))
}

fn givens(puzzles: &[Pair]) -> usize {
    puzzles.iter().map(|(p, _)| p.filled()).sum()
}

/// Runs rounds until one fails, then shrinks and saves it.
pub fn run(config: &Config, progress: &mut dyn Progress) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    for round in 0..config.rounds {
        if process::interrupted() {
            return Ok(Outcome::Interrupted { rounds: round });
        }
        if config.time.is_some_and(|t| started.elapsed() >= t) {
            return Ok(Outcome::Passed {
                rounds: round,
                elapsed: started.elapsed(),
            });
        }
        progress.round(round, config.rounds);
        let seed = round_seed(config.seed, round);
        let mut puzzles = match &config.generator {
            Some(generator) => solved(generated(generator, seed)?, seed)?,
            None => {
                let mut generator = Generator::new(seed);
                let mut puzzles = Vec::with_capacity(config.puzzles_per_round);
                for _ in 0..config.puzzles_per_round {
                    let made = generator.puzzle(config.target, 10_000).with_context(|| {
                        format!(
                            "could not make a puzzle for {:?} from seed {seed}",
                            config.target
                        )
                    })?;
                    puzzles.push((made.puzzle, made.solution));
                }
                puzzles
            }
        };
        if let Some(brute) = &config.brute {
            if process::interrupted() {
                return Ok(Outcome::Interrupted { rounds: round });
            }
            puzzles = brute_answers(brute, &config.limits, puzzles, seed)?;
        }
        let (verdict, reason) = judge_once(config, &puzzles)?;
        if process::interrupted() {
            return Ok(Outcome::Interrupted { rounds: round });
        }
        if verdict == Verdict::AC {
            continue;
        }
        let (original_puzzles, original_givens) = (puzzles.len(), givens(&puzzles));
        let Shrunk {
            puzzles: shrunk,
            runs,
            reason,
        } = shrink(config, puzzles, verdict, reason, progress)?;
        let (input, expected) = save(&config.save, &format!("stress-{seed}"), &shrunk)?;
        return Ok(Outcome::Failed(Box::new(Failure {
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
    Ok(Outcome::Passed {
        rounds: config.rounds,
        elapsed: started.elapsed(),
    })
}

/// Shrinks a failing input while it fails with `verdict`, within the run
/// budget. Returns the smallest input found, the runs spent and its reason.
fn shrink(
    config: &Config,
    mut puzzles: Vec<Pair>,
    verdict: Verdict,
    mut reason: String,
    progress: &mut dyn Progress,
) -> anyhow::Result<Shrunk> {
    let mut runs = 0;
    let still_fails = |candidate: &[Pair], runs: &mut usize| -> anyhow::Result<Option<String>> {
        if *runs >= config.shrink_runs || process::interrupted() {
            return Ok(None);
        }
        *runs += 1;
        let (v, r) = judge_once(config, candidate)?;
        Ok((v == verdict).then_some(r))
    };

    // Fewer puzzles: drop one at a time while it keeps failing.
    let mut i = 0;
    while puzzles.len() > 1 && i < puzzles.len() {
        progress.shrinking(runs, puzzles.len(), givens(&puzzles));
        let mut fewer = puzzles.clone();
        fewer.remove(i);
        match still_fails(&fewer, &mut runs)? {
            Some(r) => {
                puzzles = fewer;
                reason = r;
            }
            None => i += 1,
        }
    }

    // More givens: add back solution digits in halving chunks.
    for n in 0..puzzles.len() {
        let blanks: Vec<Cell> = Cell::all()
            .filter(|&c| puzzles[n].0.get(c).is_none())
            .collect();
        let mut pending = blanks;
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
                    Some(r) => {
                        puzzles = candidate;
                        reason = r;
                        progressed = true;
                    }
                    None => rest.extend_from_slice(group),
                }
            }
            pending = rest;
            if chunk == 1 && !progressed {
                break;
            }
            chunk = chunk.div_ceil(2).max(1);
            if runs >= config.shrink_runs || process::interrupted() {
                break;
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
pub fn save(dir: &Path, name: &str, puzzles: &[Pair]) -> anyhow::Result<(PathBuf, PathBuf)> {
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
