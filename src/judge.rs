//! Orchestration: discover the cases once, then for each one read it, run
//! the submission, decide the verdict and tell the reporter. A submission's
//! failure is a verdict; a case that cannot be read is a harness error for
//! that case alone, and the run goes on with the others.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::case::{self, Case, CaseData, Settings, SettingsCache};
use crate::check::{Checked, Checker, CheckerKind};
use crate::problem::Problem;
use crate::report::{Event, Reporter};
use crate::runner::lang::BuildInfo;
use crate::runner::{process, End, Interface, Kill, Limits, Run, Runner, Submission};
use crate::solver::reference::count_solutions;
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
    /// How the submission's source was built, for the report.
    pub build: Option<BuildInfo>,
    pub selection: Selection,
    /// Cases judged at once; 1 keeps timings faithful.
    pub jobs: usize,
    /// Counts every answer as it is checked, for a progress display that
    /// moves inside a long case too.
    pub answered: Option<Arc<AtomicUsize>>,
    /// The protections runs get, for the report's header.
    pub sandbox: Option<crate::runner::sandbox::Protections>,
    /// A process per case for functions too, as before LeetCode's model
    /// (`--fresh-process`).
    pub fresh_process: bool,
}

pub use crate::results::{
    CaseResult, Fault, Judgement, Outcome, Slowest, Spread, Summary, Unjudged,
};

/// Marks an error of the judge's own machinery in the middle of a run, as
/// opposed to one of the case's files.
#[derive(Debug)]
struct JudgeFault;

impl std::fmt::Display for JudgeFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the judge failed while running the submission")
    }
}

/// A case not judged because of `error`, whose fault it says
/// ([`JudgeFault`]).
fn unjudged(error: &anyhow::Error) -> Unjudged {
    Unjudged {
        message: format!("{error:#}"),
        fault: if error.downcast_ref::<JudgeFault>().is_some() {
            Fault::Judge
        } else {
            Fault::Case
        },
    }
}

/// Which of the discovered cases to judge.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Substrings or globs (`*`, `?`, `[...]`) of case ids; a case is kept
    /// when any matches. Empty keeps all.
    pub filters: Vec<String>,
    /// Only these inputs (e.g. the cases that failed last time).
    pub only: Option<HashSet<PathBuf>>,
    /// `(k, n)`: the k-th of n shares (1-based) of the sorted, filtered
    /// list, taking every n-th case, so n machines judge it together.
    pub partition: Option<(usize, usize)>,
}

impl Selection {
    /// The cases to judge, in their sorted order.
    pub fn apply(&self, cases: Vec<Case>) -> anyhow::Result<Vec<Case>> {
        let mut globs = globset::GlobSetBuilder::new();
        let mut substrings = Vec::new();
        for filter in &self.filters {
            if filter.contains(['*', '?', '[']) {
                globs.add(
                    globset::Glob::new(filter)
                        .with_context(|| format!("`{filter}` is not a valid glob"))?,
                );
            } else {
                substrings.push(filter.as_str());
            }
        }
        let globs = globs.build()?;
        let total = cases.len();
        let mut kept: Vec<Case> = cases
            .into_iter()
            .filter(|c| {
                self.filters.is_empty()
                    || substrings.iter().any(|s| c.id.contains(s))
                    || globs.is_match(&c.id)
            })
            .filter(|c| {
                self.only
                    .as_ref()
                    .is_none_or(|only| only.contains(&absolute(&c.input)))
            })
            .collect();
        if kept.is_empty() && !self.filters.is_empty() {
            anyhow::bail!(
                "no case matches {}; {total} cases were found (ids look like `acwing166/hard`)",
                self.filters
                    .iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            );
        }
        if let Some((k, n)) = self.partition {
            kept = kept
                .into_iter()
                .enumerate()
                .filter(|(i, _)| i % n == k - 1)
                .map(|(_, c)| c)
                .collect();
        }
        Ok(kept)
    }
}

/// `path` made absolute without touching the file system beyond the
/// current directory, so the same case compares equal across runs.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Parses `K/N` for `--partition`.
pub fn parse_partition(text: &str) -> anyhow::Result<(usize, usize)> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k, n)),
        _ => anyhow::bail!(
            "`{text}` is not a partition; write K/N with 1 <= K <= N, e.g. 2/4 for the second of four shares"
        ),
    }
}

/// Judges every case under `config.paths`, reporting as it goes, in case
/// order whatever order parallel jobs finish in. `Err` only when nothing
/// can be judged (no cases) or a reporter fails.
pub fn run(config: &Config, reporter: &mut dyn Reporter) -> anyhow::Result<Summary> {
    let started = Instant::now();
    let found = case::find(&config.paths)?;
    let cases = config.selection.apply(found.cases)?;
    let jobs = config.jobs.clamp(1, cases.len().max(1));
    // Settings are read once per directory, before any job starts.
    let mut cache = SettingsCache::default();
    let settings: Vec<anyhow::Result<Settings>> = cases
        .iter()
        .map(|case| Ok(config.overrides.clone().or(&cache.for_dir(case.dir())?)))
        .collect();
    let problem_of = |i: usize| settings[i].as_ref().ok().and_then(|s| s.problem);
    let mut problems: Vec<(Problem, usize)> = Vec::new();
    for problem in (0..cases.len()).filter_map(problem_of) {
        match problems.iter_mut().find(|(p, _)| *p == problem) {
            Some((_, n)) => *n += 1,
            None => problems.push((problem, 1)),
        }
    }
    let mut time_scales: Vec<f64> = settings
        .iter()
        .flatten()
        .filter_map(|s| s.time_scale.map(|t| t.factor()))
        .filter(|&f| f != 1.0)
        .collect();
    time_scales.sort_by(f64::total_cmp);
    time_scales.dedup();
    reporter.report(Event::Started {
        cases: cases.len(),
        submission: &config.submission.label(),
        build: config.build.as_ref(),
        jobs,
        sandbox: config.sandbox.as_ref(),
        warnings: &found.warnings,
        problems: &problems,
        interface: match &config.submission {
            Submission::NotCompiled { .. } => None,
            submission if submission.is_function() => Some(Interface::Function),
            _ => Some(Interface::Program),
        },
        time_scales: &time_scales,
    })?;
    // Nothing of a case is kept once it is reported: reporters keep what
    // they need, so a run of 100,000 cases does not grow the harness.
    let mut summary = Summary::default();
    let mut reported = 0;
    let mut interrupted = false;
    let next = AtomicUsize::new(0);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Option<Outcome>)>();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..jobs {
            let done = done_tx.clone();
            let (next, cases, settings) = (&next, &cases, &settings);
            scope.spawn(move || {
                // One runner a job: its process serves the job's cases.
                let mut runner = Runner::new(&config.submission, config.fresh_process);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= cases.len() || process::interrupted() {
                        return;
                    }
                    let outcome = match &settings[i] {
                        Err(error) => Some(Outcome::Error(unjudged(error))),
                        Ok(settings) => {
                            match judge_case(config, &mut runner, settings, &cases[i]) {
                                Ok(Some(judgement)) => Some(Outcome::Judged(Box::new(judgement))),
                                Ok(None) => None,
                                Err(error) => Some(Outcome::Error(unjudged(&error))),
                            }
                        }
                    };
                    if done.send((i, outcome)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        // Results wait here until every case before them is reported.
        let mut waiting: BTreeMap<usize, Option<Outcome>> = BTreeMap::new();
        for (i, outcome) in done_rx {
            waiting.insert(i, outcome);
            while let Some(outcome) = waiting.remove(&reported) {
                let Some(outcome) = outcome.filter(|_| !interrupted) else {
                    interrupted = true;
                    continue;
                };
                let case = &cases[reported];
                let result = CaseResult {
                    id: case.id.clone(),
                    suite: case.suite().to_path_buf(),
                    input: case.input.clone(),
                    expected: case.expected.clone(),
                    problem: problem_of(reported),
                    outcome,
                };
                reporter.report(Event::CaseFinished(&result))?;
                summary.add(&result);
                reported += 1;
            }
            if interrupted {
                break;
            }
        }
        Ok(())
    })?;
    interrupted |= process::interrupted() && reported < cases.len();
    summary.elapsed = started.elapsed();
    summary.interrupted = interrupted;
    reporter.report(Event::Finished { summary: &summary })?;
    Ok(summary)
}

/// At most this many puzzles of a case are named in warnings of one kind.
const WARNED: usize = 5;

/// `Ok(None)` when the user interrupted the run during this case.
fn judge_case(
    config: &Config,
    runner: &mut Runner<'_>,
    settings: &Settings,
    case: &Case,
) -> anyhow::Result<Option<Judgement>> {
    let checker = settings.checker.unwrap_or_default();
    let limits = settings.limits();
    let mut data = case::load(case, checker == CheckerKind::Sudoku)?;
    if checker == CheckerKind::Exact && data.expected.is_none() {
        anyhow::bail!(
            "{}: the exact checker needs an expected output beside the input; add one, or judge \
             this case with `--checker sudoku`",
            case.input.display()
        );
    }
    // An expected file proves its puzzles solvable; without one, a puzzle
    // with no solution would blame the submission for the case's fault.
    if data.expected.is_none() {
        for (n, puzzle) in data.puzzles()?.enumerate() {
            let (line, puzzle) = puzzle?;
            if count_solutions(&puzzle.to_bytes(), 1) == 0 {
                anyhow::bail!(
                    "{}:{line}: puzzle {} has no solution, so no answer can be right; fix the case \
                     (`sudoku-judge check` finds such faults)",
                    case.input.display(),
                    n + 1
                );
            }
        }
    }
    // Text comparison is only fair when the expected answer is the only one.
    if checker == CheckerKind::Exact {
        let mut warnings = Vec::new();
        let mut several = 0;
        for (n, puzzle) in data.puzzles()?.enumerate() {
            let (line, puzzle) = puzzle?;
            if count_solutions(&puzzle.to_bytes(), 2) > 1 {
                several += 1;
                if several <= WARNED {
                    warnings.push(format!(
                        "{}:{line}: puzzle {} has several solutions, and the exact checker \
                         accepts only the expected one",
                        case.input.display(),
                        n + 1
                    ));
                }
            }
        }
        if several > WARNED {
            warnings.push(format!(
                "{}: {} more puzzles have several solutions",
                case.input.display(),
                several - WARNED
            ));
        }
        data.warnings.extend(warnings);
    }
    let format = config.submission.answer_format(&data);
    let mut runs = Vec::with_capacity(config.repeat);
    let mut decided = None;
    for n in 0..config.repeat.max(1) {
        let mut answers =
            Checker::new(checker, &data, format)?.counting(config.answered.as_deref());
        let run = runner
            .run(&data, &limits, &mut answers)
            .map_err(|e| e.context(JudgeFault))?;
        let Some(Checked {
            verdict,
            mut reason,
            details,
            output,
        }) = decide(&data, &run, &limits, answers.finish()?)
        else {
            return Ok(None);
        };
        // Failing in a process that judged earlier cases may be the state
        // they left: alone, in a fresh process, does it pass?
        if verdict != Verdict::AC && verdict != Verdict::CE && run.earlier > 0 {
            let mut alone = Checker::new(checker, &data, format)?;
            let fresh = config
                .submission
                .run(&data, &limits, &mut alone)
                .map_err(|e| e.context(JudgeFault))?;
            let Some(alone) = decide(&data, &fresh, &limits, alone.finish()?) else {
                return Ok(None);
            };
            if alone.verdict == Verdict::AC {
                reason = format!(
                    "{reason}; it passes alone, and fails after {}: the solution keeps state \
                     between tests (a global or static not reset), as LeetCode would find on \
                     Submit",
                    plural(run.earlier, "earlier case")
                );
            }
        }
        if verdict != Verdict::AC && decided.is_none() && config.repeat > 1 {
            reason = format!("{reason} (run {} of {})", n + 1, config.repeat);
        }
        if decided.is_none() && (verdict != Verdict::AC || n + 1 == config.repeat.max(1)) {
            // What it printed is kept for a case not accepted (`--keep`).
            let output = if verdict == Verdict::AC {
                String::new()
            } else {
                output
            };
            decided = Some((verdict, reason, details, output));
        }
        runs.push(run);
    }
    let (verdict, reason, details, output) = decided.expect("at least one run");
    let run_times: Vec<Duration> = runs.iter().map(|r| r.time).collect();
    let first = &runs[0];
    let puzzle_times = first.puzzle_times.filter(|_| data.puzzles > 1);
    let slowest = match first.slowest_puzzle.filter(|_| puzzle_times.is_some()) {
        Some((i, time)) => match data.puzzles()?.nth(i) {
            Some(puzzle) => Some(Slowest {
                puzzle: i + 1,
                line: puzzle?.0,
                time,
            }),
            None => None,
        },
        None => None,
    };
    Ok(Some(Judgement {
        verdict,
        reason,
        details,
        format: data.format,
        checker,
        puzzles: data.puzzles,
        limits,
        time: Spread::of(&run_times).expect("at least one run").median,
        puzzle_times,
        slowest,
        run_times,
        wall: first.wall,
        cpu: first.cpu,
        memory_kb: runs.iter().map(|r| r.memory_kb).max().unwrap_or(0),
        output,
        stdout: first.stdout.clone(),
        stdout_lines: first.stdout_lines,
        stderr: first.stderr.clone(),
        warnings: data.warnings,
        notes: first.notes.clone(),
    }))
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

fn mb(kb: u64) -> String {
    format!("{:.1} MB", kb as f64 / 1024.0)
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// How far a run got through the puzzles. More answer lines than puzzles
/// (a flood, or a program that reads past the input's end) are said as
/// they are: never "3 of 2 puzzles answered".
fn answered(answers: usize, puzzles: usize) -> String {
    if answers <= puzzles {
        format!("{answers} of {} answered", plural(puzzles, "puzzle"))
    } else {
        format!(
            "printed {} for {}, so it went on past the last one",
            plural(answers, "answer line"),
            plural(puzzles, "puzzle")
        )
    }
}

/// The verdict of one run, as judges decide it: a compile error first, then
/// time, memory and output limits, then a crash, and only then the answers,
/// which `checked` judged; what it printed is carried over.
///
/// `None` when the user interrupted the run (Ctrl-C): a run stopped part
/// way has no verdict, so a caller stops rather than count it as one.
pub fn decide(case: &CaseData, run: &Run, limits: &Limits, checked: Checked) -> Option<Checked> {
    let Checked {
        verdict: answers_verdict,
        reason: answers_reason,
        details: answers_details,
        output,
    } = checked;
    let decided = move |verdict, reason, details| {
        Some(Checked {
            verdict,
            reason,
            details,
            output,
        })
    };
    let mut answered = answered(run.answered, case.puzzles);
    // A program killed before it printed anything may well have answered:
    // into a buffer that died with it.
    if run.answered == 0 && case.puzzles > 1 && matches!(run.end, End::Killed(_)) {
        answered.push_str(
            " (its output may be buffered: what is printed but not flushed is lost when a \
             program is killed; flush after each answer, e.g. with endl or fflush(stdout), to \
             see how far it got)",
        );
    }
    let stderr = run.stderr.trim().to_string();
    let forks = if run.fork_refusals > 0 {
        format!(
            "; {} refused: it reached the limit of {} processes and threads",
            plural(run.fork_refusals as usize, "fork"),
            crate::runner::TASKS
        )
    } else {
        String::new()
    };
    match &run.end {
        End::NotCompiled => {
            return decided(
                Verdict::CE,
                "the compiler rejected the submission; its message is shown once, above the \
                 table"
                    .into(),
                String::new(),
            )
        }
        End::Killed(Kill::Wall) => {
            return decided(
                Verdict::TLE,
                format!(
                    "killed after {} of wall time (CPU {}), over the {} limit; {answered}{forks}",
                    ms(run.wall),
                    ms(run.time),
                    ms(limits.time),
                ),
                String::new(),
            )
        }
        End::Killed(Kill::Cpu) => {
            return decided(
                Verdict::TLE,
                format!(
                    "killed after {} of CPU time, over the {} limit; {answered}{forks}",
                    ms(run.time),
                    ms(limits.time),
                ),
                String::new(),
            )
        }
        End::Killed(Kill::Startup) => {
            return decided(
                Verdict::TLE,
                format!(
                    "killed before its first board: starting the runtime and loading the \
                     solution took over {} s (code run when the file is loaded counts here){forks}",
                    crate::runner::external::STARTUP.as_secs()
                ),
                String::new(),
            )
        }
        End::Killed(Kill::Memory) => {
            // The kernel's cap counts what it holds for the run too (page
            // tables, the stacks of its processes, files in memory), which
            // no process's resident set shows.
            let at = if run.memory_kb >= limits.memory_kb {
                format!("killed at {} of memory", mb(run.memory_kb))
            } else {
                format!(
                    "stopped by the kernel at the memory cap ({} in its processes' own pages, \
                     the rest held by the kernel for them: page tables, stacks, files in memory)",
                    mb(run.memory_kb)
                )
            };
            return decided(
                Verdict::MLE,
                format!(
                    "{at}, over the {} limit; {answered}{forks}",
                    mb(limits.memory_kb)
                ),
                String::new(),
            );
        }
        End::Killed(Kill::Output) => {
            return decided(
                Verdict::OLE,
                format!(
                    "killed after printing more than {} MB, the output limit; {answered}",
                    Limits::output_bytes(case.puzzles) >> 20
                ),
                String::new(),
            )
        }
        End::OutOfMemory(line) => {
            return decided(
                Verdict::MLE,
                format!(
                    "an allocation failed under the {} limit ({line}); peak memory {}",
                    mb(limits.memory_kb),
                    mb(run.memory_kb)
                ),
                stderr,
            )
        }
        End::Killed(Kill::Interrupted) => return None,
        End::Normal | End::Panicked(_) | End::Crashed(_) => {}
    }
    let answers = match answers_verdict {
        Verdict::AC => "the answers were right",
        _ => "the answers were wrong too",
    };
    if run.time > limits.time {
        let over = 100.0 * (run.time.as_secs_f64() / limits.time.as_secs_f64() - 1.0);
        return decided(
            Verdict::TLE,
            format!(
                "took {}, {over:.0}% over the {} limit ({answers})",
                ms(run.time),
                ms(limits.time)
            ),
            answers_details,
        );
    }
    if run.wall > limits.wall() {
        return decided(
            Verdict::TLE,
            format!(
                "ran for {} of wall time, over the {} wall-clock limit (twice the time limit), \
                 using {} of CPU; is it waiting or sleeping? ({answers})",
                ms(run.wall),
                ms(limits.wall()),
                ms(run.cpu)
            ),
            answers_details,
        );
    }
    if run.memory_kb > limits.memory_kb + run.memory_allowance_kb {
        return decided(
            Verdict::MLE,
            format!(
                "peak memory {}, over the {} limit ({answers})",
                mb(run.memory_kb),
                mb(limits.memory_kb)
            ),
            String::new(),
        );
    }
    match &run.end {
        End::Panicked(message) => decided(
            Verdict::RE,
            format!(
                "{message} (puzzle {} of {})",
                (run.answered + 1).min(case.puzzles),
                case.puzzles
            ),
            String::new(),
        ),
        End::Crashed(how) => decided(Verdict::RE, format!("{how}; {answered}{forks}"), stderr),
        _ => decided(answers_verdict, answers_reason, answers_details),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    const LIMITS: Limits = Limits {
        time: Duration::from_millis(1000),
        memory_kb: 256 * 1024,
    };

    /// A case of two puzzles; `decide` reads only how many there are.
    fn case() -> CaseData {
        let blank = Board::from_bytes(&[0; 81]).expect("a blank board");
        CaseData::in_memory(&[blank, blank], None)
    }

    /// A run that ended as `end` within every limit, having answered both
    /// puzzles.
    fn run(end: End) -> Run {
        Run {
            answered: 2,
            time: Duration::from_millis(40),
            wall: Duration::from_millis(50),
            cpu: Duration::from_millis(40),
            memory_kb: 4 * 1024,
            memory_allowance_kb: 0,
            fork_refusals: 0,
            puzzle_times: None,
            slowest_puzzle: None,
            end,
            stdout: String::new(),
            stdout_lines: 0,
            stderr: String::new(),
            earlier: 0,
            notes: Vec::new(),
        }
    }

    fn right() -> Checked {
        Checked {
            verdict: Verdict::AC,
            reason: String::new(),
            details: String::new(),
            output: "answers".into(),
        }
    }

    fn wrong(verdict: Verdict) -> Checked {
        Checked {
            verdict,
            reason: "answer 1 breaks row 3".into(),
            details: "a grid diff".into(),
            output: "answers".into(),
        }
    }

    fn decided(run: &Run, checked: Checked) -> Checked {
        decide(&case(), run, &LIMITS, checked).expect("a verdict")
    }

    #[test]
    fn the_answers_decide_a_run_within_its_limits() {
        let accepted = decided(&run(End::Normal), right());
        assert_eq!(accepted.verdict, Verdict::AC);
        assert_eq!(accepted.reason, "");
        assert_eq!(
            accepted.output, "answers",
            "what it printed is carried over"
        );
        for verdict in [Verdict::WA, Verdict::PE] {
            let judged = decided(&run(End::Normal), wrong(verdict));
            assert_eq!(judged.verdict, verdict);
            assert_eq!(judged.reason, "answer 1 breaks row 3");
            assert_eq!(judged.details, "a grid diff");
        }
    }

    #[test]
    fn a_compile_error_comes_before_everything() {
        let mut never = run(End::NotCompiled);
        never.time = Duration::from_secs(5);
        let judged = decided(&never, wrong(Verdict::WA));
        assert_eq!(judged.verdict, Verdict::CE);
        assert_eq!(
            judged.reason,
            "the compiler rejected the submission; its message is shown once, above the table"
        );
    }

    #[test]
    fn a_kill_by_the_watchdog_is_its_limit_whatever_the_answers() {
        let mut wall = run(End::Killed(Kill::Wall));
        (wall.answered, wall.wall, wall.time) = (0, Duration::from_millis(2100), Duration::ZERO);
        let judged = decided(&wall, right());
        assert_eq!(judged.verdict, Verdict::TLE);
        assert!(
            judged.reason.starts_with(
                "killed after 2100 ms of wall time (CPU 0 ms), over the 1000 ms limit; 0 of 2 \
                 puzzles answered (its output may be buffered"
            ),
            "{}",
            judged.reason
        );

        let mut cpu = run(End::Killed(Kill::Cpu));
        (cpu.answered, cpu.time, cpu.fork_refusals) = (1, Duration::from_millis(1001), 3);
        assert_eq!(
            decided(&cpu, wrong(Verdict::WA)).reason,
            "killed after 1001 ms of CPU time, over the 1000 ms limit; 1 of 2 puzzles answered; \
             3 forks refused: it reached the limit of 256 processes and threads"
        );

        let startup = decided(&run(End::Killed(Kill::Startup)), right());
        assert_eq!(startup.verdict, Verdict::TLE);
        assert!(startup.reason.starts_with("killed before its first board"));

        let mut memory = run(End::Killed(Kill::Memory));
        memory.memory_kb = 300 * 1024;
        let judged = decided(&memory, right());
        assert_eq!(judged.verdict, Verdict::MLE);
        assert_eq!(
            judged.reason,
            "killed at 300.0 MB of memory, over the 256.0 MB limit; 2 of 2 puzzles answered"
        );
        // Under the limit in its own pages: the kernel's share made the rest.
        memory.memory_kb = 200 * 1024;
        assert!(decided(&memory, right())
            .reason
            .starts_with("stopped by the kernel at the memory cap (200.0 MB"));

        let output = decided(&run(End::Killed(Kill::Output)), right());
        assert_eq!(output.verdict, Verdict::OLE);
        assert_eq!(
            output.reason,
            "killed after printing more than 64 MB, the output limit; 2 of 2 puzzles answered"
        );
    }

    #[test]
    fn an_interrupted_run_has_no_verdict() {
        for checked in [right(), wrong(Verdict::WA)] {
            assert!(decide(
                &case(),
                &run(End::Killed(Kill::Interrupted)),
                &LIMITS,
                checked
            )
            .is_none());
        }
    }

    #[test]
    fn a_run_over_a_limit_it_was_not_killed_at_fails_it() {
        let mut slow = run(End::Normal);
        slow.time = Duration::from_millis(1500);
        let judged = decided(&slow, right());
        assert_eq!(judged.verdict, Verdict::TLE);
        assert_eq!(
            judged.reason,
            "took 1500 ms, 50% over the 1000 ms limit (the answers were right)"
        );
        let judged = decided(&slow, wrong(Verdict::WA));
        assert_eq!(judged.verdict, Verdict::TLE);
        assert!(judged.reason.ends_with("(the answers were wrong too)"));
        assert_eq!(judged.details, "a grid diff", "the wrong answers are shown");

        let mut sleepy = run(End::Normal);
        sleepy.wall = Duration::from_millis(2500);
        let judged = decided(&sleepy, right());
        assert_eq!(judged.verdict, Verdict::TLE);
        assert!(judged
            .reason
            .starts_with("ran for 2500 ms of wall time, over the 2000 ms wall-clock limit"));

        let mut big = run(End::Normal);
        big.memory_kb = 300 * 1024;
        let judged = decided(&big, right());
        assert_eq!(judged.verdict, Verdict::MLE);
        assert_eq!(
            judged.reason,
            "peak memory 300.0 MB, over the 256.0 MB limit (the answers were right)"
        );
        // A runtime's own memory is allowed on top of the limit.
        big.memory_allowance_kb = 64 * 1024;
        assert_eq!(decided(&big, right()).verdict, Verdict::AC);

        let mut out_of_memory = run(End::OutOfMemory("std::bad_alloc".into()));
        out_of_memory.stderr = "terminate called after throwing std::bad_alloc\n".into();
        let judged = decided(&out_of_memory, right());
        assert_eq!(judged.verdict, Verdict::MLE);
        assert_eq!(
            judged.reason,
            "an allocation failed under the 256.0 MB limit (std::bad_alloc); peak memory 4.0 MB"
        );
        assert_eq!(
            judged.details,
            "terminate called after throwing std::bad_alloc"
        );
    }

    #[test]
    fn a_crash_within_the_limits_is_a_runtime_error() {
        let mut panicked = run(End::Panicked("index out of bounds at src/main.rs:3".into()));
        panicked.answered = 1;
        let judged = decided(&panicked, wrong(Verdict::WA));
        assert_eq!(judged.verdict, Verdict::RE);
        assert_eq!(
            judged.reason,
            "index out of bounds at src/main.rs:3 (puzzle 2 of 2)"
        );

        let mut crashed = run(End::Crashed(
            "killed by SIGSEGV (segmentation fault)".into(),
        ));
        crashed.stderr = "  core dumped  ".into();
        let judged = decided(&crashed, right());
        assert_eq!(judged.verdict, Verdict::RE);
        assert_eq!(
            judged.reason,
            "killed by SIGSEGV (segmentation fault); 2 of 2 puzzles answered"
        );
        assert_eq!(judged.details, "core dumped");
    }

    #[test]
    fn every_verdict_is_reachable_from_a_run() {
        let mut given = vec![
            decided(&run(End::Normal), right()),
            decided(&run(End::Normal), wrong(Verdict::WA)),
            decided(&run(End::Normal), wrong(Verdict::PE)),
            decided(&run(End::Killed(Kill::Cpu)), right()),
            decided(&run(End::Killed(Kill::Memory)), right()),
            decided(&run(End::Killed(Kill::Output)), right()),
            decided(&run(End::Crashed("exit code 1".into())), right()),
            decided(&run(End::NotCompiled), right()),
        ]
        .into_iter()
        .map(|c| c.verdict)
        .collect::<Vec<_>>();
        given.sort_by_key(|&v| Verdict::ALL.iter().position(|&w| w == v));
        assert_eq!(given, Verdict::ALL);
    }
}
