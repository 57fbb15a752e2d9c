//! The machine-readable report: one JSON document for the whole run. It is
//! written as the run goes, each case when it is judged and the totals at
//! the end, so that nothing of a finished case has to be kept.

use std::io::{self, Write};
use std::sync::Arc;

use serde::Serialize;

use crate::baseline::{Baseline, ChangeTally, Comparison, Trend};
use crate::outside::{Outside, OutsideName, OutsidePath};
use crate::results::{CaseOutcome, CaseResult};
use crate::results::{Event, Reporter};
use crate::runner::lang::BuildInfo;
use crate::runner::lang::Interface;
use crate::stats::Spread;
use crate::verdict::Verdict;

pub(crate) struct JsonReporter<W> {
    out: W,
    /// Cases written so far.
    cases: usize,
    /// An earlier run each case is compared with (`--baseline`).
    baseline: Option<Arc<Baseline>>,
    tally: ChangeTally,
}

impl<W: Write> JsonReporter<W> {
    pub(crate) fn new(out: W) -> Self {
        Self {
            out,
            cases: 0,
            baseline: None,
            tally: ChangeTally::default(),
        }
    }

    /// Records, for each case, the baseline's verdict and time, and the
    /// changes in the totals.
    pub(crate) fn with_baseline(mut self, baseline: Option<Arc<Baseline>>) -> Self {
        self.baseline = baseline;
        self
    }
}

/// A case as the baseline had it, and how its time moved.
#[derive(Serialize)]
struct BaselineCaseJson {
    verdict: Option<Verdict>,
    time_ms: Option<f64>,
    runs_ms: Vec<f64>,
    /// `faster`, `slower`, `same` (within the noise) or `null` (no time on
    /// one side).
    time_change: Option<&'static str>,
}

impl BaselineCaseJson {
    fn of(c: &Comparison) -> Self {
        BaselineCaseJson {
            verdict: c.before.verdict,
            time_ms: c.before.time.map(millis),
            runs_ms: c.before.runs.iter().copied().map(millis).collect(),
            time_change: match c.trend {
                Trend::Faster(_) => Some("faster"),
                Trend::Slower(_) => Some("slower"),
                Trend::Same => Some("same"),
                Trend::Unknown => None,
            },
        }
    }
}

/// The totals of the comparison with a baseline.
#[derive(Serialize)]
struct ChangesJson<'a> {
    source: &'a str,
    #[serde(flatten)]
    tally: ChangeTally,
}

/// `value` pretty-printed, its lines after the first indented by `indent`
/// spaces, to sit inside the document at that depth.
fn nested(value: &impl Serialize, indent: usize) -> io::Result<String> {
    let text = serde_json::to_string_pretty(value)?;
    Ok(text.replace('\n', &format!("\n{}", " ".repeat(indent))))
}

fn millis(d: std::time::Duration) -> f64 {
    // Microsecond precision is all a timing here can honestly claim.
    (d.as_secs_f64() * 1_000_000.0).round() / 1000.0
}

#[derive(Serialize)]
struct PuzzleMs {
    min: f64,
    median: f64,
    max: f64,
}

impl From<Spread> for PuzzleMs {
    fn from(s: Spread) -> Self {
        Self {
            min: millis(s.min),
            median: millis(s.median),
            max: millis(s.max),
        }
    }
}

/// The slowest puzzle of a case.
#[derive(Serialize)]
struct SlowestJson {
    puzzle: usize,
    line: usize,
    ms: f64,
}

#[derive(Default, Serialize)]
struct CaseJson<'a> {
    id: OutsideName,
    path: OutsidePath,
    expected_path: Option<OutsidePath>,
    /// `null` when the case could not be judged; `error` says why.
    verdict: Option<Verdict>,
    /// Why, in a sentence, as the failure's block says it.
    message: Outside,
    /// Why, in a few words, as the case's row says it.
    short_message: OutsideName,
    /// Why, as data: `kind` and its fields (see `reason.rs`); `null` for a
    /// case that could not be judged.
    reason: Option<crate::reason::Reason>,
    /// It fails after this many earlier cases in its process, and passes
    /// alone: it keeps state between tests.
    kept_state_after: Option<usize>,
    details: Outside,
    time_ms: Option<f64>,
    time_limit_ms: Option<f64>,
    limit_percent: Option<f64>,
    runs_ms: Vec<f64>,
    puzzles: Option<usize>,
    puzzle_ms: Option<PuzzleMs>,
    /// How many puzzles `puzzle_ms` timed one by one: all, or fewer when a
    /// program's answers arrived together.
    puzzles_timed: Option<usize>,
    slowest_puzzle: Option<SlowestJson>,
    wall_ms: Option<f64>,
    cpu_ms: Option<f64>,
    memory_kb: Option<u64>,
    memory_limit_kb: Option<u64>,
    format: Option<&'static str>,
    checker: Option<&'static str>,
    warnings: &'a [Outside],
    notes: &'a [Outside],
    /// What a LeetCode-style submission printed itself.
    stdout: Outside,
    /// The end of what the submission wrote to stderr.
    stderr: Outside,
    error: Option<Outside>,
    /// The case in the baseline (`--baseline`); `null` without one, or
    /// when the baseline does not hold the case.
    baseline: Option<BaselineCaseJson>,
}

impl<'a> CaseJson<'a> {
    fn of(result: &'a CaseResult) -> Self {
        let mut json = CaseJson {
            id: result.id.clone(),
            path: result.input.clone(),
            expected_path: result.expected.clone(),
            ..CaseJson::default()
        };
        match &result.outcome {
            CaseOutcome::Error(error) => {
                let message = super::reason_words::unjudged(error);
                json.message = message.clone();
                json.error = Some(message);
            }
            CaseOutcome::Judged(j) => {
                json.verdict = Some(j.verdict);
                json.message = super::reason_words::sentence(j);
                json.short_message = super::reason_words::short(j);
                // Its fields hold what the run said: escaped as the
                // other texts are.
                let mut reason = j.reason.clone();
                for text in reason.texts_mut() {
                    *text = Outside::new(&*text).terminal().to_string();
                }
                json.reason = Some(reason);
                json.kept_state_after = j.kept_state_after;
                json.details = j.details.clone();
                json.time_ms = Some(millis(j.time));
                json.time_limit_ms = Some(millis(j.limits.time));
                json.limit_percent = Some((j.limit_percent() * 10.0).round() / 10.0);
                json.runs_ms = j.run_times.iter().copied().map(millis).collect();
                json.puzzles = Some(j.puzzles);
                json.puzzle_ms = j.puzzle_times.map(PuzzleMs::from);
                json.puzzles_timed = j.puzzle_times.map(|_| j.puzzles_timed);
                json.slowest_puzzle = j.slowest.map(|s| SlowestJson {
                    puzzle: s.puzzle,
                    line: s.line,
                    ms: millis(s.time),
                });
                json.wall_ms = Some(millis(j.wall));
                json.cpu_ms = Some(millis(j.cpu));
                json.memory_kb = Some(j.memory_kb);
                json.memory_limit_kb = Some(j.limits.memory_kb);
                json.format = Some(j.format.name());
                json.checker = Some(j.checker.name());
                json.warnings = &j.warnings;
                json.notes = &j.notes;
                json.stdout = j.stdout.clone();
                json.stderr = j.stderr.clone();
            }
        }
        json
    }
}

#[derive(Clone, Debug, Serialize)]
struct BuildJson {
    source: OutsidePath,
    language: String,
    interface: &'static str,
    command: Outside,
    cached: bool,
    time_ms: f64,
    error: Option<Outside>,
    /// The tools used: as named, their program, version and why taken.
    toolchain: Vec<ToolJson>,
    /// What the compiler lacks of the standard the judge builds with.
    short_of: Option<Outside>,
}

#[derive(Clone, Debug, Serialize)]
struct ToolJson {
    name: OutsideName,
    program: OutsidePath,
    version: OutsideName,
    origin: Outside,
}

impl BuildJson {
    fn of(build: &BuildInfo) -> Self {
        BuildJson {
            source: OutsidePath::new(&build.source),
            language: build.language.to_string(),
            interface: match build.interface {
                Interface::Program => "program",
                Interface::Function => "leetcode",
            },
            command: Outside::new(&build.command),
            cached: build.cached,
            time_ms: millis(build.time),
            error: build.error.as_deref().map(Outside::from),
            toolchain: build
                .toolchain
                .iter()
                .map(|t| ToolJson {
                    name: OutsideName::new(&t.name),
                    program: OutsidePath::new(&t.program),
                    version: OutsideName::new(&t.version),
                    origin: Outside::new(&t.origin),
                })
                .collect(),
            short_of: build.short_of.as_deref().map(Outside::from),
        }
    }
}

/// The totals, after the cases.
#[derive(Serialize)]
struct TotalsJson<'a> {
    interrupted: bool,
    passed: usize,
    failed: usize,
    errors: usize,
    total: usize,
    elapsed_ms: f64,
    /// The time charged over every case: the run's total solving time.
    charged_ms: f64,
    /// The cases not run after the first one not accepted
    /// (`--fail-fast`), by id.
    not_run: Vec<&'a OutsideName>,
    /// The changes since the baseline (`--baseline`), or `null`.
    baseline: Option<ChangesJson<'a>>,
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        match event {
            Event::Started {
                submission,
                build,
                sandbox,
                warnings,
                ..
            } => {
                write!(
                    self.out,
                    "{{\n  \"submission\": {},\n  \"build\": {},\n  \"sandbox\": {},\n  \"warnings\": {},\n  \"cases\": [",
                    serde_json::to_string(&OutsideName::new(submission))?,
                    nested(&build.map(BuildJson::of), 2)?,
                    nested(&sandbox, 2)?,
                    nested(
                        &warnings,
                        2
                    )?,
                )?;
            }
            Event::CaseFinished(result) => {
                let separator = if self.cases == 0 { "" } else { "," };
                let mut json = CaseJson::of(result);
                if let Some(baseline) = &self.baseline {
                    let comparison = baseline.compare(result);
                    self.tally.add(comparison.as_ref());
                    json.baseline = comparison.as_ref().map(BaselineCaseJson::of);
                }
                write!(self.out, "{separator}\n    {}", nested(&json, 4)?)?;
                self.cases += 1;
            }
            Event::Answered(_) => {}
            Event::Finished { summary } => {
                let totals = TotalsJson {
                    interrupted: summary.interrupted,
                    passed: summary.passed,
                    failed: summary.failed,
                    errors: summary.errors,
                    total: summary.total,
                    elapsed_ms: millis(summary.elapsed),
                    charged_ms: millis(summary.charged),
                    not_run: summary.not_run.iter().map(|case| &case.id).collect(),
                    baseline: self.baseline.as_ref().map(|b| ChangesJson {
                        source: &b.source,
                        tally: self.tally,
                    }),
                };
                let totals = nested(&totals, 0)?;
                let fields = totals
                    .trim_start_matches('{')
                    .trim_end_matches('}')
                    .trim_end();
                let close = if self.cases == 0 { "]" } else { "\n  ]" };
                writeln!(self.out, "{close},{fields}\n}}")?;
                self.out.flush()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{every_verdict, report_run};

    fn render(results: &[CaseResult]) -> serde_json::Value {
        let mut out = Vec::new();
        report_run(&mut JsonReporter::new(&mut out), results);
        let text = String::from_utf8(out).unwrap();
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"))
    }

    #[test]
    fn the_document_written_piece_by_piece_is_one_json_value() {
        let results = every_verdict();
        let json = render(&results);
        assert_eq!(json["submission"], "solver mrv");
        assert_eq!(json["build"], serde_json::Value::Null);
        let cases = json["cases"].as_array().unwrap();
        assert_eq!(cases.len(), results.len());
        assert_eq!(cases[0]["verdict"], "AC");
        assert_eq!(cases[1]["verdict"], "WA");
        assert_eq!(cases[1]["details"], "the answer:\n  (grid diff here)\n");
        assert_eq!(cases.last().unwrap()["verdict"], serde_json::Value::Null);
        assert_eq!(json["passed"], 1);
        assert_eq!(json["failed"], results.len() - 1);
        assert_eq!(json["errors"], 1);
        assert_eq!(json["elapsed_ms"], 1500.0);

        let empty = render(&[]);
        assert_eq!(empty["cases"], serde_json::json!([]));
        assert_eq!(empty["total"], 0);
    }
}
