//! The report people read: a line per case as it finishes, the failures
//! explained under the table, and a summary that says what the real judge
//! would show and closes with `N passed, M failed` alone on its line, as
//! test runners do.
//!
//! On a terminal the table fits its width: the least important columns go
//! first and long notes wrap under the case column (see `layout`). Off a
//! terminal every line is whole, for scripts and logs. Colour marks the
//! verdicts and the cells of grid diffs only, so everything stays readable
//! without it.

use std::io::{self, Write};
use std::sync::Arc;

use anstyle::{AnsiColor, Style};

use super::judges::JudgeSays;
use super::layout::{self, Cells, Columns};
use super::reason_words;
use crate::baseline::{Baseline, ChangeTally};
use crate::check::diff::{self, CellKind, RowPart};
use crate::outside::{Outside, OutsideName, OutsidePath};
use crate::problem::Problem;
use crate::results::{CaseOutcome, CaseResult, Fault, Judgement, Summary};
use crate::results::{Event, Reporter};
use crate::runner::lang::BuildInfo;
use crate::runner::lang::Interface;
use crate::runner::sandbox::{self, Layer, Mode as SandboxMode, Protections};
use crate::stats::Spread;
use crate::verdict::Verdict;
use crate::words::{format_kb, format_ms, one_or_many, plural, seconds};

pub(crate) struct HumanReporter<W> {
    out: W,
    color: bool,
    /// The terminal's width; `None` off a terminal, where lines are whole.
    width: Option<usize>,
    columns: Columns,
    /// Command-line options that rerun the same submission, for hints.
    rerun_options: String,
    /// The failures described under the table, at most [`DESCRIBED`], as
    /// shown, each with its input's own path for the commands.
    failures: Vec<CaseResult>,
    /// Failures beyond those.
    more_failures: usize,
    judges: JudgeSays,
    /// An earlier run each case is compared with (`--baseline`).
    baseline: Option<Arc<Baseline>>,
    tally: ChangeTally,
    /// A compile error, shown at the end of the report: after a table of
    /// CE rows and the summary, the last thing on the screen.
    compile_error: Option<String>,
    /// Only the rows of cases not accepted and the summary (`--quiet`).
    quiet: bool,
    /// The table's column header, when `quiet` holds it back until a row
    /// needs it.
    held_header: Option<String>,
    /// What accepted cases printed besides their answers, under their rows
    /// (`--show-output`).
    show_output: bool,
    /// Everything there is to say (`--verbose`): the toolchain and the
    /// sandbox in full, every grid of a wrong answer, how a baseline
    /// decides a change.
    verbose: bool,
    /// A case's compile error has its row: one row says it for every
    /// case, since a compile error is the submission's, not a case's.
    compile_error_row: bool,
}

/// At most this many failures are described under the table; the rest are
/// on their lines in the table, and in the JSON and JUnit reports.
const DESCRIBED: usize = 50;

/// Of those, this many are described in full (with `--verbose`, all): a
/// person reads the first few; each other one gets a line.
const IN_FULL: usize = 3;

/// On a terminal, a case's note takes at most this many lines; the full
/// reason is under the table.
const NOTE_LINES: usize = 2;

/// Where a case's second line starts: under the table's first columns.
const INDENT: usize = 6;

impl<W: Write> HumanReporter<W> {
    pub(crate) fn new(out: W, color: bool, rerun_options: impl Into<String>) -> Self {
        Self {
            out,
            color,
            width: None,
            columns: Columns::for_width(None),
            rerun_options: rerun_options.into(),
            failures: Vec::new(),
            more_failures: 0,
            judges: JudgeSays::default(),
            baseline: None,
            tally: ChangeTally::default(),
            compile_error: None,
            quiet: false,
            held_header: None,
            show_output: false,
            verbose: false,
            compile_error_row: false,
        }
    }

    /// Says everything there is to say (`--verbose`): the toolchain and
    /// the sandbox in full on every run, every grid of a wrong answer, and
    /// how a baseline decides that a time changed.
    pub(crate) fn with_verbose(mut self, verbose: bool) -> Self {
        self.verbose = verbose;
        self
    }

    /// Shows under an accepted case's row what it printed besides its
    /// answers: a LeetCode-style file's own stdout, and stderr
    /// (`--show-output`). A failure's block shows them anyway.
    pub(crate) fn with_output_shown(mut self, show: bool) -> Self {
        self.show_output = show;
        self
    }

    /// Shows only the rows of cases not accepted and the summary: no
    /// header, no accepted rows and no failure blocks (`--quiet`). A
    /// compile error is still shown in full: no row says what to fix.
    pub(crate) fn with_quiet(mut self, quiet: bool) -> Self {
        self.quiet = quiet;
        self
    }

    /// Compares every case with an earlier run: what changed shows in its
    /// note, and the summary counts the changes.
    pub(crate) fn with_baseline(mut self, baseline: Option<Arc<Baseline>>) -> Self {
        self.baseline = baseline;
        self
    }

    /// Fits the report to a terminal `width` columns wide; `None` (the
    /// default) writes whole lines.
    pub(crate) fn with_width(mut self, width: Option<usize>) -> Self {
        self.width = width;
        self.columns = Columns::for_width(width);
        self
    }

    /// Writes `text` after `first`, wrapped to the width under `indent`.
    fn wrapped(&mut self, first: &str, text: &str, indent: usize) -> io::Result<()> {
        let first_width = first.chars().count();
        writeln!(
            self.out,
            "{}",
            layout::wrap(first, first_width, text, indent, self.width)
        )
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

    /// The verdict's code in its colour, padded to `width` columns.
    fn code(&self, verdict: Option<Verdict>, width: usize) -> String {
        let code = verdict.map_or("ERROR", Verdict::code);
        self.paint(Self::verdict_style(verdict), &format!("{code:<width$}"))
    }

    fn case_line(&mut self, result: &CaseResult) -> io::Result<()> {
        let code = self.code(result.verdict(), 5);
        let dashes = Cells {
            time: "-",
            percent: "-",
            cpu: "-",
            wall: "-",
            memory: "-",
        };
        let (time, percent, cpu, wall, memory);
        let (cells, note) = match &result.outcome {
            CaseOutcome::Error(_) => (dashes, String::new()),
            CaseOutcome::Judged(j) if j.verdict == Verdict::CE => {
                (dashes, reason_words::sentence(j).terminal().to_string())
            }
            CaseOutcome::Judged(j) => {
                time = format_ms(j.time);
                percent = format!("{:.0}%", j.limit_percent().min(999.0));
                cpu = format_ms(j.cpu);
                wall = format_ms(j.wall);
                memory = format_kb(j.memory_kb);
                // With `--repeat`, the range of the charged times: first
                // for an accepted case, after the reason for one that is not.
                let note = match (j.verdict == Verdict::AC, runs_note(j)) {
                    (true, None) => accepted_note(j),
                    (true, Some(runs)) => joined(&runs, &accepted_note(j)),
                    (false, None) => reason_words::short(j).terminal().to_string(),
                    (false, Some(runs)) => {
                        joined(&reason_words::short(j).terminal().to_string(), &runs)
                    }
                };
                let cells = Cells {
                    time: &time,
                    percent: &percent,
                    cpu: &cpu,
                    wall: &wall,
                    memory: &memory,
                };
                (cells, note)
            }
        };
        // What changed since the baseline comes first: `AC → WA; ...`.
        let note = match &self.baseline {
            Some(baseline) => {
                let comparison = baseline.compare(result);
                self.tally.add(comparison.as_ref());
                let change = comparison.map_or_else(|| "new".to_string(), |c| c.describe());
                joined(&change, &note)
            }
            None => note,
        };
        let id = result.id.terminal().to_string();
        let row = format!("{code}{}  {id}", self.columns.cells(&cells));
        let row_width = self.columns.id_column() + id.chars().count();
        // A compile error is the submission's, the same for every case.
        let note = match result.verdict() {
            Some(Verdict::CE) => "compile error, message at the end".into(),
            _ => note,
        };
        if note.is_empty() {
            writeln!(self.out, "{row}")?;
        } else {
            // On a terminal a long note is cut: the reason is whole under
            // the table.
            writeln!(
                self.out,
                "{}",
                layout::wrap_lines(
                    &format!("{row}  "),
                    row_width + 2,
                    &note,
                    self.columns.id_column(),
                    self.width,
                    NOTE_LINES
                )
            )?;
        }
        match &result.outcome {
            CaseOutcome::Error(error) => {
                let message = super::reason_words::unjudged(error).terminal().to_string();
                let first = message.lines().next().unwrap_or_default().to_string();
                self.wrapped(&" ".repeat(INDENT), &first, INDENT)?;
            }
            CaseOutcome::Judged(j) => {
                for note in &j.notes {
                    self.wrapped("      note: ", &note.terminal().to_string(), INDENT + 6)?;
                }
                for warning in &j.warnings {
                    let warning = warning.terminal().to_string();
                    self.wrapped("      warning: ", &warning, INDENT + 9)?;
                }
            }
        }
        Ok(())
    }

    /// A failure's block, with the commands to paste.
    fn failure(&mut self, result: &CaseResult) -> io::Result<()> {
        let code = self.code(result.verdict(), 0);
        writeln!(self.out, "{code} {}", result.id.terminal())?;
        writeln!(self.out, "  input:    {}", result.input.terminal())?;
        if let Some(expected) = &result.expected {
            writeln!(self.out, "  expected: {}", expected.terminal())?;
        }
        match &result.outcome {
            CaseOutcome::Error(error) => {
                let error_text = super::reason_words::unjudged(error).terminal().to_string();
                self.wrapped("  error:    ", &error_text, 12)?;
                let what = match error.fault() {
                    Fault::Case => "fix the case files",
                    Fault::Judge => "the judge failed, not the case nor the submission; rerun it",
                    Fault::Submission => {
                        "the program could not be started: build it for this machine, give a \
                         script a `#!` line, and let others read and run it (the sandbox runs \
                         it as another user)"
                    }
                };
                writeln!(
                    self.out,
                    "  hint:     {what}; `sudoku-judge test {}` rechecks this case alone",
                    result.input.shell()
                )?;
            }
            CaseOutcome::Judged(j) => {
                writeln!(self.out, "  verdict:  {}", j.verdict.name())?;
                let why = reason_words::sentence(j).terminal().to_string();
                self.wrapped("  why:      ", &why, 12)?;
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
                // Two grids side by side would wrap into halves on a narrow
                // terminal: one above the other there.
                // One wrong answer's grids tell what is wrong; the others
                // are under --verbose, in the JSON and the HTML report.
                let details = j.details.terminal().to_string();
                let (details, more) = match self.verbose {
                    true => (details, 0),
                    false => first_grids(&details),
                };
                let details = match self.width {
                    Some(width) if width < diff::SIDE_BY_SIDE_COLUMNS => diff::stacked(&details),
                    _ => details,
                };
                for line in details.lines() {
                    let line = self.detail(line);
                    writeln!(self.out, "  {line}")?;
                }
                if more > 0 {
                    writeln!(
                        self.out,
                        "  ({} more wrong {} with grids under --verbose)",
                        more,
                        one_or_many(more as u64, "answer", "answers")
                    )?;
                }
                self.printed(j, "  ", "    ")?;
                let options = if self.rerun_options.is_empty() {
                    String::new()
                } else {
                    format!(" {}", self.rerun_options)
                };
                // A failure that needs the earlier cases' state is rerun
                // after them, so the command reproduces it.
                let after: String = j
                    .reproduce_after
                    .iter()
                    .map(|earlier| format!("{} ", earlier.shell()))
                    .collect();
                writeln!(
                    self.out,
                    "  rerun:    sudoku-judge test {after}{}{options}",
                    result.input.shell()
                )?;
            }
        }
        writeln!(self.out)
    }

    /// A failure in one line, after those described in full: its verdict,
    /// its id and its reason in a few words.
    fn failure_line(&mut self, result: &CaseResult) -> io::Result<()> {
        let code = self.code(result.verdict(), 0);
        let why = match &result.outcome {
            CaseOutcome::Judged(j) => reason_words::short(j).terminal().to_string(),
            CaseOutcome::Error(error) => {
                let message = super::reason_words::unjudged(error).terminal().to_string();
                message.lines().next().unwrap_or_default().to_string()
            }
        };
        self.wrapped(&format!("{code} {}: ", result.id.terminal()), &why, INDENT)
    }

    /// A line of a failure's details, its grid cells coloured when colour
    /// is on: givens bold, the cells to look at in red.
    fn detail(&self, line: &str) -> String {
        let parts = match diff::grid_row_parts(line) {
            Some(parts) if self.color => parts,
            _ => return line.to_string(),
        };
        parts
            .iter()
            .map(|part| match *part {
                RowPart::Text(text) | RowPart::Cell(CellKind::Filled, text) => text.to_string(),
                RowPart::Cell(CellKind::Given, text) => self.paint(Style::new().bold(), text),
                RowPart::Cell(CellKind::Marked, text) => self.paint(
                    Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
                    text,
                ),
            })
            .collect()
    }

    /// The first lines of the report: the build, what is judged, a note
    /// for each problem whose interface is not the submission's, and the
    /// table's header.
    fn header(
        &mut self,
        cases: usize,
        submission: &str,
        jobs: usize,
        time_scales: &[f64],
        problems: &[(Problem, usize)],
        interface: Option<Interface>,
    ) -> io::Result<()> {
        let mut judging = format!("judging {} with {submission}", plural(cases, "case"));
        if jobs > 1 {
            judging.push_str(&format!(
                ", {jobs} at a time (wall times are taken under load)"
            ));
        }
        if !time_scales.is_empty() {
            let factors: Vec<String> = time_scales.iter().map(|f| format!("x {f}")).collect();
            judging.push_str(&format!(
                ", time limits {} (time_scale)",
                factors.join(", ")
            ));
        }
        self.wrapped("", &judging, 2)?;
        for &(problem, _) in problems {
            if let Some(note) = interface.and_then(|i| interface_note(problem, i)) {
                self.wrapped("note: ", &note, INDENT)?;
            }
        }
        Ok(())
    }

    /// How the submission was built: once, above the table.
    fn build(&mut self, build: &BuildInfo) -> io::Result<()> {
        let source = OutsidePath::new(&build.source).terminal().to_string();
        let command = Outside::new(&build.command).terminal().to_string();
        for note in &build.notes {
            self.wrapped("note: ", &Outside::new(note).terminal().to_string(), INDENT)?;
        }
        match (&build.error, build.command.is_empty(), build.cached) {
            (Some(error), _, _) => {
                // Shown at the end, where a long table cannot push it off
                // the screen.
                let mut block = format!("{source} did not compile:\n");
                if !build.command.is_empty() {
                    block.push_str(&format!("  $ {command}\n"));
                }
                for line in Outside::new(error).terminal().to_string().lines() {
                    block.push_str(&format!("  {line}\n"));
                }
                self.compile_error = Some(block);
                Ok(())
            }
            (None, true, _) => Ok(()),
            (None, false, true) => {
                writeln!(self.out, "using the cached build of {source} ({command})",)
            }
            (None, false, false) => writeln!(
                self.out,
                "compiled {source} in {:.2} s: {}",
                build.time.as_secs_f64(),
                command
            ),
        }?;
        self.toolchain(build)
    }

    /// The tools a build used, one line each: as named, their version,
    /// and why they were taken.
    fn toolchain(&mut self, build: &BuildInfo) -> io::Result<()> {
        // A cached build was made with these tools before: on a second run
        // they are said under --verbose only.
        let tools = if self.verbose || !build.cached || build.error.is_some() {
            &build.toolchain[..]
        } else {
            &[]
        };
        for tool in tools {
            let line = format!(
                "{} {}: {} ({})",
                build.language,
                tool.name,
                if tool.version.is_empty() {
                    "version unknown"
                } else {
                    &tool.version
                },
                tool.origin
            );
            self.wrapped(
                "toolchain: ",
                &Outside::new(line).terminal().to_string(),
                INDENT,
            )?;
        }
        if let Some(short_of) = &build.short_of {
            let short_of = Outside::new(short_of).terminal().to_string();
            self.wrapped("toolchain: ", &short_of, INDENT)?;
        }
        Ok(())
    }

    /// What a LeetCode-style file printed itself, indented: its first
    /// lines, how many are left out, and its last line; and when the judge
    /// kept only the start of it, that it was cut there.
    fn own_stdout(&mut self, j: &Judgement, indent: &str) -> io::Result<()> {
        const SHOWN: usize = 20;
        let stdout = j.stdout.terminal().to_string();
        let kept: Vec<&str> = stdout.lines().collect();
        let total = j.stdout_lines.max(kept.len());
        let cut = j.stdout_last_line.is_some();
        if total <= SHOWN && !cut {
            for line in &kept {
                writeln!(self.out, "{indent}{}", reason_words::cut(line, 200))?;
            }
            return Ok(());
        }
        let shown = kept.len().min(SHOWN - 1);
        for line in &kept[..shown] {
            writeln!(self.out, "{indent}{}", reason_words::cut(line, 200))?;
        }
        let mut more = format!(
            "{indent}... {}",
            plural(total.saturating_sub(shown + 1), "more line")
        );
        if cut {
            more.push_str(&format!(
                " (the judge keeps the first {} KB of the output, and its last line)",
                crate::check::KEEP >> 10
            ));
        }
        writeln!(self.out, "{more}")?;
        let last = match &j.stdout_last_line {
            Some(last) => Some(last.terminal().to_string()),
            None => kept.last().map(|line| line.to_string()),
        };
        if let Some(last) = last {
            writeln!(self.out, "{indent}{}", reason_words::cut(&last, 200))?;
        }
        Ok(())
    }

    /// What a case printed besides its answers, its legends indented by
    /// `legend` and the text by `text`: its own stdout, and the end of its
    /// stderr unless the details show it already. In a failure's block,
    /// and under an accepted case's row with `--show-output`.
    fn printed(&mut self, j: &Judgement, legend: &str, text: &str) -> io::Result<()> {
        if !j.stdout.is_empty() {
            writeln!(
                self.out,
                "{legend}its own stdout (not part of the answers):"
            )?;
            self.own_stdout(j, text)?;
        }
        let (stderr, details) = (j.stderr.as_raw(), j.details.as_raw());
        if !stderr.trim().is_empty() && !details.contains(stderr.trim_end()) {
            writeln!(self.out, "{legend}stderr (the end of it):")?;
            self.excerpt(&j.stderr.terminal().to_string(), text)?;
        }
        Ok(())
    }

    /// The first lines of what a submission printed, indented.
    fn excerpt(&mut self, text: &str, indent: &str) -> io::Result<()> {
        const SHOWN: usize = 20;
        let lines: Vec<&str> = text.lines().collect();
        for line in lines.iter().take(SHOWN) {
            writeln!(self.out, "{indent}{}", reason_words::cut(line, 200))?;
        }
        if lines.len() > SHOWN {
            writeln!(self.out, "{indent}... {} more lines", lines.len() - SHOWN)?;
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
        let totals = format!(
            "{} in {}, {} of it charged: {}",
            plural(summary.total, "case"),
            seconds(summary.elapsed, 2),
            format_ms(summary.charged),
            counts.join(", ")
        );
        self.wrapped("", &totals, 2)?;
        if summary.interrupted {
            writeln!(self.out, "interrupted: only the cases above were judged")?;
        }
        if !summary.not_run.is_empty() {
            const NAMED: usize = 10;
            let mut names: Vec<String> = summary
                .not_run
                .iter()
                .take(NAMED)
                .map(|case| case.id.terminal().to_string())
                .collect();
            if summary.not_run.len() > NAMED {
                names.push(format!("and {} more", summary.not_run.len() - NAMED));
            }
            let line = format!(
                "stopped at the first case not accepted (--fail-fast): {} not run: {}",
                plural(summary.not_run.len(), "case"),
                names.join(", ")
            );
            self.wrapped("", &line, 2)?;
        }
        if let Some(baseline) = self.baseline.clone().filter(|_| summary.total > 0) {
            // How a time is said to change, once asked for: every run of
            // --watch compares with the one before.
            let noise = match self.verbose {
                true => format!(
                    " (a time counts as changed past {}x and {} ms, or with --repeat {} or more \
                     on both sides, when the runs' ranges do not overlap)",
                    crate::baseline::NOISE_RATIO,
                    crate::baseline::NOISE_FLOOR.as_millis(),
                    crate::baseline::SPREAD_RUNS
                ),
                false => String::new(),
            };
            let line = format!(
                "compared with {}: {}{noise}",
                baseline.source,
                self.tally.describe()
            );
            self.wrapped("", &line, 2)?;
            if self.tally.broken > 0 {
                writeln!(
                    self.out,
                    "broken: {} accepted in {} {} not any more",
                    plural(self.tally.broken, "case"),
                    baseline.source,
                    one_or_many(self.tally.broken as u64, "is", "are")
                )?;
            }
        }
        for line in self.judges.lines() {
            self.wrapped("", &line, 2)?;
        }
        writeln!(
            self.out,
            "{} passed, {} failed",
            summary.passed, summary.failed
        )
    }
}

/// For a case run several times (`--repeat`): how many, and the range of
/// the charged times, whose median the time column shows.
fn runs_note(j: &Judgement) -> Option<String> {
    let spread = Spread::of(&j.run_times).filter(|_| j.run_times.len() > 1)?;
    Some(format!("{} runs: {}", j.run_times.len(), range(spread)))
}

/// The fastest to the slowest of a spread, `12.00–21.00 ms`.
fn range(spread: Spread) -> String {
    let min = format_ms(spread.min);
    format!("{}–{}", min.trim_end_matches(" ms"), format_ms(spread.max))
}

/// Two parts of a note, either of which may be empty.
fn joined(first: &str, second: &str) -> String {
    match (first.is_empty(), second.is_empty()) {
        (_, true) => first.to_string(),
        (true, false) => second.to_string(),
        (false, false) => format!("{first}; {second}"),
    }
}

/// For an accepted case: the puzzle count and, for several, their spread.
fn accepted_note(j: &Judgement) -> String {
    let note = puzzles_note(j);
    match j.stdout_lines {
        0 => note,
        n => format!("{note}; printed {} of its own", plural(n, "line")),
    }
}

fn puzzles_note(j: &Judgement) -> String {
    let mut note = match (j.puzzles, j.puzzle_times) {
        (n, Some(spread)) => {
            // A program's answers that arrived together have no time of
            // their own: the spread is of those timed one by one.
            let each = match j.puzzles_timed {
                timed if timed < n => format!("{timed} timed one by one, each"),
                _ => "each".to_string(),
            };
            format!(
                "{n} puzzles, {each} {} (median {})",
                range(spread),
                format_ms(spread.median)
            )
        }
        (1, None) => String::from("1 puzzle"),
        (n, None) => format!("{n} puzzles"),
    };
    if let Some(slowest) = j.slowest {
        note.push_str(&format!(
            "; slowest: puzzle {}, input line {}, {}",
            slowest.puzzle,
            slowest.line,
            format_ms(slowest.time)
        ));
    }
    note
}

/// Of a failure's grid diffs, the first wrong answer's with the legend,
/// and how many more answers have grids; details that hold no grids (a
/// line diff) come back whole. A wrong answer's grids open with a line of
/// its own naming it (`puzzle 2 (input line 2):`), then the grids' titles.
fn first_grids(details: &str) -> (String, usize) {
    let lines: Vec<&str> = details.lines().collect();
    let opens = |i: usize| {
        let line = lines[i];
        !line.starts_with(' ')
            && line.ends_with(':')
            && lines
                .get(i + 1)
                .is_some_and(|next| next.contains("your answer"))
    };
    let starts: Vec<usize> = (0..lines.len()).filter(|&i| opens(i)).collect();
    let (Some(&second), true) = (starts.get(1), starts.len() > 1) else {
        return (details.to_string(), 0);
    };
    // The legend: the lines after the last grid that are not indented.
    let legend = lines
        .iter()
        .rev()
        .take_while(|line| !line.starts_with(' ') && !line.is_empty())
        .count();
    let mut kept: Vec<&str> = lines[..second].to_vec();
    kept.extend(&lines[lines.len() - legend..]);
    (kept.join("\n") + "\n", starts.len() - 1)
}

/// The sandbox in a few words, for every run: which layers hold, and for
/// each one the kernel refused, what it costs and what to do (the line in
/// full, with the kernel's reasons, is under --verbose and in `doctor`).
fn sandbox_summary(p: &Protections) -> String {
    if p.mode == SandboxMode::Off {
        return "off (--sandbox off): submissions run unconfined".into();
    }
    if let Some(seatbelt) = &p.seatbelt {
        // macOS: the profile if it holds, then what macOS lacks, once.
        let profile = match seatbelt {
            Layer::On => sandbox::MACOS_SEATBELT,
            _ => {
                "MISSING Seatbelt (no /usr/bin/sandbox-exec): runs can reach the network and \
                  write anywhere you can"
            }
        };
        return format!(
            "{profile}; {}; {}",
            sandbox::MACOS_HOLDS,
            sandbox::MACOS_LACKS
        );
    }
    if p.job_object.is_some() {
        // Windows: the job, its accounting, then what a job lacks, once.
        return format!(
            "{}; {}; {}",
            sandbox::WINDOWS_HOLDS,
            sandbox::WINDOWS_ACCOUNTING,
            sandbox::WINDOWS_LACKS
        );
    }
    let namespaces = [&p.processes, &p.filesystem, &p.network, &p.ipc];
    let mut holds = Vec::new();
    if namespaces.iter().all(|layer| layer.is_on()) {
        holds.push(if p.user_namespace {
            "namespaces (in a user namespace)".to_string()
        } else {
            "namespaces".to_string()
        });
    }
    match (&p.accounting, &p.cgroup_version) {
        (Layer::On, Some(version)) => holds.push(format!("{version} accounting")),
        _ if p.processes.is_on() && p.filesystem.is_on() => {
            holds.push("sampled CPU accounting".to_string())
        }
        _ => holds.push("rusage accounting".to_string()),
    }
    if p.no_fork.is_on() && p.keyrings.is_on() {
        holds.push("system-call filters".to_string());
    }
    let mut said = holds.join(", ");
    let missing: Vec<&str> = p.missing().into_iter().map(|(name, _)| name).collect();
    if missing.iter().any(|name| name.ends_with("namespace")) {
        said.push_str(
            "; MISSING namespaces: the kernel refuses them to this user, so runs see the \
             machine; allow unprivileged user namespaces (sysctl \
             kernel.unprivileged_userns_clone=1, or the distribution's AppArmor setting)",
        );
    }
    if missing.contains(&"cgroup accounting") {
        said.push_str(
            "; MISSING a cgroup of yours, so memory is per process: for full accounting, run in \
             a delegated one (systemd-run --user --scope -p Delegate=yes sudoku-judge ...)",
        );
    }
    if missing.contains(&"process filter") || missing.contains(&"keyring filter") {
        said.push_str("; MISSING system-call filters: this kernel has no seccomp");
    }
    if missing.contains(&"task limit") {
        said.push_str("; MISSING a task limit: a fork bomb is stopped only by the wall clock");
    }

    said
}

/// A note when the submission's interface is not the one `problem` judges.
fn interface_note(problem: Problem, interface: Interface) -> Option<String> {
    match (problem, interface) {
        (Problem::Leetcode37, Interface::Program) => Some(
            "LeetCode 37 calls a class Solution's solveSudoku; this submission is a program \
             reading stdin, judged as AcWing 166 would judge it"
                .into(),
        ),
        (problem @ (Problem::Acwing166 | Problem::Poj3074), Interface::Function) => Some(format!(
            "{} judges a program reading stdin; this submission is a function, called through \
             sudoku-judge's driver",
            problem.name()
        )),
        _ => None,
    }
}

impl<W: Write> HumanReporter<W> {
    /// The run's end: the failures described (the first few in full), the
    /// summary, and a compile error's block.
    fn finished(&mut self, summary: &Summary) -> io::Result<()> {
        let failures = std::mem::take(&mut self.failures);
        if !failures.is_empty() {
            writeln!(self.out, "\nfailures:\n")?;
            let in_full = if self.verbose {
                failures.len()
            } else {
                IN_FULL
            };
            for result in failures.iter().take(in_full) {
                self.failure(result)?;
            }
            let rest = &failures[in_full.min(failures.len())..];
            for result in rest {
                self.failure_line(result)?;
            }
            if !rest.is_empty() {
                writeln!(
                    self.out,
                    "  (the first {in_full} are described in full above; --verbose \
                     describes every one)\n"
                )?;
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
        if let Some(block) = self.compile_error.take() {
            write!(self.out, "\n{block}")?;
        }
        self.out.flush()
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
                sandbox,
                warnings,
                problems,
                interface,
                submitted,
                time_scales,
            } => {
                if let Some(build) = build.filter(|b| !self.quiet || b.error.is_some()) {
                    self.build(build)?;
                }
                self.judges = JudgeSays::new(problems, submitted);
                if self.quiet {
                    let header = self.columns.header();
                    self.held_header = Some(self.paint(Style::new().dimmed(), &header));
                    return Ok(());
                }
                let submission = &OutsideName::new(submission).terminal().to_string();
                self.header(cases, submission, jobs, time_scales, problems, interface)?;
                if let Some(sandbox) = sandbox {
                    let said = match self.verbose {
                        true => sandbox.to_string(),
                        false => sandbox_summary(sandbox),
                    };
                    self.wrapped("sandbox: ", &said, INDENT)?;
                }
                for warning in warnings {
                    self.wrapped("warning: ", &warning.terminal().to_string(), INDENT)?;
                }
                let header = self.columns.header();
                writeln!(self.out, "{}", self.paint(Style::new().dimmed(), &header))?;
            }
            Event::CaseFinished(result) => {
                self.judges.case(result);
                if self.quiet && result.passed() {
                    return Ok(());
                }
                if result.verdict() == Some(Verdict::CE) {
                    if self.compile_error_row {
                        return Ok(());
                    }
                    self.compile_error_row = true;
                }
                if let Some(header) = self.held_header.take() {
                    writeln!(self.out, "{header}")?;
                }
                self.case_line(result)?;
                if let CaseOutcome::Judged(j) = &result.outcome {
                    if self.show_output && result.passed() {
                        self.printed(j, "      ", "          ")?;
                    }
                }
                self.out.flush()?;
                // A compile error is the same for every case: it is shown
                // once, at the end. `--quiet` shows the rows alone.
                if !result.passed() && result.verdict() != Some(Verdict::CE) && !self.quiet {
                    if self.failures.len() < DESCRIBED {
                        self.failures.push(result.clone());
                    } else {
                        self.more_failures += 1;
                    }
                }
            }
            Event::Answered(_) => {}
            Event::Finished { summary } => self.finished(summary)?,
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

    /// A whole run of `results` as the table renders it, `width` columns
    /// wide, with the hints' options `--solver mrv`.
    fn rendered(results: &[CaseResult], width: Option<usize>) -> String {
        let mut out = Vec::new();
        report_run(
            &mut HumanReporter::new(&mut out, false, "--solver mrv").with_width(width),
            results,
        );
        String::from_utf8(out).unwrap()
    }

    /// As an ordinary user without a cgroup: the header says what is
    /// missing in words, with what to do, and none of the kernel's errno.
    #[test]
    fn a_missing_layer_is_said_in_words_with_what_to_do() {
        let mut protections = Protections {
            mode: SandboxMode::Auto,
            processes: Layer::On,
            filesystem: Layer::On,
            network: Layer::On,
            ipc: Layer::On,
            accounting: Layer::Missing(
                "cannot make the run's cgroup: /sys/fs/cgroup/memory/a/b/sudoku-judge/1-1: \
                 Permission denied (os error 13)"
                    .into(),
            ),
            cgroup_version: None,
            no_fork: Layer::On,
            tasks: Layer::On,
            keyrings: Layer::On,
            user_namespace: true,
            seatbelt: None,
            job_object: None,
        };
        let said = sandbox_summary(&protections);
        assert!(
            said.contains("MISSING a cgroup of yours, so memory is per process"),
            "{said}"
        );
        assert!(said.chars().count() < 250, "{said}");
        assert!(
            said.contains("systemd-run --user --scope -p Delegate=yes"),
            "{said}"
        );
        assert!(
            !said.contains("os error") && !said.contains("/sys/fs"),
            "{said}"
        );
        protections.accounting = Layer::On;
        protections.cgroup_version = Some("cgroup v2".into());
        assert_eq!(
            sandbox_summary(&protections),
            "namespaces (in a user namespace), cgroup v2 accounting, system-call filters"
        );
    }

    /// On macOS the header says what Seatbelt holds, and what macOS lacks
    /// once, not a MISSING for each of Linux's layers.
    #[test]
    fn on_macos_the_summary_names_seatbelt_and_what_macos_lacks() {
        let said = sandbox_summary(&Protections::macos(SandboxMode::Auto, Layer::On));
        assert!(
            said.starts_with("Seatbelt: no network, writes only"),
            "{said}"
        );
        assert!(said.contains("RLIMIT_NOFILE"), "{said}");
        assert!(said.contains("refuses RLIMIT_AS"), "{said}");
        assert!(
            !said.contains("MISSING") && !said.contains("namespace)"),
            "{said}"
        );
        let said = sandbox_summary(&Protections::macos(
            SandboxMode::Auto,
            Layer::Missing("no /usr/bin/sandbox-exec".into()),
        ));
        assert!(said.starts_with("MISSING Seatbelt"), "{said}");
    }

    /// Every verdict's line, the failure blocks and the summary, in one
    /// snapshot. Timings are fixed in the fixture, never measured.
    #[test]
    fn renders_every_verdict() {
        let text = rendered(&every_verdict(), None);
        assert!(text.ends_with("\n1 passed, 8 failed\n"), "{text}");
        insta::assert_snapshot!(text);
    }

    /// The same run on a terminal 80 columns wide: `cpu` and `wall` make
    /// room, long notes wrap under the case column, and no line is wider.
    /// With `--verbose`, so that every verdict's block is drawn in full.
    #[test]
    fn renders_every_verdict_at_80_columns() {
        let mut out = Vec::new();
        report_run(
            &mut HumanReporter::new(&mut out, false, "--solver mrv")
                .with_width(Some(80))
                .with_verbose(true),
            &every_verdict(),
        );
        let text = String::from_utf8(out).unwrap();
        // Commands are never split, so they can be copied whole.
        for line in text.lines().filter(|l| !l.contains("sudoku-judge test")) {
            assert!(line.chars().count() <= 80, "{line}");
        }
        insta::assert_snapshot!(text);
    }

    /// With `--repeat`, a row shows the range of the charged times beside
    /// the median in its time column: first for an accepted case, after
    /// the reason for one that is not, within the terminal's width.
    #[test]
    fn repeated_runs_show_their_range_in_the_row() {
        let mut results = every_verdict();
        for result in &mut results {
            if let CaseOutcome::Judged(j) = &mut result.outcome {
                let ms = j.time.as_millis() as u64;
                j.run_times = [ms + 2, ms, ms + 9, ms + 1, ms]
                    .map(Duration::from_millis)
                    .to_vec();
            }
        }
        for width in [None, Some(80), Some(60)] {
            let text = rendered(&results, width);
            let row = |id: &str| {
                text.lines()
                    .find(|l| l.contains(id))
                    .map(str::to_string)
                    .unwrap_or_else(|| panic!("no row for {id}:\n{text}"))
            };
            assert!(
                row("suite/ac").contains("suite/ac  5 runs: 12.00–21.00 ms"),
                "{text}"
            );
            if width.is_none() {
                assert!(
                    row("suite/tle").ends_with("; 5 runs: 1350–1359 ms"),
                    "{text}"
                );
            }
            // The table's rows, up to the blank line under it.
            let table = text
                .lines()
                .skip_while(|l| !l.ends_with("  case"))
                .take_while(|l| !l.is_empty());
            for line in table {
                assert!(
                    line.chars().count() <= width.unwrap_or(usize::MAX),
                    "{line}"
                );
            }
        }
    }

    /// Below 72 columns the grids of a wrong answer are drawn one above
    /// the other rather than side by side, so the terminal never wraps
    /// them into halves.
    #[test]
    fn narrow_terminals_get_the_grids_stacked() {
        // The wrong answer with real grids in its details.
        let results: Vec<CaseResult> = every_verdict()
            .into_iter()
            .map(|mut result| {
                if let CaseOutcome::Judged(j) = &mut result.outcome {
                    if j.verdict == Verdict::WA {
                        j.details = format!(
                            "puzzle 1 (input line 1):\n{}{}",
                            diff::example(),
                            diff::GRID_LEGEND
                        )
                        .into();
                    }
                }
                result
            })
            .collect();
        let text = rendered(&results, Some(60));
        let grid_lines: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with(['|', '+']))
            .collect();
        assert!(!grid_lines.is_empty(), "{text}");
        for line in &grid_lines {
            assert!(line.chars().count() <= 60, "{line}");
            assert_eq!(line.trim().chars().count(), 31, "one grid a line: {line}");
        }
        // Each title on its own line, above its grid.
        assert!(text.lines().any(|l| l.trim() == "expected"), "{text}");
        assert!(text.lines().any(|l| l.trim() == "your answer"), "{text}");
        // At 80 columns they stay side by side.
        let wide = rendered(&results, Some(80));
        assert!(
            wide.lines()
                .any(|l| l.trim().chars().count() == 65 && l.trim().starts_with('|')),
            "{wide}"
        );
    }

    /// A source that does not compile: every case CE in a few words, and
    /// the compiler's command and message once, at the end, where a long
    /// table cannot push them off the screen.
    #[test]
    fn a_compile_error_is_shown_once_at_the_end() {
        let ce = every_verdict()
            .into_iter()
            .find(|r| r.verdict() == Some(Verdict::CE))
            .expect("a CE case");
        let results = vec![
            CaseResult {
                id: "suite/1".into(),
                ..ce.clone()
            },
            CaseResult {
                id: "suite/2".into(),
                ..ce
            },
        ];
        let build = BuildInfo {
            source: PathBuf::from("main.cpp"),
            language: crate::runner::lang::Language::from_path(std::path::Path::new("main.cpp"))
                .expect("C++ is known by its extension"),
            interface: Interface::Program,
            command: "g++ -O2 -std=c++17 -DONLINE_JUDGE main.cpp".into(),
            cached: false,
            time: Duration::from_millis(250),
            notes: Vec::new(),
            toolchain: Vec::new(),
            short_of: None,
            error: Some(
                "main.cpp: In function 'int main()':\n\
                 main.cpp:4:5: error: expected ';' before '}' token\n    \
                 4 |     return 0\n      |             ^\n"
                    .into(),
            ),
        };
        let mut out = Vec::new();
        let mut reporter = HumanReporter::new(&mut out, false, "--submission main.cpp");
        reporter
            .report(Event::Started {
                cases: results.len(),
                submission: "main.cpp",
                build: Some(&build),
                jobs: 1,
                sandbox: None,
                warnings: &[],
                problems: &[],
                interface: None,
                submitted: None,
                time_scales: &[],
            })
            .unwrap();
        for result in &results {
            reporter.report(Event::CaseFinished(result)).unwrap();
        }
        let summary = Summary::of(&results, Duration::from_millis(300));
        reporter
            .report(Event::Finished { summary: &summary })
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.matches("expected ';'").count(), 1, "{text}");
        assert!(
            text.ends_with("\n\nmain.cpp did not compile:\n  $ g++ -O2 -std=c++17 -DONLINE_JUDGE main.cpp\n  main.cpp: In function 'int main()':\n  main.cpp:4:5: error: expected ';' before '}' token\n      4 |     return 0\n        |             ^\n"),
            "{text}"
        );
        insta::assert_snapshot!(text);
    }

    #[test]
    fn only_the_first_failures_are_described_in_full() {
        let results: Vec<CaseResult> = (0..DESCRIBED + 3)
            .map(|n| {
                case(
                    &format!("c{n}"),
                    judged(
                        Verdict::WA,
                        crate::reason::fixtures::two_fives_in_row_one(),
                        1,
                    ),
                )
            })
            .collect();
        let text = rendered(&results, None);
        // The first few in full, a line for each other one.
        assert_eq!(text.matches("  verdict:  Wrong Answer").count(), IN_FULL);
        let CaseOutcome::Judged(j) = &results[0].outcome else {
            panic!("judged")
        };
        let short = reason_words::short(j).terminal().to_string();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("WA c") && l.ends_with(&format!(": {short}")))
            .collect();
        assert_eq!(lines.len(), DESCRIBED - IN_FULL, "{text}");
        assert_eq!(lines[0], format!("WA c3: {short}"));
        assert!(
            text.contains(
                "(the first 3 are described in full above; --verbose describes every one)"
            ),
            "{text}"
        );
        assert!(
            text.contains("... and 3 more failures, on their lines above"),
            "{text}"
        );
        assert!(text.ends_with("0 passed, 53 failed\n"), "{text}");
        // --verbose: every one in full.
        let mut out = Vec::new();
        report_run(
            &mut HumanReporter::new(&mut out, false, "").with_verbose(true),
            &results,
        );
        let verbose = String::from_utf8(out).unwrap();
        assert_eq!(
            verbose.matches("  verdict:  Wrong Answer").count(),
            DESCRIBED
        );
        assert!(!verbose.contains("described in full above"), "{verbose}");
    }

    /// A case of `outcome` with no expected file and no problem.
    fn case(id: &str, outcome: CaseOutcome) -> CaseResult {
        CaseResult {
            id: id.into(),
            suite: PathBuf::from(".").into(),
            input: PathBuf::from(format!("{id}.in")).into(),
            expected: None,
            problem: None,
            outcome,
        }
    }

    #[test]
    fn colour_marks_the_cells_of_a_grid_diff() {
        let mut outcome = judged(
            Verdict::WA,
            crate::reason::fixtures::two_fives_in_row_one(),
            1,
        );
        if let CaseOutcome::Judged(j) = &mut outcome {
            j.details = crate::check::diff::example().into();
        }
        let result = case("a", outcome);
        let render = |color| {
            let mut out = Vec::new();
            report_run(
                &mut HumanReporter::new(&mut out, color, ""),
                std::slice::from_ref(&result),
            );
            String::from_utf8(out).unwrap()
        };
        let plain = render(false);
        assert!(plain.contains("|*4  . [5]|"), "{plain}");
        let coloured = render(true);
        let (red, bold) = (
            Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
            Style::new().bold(),
        );
        assert!(coloured.contains(&format!("{red}[5]{red:#}")), "{coloured}");
        assert!(
            coloured.contains(&format!("{bold}*4 {bold:#}")),
            "{coloured}"
        );
        // The text is the same with colour as without.
        assert_eq!(strip_ansi(&coloured), plain);
    }

    /// `text` without its ANSI escape sequences.
    fn strip_ansi(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('\u{1b}') {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            rest = &rest[rest.find('m').map_or(rest.len(), |m| m + 1)..];
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn colour_only_when_asked() {
        let result = case("a", judged(Verdict::AC, crate::reason::Reason::Accepted, 1));
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
