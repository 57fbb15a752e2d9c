//! `test`: the arguments become a [`TestPlan`] in one place ([`plan`]);
//! each run of it ([`judge_once`]) builds the submission, sets up the
//! reporters, judges, and keeps the records for the next run.

use std::io::{self, IsTerminal as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;

use super::shared::{
    announce, closed_pipe, flag_settings, flags, interrupted_code, limit_flags, on_ctrl_c, sandbox,
    stdout_width, submitted, CLOSED_STDOUT, HARNESS_ERROR,
};
use crate::baseline::{self, Baseline};
use crate::case::{settings, Suite};
use crate::cli::{TestArgs, TestFormat};
use crate::files::OutsideLinks;
use crate::judge::{self, JudgeConfig, Judging};
use crate::practice::{self, OnStdout, Reports, RunRecord, TestPlan};
use crate::report::html::{HtmlReporter, Machine};
use crate::report::human::HumanReporter;
use crate::report::json::JsonReporter;
use crate::report::junit::JunitReporter;
use crate::report::keep::KeepReporter;
use crate::report::progress::TestProgress;
use crate::report::{self, notices, Reporter, Tee};
use crate::results::Summary;
use crate::runner::lang;
use crate::runner::process;
use crate::runner::sandbox::{Containment, Mode};

pub(crate) fn test(
    args: TestArgs,
    color: bool,
    links: OutsideLinks,
    containment: Containment,
) -> anyhow::Result<ExitCode> {
    let (plan, baseline) = match plan(args, color, links, containment)? {
        Some(planned) => planned,
        None => {
            notices::nothing_failed(&mut io::stdout().lock())?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    // Ctrl-C stops the running submission (it has its own process group, so
    // the terminal's signal does not reach it) and reports what was judged.
    on_ctrl_c()?;
    if plan.watch {
        let terminal = io::stdout().is_terminal();
        practice::watch(&plan, baseline, &mut io::stdout(), terminal, |baseline| {
            judge_once(&plan, baseline)
        })?;
        return Ok(interrupted_code());
    }
    let (summary, _) = judge_once(&plan, baseline)?;
    // Stdout closed, even during the last lines: never a success, and a
    // failure seen so far is still one.
    let closed = process::interrupting_signal() == Some(CLOSED_STDOUT);
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

/// `test`'s arguments as the plan the library judges, with the run to
/// compare with (`--baseline`); `None` for `--failed` when nothing failed.
fn plan(
    args: TestArgs,
    color: bool,
    links: OutsideLinks,
    containment: Containment,
) -> anyhow::Result<Option<(TestPlan, Option<Arc<Baseline>>)>> {
    let mut overrides = flag_settings(&args.limits, args.checker)?;
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
        .partition(|p| Path::new(p).symlink_metadata().is_ok());
    let mut paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
    let only = if args.failed {
        let failed = practice::last_failed()?;
        if failed.inputs.is_empty() {
            return Ok(None);
        }
        // The failures are rerun where they were, whatever the directory.
        if paths.is_empty() {
            paths = practice::recorded_paths(&failed)?;
        }
        Some(failed.input_set())
    } else {
        None
    };
    if paths.is_empty() {
        paths.push(default_cases(&filters)?);
    }
    if let Some(name) = &args.save_baseline {
        practice::check_baseline_name(name)?;
    }
    // Read before this run records itself as the last one.
    let baseline = args
        .baseline
        .as_deref()
        .map(practice::load_baseline)
        .transpose()?;
    let selection = judge::Selection {
        filters,
        only,
        partition: args
            .partition
            .as_deref()
            .map(judge::parse_partition)
            .transpose()?,
    };
    let reports = reports(&args, color)?;
    let plan = TestPlan {
        paths,
        links,
        submitted: submitted(&args.submission),
        judging_flags: judging_flags(&args, containment.mode),
        judging: Judging {
            overrides,
            selection,
            sandbox: sandbox(&containment)?,
            repeat: args.repeat as usize,
            jobs: usize::from(args.jobs),
            fresh_process: args.fresh_process,
            fail_fast: args.fail_fast,
            containment,
        },
        reports,
        save_baseline: args.save_baseline,
        watch: args.watch,
    };
    Ok(Some((plan, baseline)))
}

/// The reports `test`'s arguments ask for.
fn reports(args: &TestArgs, color: bool) -> anyhow::Result<Reports> {
    let taken = [&args.json, &args.junit, &args.html]
        .into_iter()
        .filter(|path| to_stdout(path.as_deref()))
        .count();
    anyhow::ensure!(
        taken == 0 || (taken == 1 && args.format == TestFormat::Table),
        "only one report can be written to stdout: give the others a FILE (`-` is stdout)"
    );
    Ok(Reports {
        format: match args.format {
            TestFormat::Table => OnStdout::Table,
            TestFormat::Json => OnStdout::Json,
            TestFormat::Junit => OnStdout::Junit,
        },
        json: args.json.clone(),
        junit: args.junit.clone(),
        html: args.html.clone(),
        keep: args.keep.clone(),
        quiet: args.quiet,
        verbose: args.verbose,
        show_output: args.show_output,
        color,
    })
}

/// A report file named `-` is written to stdout; the table then goes to
/// stderr, so both can be had (`--junit - | ci-viewer`).
fn to_stdout(path: Option<&Path>) -> bool {
    path == Some(Path::new("-"))
}

/// The report on stdout. When stdout is closed (`| head`), judging stops at
/// once, as on Ctrl-C: the running submission is killed, the report files
/// are written with what was judged, and the exit code is 1 when a case
/// judged so far failed, else 141, as a shell expects of a broken pipe.
struct StopOnClosedPipe(Box<dyn Reporter>);

impl Reporter for StopOnClosedPipe {
    fn report(&mut self, event: report::Event<'_>) -> io::Result<()> {
        if process::interrupting_signal() == Some(CLOSED_STDOUT) {
            return Ok(());
        }
        match self.0.report(event) {
            Err(error) if closed_pipe(&error) => {
                process::interrupt(CLOSED_STDOUT);
                Ok(())
            }
            other => other,
        }
    }
}

/// The records a run keeps for the next, started before it: the saved
/// baseline (`--save-baseline`), the last run, and the run itself, to
/// compare the next one with under `--watch`.
struct Records<'p> {
    saved: Option<(&'p str, RunRecord)>,
    last: Option<RunRecord>,
    this_run: Arc<Mutex<Baseline>>,
}

/// Builds the submission (a cached build when its source is unchanged),
/// judges every case, and records the run for `--failed` and `--baseline
/// last`. Returns the summary and the run, to compare the next one with.
fn judge_once(
    plan: &TestPlan,
    baseline: Option<Arc<Baseline>>,
) -> anyhow::Result<(Summary, Baseline)> {
    // Read once: the build and the judge both need it.
    let suite = Arc::new(Suite::read(&plan.paths, plan.links)?);
    let problem = plan.judging.overrides.problem.or_else(|| suite.problem());
    let toolchains = || suite.toolchains(lang::Language::find);
    let containment = &plan.judging.containment;
    let (submission, build, rerun) = judge::build(
        &plan.submitted,
        problem,
        toolchains,
        announce(),
        containment,
    )?;
    // The rerun hint reproduces the run: every option that changed how
    // a case was built or judged, besides the submission's own.
    let rerun = format!("{rerun}{}", plan.judging_flags);
    let mut progress = TestProgress::new();
    let config = JudgeConfig {
        suite,
        submission,
        build,
        judging: plan.judging.clone(),
    };
    let (reporters, records) = reporters(plan, rerun, baseline)?;
    let mut reporter = Tee::new(reporters);
    let summary = judge::run(&config, &mut progress.wrap(&mut reporter))?;
    drop(reporter);
    let this_run = keep_records(plan, &summary, records)?;
    Ok((summary, this_run))
}

/// The reporters of a run, and the records it keeps.
fn reporters(
    plan: &TestPlan,
    rerun: String,
    baseline: Option<Arc<Baseline>>,
) -> anyhow::Result<(Vec<Box<dyn Reporter>>, Records<'_>)> {
    let reports = &plan.reports;
    let report_out = |path: &PathBuf| -> anyhow::Result<Box<dyn io::Write>> {
        match to_stdout(Some(path)) {
            true => Ok(Box::new(io::stdout())),
            false => create_report(path),
        }
    };
    let taken = [&reports.json, &reports.junit, &reports.html]
        .into_iter()
        .any(|path| to_stdout(path.as_deref()));
    let (table_out, width): (Box<dyn io::Write>, _) = match taken {
        false => (Box::new(io::stdout().lock()), stdout_width()),
        true => (Box::new(io::stderr()), None),
    };
    let on_stdout: Box<dyn Reporter> = match reports.format {
        OnStdout::Table => Box::new(
            HumanReporter::new(table_out, reports.color, rerun)
                .with_width(width)
                .with_baseline(baseline.clone())
                .with_quiet(reports.quiet)
                .with_verbose(reports.verbose)
                .with_output_shown(reports.show_output),
        ),
        OnStdout::Json => Box::new(JsonReporter::new(table_out).with_baseline(baseline.clone())),
        OnStdout::Junit => Box::new(JunitReporter::new(table_out)),
    };
    let mut reporters: Vec<Box<dyn Reporter>> = vec![Box::new(StopOnClosedPipe(on_stdout))];
    // The report on stdout stops with a closed pipe; a file gets the
    // cases judged so far.
    let on_pipe = |path: &PathBuf, reporter: Box<dyn Reporter>| -> Box<dyn Reporter> {
        match to_stdout(Some(path)) {
            true => Box::new(StopOnClosedPipe(reporter)),
            false => reporter,
        }
    };
    if let Some(path) = &reports.json {
        let json = JsonReporter::new(report_out(path)?).with_baseline(baseline.clone());
        reporters.push(on_pipe(path, Box::new(json)));
    }
    if let Some(path) = &reports.junit {
        let junit = JunitReporter::new(report_out(path)?);
        reporters.push(on_pipe(path, Box::new(junit)));
    }
    if let Some(path) = &reports.html {
        let html = HtmlReporter::new(report_out(path)?, Machine::here())
            .with_baseline(baseline)
            .with_output_shown(reports.show_output);
        reporters.push(on_pipe(path, Box::new(html)));
    }
    if let Some(dir) = &reports.keep {
        reporters.push(Box::new(KeepReporter::new(dir, plan.links, io::stderr())?));
    }
    // Kept under its name only when the run is whole: an error here is
    // one to stop for, since the user asked for it.
    let saved = match &plan.save_baseline {
        Some(name) => {
            let record = RunRecord::start(Some(name))?;
            reporters.push(Box::new(JsonReporter::new(record.writer()?)));
            Some((name.as_str(), record))
        }
        None => None,
    };
    // The run is kept as the last one here, for `--baseline last`; a
    // directory the user cannot write is no reason to fail this run.
    let last = match RunRecord::start(None) {
        Ok(last) => Some(last),
        Err(error) => {
            notices::warning(&mut io::stderr(), &error, practice::LAST_LOST)?;
            None
        }
    };
    if let Some(last) = &last {
        reporters.push(Box::new(JsonReporter::new(last.writer()?)));
    }
    let (recorder, this_run) = baseline::Recorder::new("the run before");
    reporters.push(Box::new(recorder));
    let records = Records {
        saved,
        last,
        this_run,
    };
    Ok((reporters, records))
}

/// Says where the HTML report went, and keeps the records of a run for
/// the next one; returns the run, to compare the next one with.
fn keep_records(
    plan: &TestPlan,
    summary: &Summary,
    records: Records<'_>,
) -> anyhow::Result<Baseline> {
    if let Some(path) = plan.reports.html.as_ref().filter(|p| !to_stdout(Some(p))) {
        notices::html_written(&mut io::stderr(), path)?;
    }
    // The record serves --failed next time; a directory the user cannot
    // write is no reason to fail this run.
    if let Err(error) = practice::remember_failed(&plan.paths, &summary.not_accepted) {
        notices::warning(&mut io::stderr(), &error, "--failed will not know this run")?;
    }
    // Half a run is no baseline.
    if !summary.interrupted {
        if let Some((name, record)) = records.saved {
            let path = record.keep()?;
            notices::baseline_saved(&mut io::stderr(), name, &path)?;
        }
        if let Some(last) = records.last {
            if let Err(error) = last.keep() {
                notices::warning(&mut io::stderr(), &error, practice::LAST_LOST)?;
            }
        }
    }
    let mut this_run = records.this_run.lock().unwrap_or_else(|e| e.into_inner());
    Ok(std::mem::take(&mut *this_run))
}

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
    let ids: Vec<String> = crate::shipped::files()
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
    let shipped = crate::shipped::on_disk().context(
        "there is no cases/ directory here, and the shipped suites could not be written out",
    )?;
    notices::shipped_cases(&mut io::stderr(), &shipped, filters)?;
    Ok(shipped)
}

/// The options of `test` that change how a case is built or judged, as a
/// command that judges it again must give them: `--problem` picks the
/// build and the checker, the limits and `--checker` the verdict.
fn judging_flags(args: &TestArgs, mode: Mode) -> String {
    let mut again = limit_flags(&args.limits)
        + &flags(&[
            (
                "--checker",
                args.checker.map(|c| c.kind().name().to_string()),
            ),
            ("--time-scale", args.time_scale.map(|f| f.to_string())),
        ]);
    if args.fresh_process {
        again.push_str(" --fresh-process");
    }
    match mode {
        Mode::Auto => {}
        Mode::Require => again.push_str(" --sandbox require"),
        Mode::Off => again.push_str(" --sandbox off"),
    }
    again
}

/// A report file named on the command line; like `--junit` in every test
/// runner, it is replaced on each run: written anew through the file door
/// and renamed into place when done (a link at its name is replaced, never
/// written through).
fn create_report(path: &std::path::Path) -> anyhow::Result<Box<dyn io::Write>> {
    let pending = crate::files::replace(path)
        .with_context(|| format!("failed to create the report {}", path.display()))?;
    Ok(Box::new(io::BufWriter::new(ReportFile {
        pending: Some(pending),
        written: false,
    })))
}

/// A report being written: in place once all of it is (on the last flush
/// of its writer, when it is dropped).
struct ReportFile {
    pending: Option<crate::files::Pending>,
    /// Whether a reporter wrote a byte of it.
    written: bool,
}

impl io::Write for ReportFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &self.pending {
            Some(pending) => {
                let n = (&mut pending.file()).write(bytes)?;
                self.written |= n > 0;
                Ok(n)
            }
            None => Err(io::Error::other("the report was closed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &self.pending {
            Some(pending) => (&mut pending.file()).flush(),
            None => Ok(()),
        }
    }
}

impl Drop for ReportFile {
    fn drop(&mut self) {
        // What was written goes in place, as a report written straight to
        // its name would have stayed. A run stopped before its reporters
        // wrote a byte (a --keep directory refused, a suite that does not
        // read) has no report: the one of the run before stays, rather
        // than an empty file that no reader takes for JSON or XML.
        if let Some(pending) = self.pending.take().filter(|_| self.written) {
            let _ = pending.keep();
        }
    }
}
