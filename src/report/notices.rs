//! The short lines commands say beside their main output: a warning that
//! something was not recorded, a submission that did not compile, what
//! `--keep` kept, a puzzle `solve` could not solve, and each round of
//! `test --watch`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::outside::{Outside, OutsidePath};
use crate::words::{one_or_many, plural};

/// Something went wrong that is no reason to fail the command; `lost` says
/// what the user will miss.
pub(crate) fn warning(out: &mut dyn Write, error: &anyhow::Error, lost: &str) -> io::Result<()> {
    writeln!(
        out,
        "warning: {}; {lost}",
        Outside::new(format!("{error:#}")).terminal()
    )
}

/// A problem in what was read from `source`, that did not stop the command.
pub(crate) fn read_warning(out: &mut dyn Write, source: &str, warning: &str) -> io::Result<()> {
    writeln!(
        out,
        "warning: {}: {}",
        Outside::new(source).terminal(),
        Outside::new(warning).terminal()
    )
}

/// `test` with no path where there is no `cases/`: the shipped suites are
/// judged, and from where.
pub(crate) fn shipped_cases(out: &mut dyn Write, dir: &Path, filters: &[String]) -> io::Result<()> {
    let what = match filters {
        [] => "the suites shipped with sudoku-judge".to_string(),
        _ => "cases of the suites shipped with sudoku-judge".to_string(),
    };
    writeln!(
        out,
        "note: no cases/ here, so judging {what} ({}), written out in {}; \
         `sudoku-judge cases --out DIR` copies them to edit",
        crate::shipped::suites().join(", "),
        OutsidePath::new(dir).terminal()
    )
}

/// `sudoku-judge cases`: the shipped suites, a line each.
pub(crate) fn shipped_list(out: &mut dyn Write) -> io::Result<()> {
    let files = crate::shipped::files();
    for suite in crate::shipped::suites() {
        let inputs = files
            .iter()
            .filter(|(path, _)| path.starts_with(suite))
            .filter(|(path, _)| {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                name.ends_with(".in") || name == "input.txt"
            })
            .count();
        writeln!(out, "{suite:<16} {}", plural(inputs, "case"))?;
    }
    writeln!(
        out,
        "judge them with `sudoku-judge test SUITE` where there is no cases/ directory, or write \
         a copy with `sudoku-judge cases --out DIR`"
    )
}

/// `sudoku-judge cases --out DIR`: what was written.
pub(crate) fn shipped_written(out: &mut dyn Write, dir: &Path, files: usize) -> io::Result<()> {
    writeln!(
        out,
        "wrote {} of the shipped suites into {}; next: sudoku-judge test {}",
        plural(files, "file"),
        OutsidePath::new(dir).terminal(),
        crate::outside::shell_path(dir)
    )
}

/// `test --failed` after a run where everything was accepted.
pub(crate) fn nothing_failed(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "the last run here had no failures; nothing to rerun")
}

/// What `--keep` kept in `dir`, when it kept anything.
pub(crate) fn kept(out: &mut dyn Write, cases: usize, dir: &Path) -> io::Result<()> {
    if cases == 0 {
        return Ok(());
    }
    writeln!(
        out,
        "kept what {} not accepted {} given and gave back in {}/",
        plural(cases, "case"),
        one_or_many(cases as u64, "was", "were"),
        OutsidePath::new(dir).terminal()
    )
}

/// Where `--save-baseline NAME` kept this run.
pub(crate) fn baseline_saved(out: &mut dyn Write, name: &str, path: &Path) -> io::Result<()> {
    writeln!(
        out,
        "saved this run as baseline {name} ({}); compare with it by --baseline {name}",
        OutsidePath::new(path).terminal()
    )
}

/// Where `--html` wrote the report, to open in a browser.
pub(crate) fn html_written(out: &mut dyn Write, path: &Path) -> io::Result<()> {
    writeln!(
        out,
        "wrote the HTML report to {}; open it in a browser",
        OutsidePath::new(path).terminal()
    )
}

/// A submission of `stress` or `hack` (`what`: its source, or "the brute
/// force SOURCE") that did not compile, with the compiler's message.
pub(crate) fn did_not_compile(out: &mut dyn Write, what: &str, message: &str) -> io::Result<()> {
    writeln!(
        out,
        "{} did not compile:\n{}",
        Outside::new(what).terminal(),
        Outside::new(message).terminal()
    )
}

/// `solve` found no solution for puzzle `n` (from 0), at `line` of its input.
pub(crate) fn unsolved(out: &mut dyn Write, n: usize, line: usize) -> io::Result<()> {
    writeln!(
        out,
        "puzzle {} (line {line}) has no solution; printed as given",
        n + 1
    )
}

/// The line that opens round `round` of `test --watch`, after a change to
/// `why` (none for the first round).
pub(crate) fn watch_round(out: &mut dyn Write, round: u64, why: Option<&str>) -> io::Result<()> {
    match why {
        Some(why) => writeln!(
            out,
            "watch: run {round}, after a change to {}",
            Outside::new(why).terminal()
        ),
        None => writeln!(
            out,
            "watch: run {round}; judging again whenever the submission, a case or a \
             judge.toml changes (Ctrl-C ends the watch)"
        ),
    }
}

/// What parts a watch's rounds off a terminal, where the screen is not
/// cleared.
pub(crate) fn watch_separator(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "\n{}", "=".repeat(72))
}

/// The end of a watch's round; also the end of a run for editors that
/// follow the watch (see the VS Code task in docs/practice.md).
pub(crate) fn watch_waiting(out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "watch: waiting for a change (Ctrl-C ends the watch)")
}

/// A round of the watch that could not judge (a submission that does not
/// build, a case gone for a moment); the watch waits for the next change.
pub(crate) fn watch_error(out: &mut dyn Write, error: &anyhow::Error) -> io::Result<()> {
    writeln!(
        out,
        "error: {}",
        Outside::new(format!("{error:#}")).terminal()
    )
}

/// The files whose change started a round, shown relative to `here`: up to
/// three by name, then how many more.
pub(crate) fn changed(paths: &[PathBuf], here: &Path) -> String {
    let names: Vec<String> = paths
        .iter()
        .take(3)
        .map(|p| p.strip_prefix(here).unwrap_or(p).display().to_string())
        .collect();
    match paths.len() {
        0 => "a file, during the run".to_string(),
        n if n > 3 => format!("{} and {} more", names.join(", "), n - 3),
        _ => names.join(", "),
    }
}
