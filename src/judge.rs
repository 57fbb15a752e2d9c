//! Orchestration: discover the cases once, then for each one read it, run
//! the submission, decide the verdict and tell the reporter. A submission's
//! failure is a verdict; a case that cannot be read is a harness error for
//! that case alone, and the run goes on with the others.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::board::Format;
use crate::case::{self, Case, CaseData, Settings, SettingsCache};
use crate::check::{self, CheckerKind};
use crate::problem::{DEFAULT_MEMORY_LIMIT_KB, DEFAULT_TIME_LIMIT};
use crate::report::{Event, Reporter};
use crate::runner::{End, Limits, Run, Submission};
use crate::verdict::Verdict;

/// Everything a judging run needs, built by the CLI.
#[derive(Clone, Debug)]
pub struct Config {
    pub paths: Vec<PathBuf>,
    pub submission: Submission,
    /// Settings from the command line; they win over every `judge.toml`.
    pub overrides: Settings,
    /// Runs per case; timings are reported as min/median/max.
    pub repeat: usize,
}

/// Minimum, median and maximum of some timings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spread {
    pub min: Duration,
    pub median: Duration,
    pub max: Duration,
}

impl Spread {
    pub fn of(times: &[Duration]) -> Option<Spread> {
        let mut sorted = times.to_vec();
        sorted.sort_unstable();
        Some(Spread {
            min: *sorted.first()?,
            median: sorted[sorted.len() / 2],
            max: *sorted.last()?,
        })
    }
}

/// The judgement of one case that could be run.
#[derive(Clone, Debug)]
pub struct Judgement {
    pub verdict: Verdict,
    /// One line saying why; empty when accepted.
    pub reason: String,
    /// Grid or line diffs, plain text.
    pub details: String,
    pub format: Format,
    pub checker: CheckerKind,
    pub puzzles: usize,
    pub limits: Limits,
    /// The time charged against the limit (the median over repeats).
    pub time: Duration,
    /// The charged time of every run, in run order.
    pub run_times: Vec<Duration>,
    /// Per-puzzle times of the first run, for multi-puzzle cases.
    pub puzzle_times: Option<Spread>,
    pub wall: Duration,
    pub cpu: Duration,
    /// Peak memory, the highest over repeats.
    pub memory_kb: u64,
    pub stderr: String,
    pub warnings: Vec<String>,
}

impl Judgement {
    /// Share of the time limit used, in percent.
    pub fn limit_percent(&self) -> f64 {
        100.0 * self.time.as_secs_f64() / self.limits.time.as_secs_f64()
    }
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Judged(Box<Judgement>),
    /// The harness could not judge the case, e.g. its input is malformed.
    Error(String),
}

/// What happened to one case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub id: String,
    pub input: PathBuf,
    pub expected: Option<PathBuf>,
    pub outcome: Outcome,
}

impl CaseResult {
    pub fn verdict(&self) -> Option<Verdict> {
        match &self.outcome {
            Outcome::Judged(j) => Some(j.verdict),
            Outcome::Error(_) => None,
        }
    }

    pub fn passed(&self) -> bool {
        self.verdict() == Some(Verdict::AC)
    }
}

/// Totals of a run. Cases that could not be judged count as failed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub errors: usize,
    pub total: usize,
    /// How many cases got each verdict, in [`Verdict::ALL`] order.
    pub verdicts: Vec<(Verdict, usize)>,
    pub elapsed: Duration,
}

impl Summary {
    pub fn of(results: &[CaseResult], elapsed: Duration) -> Summary {
        let verdicts = Verdict::ALL
            .iter()
            .map(|&v| (v, results.iter().filter(|r| r.verdict() == Some(v)).count()))
            .filter(|&(_, n)| n > 0)
            .collect();
        let passed = results.iter().filter(|r| r.passed()).count();
        Summary {
            passed,
            failed: results.len() - passed,
            errors: results.iter().filter(|r| r.verdict().is_none()).count(),
            total: results.len(),
            verdicts,
            elapsed,
        }
    }
}

/// Judges every case under `config.paths`, reporting as it goes. `Err`
/// only when nothing can be judged (no cases) or the reporter fails.
pub fn run(config: &Config, reporter: &mut dyn Reporter) -> anyhow::Result<Summary> {
    let started = Instant::now();
    let cases = case::discover(&config.paths)?;
    reporter.report(Event::Started {
        cases: cases.len(),
        submission: &config.submission.label(),
    })?;
    let mut settings = SettingsCache::default();
    let mut results = Vec::with_capacity(cases.len());
    for case in &cases {
        let outcome = match judge_case(config, &mut settings, case) {
            Ok(judgement) => Outcome::Judged(Box::new(judgement)),
            Err(error) => Outcome::Error(format!("{error:#}")),
        };
        let result = CaseResult {
            id: case.id.clone(),
            input: case.input.clone(),
            expected: case.expected.clone(),
            outcome,
        };
        reporter.report(Event::CaseFinished(&result))?;
        results.push(result);
    }
    let summary = Summary::of(&results, started.elapsed());
    reporter.report(Event::Finished {
        results: &results,
        summary: &summary,
    })?;
    Ok(summary)
}

fn judge_case(
    config: &Config,
    cache: &mut SettingsCache,
    case: &Case,
) -> anyhow::Result<Judgement> {
    let settings = config.overrides.clone().or(&cache.for_dir(case.dir())?);
    let checker = settings.checker.unwrap_or_default();
    let limits = Limits {
        time: settings
            .time_limit
            .or(settings.problem.map(|p| p.time_limit()))
            .unwrap_or(DEFAULT_TIME_LIMIT),
        memory_kb: settings
            .memory_limit_kb
            .or(settings.problem.map(|p| p.memory_limit_kb()))
            .unwrap_or(DEFAULT_MEMORY_LIMIT_KB),
    };
    let data = case::load(case, checker == CheckerKind::Sudoku)?;
    if checker == CheckerKind::Exact && data.expected.is_none() {
        anyhow::bail!(
            "{}: the exact checker needs an expected output beside the input; add one, or judge \
             this case with `--checker sudoku`",
            case.input.display()
        );
    }
    let mut runs = Vec::with_capacity(config.repeat);
    let mut decided = None;
    for n in 0..config.repeat.max(1) {
        let run = config.submission.run(&data, &limits)?;
        let (verdict, mut reason, details) = decide(&data, &run, &limits, checker);
        if verdict != Verdict::AC && decided.is_none() && config.repeat > 1 {
            reason = format!("{reason} (run {} of {})", n + 1, config.repeat);
        }
        if decided.is_none() && (verdict != Verdict::AC || n + 1 == config.repeat.max(1)) {
            decided = Some((verdict, reason, details));
        }
        runs.push(run);
    }
    let (verdict, reason, details) = decided.expect("at least one run");
    let run_times: Vec<Duration> = runs.iter().map(|r| r.time).collect();
    let first = &runs[0];
    Ok(Judgement {
        verdict,
        reason,
        details,
        format: data.format,
        checker,
        puzzles: data.puzzles.len(),
        limits,
        time: Spread::of(&run_times).expect("at least one run").median,
        puzzle_times: (data.puzzles.len() > 1)
            .then(|| Spread::of(&first.puzzle_times))
            .flatten(),
        run_times,
        wall: first.wall,
        cpu: first.cpu,
        memory_kb: runs.iter().map(|r| r.memory_kb).max().unwrap_or(0),
        stderr: first.stderr.clone(),
        warnings: data.warnings,
    })
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

/// The verdict of one run, as judges decide it: time first, then memory,
/// then a crash, and only then the answers.
pub fn decide(
    case: &CaseData,
    run: &Run,
    limits: &Limits,
    checker: CheckerKind,
) -> (Verdict, String, String) {
    let total = case.puzzles.len();
    if run.end == End::TimedOut {
        return (
            Verdict::TLE,
            format!(
                "killed after {} of wall time, over the {} limit; {} of {total} puzzles answered",
                ms(run.wall),
                ms(limits.time),
                run.answered
            ),
            String::new(),
        );
    }
    let checked = check::check(checker, case, &run.output);
    if run.time > limits.time {
        let over = 100.0 * (run.time.as_secs_f64() / limits.time.as_secs_f64() - 1.0);
        let answers = match checked.verdict {
            Verdict::AC => "the answers were right",
            _ => "the answers were wrong too",
        };
        return (
            Verdict::TLE,
            format!(
                "took {}, {over:.0}% over the {} limit ({answers})",
                ms(run.time),
                ms(limits.time)
            ),
            checked.details,
        );
    }
    if run.memory_kb > limits.memory_kb {
        return (
            Verdict::MLE,
            format!(
                "peak memory {} KB, over the {} KB limit",
                run.memory_kb, limits.memory_kb
            ),
            String::new(),
        );
    }
    match &run.end {
        End::Panicked(message) => {
            return (
                Verdict::RE,
                format!("{message} (puzzle {} of {total})", run.answered + 1),
                String::new(),
            )
        }
        End::Crashed(how) => {
            let tail = run.stderr.trim_end();
            return (Verdict::RE, how.clone(), tail.to_string());
        }
        End::Normal | End::TimedOut => {}
    }
    (checked.verdict, checked.reason, checked.details)
}
