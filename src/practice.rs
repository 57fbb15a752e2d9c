//! The practice loop of `test`: what a run judges and how it reports,
//! decided once from the command line ([`TestPlan`]); the records it keeps
//! where the user works for the next run (`--failed`, `--baseline last`,
//! `--save-baseline`, in the judge's own directory, see [`crate::state`]);
//! and `--watch`, which judges the plan again at each change.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;

use crate::baseline::Baseline;
use crate::case::absolute;
use crate::files::OutsideLinks;
use crate::judge::{Judging, Submitted};
use crate::outside::shell_path;
use crate::report::notices;
use crate::results::Summary;
use crate::runner::process;
use crate::state;

/// Which report `test` writes on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnStdout {
    Table,
    Json,
    Junit,
}

/// The reports of a run: the one on stdout, and the files asked for (`-`
/// is stdout, the table then going to stderr).
#[derive(Clone, Debug)]
pub(crate) struct Reports {
    pub(crate) format: OnStdout,
    pub(crate) json: Option<PathBuf>,
    pub(crate) junit: Option<PathBuf>,
    pub(crate) html: Option<PathBuf>,
    /// Where the output of each case not accepted is kept (`--keep`).
    pub(crate) keep: Option<PathBuf>,
    pub(crate) quiet: bool,
    pub(crate) verbose: bool,
    pub(crate) show_output: bool,
    pub(crate) color: bool,
}

impl Reports {
    /// The files the reports are written to, which a watch ignores.
    pub(crate) fn files(&self) -> Vec<PathBuf> {
        [&self.json, &self.junit, &self.html, &self.keep]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }
}

/// What every run of `test` shares, decided once from the command line;
/// `--watch` judges it again and again.
#[derive(Clone, Debug)]
pub(crate) struct TestPlan {
    pub(crate) paths: Vec<PathBuf>,
    /// Whether the suite's files may link out of it.
    pub(crate) links: OutsideLinks,
    pub(crate) submitted: Submitted,
    pub(crate) judging: Judging,
    pub(crate) reports: Reports,
    pub(crate) save_baseline: Option<String>,
    /// Judged again at each change (`--watch`, see [`watch`]).
    pub(crate) watch: bool,
    /// The options besides the submission's that changed how a case was
    /// built or judged, as a command that judges it again gives them.
    pub(crate) judging_flags: String,
}

/// What a user misses when this run cannot be recorded as the last one.
pub(crate) const LAST_LOST: &str = "--baseline last will not know this run";

/// The directory baselines are saved in, under the judge's own.
const BASELINES: &str = "baselines";

/// The file the run saved as baseline `name` is kept in.
fn baseline_file(name: &str) -> String {
    format!("{name}.json")
}

/// The judge's own directory here, or the one of baselines in it, made if
/// `create` and missing (see [`crate::state`]).
fn records(baselines: bool, create: bool) -> anyhow::Result<Option<crate::files::Dir>> {
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
pub(crate) fn check_baseline_name(name: &str) -> anyhow::Result<()> {
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
pub(crate) fn load_baseline(path: &std::path::Path) -> anyhow::Result<Arc<Baseline>> {
    if path == std::path::Path::new("last") && !path.exists() {
        let record = PathBuf::from(state::STATE_DIR).join(LAST);
        let Some(text) = records(false, false)?
            .map(|dir| dir.read_own(LAST, state::MAX_RECORD_BYTES))
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
                .map(|dir| dir.read_own(&file, state::MAX_RECORD_BYTES))
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
/// directory, never through a link (see [`crate::state`]).
pub(crate) struct RunRecord(crate::files::Pending);

impl RunRecord {
    /// The record of the last run, or of the baseline `name`.
    pub(crate) fn start(name: Option<&str>) -> anyhow::Result<RunRecord> {
        let dir = records(name.is_some(), true)?.expect("made when missing");
        let file = name.map_or_else(|| LAST.to_string(), baseline_file);
        Ok(RunRecord(dir.pending(&file)?))
    }

    pub(crate) fn writer(&self) -> anyhow::Result<Box<dyn io::Write>> {
        let file = self
            .0
            .file()
            .try_clone()
            .context("failed to open the record of this run")?;
        Ok(Box::new(io::BufWriter::new(file)))
    }

    /// Puts the record in its place; returns where.
    pub(crate) fn keep(self) -> anyhow::Result<PathBuf> {
        self.0.keep()
    }
}

/// `test --watch`: judges, then again at each change of the submission, a
/// case or a `judge.toml`, each run compared with the one before. A change
/// during a run stops it and starts the next; Ctrl-C ends the watch.
/// `judge_once` judges the plan once, with the run to compare with, and
/// gives its summary and the run; `out` gets the watch's own lines, and a
/// `terminal` is cleared before each run. Returns when a signal stops it.
pub(crate) fn watch(
    plan: &TestPlan,
    first_baseline: Option<Arc<Baseline>>,
    out: &mut dyn Write,
    terminal: bool,
    mut judge_once: impl FnMut(Option<Arc<Baseline>>) -> anyhow::Result<(Summary, Baseline)>,
) -> anyhow::Result<()> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let running = Arc::new(AtomicBool::new(false));
    let (changed_tx, changed_rx) = std::sync::mpsc::channel::<Vec<PathBuf>>();
    let ignore = plan.reports.files();
    // The submission's files: its source, or what its command line runs
    // (a script, a binary that a rebuild replaces).
    let files: Vec<PathBuf> = match &plan.submitted {
        Submitted::File { path, .. } => vec![path.clone()],
        Submitted::Command(command) => {
            let here = std::env::current_dir().context("cannot read the working directory")?;
            crate::watch::command_files(command, &here)
        }
        Submitted::Solver(_) => Vec::new(),
    };
    let watched = crate::watch::Watched::new(&files, &plan.paths, &ignore);
    let _watcher = watched.start({
        let running = Arc::clone(&running);
        move |paths| {
            if running.load(Ordering::SeqCst) {
                process::restart();
            }
            let _ = changed_tx.send(paths);
        }
    })?;
    let mut baseline = first_baseline;
    let mut why: Option<String> = None;
    for round in 1.. {
        if terminal {
            // Clear the screen and its scrollback, cursor home.
            write!(out, "\x1b[H\x1b[2J\x1b[3J")?;
        } else if round > 1 {
            notices::watch_separator(out)?;
        }
        notices::watch_round(out, round, why.as_deref())?;
        out.flush()?;
        if round > 1 {
            // A sandbox kept from the last round holds the files as they
            // were then: a rebuilt binary must not run as the old one.
            crate::runner::spawner::let_idle_go();
        }
        running.store(true, Ordering::SeqCst);
        let judged = judge_once(baseline.clone());
        running.store(false, Ordering::SeqCst);
        if process::interrupting_signal().is_some() {
            return Ok(());
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
                    notices::watch_error(out, &error)?;
                }
            }
        }
        let restarted = process::restarting();
        process::resume();
        let mut paths: Vec<PathBuf> = Vec::new();
        if !restarted {
            notices::watch_waiting(out)?;
            // Waits for a change, or for Ctrl-C.
            loop {
                if process::interrupting_signal().is_some() {
                    return Ok(());
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
        std::thread::sleep(crate::watch::SETTLE);
        paths.extend(changed_rx.try_iter().flatten());
        paths.sort();
        paths.dedup();
        let here = std::env::current_dir().unwrap_or_default();
        why = Some(notices::changed(&paths, &here));
    }
    unreachable!("the watch ends only by a return")
}

/// Where the cases that were not accepted in the last run are listed, in
/// the judge's own directory.
const FAILED: &str = "failed";

/// The record `--failed` reruns: the paths the last run here judged and
/// its cases that were not accepted.
pub(crate) fn last_failed() -> anyhow::Result<state::Failed> {
    let path = PathBuf::from(state::STATE_DIR).join(FAILED);
    let here = std::env::current_dir().context("cannot read the working directory")?;
    let text = records(false, false)?
        .map(|dir| dir.read_own(FAILED, state::MAX_RECORD_BYTES))
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
pub(crate) fn recorded_paths(failed: &state::Failed) -> anyhow::Result<Vec<PathBuf>> {
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
pub(crate) fn remember_failed(paths: &[PathBuf], inputs: &[PathBuf]) -> anyhow::Result<()> {
    let here = std::env::current_dir().context("cannot read the working directory")?;
    let record = state::Failed {
        paths: paths.iter().map(|p| absolute(p)).collect(),
        inputs: inputs.iter().map(|p| absolute(p)).collect(),
    };
    let dir = records(false, true)?.expect("made when missing");
    dir.write(FAILED, record.to_text(&here)?.as_bytes())
}
