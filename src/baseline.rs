//! Comparison with an earlier run: what a change to a submission fixed,
//! broke, sped up or slowed down. The earlier run is a JSON report (`--json
//! FILE`, or the last run in this directory), read once before judging;
//! each case is matched by its id.
//!
//! A time is called changed only past the noise: by default when the two
//! differ by more than [`NOISE_RATIO`] and [`NOISE_FLOOR`] both (a guess at
//! how much one run of the same code varies on a shared machine); when both
//! runs were repeated (`--repeat N`, N of at least [`SPREAD_RUNS`]), when
//! the ranges of their repeated times do not overlap, which is what the
//! runs themselves say of their noise.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use serde::Serialize;

use crate::results::{CaseOutcome, CaseResult, Event, Reporter};
use crate::verdict::Verdict;
use crate::words::format_ms;

/// Without repeated runs, a time changes when the slower is more than this
/// many times the faster...
pub(crate) const NOISE_RATIO: f64 = 1.3;
/// ...and the two are more than this far apart (below it, the clocks and
/// the machine's load decide more than the code does).
pub(crate) const NOISE_FLOOR: Duration = Duration::from_millis(2);
/// Runs on both sides needed to judge a change by their spread instead.
pub(crate) const SPREAD_RUNS: usize = 3;

/// What an earlier run said of one case.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Earlier {
    /// `None` when the case could not be judged then.
    pub(crate) verdict: Option<Verdict>,
    /// The time charged (the median of its runs).
    pub(crate) time: Option<Duration>,
    /// Every run's charged time.
    pub(crate) runs: Vec<Duration>,
}

/// An earlier run, case by case.
#[derive(Clone, Debug, Default)]
pub(crate) struct Baseline {
    /// Where it came from, for the report: a file, or `the last run`.
    pub(crate) source: String,
    cases: HashMap<String, Earlier>,
}

/// How a case's time moved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Trend {
    /// By this factor (more than 1).
    Faster(f64),
    Slower(f64),
    /// Within the noise.
    Same,
    /// One of the two has no time (a case that could not be judged).
    Unknown,
}

/// One case set against the baseline.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Comparison {
    pub(crate) before: Earlier,
    pub(crate) now: Earlier,
    pub(crate) trend: Trend,
}

impl Comparison {
    /// Not accepted before, accepted now.
    pub(crate) fn fixed(&self) -> bool {
        self.before.verdict != Some(Verdict::AC) && self.now.verdict == Some(Verdict::AC)
    }

    /// Accepted before, not any more.
    pub(crate) fn broken(&self) -> bool {
        self.before.verdict == Some(Verdict::AC) && self.now.verdict != Some(Verdict::AC)
    }

    /// The verdict's change, `TLE → AC`, when it changed.
    pub(crate) fn verdict_change(&self) -> Option<String> {
        (self.before.verdict != self.now.verdict)
            .then(|| format!("{} → {}", code(self.before.verdict), code(self.now.verdict)))
    }

    /// The time's change past the noise: `1320 ms → 410 ms, 3.2x faster`.
    pub(crate) fn time_change(&self) -> Option<String> {
        let (Some(before), Some(now)) = (self.before.time, self.now.time) else {
            return None;
        };
        // A time within the clock's resolution (0 ms) makes any ratio.
        let factor = |x: f64| {
            if x >= 100.0 {
                "more than 100x".to_string()
            } else {
                format!("{x:.1}x")
            }
        };
        let what = match self.trend {
            Trend::Faster(x) => format!("{} faster", factor(x)),
            Trend::Slower(x) => format!("{} slower", factor(x)),
            Trend::Same | Trend::Unknown => return None,
        };
        // In the table's own units, so a change reads as the time column
        // does: `3.06 ms → 1140 ms`, never `0.00 s`.
        Some(format!(
            "{} → {}, {what}",
            format_ms(before),
            format_ms(now)
        ))
    }

    /// What changed, in one note: `TLE → AC; 1320 ms → 410 ms, 3.2x
    /// faster`; empty when nothing did.
    pub(crate) fn describe(&self) -> String {
        [self.verdict_change(), self.time_change()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join("; ")
    }
}

fn code(verdict: Option<Verdict>) -> &'static str {
    verdict.map_or("ERROR", Verdict::code)
}

/// Whether `now` moved from `before`, past the noise (see the module's
/// documentation).
pub(crate) fn trend(before: &Earlier, now: &Earlier) -> Trend {
    // A submission that did not compile never ran: it has no time.
    if before.verdict == Some(Verdict::CE) || now.verdict == Some(Verdict::CE) {
        return Trend::Unknown;
    }
    let (Some(old), Some(new)) = (before.time, now.time) else {
        return Trend::Unknown;
    };
    let ratio = |slow: Duration, fast: Duration| slow.as_secs_f64() / fast.as_secs_f64().max(1e-9);
    let spread = before.runs.len() >= SPREAD_RUNS && now.runs.len() >= SPREAD_RUNS;
    if spread {
        let range = |runs: &[Duration]| {
            (
                runs.iter().min().copied().unwrap_or_default(),
                runs.iter().max().copied().unwrap_or_default(),
            )
        };
        let (old_min, old_max) = range(&before.runs);
        let (new_min, new_max) = range(&now.runs);
        if new_min > old_max {
            Trend::Slower(ratio(new, old))
        } else if new_max < old_min {
            Trend::Faster(ratio(old, new))
        } else {
            Trend::Same
        }
    } else if new > old && new - old > NOISE_FLOOR && ratio(new, old) > NOISE_RATIO {
        Trend::Slower(ratio(new, old))
    } else if old > new && old - new > NOISE_FLOOR && ratio(old, new) > NOISE_RATIO {
        Trend::Faster(ratio(old, new))
    } else {
        Trend::Same
    }
}

/// What a result says of its case, as a baseline would keep it.
pub(crate) fn earlier_of(result: &CaseResult) -> Earlier {
    match &result.outcome {
        CaseOutcome::Judged(j) => Earlier {
            verdict: Some(j.verdict),
            time: Some(j.time),
            runs: j.run_times.clone(),
        },
        CaseOutcome::Error(_) => Earlier {
            verdict: None,
            time: None,
            runs: Vec::new(),
        },
    }
}

impl Baseline {
    /// Reads a JSON report written by `--json FILE` (or `--format json`).
    pub(crate) fn load(path: &Path, source: impl Into<String>) -> anyhow::Result<Baseline> {
        // Through the file door: a regular file with one link, bounded.
        let text = crate::files::read_text(path, "baseline", crate::state::MAX_RECORD_BYTES)
            .context("failed to read the baseline")?;
        Self::from_text(&text, path, source)
    }

    /// [`Self::load`] of a report already read from `path`.
    pub(crate) fn from_text(
        text: &str,
        path: &Path,
        source: impl Into<String>,
    ) -> anyhow::Result<Baseline> {
        Self::parse(text, source).with_context(|| {
            format!(
                "{} is not a report of sudoku-judge; write one with `sudoku-judge test ... --json \
                 FILE` and pass that FILE to --baseline",
                path.display()
            )
        })
    }

    fn parse(text: &str, source: impl Into<String>) -> anyhow::Result<Baseline> {
        let report: serde_json::Value = serde_json::from_str(text)?;
        let cases = report
            .get("cases")
            .and_then(|c| c.as_array())
            .context("it has no `cases` array")?;
        let ms = |v: &serde_json::Value| {
            v.as_f64()
                .filter(|ms| ms.is_finite() && *ms >= 0.0)
                .map(|ms| Duration::from_secs_f64(ms / 1000.0))
        };
        let mut baseline = Baseline {
            source: source.into(),
            cases: HashMap::new(),
        };
        for case in cases {
            let id = case
                .get("id")
                .and_then(|id| id.as_str())
                .context("a case has no `id`")?;
            let verdict = case
                .get("verdict")
                .and_then(|v| v.as_str())
                .and_then(|code| Verdict::ALL.into_iter().find(|v| v.code() == code));
            let runs = case
                .get("runs_ms")
                .and_then(|r| r.as_array())
                .map(|r| r.iter().filter_map(ms).collect())
                .unwrap_or_default();
            baseline.cases.insert(
                id.to_string(),
                Earlier {
                    verdict,
                    time: case.get("time_ms").and_then(ms),
                    runs,
                },
            );
        }
        Ok(baseline)
    }

    /// The case set against its earlier run; `None` when the baseline
    /// does not hold it (a new case).
    pub(crate) fn compare(&self, result: &CaseResult) -> Option<Comparison> {
        let before = self.cases.get(result.id.as_raw())?.clone();
        let now = earlier_of(result);
        let trend = trend(&before, &now);
        Some(Comparison { before, now, trend })
    }
}

/// The changes of a whole run, for its summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct ChangeTally {
    pub(crate) fixed: usize,
    pub(crate) broken: usize,
    pub(crate) faster: usize,
    pub(crate) slower: usize,
    /// Compared, and neither the verdict nor the time changed.
    pub(crate) unchanged: usize,
    /// Not in the baseline.
    pub(crate) new: usize,
}

impl ChangeTally {
    pub(crate) fn add(&mut self, comparison: Option<&Comparison>) {
        let Some(c) = comparison else {
            self.new += 1;
            return;
        };
        self.fixed += usize::from(c.fixed());
        self.broken += usize::from(c.broken());
        match c.trend {
            Trend::Faster(_) => self.faster += 1,
            Trend::Slower(_) => self.slower += 1,
            Trend::Same | Trend::Unknown => {}
        }
        if c.before.verdict == c.now.verdict && matches!(c.trend, Trend::Same | Trend::Unknown) {
            self.unchanged += 1;
        }
    }

    /// `1 fixed, 0 broken, 2 faster, 0 slower, 5 unchanged, 1 new`.
    pub(crate) fn describe(&self) -> String {
        let mut text = format!(
            "{} fixed, {} broken, {} faster, {} slower, {} unchanged",
            self.fixed, self.broken, self.faster, self.slower, self.unchanged
        );
        if self.new > 0 {
            text.push_str(&format!(", {} new", self.new));
        }
        text
    }
}

/// Keeps what each case of a run says, to compare the next run with (the
/// watch loop's).
pub(crate) struct Recorder {
    into: Arc<Mutex<Baseline>>,
}

impl Recorder {
    /// A recorder, and where the run it hears ends up.
    pub(crate) fn new(source: impl Into<String>) -> (Recorder, Arc<Mutex<Baseline>>) {
        let into = Arc::new(Mutex::new(Baseline {
            source: source.into(),
            cases: HashMap::new(),
        }));
        (
            Recorder {
                into: Arc::clone(&into),
            },
            into,
        )
    }
}

impl Reporter for Recorder {
    fn report(&mut self, event: Event<'_>) -> std::io::Result<()> {
        if let Event::CaseFinished(result) = event {
            let mut baseline = self.into.lock().unwrap_or_else(|e| e.into_inner());
            baseline
                .cases
                .insert(result.id.as_raw().to_string(), earlier_of(result));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn earlier(verdict: Verdict, runs_ms: &[u64]) -> Earlier {
        let runs: Vec<Duration> = runs_ms
            .iter()
            .map(|&ms| Duration::from_millis(ms))
            .collect();
        Earlier {
            verdict: Some(verdict),
            time: crate::stats::Spread::of(&runs).map(|s| s.median),
            runs,
        }
    }

    #[test]
    fn a_single_run_changes_only_past_the_guessed_noise() {
        let t = |a: u64, b: u64| trend(&earlier(Verdict::AC, &[a]), &earlier(Verdict::AC, &[b]));
        assert_eq!(t(100, 120), Trend::Same, "20% is noise");
        assert_eq!(t(1, 2), Trend::Same, "1 ms is below the floor");
        assert!(matches!(t(100, 200), Trend::Slower(x) if (x - 2.0).abs() < 1e-9));
        assert!(matches!(t(1320, 410), Trend::Faster(x) if (x - 3.22).abs() < 0.01));
    }

    #[test]
    fn repeated_runs_use_their_own_spread() {
        let before = earlier(Verdict::AC, &[100, 101, 102]);
        // 5% slower, but every run slower than every earlier one.
        let steady = earlier(Verdict::AC, &[105, 106, 107]);
        assert!(matches!(trend(&before, &steady), Trend::Slower(_)));
        // Twice as slow at the median, but the ranges overlap.
        let noisy = earlier(Verdict::AC, &[90, 200, 300]);
        assert_eq!(trend(&before, &noisy), Trend::Same);
    }

    #[test]
    fn changes_are_described_and_tallied() {
        let comparison = Comparison {
            before: earlier(Verdict::TLE, &[1320]),
            now: earlier(Verdict::AC, &[410]),
            trend: trend(
                &earlier(Verdict::TLE, &[1320]),
                &earlier(Verdict::AC, &[410]),
            ),
        };
        assert_eq!(
            comparison.describe(),
            "TLE → AC; 1320 ms → 410 ms, 3.2x faster"
        );
        assert!(comparison.fixed() && !comparison.broken());
        let compiled = Comparison {
            before: earlier(Verdict::CE, &[0]),
            now: earlier(Verdict::AC, &[88]),
            trend: trend(&earlier(Verdict::CE, &[0]), &earlier(Verdict::AC, &[88])),
        };
        assert_eq!(compiled.describe(), "CE → AC", "a CE never ran: no time");
        let instant = Comparison {
            before: earlier(Verdict::AC, &[0]),
            now: earlier(Verdict::AC, &[5]),
            trend: trend(&earlier(Verdict::AC, &[0]), &earlier(Verdict::AC, &[5])),
        };
        assert_eq!(
            instant.describe(),
            "0.000 ms → 5.00 ms, more than 100x slower"
        );
        let mut tally = ChangeTally::default();
        tally.add(Some(&comparison));
        tally.add(None);
        assert_eq!(
            tally.describe(),
            "1 fixed, 0 broken, 1 faster, 0 slower, 0 unchanged, 1 new"
        );
    }

    #[test]
    fn small_times_read_in_the_tables_units() {
        let before = Earlier {
            verdict: Some(Verdict::AC),
            time: Some(Duration::from_micros(3_060)),
            runs: vec![Duration::from_micros(3_060)],
        };
        let now = earlier(Verdict::TLE, &[1140]);
        let comparison = Comparison {
            trend: trend(&before, &now),
            before,
            now,
        };
        assert_eq!(
            comparison.describe(),
            "AC → TLE; 3.06 ms → 1140 ms, more than 100x slower"
        );
    }

    #[test]
    fn a_report_is_read_back_by_case_id() {
        let text = r#"{"cases": [
            {"id": "a", "verdict": "AC", "time_ms": 12.5, "runs_ms": [12.5]},
            {"id": "b", "verdict": null, "time_ms": null, "runs_ms": []}
        ]}"#;
        let baseline = Baseline::parse(text, "r.json").unwrap();
        assert_eq!(baseline.cases.len(), 2);
        assert_eq!(baseline.cases["a"].verdict, Some(Verdict::AC));
        assert_eq!(
            baseline.cases["a"].time,
            Some(Duration::from_micros(12_500))
        );
        assert_eq!(baseline.cases["b"].verdict, None);
        assert!(Baseline::parse("{}", "x").is_err());
    }
}
