//! Calibration, as problem setters do it (Codeforces Polygon's
//! "invocations"): run reference submissions whose real verdicts are known
//! on a suite, and say whether the suite's time limit, on this machine,
//! gives each one that verdict with room to spare.
//!
//! A suite's `judge.toml` lists its references (`[[reference]]`, a `file`
//! and the `verdict`, AC or TLE, the real judge gave it). Each is judged on
//! every case with the time limit raised to [`MEASURE`] times the suite's,
//! so the report can say how far past the limit a TLE reference goes. The
//! limit reproduces a real verdict when the verdict the suite gives at its
//! own limit (the first case not accepted, in case order, as the judges
//! report it) is the real one; it does so with margin when a machine twice
//! as fast or twice as slow would still give it: an AC reference uses at
//! most half the limit on every case, and a TLE reference needs at least
//! twice the limit on some case. When it does not, the report gives the
//! range of limits that would, as a `time_scale` factor for this machine.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;

use crate::case::settings::{self, RealVerdict, Reference};
use crate::case::{Settings, SettingsCache};
use crate::judge;
use crate::outside::{OutsideName, OutsidePath};
use crate::problem::Problem;
use crate::results::{CaseOutcome, CaseResult, Event, Reporter};
use crate::runner::lang;
use crate::runner::sandbox::{Containment, Protections};
use crate::runner::Submission;
use crate::verdict::Verdict;

/// How far past the suite's limit each case is measured.
pub(crate) const MEASURE: f64 = 2.5;
/// The factor a verdict must survive: an AC reference within 1/MARGIN of
/// the limit, a TLE reference past MARGIN times it.
pub(crate) const MARGIN: f64 = 2.0;

/// One reference on one case.
#[derive(Clone, Debug)]
pub(crate) struct Measured {
    /// The verdict at the measuring limit (`None`: the case could not be
    /// judged).
    pub(crate) verdict: Option<Verdict>,
    pub(crate) time: Duration,
    /// The case's own time limit.
    pub(crate) limit: Duration,
    /// It was stopped at the measuring limit: it needs more than `time`.
    pub(crate) stopped: bool,
}

impl Measured {
    /// Its time as a share of the case's limit.
    pub(crate) fn ratio(&self) -> f64 {
        self.time.as_secs_f64() / self.limit.as_secs_f64()
    }

    /// The verdict the suite's own limit gives.
    pub(crate) fn at_limit(&self) -> Option<Verdict> {
        match self.verdict {
            Some(_) if self.time > self.limit || self.stopped => Some(Verdict::TLE),
            other => other,
        }
    }
}

/// A reference judged on every case of a suite.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) reference: Reference,
    /// The reference's file name, from the suite.
    pub(crate) label: OutsideName,
    /// In case order.
    pub(crate) cases: Vec<Measured>,
}

impl Run {
    /// The verdict the suite gives it: the first case not accepted.
    pub(crate) fn verdict(&self) -> Option<Verdict> {
        self.cases
            .iter()
            .map(Measured::at_limit)
            .find(|v| *v != Some(Verdict::AC))
            .unwrap_or(Some(Verdict::AC))
    }

    /// The largest share of a case's limit it used.
    pub(crate) fn worst(&self) -> f64 {
        self.cases.iter().map(Measured::ratio).fold(0.0, f64::max)
    }

    pub(crate) fn reproduced(&self) -> bool {
        self.verdict() == Some(self.reference.verdict.verdict())
    }

    pub(crate) fn with_margin(&self) -> bool {
        self.reproduced()
            && match self.reference.verdict {
                RealVerdict::AC => self.worst() <= 1.0 / MARGIN,
                RealVerdict::TLE => self.worst() >= MARGIN,
            }
    }
}

/// What calibrating one suite found.
#[derive(Clone, Debug)]
pub(crate) struct Suite {
    pub(crate) dir: OutsidePath,
    pub(crate) case_ids: Vec<OutsideName>,
    /// The suite's time limit (the first case's, scaled) and its scale.
    pub(crate) limit: Duration,
    pub(crate) time_scale: f64,
    /// The problem the suite's `judge.toml` names.
    pub(crate) problem: Option<Problem>,
    pub(crate) runs: Vec<Run>,
}

/// Limits, as factors of the current one, that would reproduce every
/// real verdict: `low..high` (`high` unbounded without a TLE reference).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Window {
    pub(crate) low: f64,
    pub(crate) high: Option<f64>,
}

impl Suite {
    pub(crate) fn holds(&self) -> bool {
        self.runs.iter().all(Run::reproduced)
    }

    pub(crate) fn holds_with_margin(&self) -> bool {
        self.runs.iter().all(Run::with_margin)
    }

    /// The factors on the limit that reproduce every real verdict, with the
    /// margin when `margin`; `None` when no limit separates them (an AC
    /// reference is as slow as a TLE one, or a reference fails otherwise).
    pub(crate) fn window(&self, margin: bool) -> Option<Window> {
        let m = if margin { MARGIN } else { 1.0 };
        let mut low: f64 = 0.0;
        let mut high: Option<f64> = None;
        for run in &self.runs {
            // A wrong answer or a crash is not a matter of limits.
            if run.cases.iter().any(|c| {
                !matches!(c.verdict, Some(Verdict::AC | Verdict::TLE)) || {
                    c.verdict == Some(Verdict::TLE) && run.reference.verdict == RealVerdict::AC
                }
            }) {
                return None;
            }
            match run.reference.verdict {
                RealVerdict::AC => low = low.max(run.worst() * m),
                RealVerdict::TLE => {
                    let top = run.worst() / m;
                    high = Some(high.map_or(top, |h: f64| h.min(top)));
                }
            }
        }
        match high {
            Some(h) if h <= low => None,
            _ => Some(Window { low, high }),
        }
    }

    /// A `time_scale` to suggest: the middle of the window (geometric),
    /// times the scale in force; just past its low end without a top.
    pub(crate) fn suggested_scale(&self) -> Option<f64> {
        let window = self.window(true).or_else(|| self.window(false))?;
        let factor = match window.high {
            Some(high) => (window.low.max(f64::MIN_POSITIVE) * high).sqrt(),
            None => window.low * 1.25,
        };
        Some(round2(factor * self.time_scale))
    }
}

fn round2(x: f64) -> f64 {
    let digits = 2 - x.abs().log10().ceil() as i32;
    let scale = 10f64.powi(digits.max(0));
    (x * scale).round() / scale
}

/// Collects what the judge reports of each case.
struct Collect<'a> {
    cases: Vec<CaseResult>,
    progress: &'a mut dyn FnMut(&OutsideName),
}

impl Reporter for Collect<'_> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        if let Event::CaseFinished(result) = event {
            (self.progress)(&result.id);
            self.cases.push(result.clone());
        }
        Ok(())
    }
}

/// Runs every reference of the suite in `dir` (its files read as `links`
/// allows) on its cases. `overrides`
/// are the command line's settings (`--time-scale`), `sandbox` the
/// protections the runs get; `progress` hears of each reference and case
/// as it starts and ends.
pub(crate) fn suite(
    dir: &Path,
    links: crate::files::OutsideLinks,
    overrides: &Settings,
    sandbox: Option<&Protections>,
    containment: &Containment,
    progress: &mut dyn FnMut(&OutsideName),
) -> anyhow::Result<Suite> {
    let references = settings::references(dir, links)?;
    anyhow::ensure!(
        !references.is_empty(),
        "{} lists no [[reference]]; nothing to calibrate (add `[[reference]]` entries with \
         `file` and `verdict = \"AC\"` or `\"TLE\"`)",
        dir.join(settings::SETTINGS_FILE).display()
    );
    let cases = Arc::new(crate::case::Suite::read(&[dir.to_path_buf()], links)?);
    let limits = cases
        .cases
        .iter()
        .map(|c| {
            let settings = c.settings.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?;
            overrides.clone().or(settings).checked_limits()
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let own = overrides
        .clone()
        .or(&SettingsCache::default().for_dir(dir, dir)?);
    let longest = limits.iter().map(|l| l.time).max().unwrap_or_default();
    let mut runs = Vec::with_capacity(references.len());
    for reference in references {
        progress(&format!("building {}", reference.file.display()).into());
        let submission = Submission::External(build(&reference, containment)?);
        let label = reference
            .file
            .file_name()
            .map_or_else(OutsideName::default, |n| {
                n.to_string_lossy().into_owned().into()
            });
        let config = judge::JudgeConfig {
            suite: Arc::clone(&cases),
            submission,
            build: None,
            judging: judge::Judging {
                overrides: Settings {
                    time_limit: Some(longest.mul_f64(MEASURE)),
                    time_scale: None,
                    ..overrides.clone()
                },
                selection: judge::Selection::default(),
                sandbox: sandbox.cloned(),
                repeat: 1,
                jobs: 1,
                // As the judge runs it: a LeetCode-style reference keeps one
                // process for its cases.
                fresh_process: false,
                fail_fast: false,
                containment: containment.clone(),
            },
        };
        progress(&format!("judging {}", label.as_raw()).into());
        let mut collect = Collect {
            cases: Vec::new(),
            progress: &mut *progress,
        };
        judge::run(&config, &mut collect)?;
        let measured = collect
            .cases
            .iter()
            .zip(&limits)
            .map(|(result, limits)| match &result.outcome {
                CaseOutcome::Judged(j) => Measured {
                    verdict: Some(j.verdict),
                    time: j.time,
                    limit: limits.time,
                    stopped: j.verdict == Verdict::TLE,
                },
                CaseOutcome::Error(_) => Measured {
                    verdict: None,
                    time: Duration::ZERO,
                    limit: limits.time,
                    stopped: false,
                },
            })
            .collect();
        runs.push(Run {
            reference,
            label,
            cases: measured,
        });
    }
    Ok(Suite {
        dir: dir.into(),
        case_ids: cases
            .cases
            .iter()
            .map(|c| c.case.id.as_str().into())
            .collect(),
        limit: own.limits().time,
        time_scale: own.time_scale.map_or(1.0, |t| t.factor()),
        problem: own.problem,
        runs,
    })
}

/// Builds `reference` from the judge's copy of the bytes hashed with the
/// suite's judge.toml, not from the file read again: its owner may have
/// changed it since.
fn build(reference: &Reference, containment: &Containment) -> anyhow::Result<lang::launch::Launch> {
    let source = reference
        .file
        .strip_prefix(&reference.held.programs().dir)
        .ok()
        .filter(|_| !reference.held.programs().files.is_empty())
        .map(|name| lang::copy_of(&reference.held).map(|copy| copy.join(name)))
        .transpose()?
        .unwrap_or_else(|| reference.file.clone());
    let options = lang::Options {
        containment: containment.clone(),
        ..Default::default()
    };
    let built = lang::build_as(&source, None, &options)
        .with_context(|| format!("failed to build {}", reference.file.display()))?;
    built.launch.with_context(|| {
        format!(
            "the reference {} does not compile: {}",
            reference.file.display(),
            built.info.error.as_deref().unwrap_or("")
        )
    })
}

/// Suites for the tests of calibration and of its report (in
/// [`crate::report::calibrate`], which assert both).
#[cfg(test)]
pub(crate) mod examples {
    use super::*;

    /// A reference with the real verdict `verdict`, taking `ms` on the
    /// cases; with `stopped`, times of 2.5 s or more were cut off there.
    pub(crate) fn run(verdict: RealVerdict, ms: &[u64], stopped: bool) -> Run {
        Run {
            reference: Reference {
                file: std::path::PathBuf::from("r.cpp"),
                verdict,
                held: Default::default(),
            },
            label: "r.cpp".into(),
            cases: ms
                .iter()
                .map(|&t| Measured {
                    verdict: Some(if stopped && t >= 2500 {
                        Verdict::TLE
                    } else {
                        Verdict::AC
                    }),
                    time: Duration::from_millis(t),
                    limit: Duration::from_secs(1),
                    stopped: stopped && t >= 2500,
                })
                .collect(),
        }
    }

    /// AcWing's two cases `a` and `b` at a limit of 1 s, judged by `runs`.
    pub(crate) fn suite(runs: Vec<Run>) -> Suite {
        Suite {
            dir: std::path::PathBuf::from("cases/acwing166").into(),
            case_ids: vec!["a".into(), "b".into()],
            limit: Duration::from_secs(1),
            time_scale: 1.0,
            problem: Some(Problem::Acwing166),
            runs,
        }
    }
}
