//! The progress line under the table on a terminal: cases done, puzzles
//! answered (which moves inside a long case too), failures so far, the time
//! taken and, once it can be estimated, the time left.
//!
//! It wraps the table's reporter and draws on stderr, only when stderr is a
//! terminal. Nothing is drawn before the table's header, the table's lines
//! are printed with the bar lifted, and the line always fits the terminal
//! with room to spare and the cursor left at its end (see `Stderr`), so
//! neither a narrow terminal nor the `^C` a terminal echoes on Ctrl-C can
//! make it wrap and leave a stale copy behind.

use std::io::{self, IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};

use crate::results::{Event, Reporter};

/// Columns left free at the end of the line: the terminal's `^C` echo
/// lands there.
const MARGIN: usize = 3;
/// The bar's widest and narrowest; narrower than that, it is left out.
const BAR_WIDEST: usize = 30;
const BAR_NARROWEST: usize = 10;

/// What the line says, at one moment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Status {
    pub(crate) done: usize,
    pub(crate) total: usize,
    pub(crate) answered: usize,
    pub(crate) failed: usize,
    pub(crate) elapsed: Duration,
}

impl Status {
    /// The time left, from the cases done so far: none before the first
    /// one is done. The time of the case still running counts, so inside
    /// a long case the estimate grows rather than saying `0s`.
    pub(crate) fn eta(&self) -> Option<Duration> {
        (self.done > 0 && self.done < self.total).then(|| {
            self.elapsed
                .mul_f64((self.total - self.done) as f64 / self.done as f64)
        })
    }

    /// The time left as the line says it, after a `, `: `, eta 42s`, or
    /// `, eta <1s` for under a second; empty before it can be estimated.
    fn eta_text(&self) -> String {
        match self.eta() {
            Some(eta) if eta < Duration::from_secs(1) => ", eta <1s".to_string(),
            Some(eta) => format!(", eta {}", short(eta)),
            None => String::new(),
        }
    }

    /// The line, at most `width - MARGIN` characters: the bar and the
    /// words give way, least needed first, before the counts do.
    pub(crate) fn line(&self, width: usize) -> String {
        let room = width.saturating_sub(MARGIN);
        let cases = format!("{}/{} cases", self.done, self.total);
        let time = format!("{}{}", short(self.elapsed), self.eta_text());
        let failed = self.failed;
        let answered = crate::words::plural(self.answered, "puzzle");
        // Richest first; the bar goes before any count does.
        let candidates = [
            (
                format!("{cases}, {answered} answered, {failed} failed ({time})"),
                true,
            ),
            (
                format!("{cases}, {answered}, {failed} failed ({time})"),
                true,
            ),
            (
                format!("{cases}, {answered}, {failed} failed ({time})"),
                false,
            ),
            (format!("{cases}, {answered}, {failed} failed"), false),
            (format!("{cases}, {failed} failed"), false),
            (cases, false),
        ];
        for (text, with_bar) in &candidates {
            let len = "judging ".len() + text.chars().count();
            if !with_bar && len <= room {
                return format!("judging {text}");
            }
            // " [" + bar + "]" after the word `judging`.
            let bar = room.saturating_sub(len + 3).min(BAR_WIDEST);
            if *with_bar && bar >= BAR_NARROWEST {
                return format!("judging [{}] {text}", self.bar(bar));
            }
        }
        let (last, _) = &candidates[candidates.len() - 1];
        last.chars().take(room).collect()
    }

    fn bar(&self, width: usize) -> String {
        let filled = (width * self.done)
            .checked_div(self.total)
            .unwrap_or(0)
            .min(width);
        let mut bar = "=".repeat(filled);
        if filled < width {
            bar.push(if filled > 0 { '>' } else { ' ' });
            bar.push_str(&" ".repeat(width - filled - 1));
        }
        bar
    }
}

/// For any bar's template, a `{eta}` that says nothing until a step is
/// done, and never `0s` while steps are left (see [`Status::eta`]); written
/// with its leading `, `.
pub(crate) fn eta_key(state: &ProgressState, out: &mut dyn std::fmt::Write) {
    let status = Status {
        done: state.pos() as usize,
        total: state.len().unwrap_or(0) as usize,
        answered: 0,
        failed: 0,
        elapsed: state.elapsed(),
    };
    let _ = out.write_str(&status.eta_text());
}

/// A duration as the line shows it: `42s`, `3m07s`, `1h05m`.
pub(crate) fn short(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}

/// The size of the terminal stderr is, as (columns, rows).
fn stderr_size() -> Option<(usize, usize)> {
    terminal_size::terminal_size_of(io::stderr()).map(|(w, h)| (usize::from(w.0), usize::from(h.0)))
}

/// stderr as indicatif draws on it, but for two things: lines are laid out
/// [`MARGIN`] columns short of the edge, and the spaces indicatif pads a
/// line with up to that width are left out. That padding
/// leaves the cursor at the edge, where the `^C` a terminal echoes on
/// Ctrl-C wraps onto a line of its own, and the bar line above it is left
/// behind when the bar is cleared. Each line is cleared before it is drawn,
/// so the padding erases nothing that needs erasing.
#[derive(Debug, Default)]
struct Stderr {
    buffer: Mutex<Vec<u8>>,
}

impl Stderr {
    fn buffer(&self) -> io::Result<MutexGuard<'_, Vec<u8>>> {
        (self.buffer.lock())
            .map_err(|_| io::Error::other("the progress line's buffer was poisoned"))
    }

    fn push(&self, bytes: &[u8]) -> io::Result<()> {
        self.buffer()?.extend_from_slice(bytes);
        Ok(())
    }

    /// Moves the cursor `n` places in `direction`, an ANSI cursor code.
    fn cursor(&self, n: usize, direction: char) -> io::Result<()> {
        match n {
            0 => Ok(()),
            n => self.push(format!("\x1b[{n}{direction}").as_bytes()),
        }
    }
}

/// Whether a progress line may be drawn: when stderr is a terminal and
/// stdout is that same terminal, or a file (`> out.txt`, `/dev/null`),
/// where nothing of the line goes. Not when stdout is a pipe (`| less`,
/// `| cat`): what the pipe prints may land on the same terminal, and the
/// line would be drawn into the middle of it.
#[cfg(unix)]
pub(crate) fn drawn() -> bool {
    use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
    if !io::stderr().is_terminal() {
        return false;
    }
    let stat = |fd: &str| std::fs::metadata(format!("/proc/self/fd/{fd}"));
    let (Ok(out), Ok(err)) = (stat("1"), stat("2")) else {
        return false;
    };
    if io::stdout().is_terminal() {
        return out.rdev() == err.rdev();
    }
    let kind = out.file_type();
    kind.is_file() || kind.is_char_device()
}

/// Whether a progress line may be drawn, on Windows: when stdout and
/// stderr are both the console (a process has one), and it takes the
/// line's escape sequences. Whether a redirected stdout is a file or a
/// pipe, std does not tell, so then none is drawn.
#[cfg(windows)]
pub(crate) fn drawn() -> bool {
    io::stderr().is_terminal()
        && io::stdout().is_terminal()
        && super::terminal::stderr_draws_escapes()
}

/// A draw target for any progress bar: stderr through `Stderr`, so a bar
/// whose template has a `wide_` element is laid out short of the last
/// columns.
pub(crate) fn stderr_target() -> ProgressDrawTarget {
    ProgressDrawTarget::term_like_with_hz(Box::new(Stderr::default()), 20)
}

/// A progress bar for `len` steps of `what` on stderr when it is a
/// terminal; hidden otherwise, so nothing of it reaches a pipe or a log.
/// Its message is cut to fit the terminal, so the line never wraps.
pub(crate) fn bar(len: u64, what: &str) -> ProgressBar {
    drawn_bar(
        Some(len),
        what,
        "{prefix} [{bar:20}] {pos}/{len} ({elapsed}{eta}) {wide_msg}",
        false,
    )
}

/// As [`bar`], without the bar itself, leaving the message room: for
/// steps that each take long enough to say how far one has got. It is
/// redrawn as the time passes, not only as steps end.
pub(crate) fn counter(len: u64, what: &str) -> ProgressBar {
    drawn_bar(
        Some(len),
        what,
        "{prefix} {pos}/{len} ({elapsed}{eta}) {wide_msg}",
        true,
    )
}

/// A spinner with a message, for work of unknown length; hidden off a
/// terminal, like [`bar`].
pub(crate) fn spinner(what: &str) -> ProgressBar {
    drawn_bar(None, what, "{spinner} {prefix} {msg} ({elapsed})", true)
}

/// A bar of `template` prefixed with `what` when one may be drawn (see
/// [`drawn`]), redrawn as the time passes when `steady`; hidden otherwise.
fn drawn_bar(len: Option<u64>, what: &str, template: &str, steady: bool) -> ProgressBar {
    if !drawn() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(len, stderr_target());
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("a valid template")
            .with_key("eta", eta_key)
            .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    if steady {
        bar.enable_steady_tick(Duration::from_millis(200));
    }
    bar
}

impl TermLike for Stderr {
    /// The terminal's width less the [`MARGIN`], which is what indicatif
    /// lays lines out to.
    fn width(&self) -> u16 {
        let width = stderr_size().map_or(80, |(w, _)| w).saturating_sub(MARGIN);
        u16::try_from(width).unwrap_or(u16::MAX)
    }

    fn height(&self) -> u16 {
        stderr_size().map_or(24, |(_, h)| u16::try_from(h).unwrap_or(u16::MAX))
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'A')
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'B')
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'C')
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.cursor(n, 'D')
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.push(s.as_bytes())?;
        self.push(b"\n")
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        // Padding to the edge, after a line or within it (a `wide_msg`).
        self.push(s.trim_end_matches(' ').as_bytes())
    }

    fn clear_line(&self) -> io::Result<()> {
        self.push(b"\r\x1b[2K")
    }

    fn flush(&self) -> io::Result<()> {
        let bytes = std::mem::take(&mut *self.buffer()?);
        let mut stderr = io::stderr().lock();
        stderr.write_all(&bytes)?;
        stderr.flush()
    }
}

/// The progress line of a `test` run: report through
/// [`TestProgress::wrap`].
pub(crate) struct TestProgress {
    /// Whether the line is drawn (see [`drawn`]); when not, nothing is.
    shown: bool,
    /// The answers checked, as the judge last told ([`Event::Answered`]).
    answered: Arc<AtomicUsize>,
    failed: Arc<AtomicUsize>,
    bar: Option<ProgressBar>,
}

impl TestProgress {
    pub(crate) fn new() -> Self {
        TestProgress {
            shown: drawn(),
            answered: Arc::new(AtomicUsize::new(0)),
            failed: Arc::new(AtomicUsize::new(0)),
            bar: None,
        }
    }

    pub(crate) fn wrap<'a>(&'a mut self, inner: &'a mut dyn Reporter) -> ProgressReporter<'a> {
        ProgressReporter {
            progress: self,
            inner,
        }
    }

    /// The bar, drawn from now on, under what has been printed.
    fn start(&mut self, cases: usize) {
        if !self.shown {
            return;
        }
        let (answered, failed) = (Arc::clone(&self.answered), Arc::clone(&self.failed));
        let style = ProgressStyle::with_template("{status}")
            .expect("a valid template")
            .with_key(
                "status",
                move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let status = Status {
                        done: state.pos() as usize,
                        total: state.len().unwrap_or(0) as usize,
                        answered: answered.load(Ordering::Relaxed),
                        failed: failed.load(Ordering::Relaxed),
                        elapsed: state.elapsed(),
                    };
                    let width = stderr_size().map_or(80, |(w, _)| w);
                    let _ = out.write_str(&status.line(width));
                },
            );
        let bar = ProgressBar::with_draw_target(Some(cases as u64), stderr_target());
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(200));
        self.bar = Some(bar);
    }
}

impl Default for TestProgress {
    fn default() -> Self {
        Self::new()
    }
}

/// The table's reporter, with the bar lifted while it prints.
pub(crate) struct ProgressReporter<'a> {
    progress: &'a mut TestProgress,
    inner: &'a mut dyn Reporter,
}

impl Reporter for ProgressReporter<'_> {
    fn report(&mut self, event: Event<'_>) -> io::Result<()> {
        match event {
            Event::Started { cases, .. } => {
                // The header first: nothing of the bar may be above it.
                self.inner.report(event)?;
                self.progress.start(cases);
                Ok(())
            }
            Event::CaseFinished(result) => {
                if !result.passed() {
                    self.progress.failed.fetch_add(1, Ordering::Relaxed);
                }
                match &self.progress.bar {
                    Some(bar) => {
                        let reported = bar.suspend(|| self.inner.report(event));
                        bar.inc(1);
                        reported
                    }
                    None => self.inner.report(event),
                }
            }
            Event::Answered(count) => {
                self.progress.answered.store(count, Ordering::Relaxed);
                self.inner.report(event)
            }
            Event::Finished { .. } => {
                if let Some(bar) = self.progress.bar.take() {
                    bar.finish_and_clear();
                }
                self.inner.report(event)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(done: usize, total: usize, elapsed_s: u64) -> Status {
        Status {
            done,
            total,
            answered: 31_400,
            failed: 1,
            elapsed: Duration::from_secs(elapsed_s),
        }
    }

    #[test]
    fn no_eta_until_a_case_is_done_and_none_that_says_zero_while_one_runs() {
        assert_eq!(status(0, 11, 5).eta(), None);
        assert!(!status(0, 11, 5).line(200).contains("eta"));
        assert_eq!(status(1, 11, 5).eta(), Some(Duration::from_secs(50)));
        // A long case running: the estimate grows with the time it takes.
        assert_eq!(status(1, 11, 9).eta(), Some(Duration::from_secs(90)));
        assert_eq!(status(11, 11, 9).eta(), None);
        // Never `eta 0s` while a case is left.
        let nearly = Status {
            elapsed: Duration::from_millis(900),
            ..status(10, 11, 0)
        };
        assert!(
            nearly.line(200).ends_with("(0s, eta <1s)"),
            "{}",
            nearly.line(200)
        );
    }

    #[test]
    fn the_line_fits_every_width_with_room_for_the_ctrl_c_echo() {
        for width in [20, 40, 60, 80, 100, 200] {
            for done in [0, 4, 11] {
                let line = status(done, 11, 75).line(width);
                assert!(line.chars().count() <= width - MARGIN, "{width}: {line}");
            }
        }
        assert_eq!(
            status(4, 11, 75).line(200),
            "judging [==========>                   ] 4/11 cases, 31400 puzzles answered, 1 \
             failed (1m15s, eta 2m11s)"
        );
        assert_eq!(
            status(4, 11, 75).line(80),
            "judging [====>       ] 4/11 cases, 31400 puzzles, 1 failed (1m15s, eta 2m11s)"
        );
        assert_eq!(
            status(0, 11, 2).line(60),
            "judging 0/11 cases, 31400 puzzles, 1 failed (2s)"
        );
    }

    #[test]
    fn one_puzzle_is_one_puzzle() {
        let one = Status {
            answered: 1,
            ..status(0, 1, 2)
        };
        assert!(
            one.line(200).contains(" 1 puzzle answered, "),
            "{}",
            one.line(200)
        );
        assert!(one.line(60).contains(", 1 puzzle, "), "{}", one.line(60));
    }
}
