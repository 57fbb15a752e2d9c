//! The report people read: a fixed-width line per case as it finishes, the
//! failures explained under the table, and a summary that closes with
//! `N passed, M failed` alone on its line, as test runners do.
//!
//! Colour marks the verdicts only, so everything stays readable without it.

use std::io::{self, Write};

use anstyle::{AnsiColor, Style};

use super::{format_kb, format_ms, Event, Reporter};
use crate::judge::{CaseResult, Judgement, Outcome, Summary};
use crate::runner::lang::BuildInfo;
use crate::verdict::Verdict;

pub struct HumanReporter<W> {
    out: W,
    color: bool,
    /// Command-line options that rerun the same submission, for hints.
    rerun_options: String,
    /// The failures described under the table, at most [`DESCRIBED`].
    failures: Vec<CaseResult>,
    /// Failures beyond those.
    more_failures: usize,
}

/// At most this many failures are described in full under the table; the
/// rest are on their lines in the table, and in the JSON and JUnit reports.
const DESCRIBED: usize = 50;

/// Longest reason shown on a case's line; the full one is under the table.
const REASON_WIDTH: usize = 72;

impl<W: Write> HumanReporter<W> {
    pub fn new(out: W, color: bool, rerun_options: impl Into<String>) -> Self {
        Self {
            out,
            color,
            rerun_options: rerun_options.into(),
            failures: Vec::new(),
            more_failures: 0,
        }
    }

    fn paint(&self, style: Style, text: &str) -> String {
        if self.color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    fn verdict_style(verdict: Option<Verdict>) -> Style {
        let color = match verdict {
            Some(Verdict::AC) => AnsiColor::Green,
            Some(Verdict::TLE | Verdict::MLE | Verdict::OLE) => AnsiColor::Yellow,
            Some(Verdict::RE | Verdict::CE) => AnsiColor::Magenta,
            Some(Verdict::WA | Verdict::PE) | None => AnsiColor::Red,
        };
        Style::new().fg_color(Some(color.into())).bold()
    }

    fn code(&self, verdict: Option<Verdict>) -> String {
        let code = verdict.map_or("ERROR", Verdict::code);
        self.paint(Self::verdict_style(verdict), &format!("{code:<5}"))
    }

    fn case_line(&mut self, result: &CaseResult) -> io::Result<()> {
        let code = self.code(result.verdict());
        match &result.outcome {
            Outcome::Error(error) => {
                let first = error.lines().next().unwrap_or_default();
                writeln!(
                    self.out,
                    "{code} {:>9} {:>6} {:>9} {:>9} {:>8}  {}",
                    "-", "-", "-", "-", "-", result.id
                )?;
                writeln!(self.out, "      {}", shorten(first, REASON_WIDTH + 20))?;
            }
            Outcome::Judged(j) if j.verdict == Verdict::CE => {
                writeln!(
                    self.out,
                    "{code} {:>9} {:>6} {:>9} {:>9} {:>8}  {}  {}",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    result.id,
                    shorten(&j.reason, REASON_WIDTH)
                )?;
            }
            Outcome::Judged(j) => {
                let time = format_ms(j.time);
                let percent = format!("{:.0}%", j.limit_percent().min(999.0));
                let note = if j.verdict == Verdict::AC {
                    accepted_note(j)
                } else {
                    shorten(&j.reason, REASON_WIDTH)
                };
                writeln!(
                    self.out,
                    "{code} {time:>9} {percent:>6} {:>9} {:>9} {:>8}  {}  {note}",
                    format_ms(j.cpu),
                    format_ms(j.wall),
                    format_kb(j.memory_kb),
                    result.id
                )?;
                for warning in &j.warnings {
                    writeln!(self.out, "      warning: {warning}")?;
                }
            }
        }
        Ok(())
    }

    fn failure(&mut self, result: &CaseResult) -> io::Result<()> {
        let code = self.code(result.verdict());
        writeln!(self.out, "{} {}", code.trim_end(), result.id)?;
        writeln!(self.out, "  input:    {}", result.input.display())?;
        if let Some(expected) = &result.expected {
            writeln!(self.out, "  expected: {}", expected.display())?;
        }
        match &result.outcome {
            Outcome::Error(error) => {
                writeln!(self.out, "  error:    {error}")?;
                writeln!(
                    self.out,
                    "  hint:     fix the case files; `sudoku-judge test {}` rechecks this case alone",
                    result.input.display()
                )?;
            }
            Outcome::Judged(j) => {
                writeln!(self.out, "  verdict:  {}", j.verdict.name())?;
                writeln!(self.out, "  why:      {}", j.reason)?;
                writeln!(
                    self.out,
                    "  measured: {} of {} ({:.0}%), cpu {}, memory {} of {}",
                    format_ms(j.time),
                    format_ms(j.limits.time),
                    j.limit_percent(),
                    format_ms(j.cpu),
                    format_kb(j.memory_kb),
                    format_kb(j.limits.memory_kb)
                )?;
                for line in j.details.lines() {
                    writeln!(self.out, "  {line}")?;
                }
                if !j.stdout.is_empty() {
                    writeln!(self.out, "  its own stdout (not part of the answers):")?;
                    self.excerpt(&j.stdout)?;
                }
                if !j.stderr.trim().is_empty() && !j.details.contains(j.stderr.trim_end()) {
                    writeln!(self.out, "  stderr (the end of it):")?;
                    self.excerpt(&j.stderr)?;
                }
                let options = if self.rerun_options.is_empty() {
                    String::new()
                } else {
                    format!(" {}", self.rerun_options)
                };
                writeln!(
                    self.out,
                    "  rerun:    sudoku-judge test {}{options}",
                    result.input.display()
                )?;
            }
        }
        writeln!(self.out)
    }

    /// How the submission was built: once, above the table.
    fn build(&mut self, build: &BuildInfo) -> io::Result<()> {
        let source = build.source.display();
        match (&build.error, build.command.is_empty(), build.cached) {
            (Some(error), _, _) => {
                writeln!(self.out, "{source} did not compile:")?;
                if !build.command.is_empty() {
                    writeln!(self.out, "  $ {}", build.command)?;
                }
                for line in error.lines() {
                    writeln!(self.out, "  {line}")?;
                }
                writeln!(self.out)
            }
            (None, true, _) => Ok(()),
            (None, false, true) => writeln!(
                self.out,
                "using the cached build of {source} ({})",
                build.command
            ),
            (None, false, false) => writeln!(
                self.out,
                "compiled {source} in {:.2} s: {}",
                build.time.as_secs_f64(),
                build.command
            ),
        }
    }

    /// The first lines of what a submission printed, indented.
    fn excerpt(&mut self, text: &str) -> io::Result<()> {
        const SHOWN: usize = 20;
        let lines: Vec<&str> = text.lines().collect();
        for line in lines.iter().take(SHOWN) {
            writeln!(self.out, "    {}", shorten(line, 200))?;
        }
        if lines.len() > SHOWN {
            writeln!(self.out, "    ... {} more lines", lines.len() - SHOWN)?;
        }
        Ok(())
    }

    fn summary(&mut self, summary: &Summary) -> io::Result<()> {
        let counts: Vec<String> = summary
            .verdicts
            .iter()
            .map(|(v, n)| format!("{n} {v}"))
            .chain((summary.errors > 0).then(|| format!("{} could not be judged", summary.errors)))
            .collect();
        writeln!(
            self.out,
            "{} case{} in {:.2} s: {}",
            summary.total,
            if summary.total == 1 { "" } else { "s" },
            summary.elapsed.as_secs_f64(),
            counts.join(", ")
        )?;
        if summary.interrupted {
            writeln!(self.out, "interrupted: only the cases above were judged")?;
        }
        writeln!(
            self.out,
            "{} passed, {} failed",
            summary.passed, summary.failed
        )
    }
}

/// For an accepted case: the puzzle count and, for several, their spread.
fn accepted_note(j: &Judgement) -> String {
    let note = puzzles_note(j);
    match j.stdout_lines {
        0 => note,
        n => format!(
            "{note}; printed {n} line{} of its own",
            if n == 1 { "" } else { "s" }
        ),
    }
}

fn puzzles_note(j: &Judgement) -> String {
    match (j.puzzles, j.puzzle_times) {
        (n, Some(spread)) => format!(
            "{n} puzzles, each {}–{} (median {})",
            format_ms(spread.min).trim_end_matches(" ms"),
            format_ms(spread.max),
            format_ms(spread.median)
        ),
        (1, None) => String::from("1 puzzle"),
        (n, None) => format!("{n} puzzles"),
    }
}

fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let cut: String = text.chars().take(width - 1).collect();
        format!("{cut}…")
    }
}

impl<W: Write> Reporter for HumanReporter<W> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        match event {
            Event::Started {
                cases,
                submission,
                build,
                jobs,
                time_scales,
            } => {
                if let Some(build) = build {
                    self.build(build)?;
                }
                let parallel = if jobs > 1 {
                    format!(", {jobs} at a time (wall times are taken under load)")
                } else {
                    String::new()
                };
                let scaled: Vec<String> = time_scales.iter().map(|f| format!("{f}")).collect();
                let scaled = match scaled.len() {
                    0 => String::new(),
                    _ => format!(", time limits x {} (time_scale)", scaled.join(", x ")),
                };
                writeln!(
                    self.out,
                    "judging {cases} case{} with {submission}{parallel}{scaled}",
                    if cases == 1 { "" } else { "s" }
                )?;
                let header = format!(
                    "{:<5} {:>9} {:>6} {:>9} {:>9} {:>8}  case",
                    "", "time", "%limit", "cpu", "wall", "memory"
                );
                writeln!(self.out, "{}", self.paint(Style::new().dimmed(), &header))?;
            }
            Event::CaseFinished(result) => {
                self.case_line(result)?;
                self.out.flush()?;
                // A compile error is the same for every case: it was shown once, above.
                if !result.passed() && result.verdict() != Some(Verdict::CE) {
                    if self.failures.len() < DESCRIBED {
                        self.failures.push(result.clone());
                    } else {
                        self.more_failures += 1;
                    }
                }
            }
            Event::Finished { summary } => {
                let failures = std::mem::take(&mut self.failures);
                if !failures.is_empty() {
                    writeln!(self.out, "\nfailures:\n")?;
                    for result in &failures {
                        self.failure(result)?;
                    }
                    if self.more_failures > 0 {
                        writeln!(
                            self.out,
                            "... and {} more failures, on their lines above; `--failed` reruns \
                             them all, and `--json FILE` or `--junit FILE` describes every one\n",
                            self.more_failures
                        )?;
                    }
                } else {
                    writeln!(self.out)?;
                }
                self.summary(summary)?;
                self.out.flush()?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{every_verdict, judged, report_run};
    use std::path::PathBuf;
    use std::time::Duration;

    /// Every verdict's line, the failure blocks and the summary, in one
    /// snapshot. Timings are fixed in the fixture, never measured.
    #[test]
    fn renders_every_verdict() {
        let results = every_verdict();
        let mut out = Vec::new();
        report_run(
            &mut HumanReporter::new(&mut out, false, "--solver mrv"),
            &results,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("\n1 passed, 8 failed\n"), "{text}");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn only_the_first_failures_are_described_in_full() {
        let results: Vec<CaseResult> = (0..DESCRIBED + 3)
            .map(|n| CaseResult {
                id: format!("c{n}"),
                suite: PathBuf::from("."),
                input: PathBuf::from(format!("c{n}.in")),
                expected: None,
                outcome: judged(Verdict::WA, "r1c3 is empty", 1),
            })
            .collect();
        let mut out = Vec::new();
        let mut reporter = HumanReporter::new(&mut out, false, "");
        for result in &results {
            reporter.report(Event::CaseFinished(result)).unwrap();
        }
        let summary = Summary::of(&results, Duration::from_millis(5));
        reporter
            .report(Event::Finished { summary: &summary })
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("  verdict:  Wrong Answer").count(), DESCRIBED);
        assert!(
            text.contains("... and 3 more failures, on their lines above"),
            "{text}"
        );
        assert!(text.ends_with("0 passed, 53 failed\n"), "{text}");
    }

    #[test]
    fn colour_only_when_asked() {
        let result = CaseResult {
            id: "a".into(),
            suite: PathBuf::from("."),
            input: PathBuf::from("a.in"),
            expected: None,
            outcome: judged(Verdict::AC, "", 1),
        };
        let render = |color| {
            let mut out = Vec::new();
            HumanReporter::new(&mut out, color, "")
                .report(Event::CaseFinished(&result))
                .unwrap();
            String::from_utf8(out).unwrap()
        };
        assert!(!render(false).contains('\u{1b}'));
        assert!(render(true).contains("\u{1b}["));
    }
}
