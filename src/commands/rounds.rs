//! `stress` and `hack`: rounds of generated cases against a submission,
//! with their progress shown as they go.

use std::io;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::case::settings;
use crate::cli::{GradeArg, HackArgs, LimitArgs, ProblemArg, StressArgs, SubmissionArgs};
use crate::generate::Target;
use crate::hack;
use crate::judge;
use crate::report::progress;
use crate::report::{self, notices};
use crate::runner::lang;
use crate::runner::lang::launch::Launch;
use crate::runner::sandbox::Containment;
use crate::runner::Submission;
use crate::stress;
use crate::verdict::Verdict;

use super::shared::{
    announce, flag_settings, flags, interrupted_code, limit_flags, on_ctrl_c, sandbox, submitted,
    HARNESS_ERROR,
};

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

/// The submission of `stress` or `hack`, built with the toolchains of the
/// suite it saves its cases into (`save`; its `judge.toml` names them, as
/// for a case there), and how to name it again; `None` (after printing the
/// compiler's message) when it did not compile.
fn compiled(
    args: &SubmissionArgs,
    limits: &LimitArgs,
    save: &Path,
    containment: &Containment,
) -> anyhow::Result<Option<(Submission, String)>> {
    let problem = limits.problem.map(ProblemArg::problem);
    let toolchains = || {
        Ok(settings::SettingsCache::default()
            .for_dir(save, save)?
            .toolchain)
    };
    let (submission, build, rerun) = judge::build(
        &submitted(args),
        problem,
        toolchains,
        announce(),
        containment,
    )?;
    if let Some(build) = &build {
        if let Some(error) = &build.error {
            let source = build.source.display().to_string();
            notices::did_not_compile(&mut io::stderr(), &source, error)?;
            return Ok(None);
        }
    }
    Ok(Some((submission, rerun)))
}

/// The rounds of `stress` when neither `--rounds` nor `--time` is given.
const DEFAULT_ROUNDS: u64 = 1000;

pub(crate) fn stress(args: StressArgs, containment: &Containment) -> anyhow::Result<ExitCode> {
    sandbox(containment)?;
    let compiled = compiled(&args.submission, &args.limits, &args.save, containment)?;
    let Some((submission, rerun)) = compiled else {
        return Ok(ExitCode::from(1));
    };
    let limits = flag_settings(&args.limits, None)?.limits();
    let brute = match &args.brute {
        Some(path) => {
            let options = lang::Options {
                announce: Some(Arc::new(|message: &str| {
                    // It names the file being built, which may be a pack's.
                    eprintln!("{}", crate::outside::Outside::new(message).terminal())
                })),
                containment: containment.clone(),
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
        .map(|command| Launch::command(command, containment))
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
    ]) + &limit_flags(&args.limits);
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

pub(crate) fn hack(args: HackArgs, containment: &Containment) -> anyhow::Result<ExitCode> {
    sandbox(containment)?;
    let compiled = compiled(&args.submission, &args.limits, &args.save, containment)?;
    let Some((submission, rerun)) = compiled else {
        return Ok(ExitCode::from(1));
    };
    let budget = hack::parse_budget(&args.budget).context("invalid --budget")?;
    let limits = flag_settings(&args.limits, None)?.limits();
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
        &format!("{rerun}{}", limit_flags(&args.limits)),
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
