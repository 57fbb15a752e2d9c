//! Orchestration: build the submission ([`build`]); for each case of a
//! suite found once ([`Suite`]), read it, run the submission, decide the
//! verdict and tell the reporter. A submission's failure is a verdict; a
//! case that cannot be judged is an [`Unjudged`] for that case alone,
//! saying whose fault it is, and the run goes on with the others.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::case::CheckerKind;
use crate::case::{self, Case, CaseData, Limits, Listed, Settings, Suite};
use crate::check::{Checked, Checker};
use crate::outside::{shell_path, shell_word};
use crate::outside::{Outside, OutsidePath};
use crate::problem::Problem;
use crate::results::{
    CaseOutcome, CaseResult, Event, Judgement, NotRun, Reporter, Slowest, Summary, Unjudged,
};
use crate::runner::lang::launch::Launch;
use crate::runner::lang::{self, BuildInfo, Interface, Language};
use crate::runner::sandbox::Containment;
use crate::runner::{process, Execute, Runner, Submission};
use crate::solver::reference::count_solutions;
use crate::stats::Spread;
use crate::verdict::Verdict;
use crate::verdict_rules::decide;

/// Everything a judging run needs, built by the CLI.
#[derive(Clone, Debug)]
pub(crate) struct JudgeConfig {
    /// The cases, read once by the caller (its build read them too).
    pub(crate) suite: Arc<Suite>,
    pub(crate) submission: Submission,
    /// How the submission's source was built, for the report.
    pub(crate) build: Option<BuildInfo>,
    pub(crate) judging: Judging,
}

/// How cases are judged, decided once from the command line; every run
/// of a `test` plan shares it.
#[derive(Clone, Debug)]
pub(crate) struct Judging {
    /// Settings from the command line; they win over every `judge.toml`.
    pub(crate) overrides: Settings,
    pub(crate) selection: Selection,
    /// The protections runs get, for the report's header.
    pub(crate) sandbox: Option<crate::runner::sandbox::Protections>,
    /// Runs per case; timings are reported as min/median/max.
    pub(crate) repeat: usize,
    /// Cases judged at once; 1 keeps timings faithful.
    pub(crate) jobs: usize,
    /// A process per case for functions too, as before LeetCode's model
    /// (`--fresh-process`).
    pub(crate) fresh_process: bool,
    /// Stop at the first case not accepted, as the judges do
    /// (`--fail-fast`); the cases after it are not run.
    pub(crate) fail_fast: bool,
    /// How the submission is built and run (`--sandbox`).
    pub(crate) containment: Containment,
}

/// A case that cannot be read, or whose files turn out malformed as
/// they stream: its own fault, whatever was running.
fn unreadable(error: anyhow::Error) -> Unjudged {
    match error
        .chain()
        .find_map(|e| e.downcast_ref::<case::Malformed>())
    {
        Some(malformed) => Unjudged::Unreadable(malformed.to_string().into()),
        None => Unjudged::Unreadable(format!("{error:#}").into()),
    }
}

/// Running the submission failed: the case's fault when its file turned
/// out malformed as it streamed, the program's when the kernel refused to
/// exec it (a rerun will not mend that), else the judge's own.
fn run_failed(error: anyhow::Error) -> Unjudged {
    let refused = error
        .chain()
        .filter_map(|cause| cause.downcast_ref::<std::io::Error>())
        .any(crate::runner::sandbox::ProgramRefused::is_in);
    let malformed = error.chain().any(|e| e.is::<case::Malformed>());
    match (malformed, refused) {
        (true, _) => unreadable(error),
        (false, true) => Unjudged::Refused(format!("{error:#}").into()),
        (false, false) => Unjudged::JudgeFailed(format!("{error:#}").into()),
    }
}

/// Which of the discovered cases to judge.
#[derive(Clone, Debug, Default)]
pub(crate) struct Selection {
    /// Names, substrings or globs (`*`, `?`, `[...]`) of case ids; a case
    /// is kept when any picks it: the name of a suite or case picks it
    /// alone, other text every id holding it. Empty keeps all.
    pub(crate) filters: Vec<String>,
    /// Only these inputs (e.g. the cases that failed last time).
    pub(crate) only: Option<HashSet<PathBuf>>,
    /// `(k, n)`: the k-th of n shares (1-based) of the sorted, filtered
    /// list, taking every n-th case, so n machines judge it together.
    pub(crate) partition: Option<(usize, usize)>,
}

impl Selection {
    /// The cases to judge, in their sorted order.
    pub(crate) fn apply<'a>(&self, cases: &'a [Listed]) -> anyhow::Result<Vec<&'a Listed>> {
        let mut globs = globset::GlobSetBuilder::new();
        let mut names = Vec::new();
        let ids: Vec<&str> = cases.iter().map(|l| l.case.id.as_str()).collect();
        for filter in &self.filters {
            if filter.contains(['*', '?', '[']) {
                globs.add(
                    globset::Glob::new(filter)
                        .with_context(|| format!("`{filter}` is not a valid glob"))?,
                );
            } else {
                names.push(Name::of(filter, &ids));
            }
        }
        let globs = globs.build()?;
        let total = cases.len();
        let mut kept: Vec<&Listed> = cases
            .iter()
            .filter(|l| {
                self.filters.is_empty()
                    || names.iter().any(|name| name.picks(&l.case.id))
                    || globs.is_match(&l.case.id)
            })
            .filter(|l| {
                self.only
                    .as_ref()
                    .is_none_or(|only| only.contains(&case::absolute(&l.case.input)))
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

/// A filter without glob characters. The name of a suite or a case picks
/// that suite or case alone (`leetcode37` is not `leetcode37-hard`); a
/// filter that names none of them picks every id it is a substring of
/// (`hard` picks `acwing166/hard` and `leetcode37-hard/...`).
enum Name<'f> {
    /// The case of this id, and the cases under it: `leetcode37` picks
    /// `leetcode37/example1`.
    Exact(&'f str),
    Substring(&'f str),
}

impl<'f> Name<'f> {
    fn of(filter: &'f str, ids: &[&str]) -> Name<'f> {
        let name = filter.trim_end_matches('/');
        match ids.iter().any(|id| under(id, name)) {
            true => Name::Exact(name),
            false => Name::Substring(filter),
        }
    }

    fn picks(&self, id: &str) -> bool {
        match self {
            Name::Exact(name) => under(id, name),
            Name::Substring(part) => id.contains(part),
        }
    }
}

/// Whether `id` is the case `name`, or a case in the directory `name`.
fn under(id: &str, name: &str) -> bool {
    !name.is_empty()
        && id
            .strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Parses `K/N` for `--partition`.
pub(crate) fn parse_partition(text: &str) -> anyhow::Result<(usize, usize)> {
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

/// What is judged: the submission as the command line names it.
#[derive(Clone, Debug)]
pub(crate) enum Submitted {
    /// A command line (`--cmd`).
    Command(String),
    /// A source file (`--submission`), in the language `--lang` names and
    /// read as `--interface` says, when they are given.
    File {
        path: PathBuf,
        language: Option<Language>,
        interface: Option<Interface>,
    },
    /// A built-in solver (`--solver`), the default one without a name.
    Solver(Option<String>),
}

/// The submission ready to judge, how it was built, and how to say it
/// again in a rerun hint. `problem` is the one every case is, if one is
/// (a file that could be read either way is read as that judge reads it,
/// and built as it builds); a source file is built with the `toolchains`
/// its cases' settings name, saying what it does through `announce`, and
/// contained as `containment` says.
pub(crate) fn build(
    submitted: &Submitted,
    problem: Option<Problem>,
    toolchains: impl FnOnce() -> anyhow::Result<Vec<lang::Choice>>,
    announce: lang::Announce,
    containment: &Containment,
) -> anyhow::Result<(Submission, Option<BuildInfo>, String)> {
    let (path, language, interface) = match submitted {
        Submitted::Command(command) => {
            let launch = Launch::command(command, containment)?;
            let again = format!("--cmd {}", shell_word(command.as_ref()));
            return Ok((Submission::External(launch), None, again));
        }
        Submitted::Solver(name) => {
            let solver = crate::solver::pick(name.as_deref())?;
            let exe = std::env::current_exe()
                .context("cannot find this program's own binary to run solvers in")?;
            let again = format!("--solver {}", solver.name);
            let worker = crate::runner::builtin::launch(&exe, solver, containment);
            return Ok((Submission::Builtin { solver, worker }, None, again));
        }
        Submitted::File {
            path,
            language,
            interface,
        } => (path, *language, *interface),
    };
    let mut rerun = format!("--submission {}", shell_path(path));
    if let Some(language) = language {
        rerun.push_str(&format!(" --lang {}", language.spec().id));
    }
    let reading = match interface {
        Some(Interface::Function) => {
            rerun.push_str(" --interface leetcode");
            lang::Reading::Forced(Interface::Function)
        }
        Some(Interface::Program) => {
            rerun.push_str(" --interface program");
            lang::Reading::Forced(Interface::Program)
        }
        None if problem == Some(Problem::Leetcode37) => lang::Reading::LeetCodeFirst,
        None => lang::Reading::Detect,
    };
    let options = lang::Options {
        reading,
        problem,
        toolchains: toolchains()?,
        announce: Some(announce),
        containment: containment.clone(),
    };
    let mut built = lang::build_as(path, language, &options)?;
    if language.is_none() {
        if let Some(error) = built.info.error.as_mut() {
            if let Some(hint) = other_language_hint(path, built.info.language, error) {
                error.push_str(&format!("\n{hint}"));
            }
        }
    }
    let submission = match built.launch {
        Some(launch) => Submission::External(launch),
        None => Submission::NotCompiled {
            label: path.display().to_string(),
        },
    };
    Ok((submission, Some(built.info), rerun))
}

/// A hint for a file that did not compile as the language its extension
/// names, when the compiler's `message` names as unknown what only another
/// language has (Java's `boolean` in a file saved as `.cs`): which
/// `--lang` judges it as that one ([`lang::another_language`]).
fn other_language_hint(
    path: &std::path::Path,
    language: lang::Language,
    message: &str,
) -> Option<String> {
    let source =
        crate::files::read_text(path, "source file", crate::files::MAX_WHOLE_BYTES).ok()?;
    let name = path.file_name()?.to_string_lossy();
    let other = lang::another_language(language, &name, &source, message)?;
    let id = other.spec().id;
    Some(format!(
        "hint: {} looks like {other}, not {language}; if it is, judge it with --lang {id}, or \
         give it the extension .{}",
        path.display(),
        other.spec().extensions[0]
    ))
}

/// Judges every case of `config.suite`, reporting as it goes, in case
/// order whatever order parallel jobs finish in. `Err` only when nothing
/// can be judged (no cases) or a reporter fails.
pub(crate) fn run(config: &JudgeConfig, reporter: &mut dyn Reporter) -> anyhow::Result<Summary> {
    // One runner a job: its process serves the job's cases.
    run_through(config, reporter, || {
        Runner::new(&config.submission, config.judging.fresh_process)
    })
}

/// Tells the reporter what the run judges: how many cases, the problems
/// and time scales their settings give, the submission and its build.
fn report_start(
    config: &JudgeConfig,
    reporter: &mut dyn Reporter,
    settings: &[Result<Settings, Unjudged>],
    jobs: usize,
) -> anyhow::Result<()> {
    let mut problems: Vec<(Problem, usize)> = Vec::new();
    for problem in settings.iter().flatten().filter_map(|s| s.problem) {
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
    let warnings: Vec<Outside> = config
        .suite
        .warnings
        .iter()
        .map(|w| w.as_str().into())
        .collect();
    reporter.report(Event::Started {
        cases: settings.len(),
        submission: &config.submission.label(),
        build: config.build.as_ref(),
        jobs,
        sandbox: config.judging.sandbox.as_ref(),
        warnings: &warnings,
        problems: &problems,
        interface: match &config.submission {
            Submission::NotCompiled { .. } => None,
            submission if submission.is_function() => Some(Interface::Function),
            _ => Some(Interface::Program),
        },
        submitted: match &config.submission {
            Submission::External(launch) => Some(launch.interface),
            Submission::Builtin { .. } | Submission::NotCompiled { .. } => None,
        },
        time_scales: &time_scales,
    })?;
    Ok(())
}

/// [`run`], running the submission through what `start` makes, one for
/// each job.
fn run_through<E: Execute>(
    config: &JudgeConfig,
    reporter: &mut dyn Reporter,
    start: impl Fn() -> E + Sync,
) -> anyhow::Result<Summary> {
    let started = Instant::now();
    let listed = config.judging.selection.apply(&config.suite.cases)?;
    let cases: Vec<&Case> = listed.iter().map(|l| &l.case).collect();
    let jobs = config.judging.jobs.clamp(1, cases.len().max(1));
    // The command line's settings win over every `judge.toml`.
    let settings: Vec<Result<Settings, Unjudged>> = listed
        .iter()
        .map(|l| match &l.settings {
            Ok(settings) => Ok(config.judging.overrides.clone().or(settings)),
            Err(error) => Err(Unjudged::Unreadable(error.as_str().into())),
        })
        .collect();
    let problem_of = |i: usize| settings[i].as_ref().ok().and_then(|s| s.problem);
    report_start(config, reporter, &settings, jobs)?;
    // Nothing of a case is kept once it is reported: reporters keep what
    // they need, so a run of 100,000 cases does not grow the harness.
    let mut summary = Summary::default();
    let mut reported = 0;
    let mut interrupted = false;
    // Set at the first case not accepted with `fail_fast`: no job starts
    // another case, and what finishes after it in case order is dropped.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    // Every answer checked, in every job; told as `Event::Answered`.
    let (answered, mut told) = (&AtomicUsize::new(0), 0);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Option<CaseOutcome>)>();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..jobs {
            let done = done_tx.clone();
            let (next, cases, settings, start, stop) = (&next, &cases, &settings, &start, &stop);
            scope.spawn(move || {
                let mut runner = start();
                // The inputs of the job's runs, in order: the last ones are
                // those its process judged before the case at hand.
                let mut history = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= cases.len() || process::interrupted() || stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let judged = settings[i].clone().and_then(|settings| {
                        judge_case(
                            config,
                            &mut runner,
                            answered,
                            &settings,
                            cases[i],
                            &mut history,
                        )
                    });
                    let outcome = judged.transpose().map(|judged| match judged {
                        Ok(judgement) => CaseOutcome::Judged(Box::new(judgement)),
                        Err(error) => CaseOutcome::Error(error),
                    });
                    if done.send((i, outcome)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        // Results wait here until every case before them is reported.
        let mut waiting: BTreeMap<usize, Option<CaseOutcome>> = BTreeMap::new();
        while let Some((i, outcome)) = next_done(&done_rx, reporter, answered, &mut told)? {
            waiting.insert(i, outcome);
            while let Some(outcome) = waiting.remove(&reported) {
                let Some(outcome) = outcome.filter(|_| !interrupted) else {
                    interrupted = true;
                    continue;
                };
                let case = &cases[reported];
                let result = CaseResult {
                    id: case.id.as_str().into(),
                    suite: case.suite().into(),
                    input: case.input.as_path().into(),
                    expected: case.expected.as_deref().map(OutsidePath::from),
                    problem: problem_of(reported),
                    outcome,
                };
                reporter.report(Event::CaseFinished(&result))?;
                summary.add(&result);
                reported += 1;
                if config.judging.fail_fast && !result.passed() {
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
            }
            if interrupted || stop.load(Ordering::SeqCst) {
                break;
            }
        }
        Ok(())
    })?;
    interrupted |= process::interrupted() && reported < cases.len();
    if stop.load(Ordering::SeqCst) && !interrupted {
        summary.not_run = cases[reported..]
            .iter()
            .copied()
            .map(|c| NotRun {
                id: c.id.as_str().into(),
                suite: c.suite().into(),
            })
            .collect();
    }
    summary.elapsed = started.elapsed();
    summary.interrupted = interrupted;
    reporter.report(Event::Finished { summary: &summary })?;
    Ok(summary)
}

/// How often [`Event::Answered`] is told inside a long case: a display
/// redraws no oftener, and a case may check a million answers.
const ANSWERED_EVERY: Duration = Duration::from_millis(100);

/// What a job sent next, telling the reporter the count of `answered` as
/// it grows past `told` while it is awaited; `None` once every job ended.
fn next_done<T>(
    done: &mpsc::Receiver<T>,
    reporter: &mut dyn Reporter,
    answered: &AtomicUsize,
    told: &mut usize,
) -> std::io::Result<Option<T>> {
    loop {
        let received = done.recv_timeout(ANSWERED_EVERY);
        let count = answered.load(Ordering::Relaxed);
        if count != *told {
            reporter.report(Event::Answered(count))?;
            *told = count;
        }
        match received {
            Ok(sent) => return Ok(Some(sent)),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(None),
        }
    }
}

/// At most this many puzzles of a case are named in warnings of one kind.
const WARNED: usize = 5;

/// The case read for judging under `settings`: its data (with a warning
/// for each puzzle the exact checker cannot judge fairly), checker and
/// limits; a case that cannot be judged says why.
fn read_case(
    settings: &Settings,
    case: &Case,
) -> Result<(CaseData, CheckerKind, Limits), Unjudged> {
    let checker = settings.checker();
    let limits = settings.checked_limits().map_err(unreadable)?;
    // The Sudoku-aware checker checks the case's lines as they stream;
    // the exact one needs to know first whether the expected output reads
    // as boards.
    let mut data = match checker {
        CheckerKind::Sudoku => case::open(case),
        CheckerKind::Exact => case::load(case, false),
    }
    .map_err(unreadable)?;
    if checker == CheckerKind::Exact && data.expected.is_none() {
        return Err(Unjudged::NoExpected {
            input: case.input.as_path().into(),
        });
    }
    // An expected file proves its puzzles solvable; without one, a puzzle
    // with no solution would blame the submission for the case's fault.
    if data.expected.is_none() {
        for (n, puzzle) in data.puzzles().map_err(unreadable)?.enumerate() {
            let (line, puzzle) = puzzle.map_err(unreadable)?;
            if count_solutions(&puzzle.to_bytes(), 1) == 0 {
                return Err(Unjudged::Unsolvable {
                    input: case.input.as_path().into(),
                    line,
                    puzzle: n + 1,
                });
            }
        }
    }
    // Text comparison is only fair when the expected answer is the only one.
    if checker == CheckerKind::Exact {
        let mut warnings = Vec::new();
        let mut several = 0;
        for (n, puzzle) in data.puzzles().map_err(unreadable)?.enumerate() {
            let (line, puzzle) = puzzle.map_err(unreadable)?;
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
    Ok((data, checker, limits))
}

/// Of the run a case's verdict is taken from: the verdict, its reason and
/// details, and what the submission printed when it was not accepted.
struct Decided {
    checked: Checked,
    /// The earlier cases it fails after while it passes alone.
    kept_state_after: Option<usize>,
    /// Its number among `--repeat` runs, when it failed.
    failed_run: Option<usize>,
    /// The cases whose run before it, in one process, reproduces its failure.
    reproduce_after: Vec<PathBuf>,
}

/// `Ok(None)` when the user interrupted the run during this case.
fn judge_case(
    config: &JudgeConfig,
    runner: &mut impl Execute,
    answered: &AtomicUsize,
    settings: &Settings,
    case: &Case,
    history: &mut Vec<PathBuf>,
) -> Result<Option<Judgement>, Unjudged> {
    let (data, checker, limits) = read_case(settings, case)?;
    let format = config.submission.answer_format(&data);
    let new_checker = || {
        Checker::new(checker, &data, format)
            .map(|c| c.answered_by(config.submission.answerer()))
            .map_err(unreadable)
    };
    let mut runs = Vec::with_capacity(config.judging.repeat);
    let mut decided: Option<Decided> = None;
    for n in 0..config.judging.repeat.max(1) {
        // A run the machine starved of CPU is judged again; still
        // starved, its time cannot be judged here, and the case says so
        // rather than blame the submission with a TLE. A case that cannot
        // be checked is kept aside, as the runner's errors are its own.
        let mut unchecked = None;
        let ran = crate::runner::run_patiently(limits, |patient| {
            let mut answers = new_checker()
                .inspect_err(|e| unchecked = Some(e.clone()))
                .map_err(|_| anyhow::anyhow!("the case cannot be checked"))?
                .counting(Some(answered));
            Ok((runner.run(&data, patient, &mut answers)?, answers))
        });
        let (run, answers, patient) = match (ran, unchecked) {
            (_, Some(unchecked)) => return Err(unchecked),
            (Err(error), None) => return Err(run_failed(error)),
            (Ok(ran), None) => ran.map_err(|busy| Unjudged::TooBusy(busy.into()))?,
        };
        let before = history.len().saturating_sub(run.earlier);
        let earlier_inputs = history.split_off(before);
        history.clear();
        history.extend(earlier_inputs.iter().cloned());
        history.push(case.input.clone());
        let Some(checked) = decide(&data, &run, &patient, answers.finish().map_err(unreadable)?)
        else {
            return Ok(None);
        };
        // A wrong answer or a crash in a process that judged earlier cases
        // may be the state they left: alone, in a fresh process, does it
        // pass? Not a time or memory verdict: those vary from run to run,
        // and a case that passes alone says nothing of state there.
        let verdict = checked.verdict;
        let state_can_explain = matches!(verdict, Verdict::WA | Verdict::PE | Verdict::RE);
        let mut kept_state = None;
        if state_can_explain && run.earlier > 0 {
            let mut alone = new_checker()?;
            let fresh = runner
                .run_alone(&data, &limits, &mut alone)
                .map_err(run_failed)?;
            let finished = alone.finish().map_err(unreadable)?;
            let Some(alone) = decide(&data, &fresh, &limits, finished) else {
                return Ok(None);
            };
            if alone.verdict == Verdict::AC {
                // Judged first, in one process, the earlier cases
                // reproduce the failure (a repeat of this case is it).
                let mut after = earlier_inputs;
                after.retain(|input| *input != case.input);
                after.dedup();
                kept_state = Some((run.earlier, after));
            }
        }
        if decided.is_none() && (verdict != Verdict::AC || n + 1 == config.judging.repeat.max(1)) {
            let (kept_state_after, reproduce_after) = kept_state.unzip();
            decided = Some(Decided {
                checked,
                kept_state_after,
                failed_run: (verdict != Verdict::AC && config.judging.repeat > 1).then_some(n + 1),
                reproduce_after: reproduce_after.unwrap_or_default(),
            });
        }
        runs.push(run);
    }
    let decided = decided.expect("at least one run");
    judgement(config, data, checker, limits, &runs, decided).map(Some)
}

/// The judgement of a case from its runs and the one its verdict is
/// taken from.
fn judgement(
    config: &JudgeConfig,
    data: CaseData,
    checker: CheckerKind,
    limits: Limits,
    runs: &[crate::runner::Run],
    decided: Decided,
) -> Result<Judgement, Unjudged> {
    let Checked {
        verdict,
        reason,
        details,
        output,
    } = decided.checked;
    // What it printed is kept for a case not accepted (`--keep`).
    let output = if verdict == Verdict::AC {
        String::new()
    } else {
        output
    };
    let run_times: Vec<Duration> = runs.iter().map(|r| r.time).collect();
    let first = &runs[0];
    let timed = first.puzzle_times.filter(|_| data.puzzles > 1);
    let slowest = match timed.and_then(|t| t.slowest) {
        Some((i, time)) => {
            let mut puzzles = data.puzzles().map_err(unreadable)?;
            let mut nth = None;
            for _ in 0..=i {
                nth = puzzles.next_line().transpose().map_err(unreadable)?;
            }
            nth.map(|(line, _)| Slowest {
                puzzle: i + 1,
                line,
                time,
            })
        }
        None => None,
    };
    Ok(Judgement {
        verdict,
        reason,
        kept_state_after: decided.kept_state_after,
        failed_run: decided.failed_run.map(|n| (n, config.judging.repeat)),
        details: details.into(),
        format: data.format,
        checker,
        puzzles: data.puzzles,
        limits,
        time: Spread::of(&run_times).expect("at least one run").median,
        puzzle_times: timed.and_then(|t| t.spread),
        puzzles_timed: timed.map_or(0, |t| t.count),
        slowest,
        wall: first.wall,
        cpu: first.cpu,
        memory_kb: runs.iter().map(|r| r.memory_kb).max().unwrap_or(0),
        output: output.into(),
        stdout: first.stdout.as_str().into(),
        stdout_lines: first.stdout_lines,
        stdout_last_line: first.stdout_last_line.as_deref().map(Outside::from),
        stderr: first.stderr.as_str().into(),
        warnings: data.warnings.into_iter().map(Outside::from).collect(),
        notes: first.notes.iter().map(|n| n.as_str().into()).collect(),
        reproduce_after: decided
            .reproduce_after
            .into_iter()
            .map(OutsidePath::from)
            .collect(),
        run_times,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Mutex;

    use super::*;
    use crate::board::{EXAMPLE, EXAMPLE_ANSWER};
    use crate::results::Fault;
    use crate::runner::process::Kill;
    use crate::runner::{End, Run};

    /// What a made-up run prints.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Answers {
        Right,
        /// A solution with two digits of its last row swapped.
        Wrong,
        Nothing,
    }

    /// How the fake submission behaves on the case named `name` (the input
    /// file's stem): `earlier` is how many cases its process ran before,
    /// `None` when the judge reruns the case alone.
    type Script<'s> = dyn Fn(&str, Option<usize>) -> (Answers, End) + Sync + 's;

    /// A submission that runs nothing: it prints what the script says, and
    /// notes every call, as `name` or `name alone`.
    struct Fake<'a> {
        script: &'a Script<'a>,
        calls: &'a Mutex<Vec<String>>,
        /// Cases its process has run.
        ran: usize,
    }

    impl Fake<'_> {
        fn answer(
            &self,
            case: &CaseData,
            earlier: Option<usize>,
            checker: &mut Checker<'_>,
        ) -> Run {
            let path = case.input.path().expect("cases come from files");
            let name = path.file_stem().unwrap().to_str().unwrap();
            self.calls.lock().unwrap().push(match earlier {
                Some(_) => name.to_string(),
                None => format!("{name} alone"),
            });
            let (answers, end) = (self.script)(name, earlier);
            let line = match answers {
                Answers::Right => Some(EXAMPLE_ANSWER.to_string()),
                Answers::Wrong => {
                    let mut wrong = EXAMPLE_ANSWER.as_bytes().to_vec();
                    wrong.swap(79, 80);
                    Some(String::from_utf8(wrong).unwrap())
                }
                Answers::Nothing => None,
            };
            for line in line.iter().cycle().take(case.puzzles) {
                checker.feed(format!("{line}\n").as_bytes());
            }
            Run {
                earlier: earlier.unwrap_or(0),
                ..Run::ended(end, checker.answered(), 5)
            }
        }
    }

    impl Execute for Fake<'_> {
        fn run(
            &mut self,
            case: &CaseData,
            _: &Limits,
            checker: &mut Checker<'_>,
        ) -> anyhow::Result<Run> {
            let run = self.answer(case, Some(self.ran), checker);
            // As a runner's process, it is gone once a run ends otherwise
            // than by itself.
            self.ran = if run.end == End::Normal {
                self.ran + 1
            } else {
                0
            };
            Ok(run)
        }

        fn run_alone(
            &mut self,
            case: &CaseData,
            _: &Limits,
            checker: &mut Checker<'_>,
        ) -> anyhow::Result<Run> {
            Ok(self.answer(case, None, checker))
        }
    }

    /// Keeps each event as a line: `started N`, `ID VERDICT: REASON` or
    /// `ID error: MESSAGE`, `finished PASSED/TOTAL`.
    /// The second list: `ID after A B` for a case whose failure the
    /// cases A and B, judged first, reproduce. The third: the counts of
    /// answers checked, as told.
    #[derive(Default)]
    struct Events(Vec<String>, Vec<String>, Vec<usize>);

    impl Reporter for Events {
        fn report(&mut self, event: Event<'_>) -> std::io::Result<()> {
            self.0.push(match event {
                Event::Answered(count) => {
                    self.2.push(count);
                    return Ok(());
                }
                Event::Started { cases, .. } => format!("started {cases}"),
                Event::CaseFinished(result) => match &result.outcome {
                    CaseOutcome::Judged(j) => {
                        if !j.reproduce_after.is_empty() {
                            let after: Vec<_> = j
                                .reproduce_after
                                .iter()
                                .map(|p| p.as_raw().file_stem().unwrap().to_str().unwrap())
                                .collect();
                            self.1.push(format!(
                                "{} after {}",
                                result.id.as_raw(),
                                after.join(" ")
                            ));
                        }
                        {
                            let kept = j
                                .kept_state_after
                                .map(|n| format!("; keeps state: fails after {n}"))
                                .unwrap_or_default();
                            format!(
                                "{} {}: {}{kept}",
                                result.id.as_raw(),
                                j.verdict,
                                j.reason.sentence()
                            )
                        }
                    }
                    CaseOutcome::Error(e) => format!("{} error: {e:?}", result.id.as_raw()),
                },
                Event::Finished { summary } => {
                    format!("finished {}/{}", summary.passed, summary.total)
                }
            });
            Ok(())
        }
    }

    /// A directory of flat cases, each `NAME.in` holding `puzzles` copies
    /// of LeetCode's example, with no expected file.
    fn cases(names: &[(&str, usize)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, puzzles) in names {
            let input = format!("{EXAMPLE}\n").repeat(*puzzles) + "end\n";
            std::fs::write(dir.path().join(format!("{name}.in")), input).unwrap();
        }
        dir
    }

    fn config(dir: &Path, jobs: usize) -> JudgeConfig {
        JudgeConfig {
            suite: Arc::new(
                Suite::read(&[dir.to_path_buf()], crate::files::OutsideLinks::Refused).unwrap(),
            ),
            submission: Submission::Builtin {
                solver: crate::solver::default_solver(),
                worker: crate::runner::builtin::launch(
                    Path::new("/nonexistent/never-started"),
                    crate::solver::default_solver(),
                    &Default::default(),
                ),
            },
            build: None,
            judging: Judging {
                overrides: Settings::default(),
                selection: Selection::default(),
                sandbox: None,
                repeat: 1,
                jobs,
                fresh_process: false,
                fail_fast: false,
                containment: Containment::default(),
            },
        }
    }

    /// Judges `dir` through the fake: the summary, the events and the calls.
    fn judge(config: &JudgeConfig, script: &Script<'_>) -> (Summary, Vec<String>, Vec<String>) {
        let (summary, events, calls, _) = judge_reproduced(config, script);
        (summary, events, calls)
    }

    /// [`judge`], with the cases whose failures earlier cases reproduce.
    fn judge_reproduced(
        config: &JudgeConfig,
        script: &Script<'_>,
    ) -> (Summary, Vec<String>, Vec<String>, Vec<String>) {
        let calls = Mutex::new(Vec::new());
        let mut events = Events::default();
        let summary = run_through(config, &mut events, || Fake {
            script,
            calls: &calls,
            ran: 0,
        })
        .expect("a run");
        (summary, events.0, calls.into_inner().unwrap(), events.1)
    }

    /// Running the submission failed: whose fault it is decides the hint.
    #[test]
    fn an_exec_the_kernel_refuses_is_the_programs_fault_and_a_lost_spawner_the_judges() {
        let exec_error = std::io::Error::from_raw_os_error(libc::ENOEXEC);
        let refused = anyhow::Error::new(std::io::Error::new(
            exec_error.kind(),
            crate::runner::sandbox::ProgramRefused(exec_error),
        ))
        .context("failed to run `./prog`");
        assert_eq!(
            run_failed(refused),
            Unjudged::Refused(
                format!(
                    "failed to run `./prog`: {}",
                    std::io::Error::from_raw_os_error(libc::ENOEXEC)
                )
                .into()
            )
        );

        let lost = anyhow::Error::new(std::io::Error::other("the spawner went away"));
        assert_eq!(
            run_failed(lost),
            Unjudged::JudgeFailed("the spawner went away".into())
        );
        // The judge's own program missing, as when it was rebuilt mid-run,
        // is no fault of the submission's.
        let replaced = anyhow::Error::new(std::io::Error::from_raw_os_error(libc::ENOENT))
            .context("failed to start the solver worker");
        assert_eq!(run_failed(replaced).fault(), Fault::Judge);
        // A case file found malformed as it streamed is the case's,
        // whatever was running.
        let malformed = anyhow::Error::new(case::Malformed("a.in:2:3: 'x' is not a cell".into()))
            .context("failed to feed the submission");
        assert_eq!(
            run_failed(malformed),
            Unjudged::Unreadable("a.in:2:3: 'x' is not a cell".into())
        );

        // Outside a run (reading a case), a missing file is the case's.
        let missing = anyhow::Error::new(std::io::Error::from_raw_os_error(libc::ENOENT))
            .context("failed to read case input cases/a.in");
        assert_eq!(unreadable(missing).fault(), Fault::Case);
    }

    /// The ids `filters` pick from the shipped suites' kind of ids.
    fn picked(filters: &[&str]) -> anyhow::Result<Vec<String>> {
        let listed: Vec<Listed> = [
            "acwing166/hard",
            "acwing166/hardest",
            "leetcode37/example1",
            "leetcode37/generated/g1",
            "leetcode37-hard/example1-few-givens",
        ]
        .iter()
        .map(|id| Listed {
            case: case::Case {
                id: id.to_string(),
                root: PathBuf::from("cases"),
                links: crate::files::OutsideLinks::Refused,
                input: PathBuf::from(format!("cases/{id}.in")),
                expected: None,
            },
            settings: Err(String::new()),
        })
        .collect();
        let selection = Selection {
            filters: filters.iter().map(|f| f.to_string()).collect(),
            ..Selection::default()
        };
        Ok(selection
            .apply(&listed)?
            .iter()
            .map(|l| l.case.id.clone())
            .collect())
    }

    #[test]
    fn a_suites_name_picks_that_suite_and_a_part_of_a_name_picks_every_id_holding_it() {
        assert_eq!(
            picked(&["leetcode37"]).unwrap(),
            ["leetcode37/example1", "leetcode37/generated/g1"]
        );
        assert_eq!(picked(&["leetcode37/"]).unwrap().len(), 2);
        assert_eq!(picked(&["acwing166/hard"]).unwrap(), ["acwing166/hard"]);
        assert_eq!(
            picked(&["leetcode37/generated"]).unwrap(),
            ["leetcode37/generated/g1"]
        );
        // Named by no suite or case: a substring of ids.
        assert_eq!(
            picked(&["hard"]).unwrap(),
            [
                "acwing166/hard",
                "acwing166/hardest",
                "leetcode37-hard/example1-few-givens"
            ]
        );
        assert_eq!(picked(&["leetcode3"]).unwrap().len(), 3);
        assert_eq!(picked(&["leetcode37*"]).unwrap().len(), 3);
        assert_eq!(picked(&["leetcode37", "leetcode37-hard"]).unwrap().len(), 3);
        assert!(picked(&["nothing"]).is_err());
    }

    #[test]
    fn each_case_gets_the_verdict_of_its_run_and_the_reporter_hears_them_in_order() {
        let dir = cases(&[("a", 1), ("b", 2), ("c", 1), ("d", 1)]);
        let (summary, events, calls) = judge(&config(dir.path(), 1), &|name, _| match name {
            "a" => (Answers::Right, End::Normal),
            "b" => (Answers::Wrong, End::Normal),
            "c" => (Answers::Nothing, End::Crashed("exited with code 3".into())),
            _ => (Answers::Right, End::Killed(Kill::Cpu)),
        });
        assert_eq!(events.len(), 6, "{events:#?}");
        assert_eq!(events[0], "started 4");
        assert_eq!(events[1], "a AC: ");
        assert!(events[2].starts_with("b WA: "), "{events:#?}");
        assert!(
            events[3].starts_with("c RE: exited with code 3"),
            "{events:#?}"
        );
        assert!(events[4].starts_with("d TLE: "), "{events:#?}");
        assert_eq!(events[5], "finished 1/4");
        // In case order, in one process until one ends it. A case failing
        // after others is rerun alone; failing alone too, its reason is
        // its own. The crash ended the process, so `d` is not rerun.
        assert_eq!(calls, ["a", "b", "b alone", "c", "c alone", "d"]);
        assert!(!events[2].contains("alone"), "{events:#?}");

        assert_eq!(
            (
                summary.passed,
                summary.failed,
                summary.errors,
                summary.total
            ),
            (1, 3, 0, 4)
        );
        let mut verdicts = vec![
            (Verdict::AC, 1),
            (Verdict::WA, 1),
            (Verdict::TLE, 1),
            (Verdict::RE, 1),
        ];
        verdicts.sort_by_key(|&(v, _)| Verdict::ALL.iter().position(|&w| w == v));
        assert_eq!(
            summary.verdicts, verdicts,
            "counted in the order verdicts are listed"
        );
        assert!(!summary.interrupted);
        let not_accepted: Vec<_> = summary
            .not_accepted
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(not_accepted, ["b.in", "c.in", "d.in"]);
        assert_eq!(summary.charged, Duration::from_millis(20), "4 runs of 5 ms");
    }

    #[test]
    fn a_case_failing_after_others_but_passing_alone_says_the_solution_keeps_state() {
        let dir = cases(&[("a", 1), ("b", 1), ("c", 1)]);
        // Right in a fresh process, wrong after two cases in one.
        let (summary, events, calls, reproduced) =
            judge_reproduced(&config(dir.path(), 1), &|_, earlier| match earlier {
                Some(n) if n >= 2 => (Answers::Wrong, End::Normal),
                _ => (Answers::Right, End::Normal),
            });
        assert_eq!(calls, ["a", "b", "c", "c alone"]);
        // Its rerun judges the two cases before it first.
        assert_eq!(reproduced, ["c after a b"]);
        assert_eq!(events[1..3], ["a AC: ", "b AC: "]);
        assert!(events[3].starts_with("c WA: "), "{events:#?}");
        assert!(
            events[3].ends_with("; keeps state: fails after 2"),
            "{events:#?}"
        );
        assert_eq!((summary.passed, summary.failed), (2, 1));

        let (_, events, _) = judge(&config(dir.path(), 1), &|_, earlier| match earlier {
            Some(1) => (Answers::Wrong, End::Normal),
            _ => (Answers::Right, End::Normal),
        });
        assert!(
            events[2].ends_with("; keeps state: fails after 1"),
            "{events:#?}"
        );
    }

    #[test]
    fn a_time_or_memory_verdict_after_others_says_nothing_of_state() {
        let dir = cases(&[("a", 1), ("b", 1), ("c", 1)]);
        // Slow after others (the machine was busy), fine alone: a stateless
        // solution whose time varies, never rerun nor said to keep state.
        for end in [End::Killed(Kill::Wall), End::Killed(Kill::Memory)] {
            let (_, events, calls, reproduced) = judge_reproduced(
                &config(dir.path(), 1),
                &|name, earlier| match (name, earlier) {
                    ("b", Some(1)) => (Answers::Nothing, end.clone()),
                    _ => (Answers::Right, End::Normal),
                },
            );
            assert_eq!(calls, ["a", "b", "c"], "{events:#?}");
            assert!(!events[2].contains("state"), "{events:#?}");
            assert!(reproduced.is_empty(), "{reproduced:#?}");
        }
        // A crash is the state's when the case passes alone.
        let (_, events, calls, reproduced) = judge_reproduced(
            &config(dir.path(), 1),
            &|name, earlier| match (name, earlier) {
                ("b", Some(1)) => (Answers::Nothing, End::Crashed("exited with code 1".into())),
                _ => (Answers::Right, End::Normal),
            },
        );
        assert_eq!(calls, ["a", "b", "b alone", "c"]);
        assert!(events[2].contains("keeps state"), "{events:#?}");
        assert_eq!(reproduced, ["b after a"]);
    }

    #[test]
    fn an_interrupted_run_gives_no_verdict_and_ends_the_report() {
        let dir = cases(&[("a", 1), ("b", 1), ("c", 1)]);
        let (summary, events, _) = judge(&config(dir.path(), 1), &|name, _| match name {
            "b" => (Answers::Nothing, End::Killed(Kill::Interrupted)),
            _ => (Answers::Right, End::Normal),
        });
        assert_eq!(events, ["started 3", "a AC: ", "finished 1/1"]);
        assert!(summary.interrupted);
        assert_eq!((summary.passed, summary.failed, summary.total), (1, 0, 1));
    }

    #[test]
    fn a_case_that_cannot_be_read_is_an_error_of_its_own_and_the_run_goes_on() {
        let dir = cases(&[("a", 1), ("c", 1)]);
        std::fs::write(dir.path().join("b.in"), "not a sudoku\n").unwrap();
        let (summary, events, calls) = judge(&config(dir.path(), 1), &|_, _| {
            (Answers::Right, End::Normal)
        });
        assert_eq!(calls, ["a", "c"], "the broken case never runs");
        assert_eq!(events[1], "a AC: ");
        assert!(events[2].starts_with("b error: "), "{events:#?}");
        assert!(events[2].contains("b.in"), "names the file: {events:#?}");
        assert_eq!(events[3], "c AC: ");
        assert_eq!(
            (
                summary.passed,
                summary.failed,
                summary.errors,
                summary.total
            ),
            (2, 1, 1, 3)
        );
        assert_eq!(summary.verdicts, [(Verdict::AC, 2)]);
    }

    #[test]
    fn the_answers_checked_reach_the_reporter_as_a_growing_count_of_them_all() {
        let dir = cases(&[("a", 1), ("b", 3), ("c", 2)]);
        let (calls, mut events) = (Mutex::new(Vec::new()), Events::default());
        let script = |_: &str, _| (Answers::Right, End::Normal);
        let fake = || Fake {
            script: &script,
            calls: &calls,
            ran: 0,
        };
        run_through(&config(dir.path(), 1), &mut events, fake).expect("a run");
        let told = events.2;
        assert!(told.is_sorted() && !told.is_empty(), "{told:?}");
        assert_eq!(told.last(), Some(&6), "every answer of every case");
    }

    #[test]
    fn parallel_jobs_report_in_case_order_whatever_order_they_finish_in() {
        let dir = cases(&[("a", 1), ("b", 1)]);
        let finished = Mutex::new(Vec::new());
        let b_done = std::sync::Condvar::new();
        let (_, events, _) = judge(&config(dir.path(), 2), &|name, _| {
            let mut done = finished.lock().unwrap();
            if name == "a" {
                // `a` ends only once `b` has, which needs a second job.
                done = b_done
                    .wait_timeout_while(done, Duration::from_secs(30), |d| d.is_empty())
                    .unwrap()
                    .0;
            }
            done.push(name.to_string());
            b_done.notify_all();
            (
                if name == "a" {
                    Answers::Right
                } else {
                    Answers::Wrong
                },
                End::Normal,
            )
        });
        assert_eq!(*finished.lock().unwrap(), ["b", "a"], "two jobs at once");
        assert_eq!(events[1], "a AC: ");
        assert!(events[2].starts_with("b WA: "), "{events:#?}");
    }
}
