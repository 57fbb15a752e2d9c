//! What a run is fed and what it records puzzle by puzzle: a case's
//! puzzles made into input lines as the submission reads them, the time of
//! each call of a function submission, and what such a submission printed
//! itself.

use std::io::{self, Read};
use std::time::Duration;

use crate::case::Boards;
use crate::check::Head;
use crate::stats::Spread;

/// The time of each call of a function submission, summed and spread
/// without keeping each one (a case may hold a million puzzles): the
/// spread comes from a histogram exact to three significant digits.
pub struct PuzzleTimes {
    total: Duration,
    histogram: hdrhistogram::Histogram<u64>,
    /// Times recorded so far.
    count: usize,
    /// The slowest puzzle's index (from 0) and time in nanoseconds.
    slowest: Option<(usize, u64)>,
}

impl Default for PuzzleTimes {
    fn default() -> Self {
        PuzzleTimes {
            total: Duration::ZERO,
            histogram: hdrhistogram::Histogram::new(3).expect("3 significant figures are allowed"),
            count: 0,
            slowest: None,
        }
    }
}

impl PuzzleTimes {
    /// Records the next puzzle's time.
    pub fn record(&mut self, ns: u64) {
        if self.slowest.is_none_or(|(_, most)| ns > most) {
            self.slowest = Some((self.count, ns));
        }
        self.count += 1;
        self.total += Duration::from_nanos(ns);
        // It grows to hold any value; should growing fail, the value is
        // recorded as the largest it can hold.
        if self.histogram.record(ns).is_err() {
            self.histogram.saturating_record(ns);
        }
    }

    /// The time of every call together.
    pub fn total(&self) -> Duration {
        self.total
    }

    /// The slowest puzzle, its index from 0 and its time (the first of
    /// equals).
    pub fn slowest(&self) -> Option<(usize, Duration)> {
        self.slowest.map(|(i, ns)| (i, Duration::from_nanos(ns)))
    }

    pub fn spread(&self) -> Option<Spread> {
        if self.histogram.is_empty() {
            return None;
        }
        Some(Spread {
            min: Duration::from_nanos(self.histogram.min()),
            median: Duration::from_nanos(self.histogram.value_at_quantile(0.5)),
            max: Duration::from_nanos(self.histogram.max()),
        })
    }
}

/// A case's puzzles as AcWing input lines, followed by `trailer` (`end\n`
/// for a program, a blank line for a worker to answer what it holds),
/// made as the submission reads them. A line of the case that is not a
/// puzzle ends them early, before it, so that the submission never sees
/// it: the checker, reading the case in step, names it as the case's
/// fault.
pub struct PuzzleLines<'a> {
    boards: Boards<'a>,
    buf: Vec<u8>,
    at: usize,
    trailer: Option<&'static str>,
    /// Puzzles made so far.
    made: usize,
}

impl<'a> PuzzleLines<'a> {
    pub fn new(boards: Boards<'a>, trailer: &'static str) -> Self {
        PuzzleLines {
            boards,
            buf: Vec::new(),
            at: 0,
            trailer: Some(trailer),
            made: 0,
        }
    }

    /// How many puzzles have been made, once the trailer has: `None` while
    /// more may come.
    pub fn all_made(&self) -> Option<usize> {
        self.trailer.is_none().then_some(self.made)
    }
}

impl Read for PuzzleLines<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.buf.len() {
            self.buf.clear();
            self.at = 0;
            // A few hundred lines at a time.
            while self.buf.len() < 32 << 10 {
                match self.boards.next_line() {
                    Some(Ok((_, line))) => {
                        // A blank is '.', as LeetCode's boards write it.
                        let dotted = line.iter().map(|&b| if b == b'0' { b'.' } else { b });
                        self.buf.extend(dotted);
                        self.buf.push(b'\n');
                        self.made += 1;
                    }
                    Some(Err(_)) | None => {
                        if let Some(trailer) = self.trailer.take() {
                            self.buf.extend_from_slice(trailer.as_bytes());
                        }
                        break;
                    }
                }
            }
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// What a function submission printed itself: the first
/// [`crate::check::KEEP`] bytes, how many lines in all, and its last line.
#[derive(Default)]
pub struct OwnOutput {
    head: Head,
    lines: usize,
    /// Whether the last byte seen ended a line.
    at_line_start: bool,
    any: bool,
    /// The line being printed, and the last one finished, each cut at
    /// [`LAST_LINE_BYTES`].
    current: Vec<u8>,
    finished: Vec<u8>,
}

/// At most this much of the last line printed is kept.
const LAST_LINE_BYTES: usize = 1024;

/// What [`OwnOutput`] kept.
pub struct OwnText {
    /// The first [`crate::check::KEEP`] bytes.
    pub head: String,
    /// How many lines in all (a last one without a newline counts).
    pub lines: usize,
    /// When `head` is not all of it: the last line, which it lacks.
    pub last_line: Option<String>,
}

impl OwnOutput {
    pub fn feed(&mut self, chunk: &[u8]) {
        self.head.push(chunk);
        self.lines += chunk.iter().filter(|&&b| b == b'\n').count();
        if let Some(&last) = chunk.last() {
            self.any = true;
            self.at_line_start = last == b'\n';
        }
        let mut pieces = chunk.split(|&b| b == b'\n').peekable();
        while let Some(piece) = pieces.next() {
            let room = LAST_LINE_BYTES.saturating_sub(self.current.len());
            self.current
                .extend_from_slice(&piece[..piece.len().min(room)]);
            if pieces.peek().is_some() {
                // A newline ended the line.
                self.finished = std::mem::take(&mut self.current);
            }
        }
    }

    pub fn finish(self) -> OwnText {
        let lines = self.lines + usize::from(self.any && !self.at_line_start);
        let last = if self.current.is_empty() {
            self.finished
        } else {
            self.current
        };
        OwnText {
            head: self.head.text(),
            lines,
            last_line: (!self.head.is_whole()).then(|| String::from_utf8_lossy(&last).into_owned()),
        }
    }
}
