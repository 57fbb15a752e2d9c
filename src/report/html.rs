//! The report to look at (`--html FILE`): one self-contained HTML page,
//! inline CSS and inline SVG, no script and nothing fetched, so it opens
//! the same from a CI artifact, a mail or a disk with no network. It holds
//! the run's header (submission, toolchain, sandbox, limits, machine), each
//! case's charged time as a bar against its limit, the spread of per-puzzle
//! times with the slowest puzzle marked, the comparison with a baseline
//! (changed cases first) and each wrong answer as two 9×9 grids.
//!
//! The grids are read back from the judge's own text drawing with
//! [`diff::grid_row_parts`], as the terminal's colouring does, so the page
//! cannot disagree with the table. Everything a case or a submission wrote
//! is [`Outside`] text, shown with [`Outside::html`]: a case named
//! `<script>` is shown, never run. Written when the run finishes, an
//! interrupted run included.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use crate::baseline::{Baseline, Comparison, Trend};
use crate::check::diff::{self, CellKind, RowPart};
use crate::outside::{Outside, OutsideName};
use crate::results::{CaseOutcome, CaseResult, Judgement, Summary};
use crate::results::{Event, Reporter};
use crate::runner::sandbox::Protections;
use crate::verdict::Verdict;
use crate::words::{format_mb, format_ms, plural, seconds};

/// The machine the run was judged on, for the header: times mean little
/// without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Machine {
    pub(crate) cpu: String,
    pub(crate) cores: usize,
    pub(crate) kernel: String,
}

impl Machine {
    /// This machine, as `/proc` describes it.
    pub(crate) fn here() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == "model name").then(|| value.trim().to_string())
            })
            .unwrap_or_else(|| "an unknown CPU".to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|k| format!("Linux {}", k.trim()))
            .unwrap_or_else(|_| "an unknown kernel".to_string());
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            kernel,
        }
    }
}

/// What the run's `Started` event said, kept for the page's header.
#[derive(Default)]
struct Header {
    submission: String,
    toolchain: Option<String>,
    sandbox: Option<String>,
    problems: Vec<String>,
    warnings: Vec<String>,
}

/// A case as shown, and how it compares with the baseline.
struct Row {
    result: CaseResult,
    comparison: Option<Comparison>,
}

pub(crate) struct HtmlReporter<W> {
    out: Option<W>,
    machine: Machine,
    baseline: Option<Arc<Baseline>>,
    header: Header,
    rows: Vec<Row>,
    /// Whether accepted cases' own stdout and stderr are shown
    /// (`--show-output`).
    show_output: bool,
}

impl<W: Write> HtmlReporter<W> {
    pub(crate) fn new(out: W, machine: Machine) -> Self {
        Self {
            out: Some(out),
            machine,
            baseline: None,
            header: Header::default(),
            rows: Vec::new(),
            show_output: false,
        }
    }

    /// Shows what accepted cases printed beside their answers (stdout a
    /// LeetCode-style file printed, any stderr), as `--show-output` does in
    /// the table.
    pub(crate) fn with_output_shown(mut self, show: bool) -> Self {
        self.show_output = show;
        self
    }

    /// Shows each case before and after, against this earlier run.
    pub(crate) fn with_baseline(mut self, baseline: Option<Arc<Baseline>>) -> Self {
        self.baseline = baseline;
        self
    }
}

/// The judge's own `text` safe in HTML text and in a quoted attribute;
/// text from a case or a submission is shown with [`Outside::html`].
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A verdict's CSS class (its code), or `error` for a case not judged.
fn class(verdict: Option<Verdict>) -> &'static str {
    verdict.map_or("error", Verdict::code)
}

fn badge(verdict: Option<Verdict>) -> String {
    format!(
        "<span class=\"badge v-{}\">{}</span>",
        class(verdict),
        verdict.map_or("ERROR", Verdict::code)
    )
}

/// A time as the table shows it; seconds from 1 s.
fn time(d: Duration) -> String {
    match d >= Duration::from_secs(1) {
        true => seconds(d, 2),
        false => format_ms(d),
    }
}

const STYLE: &str = "\
:root{font-family:system-ui,sans-serif;color:#1d2330;background:#fff}
body{margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:1.5em;margin:0 0 4px}h2{font-size:1.15em;margin:28px 0 8px;border-bottom:1px solid #d8dce4;padding-bottom:4px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}dt{color:#5b6475}dd{margin:0}
.summary{font-size:1.1em;font-weight:600}
table{border-collapse:collapse}th,td{padding:3px 10px;text-align:left;vertical-align:top}
thead th{border-bottom:1px solid #c4c9d4;color:#5b6475;font-weight:600}tbody tr:nth-child(even){background:#f5f6f9}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;min-width:3.2em;text-align:center;border-radius:4px;color:#fff;font-weight:700;font-size:.85em;padding:1px 4px;background:var(--c)}
.v-AC{--c:#2e8540}.v-WA{--c:#c62828}.v-PE{--c:#b8860b}.v-TLE{--c:#e06c00}.v-MLE{--c:#7b1fa2}
.v-OLE{--c:#ad1457}.v-RE{--c:#8e2424}.v-CE{--c:#546e7a}.v-error{--c:#37474f}
svg text{font-size:12px;fill:#1d2330}svg .bar{fill:var(--c)}svg .limit{stroke:#1d2330;stroke-width:1.5;stroke-dasharray:4 3}
svg .axis{stroke:#9aa1ad}svg .range{stroke:#5b6475;stroke-width:2}svg .median{fill:#5b6475}
svg .slowest{fill:#c62828}svg .before{fill:#b0b6c1}
.failure{margin:14px 0;padding:8px 12px;border-left:4px solid var(--c)}
.failure h3{font-size:1em;margin:0 0 6px}
pre{background:#f5f6f9;padding:8px;overflow-x:auto;font-size:.85em;margin:6px 0}
.grids{display:flex;gap:28px;flex-wrap:wrap;margin:8px 0}
.grids figure{margin:0}.grids figcaption{font-size:.85em;color:#5b6475;margin-bottom:4px}
table.grid{border:2px solid #1d2330}table.grid td{width:22px;height:22px;padding:0;text-align:center;border:1px solid #c4c9d4;font-family:ui-monospace,monospace}
table.grid td:nth-child(3n){border-right:2px solid #1d2330}table.grid tr:nth-child(3n) td{border-bottom:2px solid #1d2330}
td.given{font-weight:700;background:#e8ebf1}td.wrong{background:#ffcdd2;color:#b71c1c;font-weight:700;outline:2px solid #c62828;outline-offset:-3px}
.legend{font-size:.85em;color:#5b6475}
.heading{margin:.6em 0 .2em;font-weight:600}
";

/// Width of the case names in the time chart, and where the bars start.
const LABEL_X: f64 = 250.0;
/// Where a bar that used the whole limit ends: the limit line.
const LIMIT_W: f64 = 420.0;
/// How far past the limit a bar is drawn (a TLE), as a share of it.
const OVER: f64 = 1.2;

/// A case name shortened to fit the chart's label column.
fn label(id: &str) -> String {
    const MAX: usize = 36;
    match id.chars().count() {
        n if n <= MAX => id.to_string(),
        n => format!("…{}", id.chars().skip(n + 1 - MAX).collect::<String>()),
    }
}

impl<W: Write> HtmlReporter<W> {
    fn started(
        &mut self,
        submission: &str,
        build: Option<&crate::runner::lang::BuildInfo>,
        sandbox: Option<&Protections>,
        problems: &[(crate::problem::Problem, usize)],
        warnings: &[Outside],
    ) {
        self.header = Header {
            submission: OutsideName::new(submission).terminal().to_string(),
            toolchain: build.map(|b| {
                let command = Outside::new(&b.command).terminal().to_string();
                let how = if b.cached {
                    "a cached build".to_string()
                } else {
                    format!("built in {}", time(b.time))
                };
                if command.is_empty() {
                    format!("{} ({how})", b.language)
                } else {
                    format!("{}: {command} ({how})", b.language)
                }
            }),
            sandbox: sandbox.map(ToString::to_string),
            problems: problems
                .iter()
                .map(|(p, n)| format!("{} ({})", p.name(), plural(*n, "case")))
                .collect(),
            warnings: warnings.iter().map(|w| w.terminal().to_string()).collect(),
        };
    }

    fn page(&self, summary: &Summary) -> String {
        let mut page = String::new();
        let h = &self.header;
        let _ = write!(
            page,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>sudoku-judge: {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
            escape(&h.submission)
        );
        page.push_str(&self.header_section(summary));
        page.push_str(&self.times_section());
        page.push_str(&self.puzzles_section());
        page.push_str(&self.baseline_section());
        page.push_str(&self.failures_section());
        page.push_str(&self.output_section());
        page.push_str("</body>\n</html>\n");
        page
    }

    fn header_section(&self, summary: &Summary) -> String {
        let h = &self.header;
        let mut s = String::from("<header>\n<h1>sudoku-judge report</h1>\n");
        let mut verdicts: Vec<String> = summary
            .verdicts
            .iter()
            .map(|(v, n)| format!("{} {n}", badge(Some(*v))))
            .collect();
        if summary.errors > 0 {
            verdicts.push(format!("{} {}", badge(None), summary.errors));
        }
        let not_run = match summary.not_run.len() {
            0 => String::new(),
            n => format!(", {} not run (--fail-fast)", plural(n, "case")),
        };
        let _ = writeln!(
            s,
            "<p class=\"summary\" id=\"summary\">{} passed, {} failed{not_run}{} &nbsp; {}</p>",
            summary.passed,
            summary.failed,
            if summary.interrupted {
                " (interrupted: the cases judged before)"
            } else {
                ""
            },
            verdicts.join(" ")
        );
        s.push_str("<dl>\n");
        let mut item = |term: &str, value: &str| {
            let _ = writeln!(s, "<dt>{term}</dt><dd>{}</dd>", escape(value));
        };
        item("submission", &h.submission);
        if let Some(toolchain) = &h.toolchain {
            item("toolchain", toolchain);
        }
        if !h.problems.is_empty() {
            item("problem", &h.problems.join(", "));
        }
        item("limits", &self.limits());
        item(
            "sandbox",
            h.sandbox.as_deref().unwrap_or("none (in-process solver)"),
        );
        let m = &self.machine;
        item(
            "machine",
            &format!("{}, {}, {}", m.cpu, plural(m.cores, "core"), m.kernel),
        );
        item(
            "time",
            &format!(
                "{} charged over {}, {} in all",
                time(summary.charged),
                plural(summary.total, "case"),
                time(summary.elapsed)
            ),
        );
        for warning in &h.warnings {
            item("warning", warning);
        }
        s.push_str("</dl>\n</header>\n");
        s
    }

    /// Every distinct pair of limits, in case order.
    fn limits(&self) -> String {
        let mut seen: Vec<(Duration, u64)> = Vec::new();
        for row in &self.rows {
            if let CaseOutcome::Judged(j) = &row.result.outcome {
                let pair = (j.limits.time, j.limits.memory_kb);
                if !seen.contains(&pair) {
                    seen.push(pair);
                }
            }
        }
        if seen.is_empty() {
            return "none judged".to_string();
        }
        seen.iter()
            .map(|(t, kb)| format!("{} and {} a case", time(*t), format_mb(*kb)))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The chart of charged times, one bar a case against its limit line.
    fn times_section(&self) -> String {
        let mut s = String::from("<section id=\"times\">\n<h2>Time charged per case</h2>\n");
        if self.rows.is_empty() {
            s.push_str("<p>No case was judged.</p>\n</section>\n");
            return s;
        }
        let row_h = 22.0;
        let top = 22.0;
        let height = top + row_h * self.rows.len() as f64 + 6.0;
        let limit_x = LABEL_X + LIMIT_W;
        let width = limit_x + LIMIT_W * (OVER - 1.0) + 190.0;
        let _ = writeln!(
            s,
            "<svg class=\"times\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" \
             height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\" \
             aria-label=\"time charged per case against its limit\">"
        );
        let _ = writeln!(
            s,
            "<text x=\"{limit_x}\" y=\"13\" text-anchor=\"middle\">time limit</text>"
        );
        for (i, row) in self.rows.iter().enumerate() {
            let y = top + row_h * i as f64;
            let r = &row.result;
            let _ = write!(
                s,
                "<g class=\"case v-{}\" data-case=\"{}\"><title>{}</title>\
                 <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                class(r.verdict()),
                r.id.html(),
                r.id.html(),
                LABEL_X - 8.0,
                y + 15.0,
                OutsideName::new(label(r.id.as_raw())).html()
            );
            match &r.outcome {
                CaseOutcome::Judged(j) => {
                    let share = (j.time.as_secs_f64() / j.limits.time.as_secs_f64()).min(OVER);
                    // A bar too short to see still shows its colour.
                    let w = (share * LIMIT_W).max(2.0);
                    let _ = write!(
                        s,
                        "<rect class=\"bar\" x=\"{LABEL_X}\" y=\"{}\" width=\"{w:.1}\" \
                         height=\"{}\"/><text x=\"{}\" y=\"{}\">{} {} ({:.0}% of {})</text>",
                        y + 4.0,
                        row_h - 8.0,
                        limit_x + LIMIT_W * (OVER - 1.0) + 8.0,
                        y + 15.0,
                        j.verdict.code(),
                        time(j.time),
                        j.limit_percent(),
                        time(j.limits.time)
                    );
                }
                CaseOutcome::Error(_) => {
                    let _ = write!(
                        s,
                        "<text x=\"{}\" y=\"{}\">not judged</text>",
                        LABEL_X + 4.0,
                        y + 15.0
                    );
                }
            }
            s.push_str("</g>\n");
        }
        let _ = writeln!(
            s,
            "<line class=\"limit\" x1=\"{limit_x}\" y1=\"{}\" x2=\"{limit_x}\" y2=\"{height}\"/>",
            top - 4.0
        );
        s.push_str("</svg>\n</section>\n");
        s
    }

    /// Per-puzzle times of each case of several puzzles: the range, the
    /// median and the slowest puzzle, on a shared axis.
    fn puzzles_section(&self) -> String {
        let multi: Vec<_> = self
            .rows
            .iter()
            .filter_map(|row| match &row.result.outcome {
                CaseOutcome::Judged(j) if j.puzzles > 1 => {
                    Some((&row.result, j.puzzle_times?, j.slowest))
                }
                _ => None,
            })
            .collect();
        if multi.is_empty() {
            return String::new();
        }
        let mut s = String::from(
            "<section id=\"puzzles\">\n<h2>Per-puzzle times</h2>\n<p class=\"legend\">\
             The line spans the fastest to the slowest puzzle of the first run; the dot is \
             the median, the red mark the slowest puzzle.</p>\n<table>\n<thead><tr><th>case</th>\
             <th>distribution</th><th>min</th><th>median</th><th>max</th><th>slowest</th></tr></thead>\n<tbody>\n",
        );
        let axis_w = 300.0;
        for (result, spread, slowest) in multi {
            let max = spread.max.as_secs_f64().max(f64::MIN_POSITIVE);
            let x = |d: Duration| 6.0 + axis_w * d.as_secs_f64() / max;
            let mut svg = format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"22\" \
                 viewBox=\"0 0 {w} 22\"><line class=\"axis\" x1=\"6\" y1=\"18\" x2=\"{a}\" y2=\"18\"/>\
                 <line class=\"range\" x1=\"{:.1}\" y1=\"11\" x2=\"{:.1}\" y2=\"11\"/>\
                 <circle class=\"median\" cx=\"{:.1}\" cy=\"11\" r=\"4\"/>",
                x(spread.min),
                x(spread.max),
                x(spread.median),
                w = axis_w + 12.0,
                a = axis_w + 6.0,
            );
            let slowest_text = match slowest {
                Some(slow) => {
                    let sx = x(slow.time);
                    let _ = write!(
                        svg,
                        "<path class=\"slowest\" d=\"M{:.1} 2 L{:.1} 2 L{sx:.1} 10 Z\">\
                         <title>slowest: puzzle {}</title></path>",
                        sx - 5.0,
                        sx + 5.0,
                        slow.puzzle
                    );
                    format!(
                        "puzzle {} (line {}), {}",
                        slow.puzzle,
                        slow.line,
                        format_ms(slow.time)
                    )
                }
                None => String::new(),
            };
            svg.push_str("</svg>");
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{svg}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td class=\"slowest-puzzle\">{}</td></tr>",
                result.id.html(),
                format_ms(spread.min),
                format_ms(spread.median),
                format_ms(spread.max),
                escape(&slowest_text)
            );
        }
        s.push_str("</tbody>\n</table>\n</section>\n");
        s
    }

    /// Each case before and after, the changed ones first: a new verdict
    /// (or a case the baseline lacks), then a time past the noise, then
    /// the rest, each in the run's order.
    fn baseline_section(&self) -> String {
        let Some(baseline) = &self.baseline else {
            return String::new();
        };
        let change = |row: &&Row| match row.comparison.as_ref() {
            None => 0,
            Some(c) if c.verdict_change().is_some() => 0,
            Some(c) if matches!(c.trend, Trend::Faster(_) | Trend::Slower(_)) => 1,
            Some(_) => 2,
        };
        let mut rows: Vec<&Row> = self.rows.iter().collect();
        rows.sort_by_key(change);
        let mut s = format!(
            "<section id=\"baseline\">\n<h2>Against {}</h2>\n<p class=\"legend\">New verdicts \
             first, then changed times; the grey bar is before, the coloured one now, on each case's own scale.</p>\n\
             <table>\n<thead><tr><th>case</th><th>before</th><th>now</th><th></th>\
             <th>before</th><th>now</th><th>change</th></tr></thead>\n<tbody>\n",
            OutsideName::new(&baseline.source).html()
        );
        for row in rows {
            let now_time = match &row.result.outcome {
                CaseOutcome::Judged(j) => Some(j.time),
                CaseOutcome::Error(_) => None,
            };
            let (before_verdict, before_time, change) = match &row.comparison {
                Some(c) => (
                    badge(c.before.verdict),
                    c.before.time,
                    match c.describe() {
                        d if d.is_empty() => "same".to_string(),
                        d => d,
                    },
                ),
                None => ("—".to_string(), None, "new".to_string()),
            };
            let scale = before_time
                .unwrap_or_default()
                .max(now_time.unwrap_or_default())
                .as_secs_f64()
                .max(f64::MIN_POSITIVE);
            let bar = |class: &str, y: u32, d: Option<Duration>| {
                d.map_or(String::new(), |d| {
                    format!(
                        "<rect class=\"{class}\" x=\"0\" y=\"{y}\" width=\"{:.1}\" height=\"7\"/>",
                        (160.0 * d.as_secs_f64() / scale).max(1.0)
                    )
                })
            };
            let _ = writeln!(
                s,
                "<tr class=\"v-{}\"><td>{}</td><td>{before_verdict}</td><td>{}</td>\
                 <td><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"160\" height=\"18\" \
                 viewBox=\"0 0 160 18\">{}{}</svg></td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}</td><td>{}</td></tr>",
                class(row.result.verdict()),
                row.result.id.html(),
                badge(row.result.verdict()),
                bar("before", 1, before_time),
                bar("bar", 10, now_time),
                before_time.map_or("—".to_string(), time),
                now_time.map_or("—".to_string(), time),
                escape(&change)
            );
        }
        s.push_str("</tbody>\n</table>\n</section>\n");
        s
    }

    /// Each case not accepted: its reason, the wrong answers as grids and
    /// the rest of its evidence as text.
    fn failures_section(&self) -> String {
        let failed: Vec<&CaseResult> = self
            .rows
            .iter()
            .map(|r| &r.result)
            .filter(|r| !r.passed())
            .collect();
        if failed.is_empty() {
            return String::new();
        }
        let mut s = String::from("<section id=\"failures\">\n<h2>Cases not accepted</h2>\n");
        for r in failed {
            let _ = write!(
                s,
                "<div class=\"failure v-{}\" data-case=\"{}\">\n<h3>{} {}</h3>\n",
                class(r.verdict()),
                r.id.html(),
                badge(r.verdict()),
                r.id.html()
            );
            match &r.outcome {
                CaseOutcome::Error(e) => {
                    let _ = writeln!(s, "<p>{}</p>", super::reason_words::unjudged(e).html());
                }
                CaseOutcome::Judged(j) => {
                    let _ = writeln!(s, "<p>{}</p>", super::reason_words::sentence(j).html());
                    s.push_str(&details(&j.details.terminal().to_string()));
                    if !j.stderr.is_empty() {
                        let _ = writeln!(
                            s,
                            "<p class=\"legend\">its stderr:</p><pre>{}</pre>",
                            j.stderr.html()
                        );
                    }
                }
            }
            s.push_str("</div>\n");
        }
        s.push_str("</section>\n");
        s
    }

    /// With `--show-output`, what each accepted case printed beside its
    /// answers: its own stdout and its stderr, as the judge kept them.
    fn output_section(&self) -> String {
        if !self.show_output {
            return String::new();
        }
        let printed: Vec<(&CaseResult, &Judgement)> = self
            .rows
            .iter()
            .filter(|r| r.result.passed())
            .filter_map(|r| match &r.result.outcome {
                CaseOutcome::Judged(j)
                    if !j.stdout.is_empty() || !j.stderr.as_raw().trim().is_empty() =>
                {
                    Some((&r.result, &**j))
                }
                _ => None,
            })
            .collect();
        let mut s = String::from("<section id=\"output\">\n<h2>What accepted cases printed</h2>\n");
        if printed.is_empty() {
            s.push_str("<p>No accepted case printed anything beside its answers.</p>\n");
        }
        for (r, j) in printed {
            let _ = writeln!(
                s,
                "<div class=\"output\" data-case=\"{}\">\n<h3>{}</h3>",
                r.id.html(),
                r.id.html()
            );
            for (legend, text) in [
                ("its own stdout (not part of the answers):", &j.stdout),
                ("its stderr:", &j.stderr),
            ] {
                if !text.as_raw().trim().is_empty() {
                    let _ = writeln!(
                        s,
                        "<p class=\"legend\">{legend}</p><pre>{}</pre>",
                        text.html()
                    );
                }
            }
            s.push_str("</div>\n");
        }
        s.push_str("</section>\n");
        s
    }
}

/// A grid pair read back from the judge's drawing: the titles, and each
/// side's 81 cells as (kind, digit).
struct GridPair {
    titles: (String, String),
    left: Vec<(CellKind, char)>,
    right: Vec<(CellKind, char)>,
}

/// `details` as HTML: each drawn grid pair as two grids, the lines
/// between them as text.
fn details(details: &str) -> String {
    let mut out = String::new();
    let mut text: Vec<&str> = Vec::new();
    let mut pair: Option<GridPair> = None;
    // Text is a box of its own; the lines that only title the grids after
    // them (`the answer:`, `puzzle 2 (input line 2):`) are their heading,
    // not a box that would stand empty above them.
    let flush_text = |text: &mut Vec<&str>, out: &mut String, grids_follow: bool| {
        let heading = text.len()
            - text
                .iter()
                .rev()
                .take_while(|line| grids_follow && line.trim_end().ends_with(':'))
                .count();
        let body = text[..heading].join("\n");
        if !body.trim().is_empty() {
            let _ = writeln!(out, "<pre>{}</pre>", escape(&body));
        }
        for line in &text[heading..] {
            let _ = writeln!(out, "<p class=\"heading\">{}</p>", escape(line.trim()));
        }
        text.clear();
    };
    // The text legends say what the grids' markup does; the page has its own.
    let legends = [
        diff::GRID_LEGEND.trim_end(),
        diff::GRID_LEGEND_RULES.trim_end(),
    ];
    for line in details.lines().filter(|l| !legends.contains(&l.trim())) {
        let is_rule = line.trim_start().starts_with("+---------+");
        if let Some(parts) = diff::grid_row_parts(line) {
            let cells: Vec<(CellKind, char)> = parts
                .iter()
                .filter_map(|part| match part {
                    RowPart::Cell(kind, text) => Some((*kind, text.chars().nth(1)?)),
                    RowPart::Text(_) => None,
                })
                .collect();
            if let Some(p) = &mut pair {
                p.left.extend_from_slice(&cells[..9]);
                p.right.extend_from_slice(&cells[9..]);
            }
        } else if is_rule {
            if pair.is_none() {
                // The line before the first rule holds the two titles.
                let titles = text.pop().unwrap_or_default();
                flush_text(&mut text, &mut out, true);
                let chars: Vec<char> = titles.chars().collect();
                let cut = 2 + 31 + 3;
                let left: String = chars.iter().take(cut).collect();
                let right: String = chars.iter().skip(cut).collect();
                pair = Some(GridPair {
                    titles: (left.trim().to_string(), right.trim().to_string()),
                    left: Vec::new(),
                    right: Vec::new(),
                });
            }
        } else {
            if let Some(p) = pair.take() {
                out.push_str(&grid_pair(&p));
            }
            text.push(line);
        }
    }
    if let Some(p) = pair.take() {
        out.push_str(&grid_pair(&p));
    }
    flush_text(&mut text, &mut out, false);
    out
}

fn grid_pair(pair: &GridPair) -> String {
    if pair.left.len() != 81 || pair.right.len() != 81 {
        return String::new();
    }
    let mut s = String::from("<div class=\"grids\">");
    for (title, cells) in [(&pair.titles.0, &pair.left), (&pair.titles.1, &pair.right)] {
        let _ = write!(
            s,
            "<figure><figcaption>{}</figcaption><table class=\"grid\">",
            escape(title)
        );
        for row in cells.chunks(9) {
            s.push_str("<tr>");
            for &(kind, digit) in row {
                let shown = if digit == '.' { ' ' } else { digit };
                let _ = write!(
                    s,
                    "<td class=\"{}\">{shown}</td>",
                    match kind {
                        CellKind::Given => "given",
                        CellKind::Filled => "filled",
                        CellKind::Marked => "wrong",
                    }
                );
            }
            s.push_str("</tr>");
        }
        s.push_str("</table></figure>");
    }
    s.push_str(
        "</div>\n<p class=\"legend\">Bold on grey: a given. Red: where the answer is wrong.</p>\n",
    );
    s
}

impl<W: Write> Reporter for HtmlReporter<W> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        match event {
            Event::Started {
                submission,
                build,
                sandbox,
                problems,
                warnings,
                ..
            } => {
                self.started(submission, build, sandbox, problems, warnings);
            }
            Event::CaseFinished(result) => {
                let comparison = self.baseline.as_ref().and_then(|b| b.compare(result));
                self.rows.push(Row {
                    result: result.clone(),
                    comparison,
                });
            }
            Event::Answered(_) => {}
            Event::Finished { summary } => {
                let page = self.page(summary);
                if let Some(mut out) = self.out.take() {
                    out.write_all(page.as_bytes())?;
                    out.flush()?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{every_verdict, report_run};

    fn machine() -> Machine {
        Machine {
            cpu: "AMD EPYC".into(),
            cores: 2,
            kernel: "Linux 6.1".into(),
        }
    }

    fn render(results: &[CaseResult]) -> String {
        let mut out = Vec::new();
        report_run(&mut HtmlReporter::new(&mut out, machine()), results);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_verdict_gets_a_bar_and_the_wrong_answer_its_grids() {
        let page = render(&every_verdict());
        let doc = scraper::Html::parse_document(&page);
        assert!(doc.errors.is_empty(), "{:?}", doc.errors);
        let select = |css: &str| {
            doc.select(&scraper::Selector::parse(css).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(select("svg.times g.case rect.bar").len(), 8);
        assert_eq!(select("svg.times g.v-error").len(), 1);
        assert_eq!(select("svg.times line.limit").len(), 1);
        assert!(page.contains("machine</dt><dd>AMD EPYC, 2 cores, Linux 6.1"));
        let summary: String = select("#summary")[0].text().collect();
        assert!(summary.starts_with("1 passed, 8 failed"), "{summary}");
        // Two puzzles a case: the spread, with the slowest marked.
        assert_eq!(select("#puzzles path.slowest").len(), 9 - 1);
        assert_eq!(select("div.failure").len(), 8);
    }

    #[test]
    fn what_a_case_names_is_shown_never_run() {
        let mut results = every_verdict();
        results[1].id = "suite/<script>alert(1)</script>\u{1b}[2J".into();
        let page = render(&results);
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J"));
    }

    #[test]
    fn a_drawn_grid_pair_becomes_two_grids_with_givens_and_wrong_cells() {
        use crate::board::{format::puzzle, EXAMPLE, EXAMPLE_ANSWER};
        let (puzzle, answer) = (puzzle(EXAMPLE), puzzle(EXAMPLE_ANSWER));
        let mut wrong = answer;
        let cell = crate::board::Cell::new(0, 2);
        wrong.set(cell, crate::board::Digit::new(5));
        let mut marked = [false; 81];
        marked[cell.index()] = true;
        let drawn = diff::grids("expected", &answer, "your answer", &wrong, &puzzle, &marked);
        let html = details(&format!("puzzle 1:\n{drawn}after\n"));
        let doc = scraper::Html::parse_fragment(&html);
        let count = |css: &str| doc.select(&scraper::Selector::parse(css).unwrap()).count();
        assert_eq!(count("table.grid"), 2);
        assert_eq!(count("table.grid td"), 162);
        assert_eq!(count("td.wrong"), 1);
        assert_eq!(count("td.given"), 2 * puzzle.filled());
        assert!(
            html.contains("<figcaption>your answer</figcaption>"),
            "{html}"
        );
        // The lines that title the grids are their heading: no box of
        // their own, which would stand empty above them.
        assert!(
            html.starts_with("<p class=\"heading\">puzzle 1:</p>\n<div class=\"grids\">"),
            "{html}"
        );
        assert!(html.ends_with("<pre>after</pre>\n"), "{html}");
        let answer = details(&format!("why it failed\nthe answer:\n{drawn}"));
        assert!(
            answer.starts_with(
                "<pre>why it failed</pre>\n<p class=\"heading\">the answer:</p>\n<div"
            ),
            "{answer}"
        );
        assert!(!answer.contains("<pre>the answer:"), "{answer}");
    }
}
