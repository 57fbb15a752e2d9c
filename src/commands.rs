//! One function per command: turn the parsed arguments into the library's
//! configuration, run it, and say how it went as an exit code.

use std::io::{self, IsTerminal as _, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::cli::{
    BenchArgs, CacheAction, CheckerArg, DoctorArgs, DriverArgs, GenArgs, GradeArg, HackArgs,
    InterfaceArg, LimitArgs, NewArgs, ProblemArg, RateArgs, ReportFormat, StressArgs,
    SubmissionArgs, TestArgs, TestFormat, TrustArgs,
};
use sudoku_judge::baseline::{self, Baseline};
use sudoku_judge::bench;
use sudoku_judge::board::format::{self, Mode};
use sudoku_judge::board::Format;
use sudoku_judge::case::file::{self, LineCapped};
use sudoku_judge::case::settings;
use sudoku_judge::case::CheckerKind;
use sudoku_judge::case::Limits;
use sudoku_judge::case::{Settings, Suite};
use sudoku_judge::corpus;
use sudoku_judge::generate::{self, Target};
use sudoku_judge::hack;
use sudoku_judge::judge::{self, JudgeConfig};
use sudoku_judge::problem::Problem;
use sudoku_judge::report::html::{HtmlReporter, Machine};
use sudoku_judge::report::human::HumanReporter;
use sudoku_judge::report::json::JsonReporter;
use sudoku_judge::report::junit::JunitReporter;
use sudoku_judge::report::keep::KeepReporter;
use sudoku_judge::report::progress::{self, TestProgress};
use sudoku_judge::report::untrusted::{shell_path, shell_word};
use sudoku_judge::report::{self, notices, starter, Reporter, Tee};
use sudoku_judge::results::Summary;
use sudoku_judge::runner::lang::launch::{Interface, Launch};
use sudoku_judge::runner::lang::{self, BuildInfo};
use sudoku_judge::runner::sandbox::{self, Protections};
use sudoku_judge::runner::{builtin, process, spawner, Submission};
use sudoku_judge::solver::{self, Solver};
use sudoku_judge::state;
use sudoku_judge::stress;
use sudoku_judge::verdict::Verdict;

use crate::HARNESS_ERROR;

/// As shells report a command stopped by a signal: 128 + its number
/// (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
fn interrupted_code() -> ExitCode {
    let signal = process::interrupting_signal().unwrap_or(libc::SIGINT);
    ExitCode::from(128 + u8::try_from(signal).unwrap_or(2))
}

fn pick_solver(name: Option<&str>) -> anyhow::Result<&'static Solver> {
    name.map_or_else(|| Ok(solver::default_solver()), solver::find)
}

/// What `test` judges, and how to say it again in a rerun hint.
/// `problem` says which problem every case is, if one is: a file that
/// could be read either way is read as that judge reads it, and built as
/// it builds.
fn submission(
    args: &SubmissionArgs,
    suite: impl FnOnce() -> anyhow::Result<(Option<Problem>, Vec<lang::Choice>)>,
) -> anyhow::Result<(Submission, Option<BuildInfo>, String)> {
    if let Some(command) = &args.cmd {
        let launch = Launch::command(command)?;
        return Ok((
            Submission::External(launch),
            None,
            format!("--cmd {}", shell_word(command.as_ref())),
        ));
    }
    if let Some(path) = &args.submission {
        let mut rerun = format!("--submission {}", shell_path(path));
        if let Some(lang) = args.lang {
            rerun.push_str(&format!(" --lang {}", lang.id()));
        }
        let (problem, toolchains) = suite()?;
        let reading = match args.interface {
            Some(InterfaceArg::Leetcode) => {
                rerun.push_str(" --interface leetcode");
                lang::Reading::Forced(Interface::Function)
            }
            Some(InterfaceArg::Program) => {
                rerun.push_str(" --interface program");
                lang::Reading::Forced(Interface::Program)
            }
            None if problem == Some(Problem::Leetcode37) => lang::Reading::LeetCodeFirst,
            None => lang::Reading::Detect,
        };
        let options = lang::Options {
            reading,
            problem,
            toolchains,
            announce: Some(Arc::new(|message: &str| eprintln!("{message}"))),
        };
        let mut built = lang::build_as(path, args.lang.map(|l| l.0), &options)?;
        if args.lang.is_none() {
            if let Some(error) = built.info.error.as_mut() {
                if let Some(hint) = other_language_hint(path, built.info.language) {
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
        return Ok((submission, Some(built.info), rerun));
    }
    let solver = pick_solver(args.solver.as_deref())?;
    let exe = std::env::current_exe()
        .context("cannot find this program's own binary to run solvers in")?;
    Ok((
        Submission::Builtin { solver, exe },
        None,
        format!("--solver {}", solver.name),
    ))
}

/// Marks of a language that another one's file would not have, looked
/// for when a file does not compile as the language of its extension.
const LANGUAGE_MARKS: &[(&str, &str)] = &[
    (
        "cpp",
        r"(?m)^\s*#include\s*[<\x22]|\bstd::|\busing\s+namespace\b|\bcout\s*<<|\bcin\s*>>",
    ),
    ("c", r"(?m)^\s*#include\s*<std(io|lib)\.h>"),
    // Java and C# share `public class Solution`, `char[][]` and most
    // statements: each is told by what is its own. Java's `boolean`,
    // `System.out`, `String[]` and camelCase `solveSudoku(char[][]`; C#'s
    // `using System`, `Console`, `foreach`, `.Length`, `bool` and `string`
    // (LeetCode's C# files have no `using`). A file only reaches the C#
    // compiler with C#'s `SolveSudoku` or `Main`, so those tell nothing.
    (
        "java",
        r"(?m)\bboolean\b|\bSystem\.out\.|^\s*import\s+java\.|\bString\s*\[\]|\bsolveSudoku\s*\(\s*char\s*\[\]\s*\[\]",
    ),
    (
        "csharp",
        r"(?m)^\s*using\s+System\b|\bConsole\.|\bforeach\s*\(|\.(?:Length|Count)\b|\bbool\b|\bstring\b",
    ),
    (
        "rust",
        r"\bimpl\s+Solution\b|\blet\s+mut\b|\bfn\s+main\s*\(\s*\)",
    ),
    ("go", r"(?m)^package\s+main\b|\bfunc\s+\w+\s*\("),
    (
        "python",
        r"(?m)^\s*def\s+\w+\s*\([^)]*\)\s*(->[^:]*)?:\s*$|^\s*from\s+\w+\s+import\b",
    ),
    (
        "javascript",
        r"\bvar\s+solveSudoku\s*=\s*function\b|\bconsole\.log\s*\(|\brequire\s*\(",
    ),
];

/// A hint for a file that did not compile as the language its extension
/// names and bears the marks of another (a C++ program saved as
/// `main.py`): which `--lang` judges it as that one.
fn other_language_hint(path: &std::path::Path, language: lang::Language) -> Option<String> {
    let source = std::fs::read_to_string(path).ok()?;
    let marked = |id: &str| {
        LANGUAGE_MARKS
            .iter()
            .find(|(mark, _)| *mark == id)
            .is_some_and(|(_, pattern)| {
                regex::Regex::new(pattern).is_ok_and(|r| r.is_match(&source))
            })
    };
    let own = language.spec().id;
    if marked(own) {
        return None;
    }
    let (id, _) = LANGUAGE_MARKS
        .iter()
        .find(|(id, _)| *id != own && marked(id))?;
    let other = lang::Language::find(id)?;
    Some(format!(
        "hint: {} looks like {other}, not {language}; if it is, judge it with --lang {id}, or \
         give it the extension .{}",
        path.display(),
        other.spec().extensions[0]
    ))
}

pub fn test(args: TestArgs, color: bool) -> anyhow::Result<ExitCode> {
    let mut overrides = flag_settings(
        args.limits.problem.map(ProblemArg::problem),
        args.limits.time_limit.as_deref(),
        args.limits.memory_limit.as_deref(),
        args.checker.map(CheckerArg::kind),
    )?;
    overrides.time_scale = args
        .time_scale
        .map(settings::TimeScale::new)
        .transpose()
        .context("invalid --time-scale")?;
    // Arguments that are not paths pick cases by id.
    let (paths, filters): (Vec<String>, Vec<String>) = args
        .paths
        .iter()
        .cloned()
        .partition(|p| std::path::Path::new(p).symlink_metadata().is_ok());
    let mut paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    let only = if args.failed {
        let failed = last_failed()?;
        if failed.inputs.is_empty() {
            notices::nothing_failed(&mut io::stdout().lock())?;
            return Ok(ExitCode::SUCCESS);
        }
        // The failures are rerun where they were, whatever the directory.
        if paths.is_empty() {
            paths = recorded_paths(&failed)?;
        }
        Some(failed.input_set())
    } else {
        None
    };
    if paths.is_empty() {
        paths.push(default_cases(&filters)?);
    }
    if let Some(name) = &args.save_baseline {
        check_baseline_name(name)?;
    }
    // Read before this run records itself as the last one.
    let baseline = args.baseline.as_deref().map(load_baseline).transpose()?;
    let protections = sandbox()?;
    let selection = judge::Selection {
        filters,
        only,
        partition: args
            .partition
            .as_deref()
            .map(judge::parse_partition)
            .transpose()?,
    };
    let plan = TestPlan {
        args,
        color,
        paths,
        overrides,
        selection,
        protections,
    };
    // Ctrl-C stops the running submission (it has its own process group, so
    // the terminal's signal does not reach it) and reports what was judged.
    on_ctrl_c()?;
    if plan.args.watch {
        return watch(&plan, baseline);
    }
    let (summary, _) = plan.judge_once(baseline)?;
    // Stdout closed, even during the last lines: never a success, and a
    // failure seen so far is still one.
    let closed = process::interrupting_signal() == Some(libc::SIGPIPE);
    Ok(if closed && summary.failed > 0 {
        ExitCode::from(1)
    } else if closed || summary.interrupted {
        interrupted_code()
    } else if summary.errors > 0 {
        ExitCode::from(HARNESS_ERROR)
    } else if summary.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The problem every case under `paths` is judged as by its `judge.toml`,
/// if they all are one.
fn problem_of_every_case(paths: &[PathBuf]) -> Option<Problem> {
    Suite::read(paths).ok()?.problem()
}

/// The report on stdout. When stdout is closed (`| head`), judging stops at
/// once, as on Ctrl-C: the running submission is killed, the report files
/// are written with what was judged, and the exit code is 1 when a case
/// judged so far failed, else 141, as a shell expects of a broken pipe.
struct StopOnClosedPipe(Box<dyn Reporter>);

impl Reporter for StopOnClosedPipe {
    fn report(&mut self, event: report::Event<'_>) -> io::Result<()> {
        if process::interrupting_signal() == Some(libc::SIGPIPE) {
            return Ok(());
        }
        match self.0.report(event) {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                process::interrupt(libc::SIGPIPE);
                Ok(())
            }
            other => other,
        }
    }
}

/// What every run of `test` shares; `--watch` judges it again and again.
struct TestPlan {
    args: TestArgs,
    color: bool,
    paths: Vec<PathBuf>,
    overrides: Settings,
    selection: judge::Selection,
    protections: Option<Protections>,
}

impl TestPlan {
    /// Builds the submission (a cached build when its source is
    /// unchanged), judges every case, and records the run for `--failed`
    /// and `--baseline last`. Returns the summary and the run, to compare
    /// the next one with.
    fn judge_once(&self, baseline: Option<Arc<Baseline>>) -> anyhow::Result<(Summary, Baseline)> {
        let args = &self.args;
        // Read once: the build and the judge both need it.
        let suite = Arc::new(Suite::read(&self.paths)?);
        let (submission, build, rerun) = submission(&args.submission, || {
            Ok((
                self.overrides.problem.or_else(|| suite.problem()),
                suite.toolchains(lang::Language::find)?,
            ))
        })?;
        // The rerun hint reproduces the run: every option that changed how
        // a case was built or judged, besides the submission's own.
        let rerun = format!("{rerun}{}", judging_flags(args));
        let mut progress = TestProgress::new();
        let config = JudgeConfig {
            suite,
            submission,
            overrides: self.overrides.clone(),
            repeat: args.repeat as usize,
            build,
            selection: self.selection.clone(),
            jobs: usize::from(args.jobs),
            answered: Some(progress.answered()),
            sandbox: self.protections.clone(),
            fresh_process: args.fresh_process,
            fail_fast: args.fail_fast,
        };
        // A report file named `-` is written to stdout; the table then goes
        // to stderr, so both can be had (`--junit - | ci-viewer`).
        let to_stdout = |path: &Option<PathBuf>| path.as_deref() == Some(std::path::Path::new("-"));
        let taken = [&args.json, &args.junit, &args.html]
            .into_iter()
            .filter(|path| to_stdout(path))
            .count();
        anyhow::ensure!(
            taken == 0 || (taken == 1 && args.format == TestFormat::Table),
            "only one report can be written to stdout: give the others a FILE (`-` is stdout)"
        );
        let report_out = |path: &PathBuf| -> anyhow::Result<Box<dyn io::Write>> {
            match to_stdout(&Some(path.clone())) {
                true => Ok(Box::new(io::stdout())),
                false => create_report(path),
            }
        };
        let (table_out, width): (Box<dyn io::Write>, _) = match taken {
            0 => (Box::new(io::stdout().lock()), stdout_width()),
            _ => (Box::new(io::stderr()), None),
        };
        let on_stdout: Box<dyn Reporter> = match args.format {
            TestFormat::Table => Box::new(
                HumanReporter::new(table_out, self.color, rerun)
                    .with_width(width)
                    .with_baseline(baseline.clone())
                    .with_quiet(args.quiet)
                    .with_verbose(args.verbose)
                    .with_output_shown(args.show_output),
            ),
            TestFormat::Json => {
                Box::new(JsonReporter::new(table_out).with_baseline(baseline.clone()))
            }
            TestFormat::Junit => Box::new(JunitReporter::new(table_out)),
        };
        let mut reporters: Vec<Box<dyn Reporter>> = vec![Box::new(StopOnClosedPipe(on_stdout))];
        // The report on stdout stops with a closed pipe; a file gets the
        // cases judged so far.
        let on_pipe = |path: &PathBuf, reporter: Box<dyn Reporter>| -> Box<dyn Reporter> {
            match to_stdout(&Some(path.clone())) {
                true => Box::new(StopOnClosedPipe(reporter)),
                false => reporter,
            }
        };
        if let Some(path) = &args.json {
            let json = JsonReporter::new(report_out(path)?).with_baseline(baseline.clone());
            reporters.push(on_pipe(path, Box::new(json)));
        }
        if let Some(path) = &args.junit {
            reporters.push(on_pipe(
                path,
                Box::new(JunitReporter::new(report_out(path)?)),
            ));
        }
        if let Some(path) = &args.html {
            let html = HtmlReporter::new(report_out(path)?, Machine::here())
                .with_baseline(baseline.clone())
                .with_output_shown(args.show_output);
            reporters.push(on_pipe(path, Box::new(html)));
        }
        let kept = match &args.keep {
            Some(dir) => {
                let (keep, kept) = KeepReporter::new(dir)?;
                reporters.push(Box::new(keep));
                Some((dir, kept))
            }
            None => None,
        };
        // Kept under its name only when the run is whole: an error here is
        // one to stop for, since the user asked for it.
        let saved = match &args.save_baseline {
            Some(name) => {
                let record = RunRecord::start(Some(name))?;
                reporters.push(Box::new(JsonReporter::new(record.writer()?)));
                Some((name, record))
            }
            None => None,
        };
        // The run is kept as the last one here, for `--baseline last`; a
        // directory the user cannot write is no reason to fail this run.
        let last = match RunRecord::start(None) {
            Ok(last) => Some(last),
            Err(error) => {
                notices::warning(&mut io::stderr(), &error, LAST_LOST)?;
                None
            }
        };
        if let Some(last) = &last {
            reporters.push(Box::new(JsonReporter::new(last.writer()?)));
        }
        let (recorder, this_run) = baseline::Recorder::new("the run before");
        reporters.push(Box::new(recorder));
        let mut reporter = Tee::new(reporters);
        let summary = judge::run(&config, &mut progress.wrap(&mut reporter))?;
        drop(reporter);
        if let Some((dir, kept)) = kept {
            let n = kept.load(std::sync::atomic::Ordering::SeqCst);
            notices::kept(&mut io::stderr(), n, dir)?;
        }
        if let Some(path) = args.html.as_ref().filter(|path| path.as_os_str() != "-") {
            notices::html_written(&mut io::stderr(), path)?;
        }
        // The record serves --failed next time; a directory the user cannot
        // write is no reason to fail this run.
        if let Err(error) = remember_failed(&self.paths, &summary.not_accepted) {
            notices::warning(&mut io::stderr(), &error, "--failed will not know this run")?;
        }
        // Half a run is no baseline.
        if !summary.interrupted {
            if let Some((name, record)) = saved {
                let path = record.keep()?;
                notices::baseline_saved(&mut io::stderr(), name, &path)?;
            }
            if let Some(last) = last {
                if let Err(error) = last.keep() {
                    notices::warning(&mut io::stderr(), &error, LAST_LOST)?;
                }
            }
        }
        let this_run = std::mem::take(&mut *this_run.lock().unwrap_or_else(|e| e.into_inner()));
        Ok((summary, this_run))
    }
}

/// What a user misses when this run cannot be recorded as the last one.
const LAST_LOST: &str = "--baseline last will not know this run";

/// The directory baselines are saved in, under the judge's own.
const BASELINES: &str = "baselines";

/// The file the run saved as baseline `name` is kept in.
fn baseline_file(name: &str) -> String {
    format!("{name}.json")
}

/// The judge's own directory here, or the one of baselines in it, made if
/// `create` and missing (see `sudoku_judge::state`).
fn records(baselines: bool, create: bool) -> anyhow::Result<Option<state::Dir>> {
    let Some(dir) = state::state_dir(create)? else {
        return Ok(None);
    };
    if baselines {
        dir.subdir(BASELINES, create)
    } else {
        Ok(Some(dir))
    }
}

/// A baseline's name is a word, so it is one file in the judge's own
/// directory and never a path of the user's.
fn check_baseline_name(name: &str) -> anyhow::Result<()> {
    let word = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        && !name.starts_with('.');
    if !word {
        anyhow::bail!(
            "--save-baseline {name:?}: a baseline's name is made of letters, digits, `-`, `_` \
             and `.` (e.g. `--save-baseline before-fix`)"
        );
    }
    if name == "last" {
        anyhow::bail!(
            "--save-baseline last: `last` is the last run, kept by every run; choose another \
             name (e.g. `--save-baseline good`)"
        );
    }
    Ok(())
}

/// The baselines saved here, by name.
fn saved_baselines() -> Vec<String> {
    let Ok(Some(dir)) = records(true, false) else {
        return Vec::new();
    };
    dir.names()
        .into_iter()
        .filter(|name| !name.starts_with('.'))
        .filter_map(|name| name.strip_suffix(".json").map(str::to_string))
        .collect()
}

/// `--baseline FILE`, `--baseline NAME` (saved with `--save-baseline`), or
/// `--baseline last`: the last run in this directory.
fn load_baseline(path: &std::path::Path) -> anyhow::Result<Arc<Baseline>> {
    if path == std::path::Path::new("last") && !path.exists() {
        let record = PathBuf::from(state::STATE_DIR).join(LAST);
        let Some(text) = records(false, false)?
            .map(|dir| dir.read_own(LAST))
            .transpose()?
            .flatten()
        else {
            let here =
                std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string());
            anyhow::bail!(
                "--baseline last compares with the last run in this directory, and no run is \
                 recorded here ({} in {here}); run `sudoku-judge test` here first, or give a \
                 report written with `--json FILE`",
                record.display()
            );
        };
        return Ok(Arc::new(Baseline::from_text(
            &text,
            &record,
            "the last run",
        )?));
    }
    if !path.exists() {
        if let Some(name) = path.to_str().filter(|n| check_baseline_name(n).is_ok()) {
            let file = baseline_file(name);
            let saved = records(true, false)?
                .map(|dir| dir.read_own(&file))
                .transpose()?
                .flatten();
            if let Some(text) = saved {
                let record = PathBuf::from(state::STATE_DIR).join(BASELINES).join(&file);
                return Ok(Arc::new(Baseline::from_text(
                    &text,
                    &record,
                    format!("baseline {name}"),
                )?));
            }
            let known = saved_baselines();
            let known = if known.is_empty() {
                "none is saved here".to_string()
            } else {
                format!("saved here: {}", known.join(", "))
            };
            anyhow::bail!(
                "--baseline {name}: no file {name}, and no baseline saved as {name} in \
                 .sudoku-judge/baselines/ ({known}); save one with `--save-baseline {name}`, \
                 or give a report written with `--json FILE`"
            );
        }
    }
    Ok(Arc::new(Baseline::load(path, path.display().to_string())?))
}

/// The last run's JSON report, beside the record of its failures.
const LAST: &str = "last.json";

/// The JSON report of the run going on, written beside the record it is
/// to become (the last run, or a saved baseline) and put in its place only
/// once the run is over: an interrupted run, or one that compares with the
/// record, never leaves half a report there. Written in the judge's own
/// directory, never through a link (see `sudoku_judge::state`).
struct RunRecord(state::Pending);

impl RunRecord {
    /// The record of the last run, or of the baseline `name`.
    fn start(name: Option<&str>) -> anyhow::Result<RunRecord> {
        let dir = records(name.is_some(), true)?.expect("made when missing");
        let file = name.map_or_else(|| LAST.to_string(), baseline_file);
        Ok(RunRecord(dir.pending(&file)?))
    }

    fn writer(&self) -> anyhow::Result<Box<dyn io::Write>> {
        let file = self
            .0
            .file()
            .try_clone()
            .context("failed to open the record of this run")?;
        Ok(Box::new(io::BufWriter::new(file)))
    }

    /// Puts the record in its place; returns where.
    fn keep(self) -> anyhow::Result<PathBuf> {
        self.0.keep()
    }
}

/// `test --watch`: judges, then again at each change of the submission, a
/// case or a `judge.toml`, each run compared with the one before. A change
/// during a run stops it and starts the next; Ctrl-C ends the watch.
fn watch(plan: &TestPlan, first_baseline: Option<Arc<Baseline>>) -> anyhow::Result<ExitCode> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let running = Arc::new(AtomicBool::new(false));
    let (changed_tx, changed_rx) = std::sync::mpsc::channel::<Vec<PathBuf>>();
    let mut ignore: Vec<PathBuf> = Vec::new();
    ignore.extend(plan.args.json.iter().cloned());
    ignore.extend(plan.args.junit.iter().cloned());
    ignore.extend(plan.args.html.iter().cloned());
    ignore.extend(plan.args.keep.iter().cloned());
    // The submission's files: its source, or what its command line runs
    // (a script, a binary that a rebuild replaces).
    let mut files: Vec<PathBuf> = plan.args.submission.submission.iter().cloned().collect();
    if let Some(command) = &plan.args.submission.cmd {
        let here = std::env::current_dir().context("cannot read the working directory")?;
        files.extend(sudoku_judge::watch::command_files(command, &here));
    }
    let watched = sudoku_judge::watch::Watched::new(&files, &plan.paths, &ignore);
    let _watcher = watched.start({
        let running = Arc::clone(&running);
        move |paths| {
            if running.load(Ordering::SeqCst) {
                process::restart();
            }
            let _ = changed_tx.send(paths);
        }
    })?;
    let terminal = io::stdout().is_terminal();
    let mut baseline = first_baseline;
    let mut why: Option<String> = None;
    for round in 1.. {
        {
            let mut out = io::stdout().lock();
            if terminal {
                // Clear the screen and its scrollback, cursor home.
                write!(out, "\x1b[H\x1b[2J\x1b[3J")?;
            } else if round > 1 {
                notices::watch_separator(&mut out)?;
            }
            notices::watch_round(&mut out, round, why.as_deref())?;
            out.flush()?;
        }
        if round > 1 {
            // A sandbox kept from the last round holds the files as they
            // were then: a rebuilt binary must not run as the old one.
            sudoku_judge::runner::spawner::let_idle_go();
        }
        running.store(true, Ordering::SeqCst);
        let judged = plan.judge_once(baseline.clone());
        running.store(false, Ordering::SeqCst);
        if process::interrupting_signal().is_some() {
            return Ok(interrupted_code());
        }
        match judged {
            Ok((summary, this_run)) => {
                if !summary.interrupted {
                    baseline = Some(Arc::new(this_run));
                }
            }
            // A submission that cannot be built, a case gone for a moment:
            // say so, and wait for the next change.
            Err(error) => {
                if process::restarting() {
                    // The error may be the stopped run's; the next says.
                } else {
                    notices::watch_error(&mut io::stdout().lock(), &error)?;
                }
            }
        }
        let restarted = process::restarting();
        process::resume();
        let mut paths: Vec<PathBuf> = Vec::new();
        if !restarted {
            notices::watch_waiting(&mut io::stdout().lock())?;
            // Waits for a change, or for Ctrl-C.
            loop {
                if process::interrupting_signal().is_some() {
                    return Ok(interrupted_code());
                }
                match changed_rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(changed) => {
                        paths.extend(changed);
                        break;
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                        anyhow::bail!("watching files stopped")
                    }
                }
            }
        }
        // What else changes meanwhile is part of the same change (an
        // editor's save is several events).
        std::thread::sleep(sudoku_judge::watch::SETTLE);
        paths.extend(changed_rx.try_iter().flatten());
        paths.sort();
        paths.dedup();
        let here = std::env::current_dir().unwrap_or_default();
        why = Some(notices::changed(&paths, &here));
    }
    unreachable!("the watch ends only by a return")
}

/// `cases`, where `test` looks when given no path; when it is not there,
/// an error that names what was looked for and where.
/// The cases judged when no path is given: `cases/` here, else the suites
/// shipped in the binary (written out once into the user's data
/// directory), which a filter then picks from by id.
fn default_cases(filters: &[String]) -> anyhow::Result<PathBuf> {
    let cases = PathBuf::from("cases");
    if cases.exists() {
        return Ok(cases);
    }
    // A name that no shipped case holds was meant as a path: say so before
    // anything is built.
    let ids: Vec<String> = sudoku_judge::shipped::files()
        .iter()
        .map(|(path, _)| path.to_string_lossy().into_owned())
        .collect();
    let unknown: Vec<String> = filters
        .iter()
        .filter(|f| !f.contains(['*', '?', '[']) && !ids.iter().any(|id| id.contains(f.as_str())))
        .map(|f| format!("`{f}`"))
        .collect();
    if !unknown.is_empty() {
        let here = std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string());
        anyhow::bail!(
            "{} is not a file or directory in {here}, nor a case of the suites shipped with \
             sudoku-judge, which are judged where there is no cases/ directory; name the suite \
             directories, case directories or NAME.in files to judge by a path that exists, \
             e.g. `sudoku-judge test path/to/cases`",
            unknown.join(" or ")
        );
    }
    let shipped = sudoku_judge::shipped::on_disk().context(
        "there is no cases/ directory here, and the shipped suites could not be written out",
    )?;
    notices::shipped_cases(&mut io::stderr(), &shipped, filters)?;
    Ok(shipped)
}

pub fn cases(out: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    let mut stdout = io::stdout().lock();
    match out {
        None => report::notices::shipped_list(&mut stdout)?,
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("failed to create {}", dir.display()))?;
            let written = sudoku_judge::shipped::write_all(dir)?;
            report::notices::shipped_written(&mut stdout, dir, written)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The width of the terminal stdout is, or `None` when it is not one (a
/// pipe or a file gets whole lines).
fn stdout_width() -> Option<usize> {
    terminal_size::terminal_size_of(io::stdout()).map(|(width, _)| usize::from(width.0))
}

pub fn solve(name: Option<&str>) -> anyhow::Result<ExitCode> {
    let solver = pick_solver(name)?;
    // No line longer than a board can be is held (case/file.rs).
    let mut stdin = LineCapped::new(io::stdin().lock());
    // The format shows in the first line with cells; read up to it.
    let (head, format) =
        format::read_head(&mut stdin).context("failed to read puzzles from stdin")?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut unsolved = 0;
    let mut solve_one = |n: usize, line: usize, puzzle: &sudoku_judge::board::Board| {
        let mut rows = puzzle.to_rows();
        (solver.solve)(&mut rows);
        if rows.iter().flatten().any(|&c| c == '.') {
            unsolved += 1;
            notices::unsolved(&mut io::stderr(), n, line)?;
        }
        Ok::<_, io::Error>(format::render_nth(format, n, &rows))
    };
    let stdin_error = |e: format::ParseError| anyhow::anyhow!(e.at("stdin", format));
    if format == Format::AcWing {
        // A puzzle at a time, each answer printed before the next is read:
        // a million puzzles need no more memory than one.
        let mut reader = format::AcWingReader::new(head.chain(stdin), Mode::Puzzles);
        for (n, puzzle) in (&mut reader).enumerate() {
            let (line, puzzle) = puzzle.map_err(stdin_error)?;
            out.write_all(solve_one(n, line, &puzzle)?.as_bytes())?;
        }
        for warning in reader.warnings() {
            notices::read_warning(&mut io::stderr(), "stdin", warning)?;
        }
    } else {
        let rest = file::read_whole(head.chain(stdin), &"stdin")?;
        let input = String::from_utf8_lossy(&rest).into_owned();
        let parsed = format::parse(&input, format, Mode::Puzzles).map_err(stdin_error)?;
        for warning in &parsed.warnings {
            notices::read_warning(&mut io::stderr(), "stdin", warning)?;
        }
        for (n, puzzle) in parsed.boards.iter().enumerate() {
            out.write_all(solve_one(n, puzzle.line, &puzzle.board)?.as_bytes())?;
        }
    }
    out.flush()?;
    drop(out);
    Ok(if unsolved > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Ctrl-C, SIGTERM (how CI systems cancel a job) and SIGHUP stop the
/// running submission (it has its own process group, so the terminal's
/// signal does not reach it); the command then reports what it finished,
/// and exits as a shell would say the signal stopped it. A second signal
/// ends the judge at once.
fn on_ctrl_c() -> anyhow::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("failed to install the signal handlers")?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if process::interrupting_signal().is_some() {
                std::process::exit(128 + signal);
            }
            process::interrupt(signal);
        }
    });
    Ok(())
}

/// The sandbox's protections, checked against `--sandbox require`.
fn sandbox() -> anyhow::Result<Option<Protections>> {
    let Some(protections) = spawner::protections() else {
        return Ok(None);
    };
    let protections = protections.context("failed to start the sandbox's spawner")?;
    let missing = protections.missing();
    if sandbox::mode() == sandbox::Mode::Require && !missing.is_empty() {
        let list: Vec<String> = missing
            .iter()
            .map(|(name, why)| format!("{name}: {why}"))
            .collect();
        anyhow::bail!(
            "--sandbox require, but the kernel refused {}; run as root, enable unprivileged \
             user namespaces, or judge with --sandbox auto to go on without them",
            list.join("; ")
        );
    }
    Ok(Some(protections))
}

/// LeetCode's example board, the default of `driver`'s board.txt.
const EXAMPLE_BOARD: &str = sudoku_judge::board::EXAMPLE;

pub fn driver(args: &DriverArgs) -> anyhow::Result<ExitCode> {
    // The case's boards, and the toolchains of its suite, to build it as
    // `test` would.
    let (boards, toolchains) = match &args.case {
        None => (format!("{EXAMPLE_BOARD}\nend\n"), Vec::new()),
        Some(path) => {
            if let Err(error) = path.symlink_metadata() {
                anyhow::bail!(
                    "cannot read --case {}: {error}; give the one case to run on, a NAME.in \
                     file or a case directory, e.g. `--case cases/leetcode37/example1`",
                    path.display()
                );
            }
            let found = Suite::read(std::slice::from_ref(path))?;
            let [listed] = found.cases.as_slice() else {
                anyhow::bail!(
                    "--case {} holds {} cases; name one case file or case directory",
                    path.display(),
                    found.cases.len()
                );
            };
            let data = sudoku_judge::case::load(&listed.case, true)?;
            let mut lines = String::new();
            for puzzle in data.puzzles()? {
                lines.push_str(&puzzle?.1.to_line());
                lines.push('\n');
            }
            lines.push_str("end\n");
            (lines, found.toolchains(lang::Language::find)?)
        }
    };
    let reading = match args.interface {
        Some(InterfaceArg::Leetcode) => lang::Reading::Forced(Interface::Function),
        Some(InterfaceArg::Program) => lang::Reading::Forced(Interface::Program),
        None => lang::Reading::LeetCodeFirst,
    };
    let exported = lang::export::export(
        &args.file,
        args.lang.map(|l| l.0),
        reading,
        toolchains,
        &args.out,
        &boards,
    )?;
    let here = std::env::current_dir().unwrap_or_default();
    let dir = std::path::absolute(&args.out).unwrap_or_else(|_| args.out.clone());
    report::driver::exported(&mut io::stdout().lock(), &exported, &dir, &here)?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the file to start a solution from; see `sudoku-judge new --help`.
pub fn new(args: &NewArgs) -> anyhow::Result<ExitCode> {
    let ids: Vec<&str> = lang::Language::all().iter().map(|l| l.spec().id).collect();
    let from_name = args
        .file
        .as_deref()
        .filter(|f| !f.is_dir())
        .and_then(lang::Language::from_path);
    let language = match (args.lang, &args.file) {
        (Some(lang), _) => lang.0,
        (None, _) if from_name.is_some() => from_name.expect("just checked"),
        (None, Some(file)) => anyhow::bail!(
            "{} does not say its language by its extension; name it with --lang, one of {}",
            file.display(),
            ids.join(", ")
        ),
        (None, None) => anyhow::bail!(
            "which language? name it with --lang (one of {}), e.g. `sudoku-judge new --lang \
             cpp`, or give the file to write with its extension, e.g. `sudoku-judge new \
             main.cpp`",
            ids.join(", ")
        ),
    };
    let cases = PathBuf::from("cases");
    let (problem, problem_from) = match args.problem {
        Some(problem) => (problem.problem(), starter::ProblemFrom::Flag),
        None if cases.is_dir() => match problem_of_every_case(std::slice::from_ref(&cases)) {
            Some(problem) => (problem, starter::ProblemFrom::Cases),
            None => (Problem::Leetcode37, starter::ProblemFrom::Default),
        },
        None => (Problem::Leetcode37, starter::ProblemFrom::Default),
    };
    let interface = match problem {
        Problem::Leetcode37 => Interface::Function,
        Problem::Acwing166 | Problem::Poj3074 => Interface::Program,
    };
    let start = lang::starter::starter(language, interface);
    let path = match &args.file {
        None => PathBuf::from(start.file_name),
        Some(dir) if dir.is_dir() || dir.as_os_str().as_encoded_bytes().ends_with(b"/") => {
            dir.join(start.file_name)
        }
        Some(file) => file.clone(),
    };
    // `--lang` again in the commands, when the name does not tell.
    let lang_flag = if lang::Language::from_path(&path) == Some(language) {
        String::new()
    } else {
        format!(" --lang {}", language.spec().id)
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("failed to make the directory {}", parent.display()))?;
    }
    // Created only if it is not there: nothing of the user's is replaced,
    // even a file made a moment ago.
    let created = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path);
    let mut file = match created {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            let other = free_name(&path);
            anyhow::bail!(
                "{} exists, and `sudoku-judge new` never overwrites a file; name another, e.g. \
                 `sudoku-judge new --lang {} --problem {} {}`, or a directory to write {} in",
                path.display(),
                language.spec().id,
                problem.name(),
                shell_path(&other),
                start.file_name
            )
        }
        Err(error) => {
            return Err(error).with_context(|| format!("failed to create {}", path.display()))
        }
    };
    file.write_all(start.text.as_bytes())
        .with_context(|| format!("failed to write {}", path.display()))?;
    let next = next_command(problem, problem_from, &path, &lang_flag, &cases);
    let written = starter::Written {
        path: &path,
        language,
        problem,
        problem_from,
        interface,
        changed: start.changed,
        next: &next,
    };
    starter::wrote(&mut io::stdout().lock(), &written)?;
    Ok(ExitCode::SUCCESS)
}

/// `path` with a number before its extension, the first that is free:
/// `solution2.py`.
fn free_name(path: &std::path::Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (2..)
        .map(|n| path.with_file_name(format!("{stem}{n}{extension}")))
        .find(|p| p.symlink_metadata().is_err())
        .expect("some number is free")
}

/// The `test` command that judges a new file on the problem's cases: the
/// shipped suite of that problem under `cases` when there is one.
fn next_command(
    problem: Problem,
    from: starter::ProblemFrom,
    path: &std::path::Path,
    lang_flag: &str,
    cases: &std::path::Path,
) -> String {
    let submission = format!("--submission {}{lang_flag}", shell_path(path));
    if from == starter::ProblemFrom::Cases {
        return format!("sudoku-judge test {submission}");
    }
    // POJ 3074's input is AcWing 166's.
    let (suite, flag) = match problem {
        Problem::Poj3074 => (cases.join("acwing166"), " --problem poj3074"),
        _ => (cases.join(problem.name()), ""),
    };
    if problem_of_every_case(std::slice::from_ref(&suite))
        .is_some_and(|p| p == problem || problem == Problem::Poj3074)
    {
        format!(
            "sudoku-judge test {}{flag} {submission}",
            shell_path(&suite)
        )
    } else if !cases.exists() {
        // No cases/ here: `test` judges the shipped suites, picked by id.
        let suite = suite.file_name().map(|n| n.to_string_lossy().into_owned());
        format!(
            "sudoku-judge test {}{flag} {submission}",
            suite.unwrap_or_default()
        )
    } else {
        // A cases/ of the user's without this problem's suite: a copy of
        // the shipped ones beside it.
        format!(
            "sudoku-judge cases --out shipped-cases && sudoku-judge test \
             shipped-cases/{}{flag} {submission}",
            match problem {
                Problem::Poj3074 => "acwing166",
                _ => problem.name(),
            }
        )
    }
}

/// Checks every language's toolchain and self-test, and the sandbox; see
/// `sudoku-judge doctor --help` for the exit codes.
pub fn doctor(args: &DoctorArgs) -> anyhow::Result<ExitCode> {
    let protections = match spawner::protections() {
        Some(protections) => protections.context("failed to start the sandbox's spawner")?,
        None => Protections::off(),
    };
    let languages: Vec<lang::Language> = if args.lang.is_empty() {
        lang::Language::all().to_vec()
    } else {
        args.lang.iter().map(|l| l.0).collect()
    };
    on_ctrl_c()?;
    let checkup = sudoku_judge::doctor::check(&languages, protections, &mut |language| {
        let _ = report::doctor::checking(&mut io::stderr(), &language.to_string());
    });
    if process::interrupted() {
        return Ok(interrupted_code());
    }
    let mut out = io::stdout().lock();
    if args.json {
        report::doctor::json(&mut out, &checkup)?;
    } else {
        report::doctor::human(&mut out, &checkup)?;
    }
    let failed = checkup.failed().next().is_some()
        || (args.require_all && checkup.not_found().next().is_some())
        || !checkup.refused().is_empty();
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `sudoku-judge cache [clear]`: the build cache, shown or cleared.
pub fn cache(action: Option<CacheAction>) -> anyhow::Result<ExitCode> {
    let summary = lang::cache::summary()?;
    let mut out = io::stdout().lock();
    match action {
        None => report::cache::summary(&mut out, &summary)?,
        Some(CacheAction::Clear) => {
            let cleared = lang::cache::clear(&summary.root);
            report::cache::cleared(&mut out, &summary.root, &cleared)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn solvers(all: bool) -> anyhow::Result<ExitCode> {
    let listed = solver::ALL.iter().filter(|s| all || !s.faulty);
    sudoku_judge::report::solvers::list(&mut io::stdout().lock(), listed, stdout_width())?;
    Ok(ExitCode::SUCCESS)
}

pub fn worker(name: &str) -> anyhow::Result<ExitCode> {
    let solver = solver::find(name)?;
    let code = builtin::serve(solver, io::stdin().lock(), io::stdout().lock())?;
    Ok(ExitCode::from(u8::try_from(code).unwrap_or(1)))
}

pub fn gen(args: GenArgs) -> anyhow::Result<ExitCode> {
    let plan = generate::GenPlan {
        seed: args.seed,
        files: args.count,
        per_file: args.per_file.max(1),
        target: args.target(),
        format: args.format.format(),
        layout: args.layout.layout(),
        out: args.out,
        name: args.name,
        attempts: args.attempts,
    };
    // Ctrl-C stops between puzzles, and nothing is left behind.
    on_ctrl_c()?;
    let puzzles = (plan.files * plan.per_file) as u64;
    let mut generator = generate::Generator::new(plan.seed);
    let progress = match plan.target.hard_for {
        // A puzzle can take minutes: say how far its search has got.
        Some(hard) => {
            let progress = progress::counter(puzzles, "making puzzles");
            let shown = progress.clone();
            generator = generator.on_climb(move |reached| {
                shown.set_message(report::gen::climbed(reached, hard));
            });
            progress
        }
        None => progress::bar(puzzles, "making puzzles"),
    };
    let written = generate::write_cases_with(
        &plan,
        generator,
        |case| progress.inc(case.ratings.len() as u64),
        &process::interrupted,
    );
    progress.finish_and_clear();
    let written = match written {
        Err(_) if process::interrupted() => {
            report::gen::interrupted(&mut io::stderr())?;
            return Ok(interrupted_code());
        }
        other => other?,
    };
    report::gen::written(&mut io::stdout().lock(), &written, &plan)?;
    Ok(ExitCode::SUCCESS)
}

/// The puzzle files `rate` reads: each file named, every case input under
/// a directory named, or stdin.
fn rate_sources(files: &[PathBuf]) -> anyhow::Result<Vec<(String, String)>> {
    if files.is_empty() || files == [PathBuf::from("-")] {
        let text = file::read_whole(LineCapped::new(io::stdin().lock()), &"stdin")?;
        return Ok(vec![(
            "stdin".into(),
            String::from_utf8_lossy(&text).into(),
        )]);
    }
    let mut paths = Vec::new();
    for file in files {
        if file.is_dir() {
            let cases = sudoku_judge::case::discover(std::slice::from_ref(file))?;
            if cases.is_empty() {
                anyhow::bail!("{} holds no cases to rate", file.display());
            }
            paths.extend(cases.into_iter().map(|c| c.input));
        } else {
            paths.push(file.clone());
        }
    }
    paths
        .iter()
        .map(|f| {
            let opened = file::open_regular(f, "puzzle file")?;
            let bytes =
                file::read_whole(LineCapped::new(io::BufReader::new(opened)), &f.display())?;
            let text = String::from_utf8(bytes)
                .with_context(|| format!("{} is not UTF-8 text", f.display()))?;
            Ok((f.display().to_string(), text))
        })
        .collect()
}

pub fn rate(args: &RateArgs) -> anyhow::Result<ExitCode> {
    let sources = rate_sources(&args.files)?;
    let parsed = sources
        .iter()
        .map(|(name, text)| Ok((name, bench::parse_puzzle_file(name, text)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    // Counting a textbook solver's nodes takes up to seconds a puzzle.
    let bar = progress::bar(
        parsed.iter().map(|(_, p)| p.boards.len() as u64).sum(),
        "rating",
    );
    if !bar.is_hidden() {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    let mut rated = Vec::new();
    for (name, parsed) in &parsed {
        for puzzle in &parsed.boards {
            bar.set_message(format!("{name}:{}", puzzle.line));
            rated.push(generate::Rated::of(
                format!("{name}:{}", puzzle.line),
                &puzzle.board,
                args.max_nodes,
            ));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    report::rate::table(&mut io::stdout().lock(), &rated, args.max_nodes)?;
    Ok(if rated.iter().any(|r| r.rating.grade.is_none()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub fn calibrate(suites: &[PathBuf], time_scale: Option<f64>) -> anyhow::Result<ExitCode> {
    let suites = if suites.is_empty() {
        let root = PathBuf::from("cases");
        let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
            .with_context(|| {
                format!(
                    "cannot read {}; name the suites to calibrate",
                    root.display()
                )
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        found.sort();
        let mut with_references = Vec::new();
        for dir in found {
            if !settings::references(&dir)?.is_empty() {
                with_references.push(dir);
            }
        }
        anyhow::ensure!(
            !with_references.is_empty(),
            "no suite under {} lists a [[reference]] in its judge.toml",
            root.display()
        );
        with_references
    } else {
        suites.to_vec()
    };
    let overrides = Settings {
        time_scale: time_scale
            .map(settings::TimeScale::new)
            .transpose()
            .context("invalid --time-scale")?,
        ..Settings::default()
    };
    let protections = sandbox()?;
    on_ctrl_c()?;
    let bar = progress::spinner("calibrate");
    let mut out = io::stdout().lock();
    let mut all_hold = true;
    for (n, dir) in suites.iter().enumerate() {
        anyhow::ensure!(dir.is_dir(), "{} is not a suite directory", dir.display());
        let suite =
            sudoku_judge::calibrate::suite(dir, &overrides, protections.as_ref(), &mut |what| {
                bar.set_message(what.to_string())
            })?;
        if process::interrupted() {
            return Ok(interrupted_code());
        }
        bar.suspend(|| -> io::Result<()> {
            if n > 0 {
                writeln!(out)?;
            }
            report::calibrate::calibration(&mut out, &suite)
        })?;
        all_hold &= suite.holds_with_margin();
    }
    bar.finish_and_clear();
    Ok(if all_hold {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `sudoku-judge trust`: allows what the judge.toml files under each path
/// name, or lists or takes back what was allowed.
pub fn trust(args: &TrustArgs) -> anyhow::Result<ExitCode> {
    use sudoku_judge::case::trust;
    let mut out = io::stdout().lock();
    if args.list {
        let records = trust::records()?;
        report::trust::list(&mut out, &records, &trust::records_dir()?)?;
        return Ok(ExitCode::SUCCESS);
    }
    for path in &args.paths {
        if args.revoke {
            let revoked = trust::revoke(path)?;
            report::trust::revoked(&mut out, path, &revoked)?;
            continue;
        }
        for file in settings::files_under(path)? {
            match settings::inspect(&file)? {
                Some(subject) => {
                    let allowed = trust::allow(&subject)?;
                    report::trust::allowed(&mut out, &subject, &allowed)?;
                }
                None => report::trust::nothing_to_allow(&mut out, &file)?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn check(paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let report = corpus::check(paths)?;
    report::corpus::findings(&mut io::stdout().lock(), &report)?;
    let problems = report.problems();
    Ok(if problems > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Settings from `--problem`, `--time-limit`, `--memory-limit` and
/// `--checker`, as `judge.toml` would set them.
fn flag_settings(
    problem: Option<Problem>,
    time: Option<&str>,
    memory: Option<&str>,
    checker: Option<CheckerKind>,
) -> anyhow::Result<Settings> {
    Ok(Settings {
        problem,
        time_limit: time
            .map(settings::parse_duration)
            .transpose()
            .context("invalid --time-limit")?,
        memory_limit_kb: memory
            .map(settings::parse_memory_kb)
            .transpose()
            .context("invalid --memory-limit")?,
        checker,
        time_scale: None,
        toolchain: Vec::new(),
    })
}

struct StressProgress {
    bar: indicatif::ProgressBar,
    /// Off a terminal, where the bar does not show: when the last plain
    /// line was printed, so a log shows the run is alive at a bounded rate.
    plain: Option<Option<Instant>>,
    shrinking: bool,
    started: Instant,
    /// When the run stops if nothing fails (`--time`).
    time: Option<Duration>,
}

/// Off a terminal, at most one progress line this often (and the first
/// line of shrinking at once).
const PLAIN_EVERY: Duration = Duration::from_secs(5);

impl StressProgress {
    /// Whether a plain line is due now; records it when it is.
    fn plain_due(&mut self, at_once: bool) -> bool {
        let Some(last) = &mut self.plain else {
            return false;
        };
        let now = Instant::now();
        if !at_once && last.is_some_and(|t| now.duration_since(t) < PLAIN_EVERY) {
            return false;
        }
        *last = Some(now);
        true
    }
}

impl stress::Progress for StressProgress {
    fn round(&mut self, done: u64, total: Option<u64>) {
        self.bar.set_position(done);
        if total.is_none() && !self.shrinking {
            self.bar
                .set_message(report::stress::rounds_message(done, self.time));
        }
        if done > 0 && self.plain_due(false) {
            let elapsed = self.started.elapsed();
            eprintln!("{}", report::stress::rounds_line(done, total, elapsed));
        }
    }

    fn close_call(&mut self, round: u64, time: Duration, raised: Duration) {
        self.bar
            .suspend(|| eprintln!("{}", report::stress::close_call_line(round, time, raised)));
    }

    fn shrinking(&mut self, runs: usize, puzzles: usize, givens: usize) {
        let first = !std::mem::replace(&mut self.shrinking, true);
        if self.plain_due(first) {
            eprintln!("{}", report::stress::shrinking_line(runs, puzzles, givens));
        }
        self.bar
            .set_message(report::stress::shrinking_message(runs, puzzles, givens));
    }
}

/// The toolchains the `judge.toml` in `dir` names (`[toolchain]`), as a
/// case there would be built with when `dir` is named on the command line.
fn toolchains_of_dir(dir: &Path) -> anyhow::Result<Vec<lang::Choice>> {
    Ok(settings::SettingsCache::default()
        .for_dir(dir, dir)?
        .toolchain)
}

/// The submission of `stress` or `hack`, built with the toolchains of the
/// suite it saves its cases into (`save`), and how to name it again;
/// `None` (after printing the compiler's message) when it did not compile.
fn compiled(
    args: &SubmissionArgs,
    limits: &LimitArgs,
    save: &Path,
) -> anyhow::Result<Option<(Submission, String)>> {
    let (submission, build, rerun) = submission(args, || {
        Ok((
            limits.problem.map(ProblemArg::problem),
            toolchains_of_dir(save)?,
        ))
    })?;
    if let Some(build) = &build {
        if let Some(error) = &build.error {
            let source = build.source.display().to_string();
            notices::did_not_compile(&mut io::stderr(), &source, error)?;
            return Ok(None);
        }
    }
    Ok(Some((submission, rerun)))
}

/// The limits of `stress` and `hack`, and the flags that say them again.
fn limits_of(args: &LimitArgs) -> anyhow::Result<(Limits, String)> {
    let limits = flag_settings(
        args.problem.map(ProblemArg::problem),
        args.time_limit.as_deref(),
        args.memory_limit.as_deref(),
        None,
    )?
    .limits();
    let again = flags(&[
        (
            "--problem",
            args.problem.map(|p| p.problem().name().to_string()),
        ),
        ("--time-limit", args.time_limit.clone()),
        ("--memory-limit", args.memory_limit.clone()),
    ]);
    Ok((limits, again))
}

/// The rounds of `stress` when neither `--rounds` nor `--time` is given.
const DEFAULT_ROUNDS: u64 = 1000;

pub fn stress(args: StressArgs) -> anyhow::Result<ExitCode> {
    sandbox()?;
    let Some((submission, rerun)) = compiled(&args.submission, &args.limits, &args.save)? else {
        return Ok(ExitCode::from(1));
    };
    let (limits, limits_again) = limits_of(&args.limits)?;
    let brute = match &args.brute {
        Some(path) => {
            let options = lang::Options {
                announce: Some(Arc::new(|message: &str| eprintln!("{message}"))),
                ..lang::Options::default()
            };
            let built = lang::build_as(path, None, &options)?;
            if let Some(error) = &built.info.error {
                let what = format!("the brute force {}", path.display());
                notices::did_not_compile(&mut io::stderr(), &what, error)?;
                return Ok(ExitCode::from(HARNESS_ERROR));
            }
            built.launch.map(Submission::External)
        }
        None => None,
    };
    let generator = args
        .gen
        .as_deref()
        .map(Launch::command)
        .transpose()
        .context("invalid --gen")?;
    let time = args
        .time
        .as_deref()
        .map(settings::parse_duration)
        .transpose()
        .context("invalid --time")?;
    // The flags that shape a round, to replay the failing one.
    let same = flags(&[
        (
            "--puzzles",
            args.gen.is_none().then(|| args.puzzles.max(1).to_string()),
        ),
        ("--givens", args.givens.map(|g| g.to_string())),
        ("--grade", args.grade.map(|g| g.grade().name().to_string())),
        ("--gen", args.gen.clone()),
        (
            "--brute",
            args.brute
                .as_ref()
                .map(|b| b.to_string_lossy().into_owned()),
        ),
    ]) + &limits_again;
    let config = stress::StressConfig {
        submission,
        seed: args.seed,
        // `--time` alone is the only bound; neither given, 1000 rounds.
        rounds: match (args.rounds, time) {
            (None, None) => Some(DEFAULT_ROUNDS),
            (rounds, _) => rounds,
        },
        time,
        puzzles_per_round: args.puzzles.max(1),
        target: Target {
            givens: args.givens.map(usize::from),
            grade: args.grade.map(GradeArg::grade),
            hard_for: None,
        },
        limits,
        save: args.save,
        shrink_runs: args.shrink_runs,
        generator,
        brute,
    };
    on_ctrl_c()?;
    report::stress::started(&mut io::stderr(), &config, args.gen.as_deref())?;
    // Made after the line above, so the bar is drawn under it.
    let terminal = progress::drawn();
    let mut progress = StressProgress {
        bar: match config.rounds {
            Some(rounds) => progress::bar(rounds, "stress"),
            None => progress::spinner("stress"),
        },
        // The first plain line after `PLAIN_EVERY` too: a short run
        // prints none.
        plain: (!terminal).then(|| Some(Instant::now())),
        shrinking: false,
        started: Instant::now(),
        time: config.time,
    };
    let outcome = stress::run(&config, &mut progress)?;
    progress.bar.finish_and_clear();
    report::stress::outcome(
        &mut io::stdout().lock(),
        &outcome,
        config.seed,
        &rerun,
        &same,
    )?;
    Ok(match outcome {
        stress::StressOutcome::Passed { .. } => ExitCode::SUCCESS,
        stress::StressOutcome::Interrupted { .. } => interrupted_code(),
        stress::StressOutcome::Failed(_) => ExitCode::from(1),
    })
}

/// ` --flag value` for each flag that has a value, to repeat a command;
/// each value quoted for the shell.
/// The options of `test` that change how a case is built or judged, as a
/// command that judges it again must give them: `--problem` picks the
/// build and the checker, the limits and `--checker` the verdict.
fn judging_flags(args: &TestArgs) -> String {
    let mut again = flags(&[
        (
            "--problem",
            args.limits.problem.map(|p| p.problem().name().to_string()),
        ),
        ("--time-limit", args.limits.time_limit.clone()),
        ("--memory-limit", args.limits.memory_limit.clone()),
        (
            "--checker",
            args.checker.map(|c| c.kind().name().to_string()),
        ),
        ("--time-scale", args.time_scale.map(|f| f.to_string())),
    ]);
    if args.fresh_process {
        again.push_str(" --fresh-process");
    }
    match sudoku_judge::runner::sandbox::mode() {
        sudoku_judge::runner::sandbox::Mode::Auto => {}
        sudoku_judge::runner::sandbox::Mode::Require => again.push_str(" --sandbox require"),
        sudoku_judge::runner::sandbox::Mode::Off => again.push_str(" --sandbox off"),
    }
    again
}

fn flags(pairs: &[(&str, Option<String>)]) -> String {
    pairs
        .iter()
        .filter_map(|(flag, value)| {
            value
                .as_ref()
                .map(|v| format!(" {flag} {}", shell_word(v.as_ref())))
        })
        .collect()
}

struct HackProgress {
    bar: indicatif::ProgressBar,
}

impl hack::Progress for HackProgress {
    fn round(&mut self, round: u64, time: Duration, verdict: Verdict, best: Duration) {
        self.bar.set_position(round);
        self.bar
            .set_message(report::hack::round_message(round, time, verdict, best));
    }

    fn improved(&mut self, round: u64, time: Duration, how: &str) {
        // A line each time the hack gets further, on a terminal or not.
        self.bar
            .suspend(|| eprintln!("{}", report::hack::improved_line(round, time, how)));
    }
}

pub fn hack(args: HackArgs) -> anyhow::Result<ExitCode> {
    sandbox()?;
    let Some((submission, rerun)) = compiled(&args.submission, &args.limits, &args.save)? else {
        return Ok(ExitCode::from(1));
    };
    let budget = hack::parse_budget(&args.budget).context("invalid --budget")?;
    let (limits, limits_again) = limits_of(&args.limits)?;
    let config = hack::HackConfig {
        submission,
        seed: args.seed,
        budget,
        puzzles: args.puzzles as usize,
        limits,
        save: args.save,
    };
    on_ctrl_c()?;
    let bar = match budget {
        hack::Budget::Rounds(n) => progress::bar(n, "hack"),
        hack::Budget::Time(_) => progress::spinner("hack"),
    };
    report::hack::started(&mut io::stderr(), &config, &args.budget)?;
    let outcome = hack::run(&config, &mut HackProgress { bar: bar.clone() })?;
    bar.finish_and_clear();
    report::hack::outcome(
        &mut io::stdout().lock(),
        &outcome,
        config.limits.time,
        &format!("{rerun}{limits_again}"),
    )?;
    Ok(match outcome {
        hack::HackOutcome::Interrupted { .. } => interrupted_code(),
        hack::HackOutcome::Failed(found) | hack::HackOutcome::Survived(found)
            if found.verdict == Verdict::AC =>
        {
            ExitCode::SUCCESS
        }
        _ => ExitCode::from(1),
    })
}

pub fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let solvers: Vec<&'static Solver> = if args.solver.is_empty() {
        vec![solver::default_solver()]
    } else if args.solver.iter().any(|s| s == "all") {
        solver::ALL.iter().filter(|s| !s.faulty).collect()
    } else {
        args.solver
            .iter()
            .map(|name| solver::find(name))
            .collect::<anyhow::Result<_>>()?
    };
    if let Some(faulty) = solvers.iter().find(|s| s.faulty) {
        anyhow::bail!(
            "{} is broken on purpose and some never return; bench times sound solvers only",
            faulty.name
        );
    }
    let command = args.cmd.as_deref().map(Launch::command).transpose()?;
    let rounds = bench::Rounds {
        warmup: args.warmup as usize,
        measured: args.rounds.max(1),
    };
    let sets = args
        .files
        .iter()
        .map(|f| bench::read_puzzles(f, args.limit))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let jobs = sets.len() * (solvers.len() + usize::from(command.is_some()));
    let progress = progress::bar(jobs as u64, "bench");
    let mut results = Vec::with_capacity(jobs);
    for set in &sets {
        for solver in &solvers {
            progress.set_message(format!("{} on {}", solver.name, set.path.display()));
            results.push(bench::builtin(solver, set, rounds));
            progress.inc(1);
        }
        if let Some(launch) = &command {
            progress.set_message(format!("{} on {}", launch.label, set.path.display()));
            results.push(bench::command(launch, set, rounds)?);
            progress.inc(1);
        }
    }
    progress.finish_and_clear();
    let path = sudoku_judge::solver::reference::CodePath::detected();
    let mut out = io::stdout().lock();
    match args.format {
        ReportFormat::Json => report::bench::json(&mut out, &results, rounds, path)?,
        ReportFormat::Table => report::bench::table(&mut out, &results, rounds, path)?,
    }
    Ok(if results.iter().any(|m| m.wrong > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the cases that were not accepted in the last run are listed, in
/// the judge's own directory.
const FAILED: &str = "failed";

/// The record `--failed` reruns: the paths the last run here judged and
/// its cases that were not accepted.
fn last_failed() -> anyhow::Result<state::Failed> {
    let path = PathBuf::from(state::STATE_DIR).join(FAILED);
    let here = std::env::current_dir().context("cannot read the working directory")?;
    let text = records(false, false)?
        .map(|dir| dir.read_own(FAILED))
        .transpose()?
        .flatten();
    let Some(text) = text else {
        anyhow::bail!(
            "--failed reruns the cases that failed in the last run in this directory, and no \
             run is recorded here ({} in {}); run `sudoku-judge test` here first, then \
             `sudoku-judge test --failed`",
            path.display(),
            here.display()
        )
    };
    state::Failed::parse(&text, &path, &here)
}

/// The paths the run `failed` records judged, each still there.
fn recorded_paths(failed: &state::Failed) -> anyhow::Result<Vec<PathBuf>> {
    for path in &failed.paths {
        if path.symlink_metadata().is_err() {
            anyhow::bail!(
                "--failed reruns the last run's failures under {}, which is gone; name the \
                 cases to rerun them from, e.g. `sudoku-judge test path/to/cases --failed`",
                shell_path(path)
            );
        }
    }
    Ok(failed.paths.clone())
}

/// Records the paths judged and the inputs of the cases that were not
/// accepted, for `--failed`: in the judge's own directory here, never in
/// `cases/`, and never through a link.
fn remember_failed(paths: &[PathBuf], inputs: &[PathBuf]) -> anyhow::Result<()> {
    let here = std::env::current_dir().context("cannot read the working directory")?;
    let record = state::Failed {
        paths: paths.iter().map(|p| judge::absolute(p)).collect(),
        inputs: inputs.iter().map(|p| judge::absolute(p)).collect(),
    };
    let dir = records(false, true)?.expect("made when missing");
    dir.write(FAILED, record.to_text(&here)?.as_bytes())
}

/// A report file named on the command line; like `--junit` in every test
/// runner, it is replaced on each run.
fn create_report(path: &std::path::Path) -> anyhow::Result<Box<dyn io::Write>> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("failed to create {}", dir.display()))?;
    }
    let file = std::fs::File::create(path)
        .with_context(|| format!("failed to create the report {}", path.display()))?;
    Ok(Box::new(io::BufWriter::new(file)))
}
