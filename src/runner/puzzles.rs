//! What a run is fed and what it records puzzle by puzzle: a case's
//! puzzles made into input lines as the submission reads them, the time of
//! each answer, and what a function submission printed itself.

use std::io::{self, Read};
use std::time::Duration;

use crate::case::Boards;
use crate::check::Head;
use crate::stats::Spread;

/// The time of each call of a function submission, summed and spread
/// without keeping each one (a case may hold a million puzzles). The first
/// [`EXACT`] times are kept as they are, and their spread is exact; past
/// them, the spread comes from a histogram exact to three significant
/// digits. Most cases hold one puzzle or a few, and a histogram's counts
/// (tens of kilobytes, zeroed as it grows) cost more than the run of a
/// one-puzzle case is worth.
#[derive(Default)]
pub(crate) struct PuzzleTimes {
    total: Duration,
    /// The times so far, while there are at most [`EXACT`] of them.
    exact: Vec<u64>,
    /// Every time, once there were more than [`EXACT`].
    histogram: Option<hdrhistogram::Histogram<u64>>,
    /// Times recorded so far.
    count: usize,
    /// The slowest puzzle's index (from 0) and time in nanoseconds.
    slowest: Option<(usize, u64)>,
}

/// What a run measured of its puzzles one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timed {
    /// The spread of the puzzles timed one by one, when most were.
    pub(crate) spread: Option<Spread>,
    /// How many were: every puzzle answered, or fewer when answers of a
    /// program arrived together and so have no time of their own.
    pub(crate) count: usize,
    /// The slowest puzzle's index (from 0) and time, when it is known to
    /// be the slowest of all.
    pub(crate) slowest: Option<(usize, Duration)>,
}

/// How many times are kept as they are before a histogram takes over.
const EXACT: usize = 1024;

impl PuzzleTimes {
    /// Records the next puzzle's time.
    #[cfg(test)]
    pub(crate) fn record(&mut self, ns: u64) {
        self.record_at(self.count, ns);
    }

    /// Records the time of the puzzle `index` (from 0), when not every
    /// puzzle gets one.
    pub(crate) fn record_at(&mut self, index: usize, ns: u64) {
        if self.slowest.is_none_or(|(_, most)| ns > most) {
            self.slowest = Some((index, ns));
        }
        self.count += 1;
        self.total += Duration::from_nanos(ns);
        if self.histogram.is_none() && self.exact.len() < EXACT {
            self.exact.push(ns);
            return;
        }
        let histogram = self.histogram.get_or_insert_with(|| {
            let mut histogram =
                hdrhistogram::Histogram::new(3).expect("3 significant figures are allowed");
            for kept in std::mem::take(&mut self.exact) {
                record_into(&mut histogram, kept);
            }
            histogram
        });
        record_into(histogram, ns);
    }

    /// The time of every call together.
    #[cfg(test)]
    pub(crate) fn total(&self) -> Duration {
        self.total
    }

    /// The slowest puzzle, its index from 0 and its time (the first of
    /// equals).
    pub(crate) fn slowest(&self) -> Option<(usize, Duration)> {
        self.slowest.map(|(i, ns)| (i, Duration::from_nanos(ns)))
    }

    /// How many times were recorded.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    pub(crate) fn spread(&self) -> Option<Spread> {
        if let Some(histogram) = &self.histogram {
            return Some(Spread {
                min: Duration::from_nanos(histogram.min()),
                median: Duration::from_nanos(histogram.value_at_quantile(0.5)),
                max: Duration::from_nanos(histogram.max()),
            });
        }
        let mut sorted = self.exact.clone();
        sorted.sort_unstable();
        let (&min, &max) = (sorted.first()?, sorted.last()?);
        Some(Spread {
            min: Duration::from_nanos(min),
            // The lower middle of an even count, as the histogram's
            // quantile 0.5 takes it.
            median: Duration::from_nanos(sorted[(sorted.len() - 1) / 2]),
            max: Duration::from_nanos(max),
        })
    }
}

/// The time of each answer of a submission that is handed its puzzles
/// ahead and answers as it goes, read from the kernel's CPU clock of its
/// process as each answer arrives: the gap to the answer before is that
/// puzzle's. Answers that arrive together (an output buffer flushed at
/// once, or quick answers read in one go) have no time of their own; the
/// others are each their puzzle's.
#[derive(Default)]
pub(crate) struct Arrivals {
    /// The process's CPU clock when the last answer arrived, or when the
    /// clock started for the first.
    last: Duration,
    /// The times of the answers that arrived alone, each its puzzle's.
    times: PuzzleTimes,
    /// Answers that arrived with others, and the longest time of such a
    /// group: no puzzle of it took longer.
    grouped: usize,
    longest_group: Duration,
    /// The process's clock could not be read: no time is known.
    unclocked: bool,
}

impl Arrivals {
    /// Starts the clock at `at`, the process's CPU clock when it was
    /// handed work after waiting for it.
    pub(crate) fn start(&mut self, at: Duration) {
        self.last = at;
    }

    /// The clock the answers still to come are timed from.
    pub(crate) fn last(&self) -> Duration {
        self.last
    }

    /// `new` answers arrived together, the first of them answering puzzle
    /// `first` (from 0), with the process's CPU clock at `now` (`None`:
    /// it could not be read). Returns the CPU time they took together.
    pub(crate) fn arrived(&mut self, first: usize, new: usize, now: Option<Duration>) -> Duration {
        if new == 0 || self.unclocked {
            return Duration::ZERO;
        }
        let Some(now) = now else {
            self.unclocked = true;
            return Duration::ZERO;
        };
        let took = now.saturating_sub(self.last);
        self.last = now;
        if new == 1 {
            self.times.record_at(first, took.as_nanos() as u64);
        } else {
            self.grouped += new;
            self.longest_group = self.longest_group.max(took);
        }
        took
    }

    /// What was measured puzzle by puzzle, of `answered` answers, each
    /// time at most `case` (the case's own time: more would be a clock
    /// misread). The spread is said when most answers came alone, and the
    /// slowest of them is named when no group took as long (a group's time
    /// is the most any of its puzzles took).
    pub(crate) fn timed(&self, answered: usize, case: Duration) -> Option<Timed> {
        let count = self.times.count();
        if self.unclocked || count == 0 {
            return None;
        }
        let timed = Timed {
            spread: self
                .times
                .spread()
                .filter(|s| count >= 2 && count * 2 >= answered && s.max <= case),
            count,
            slowest: self.times.slowest().filter(|&(_, time)| {
                time >= self.longest_group && time > Duration::ZERO && time <= case
            }),
        };
        (timed.spread.is_some() || timed.slowest.is_some()).then_some(timed)
    }
}

/// Records `ns`: the histogram grows to hold any value; should growing
/// fail, the value is recorded as the largest it can hold.
fn record_into(histogram: &mut hdrhistogram::Histogram<u64>, ns: u64) {
    if histogram.record(ns).is_err() {
        histogram.saturating_record(ns);
    }
}

/// A case's puzzles as AcWing input lines, followed by `trailer` (`end\n`
/// for a program, a blank line for a worker to answer what it holds),
/// made as the submission reads them. A line of the case that is not a
/// puzzle ends them early, before it, so that the submission never sees
/// it: the checker, reading the case in step, names it as the case's
/// fault.
pub(crate) struct PuzzleLines<'a> {
    boards: Boards<'a>,
    buf: Vec<u8>,
    at: usize,
    trailer: Option<&'static str>,
    /// Puzzles made so far.
    made: usize,
}

impl<'a> PuzzleLines<'a> {
    pub(crate) fn new(boards: Boards<'a>, trailer: &'static str) -> Self {
        PuzzleLines {
            boards,
            buf: Vec::new(),
            at: 0,
            trailer: Some(trailer),
            made: 0,
        }
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
pub(crate) struct OwnOutput {
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
pub(crate) struct OwnText {
    /// The first [`crate::check::KEEP`] bytes.
    pub(crate) head: String,
    /// How many lines in all (a last one without a newline counts).
    pub(crate) lines: usize,
    /// When `head` is not all of it: the last line, which it lacks.
    pub(crate) last_line: Option<String>,
}

impl OwnOutput {
    pub(crate) fn feed(&mut self, chunk: &[u8]) {
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

    pub(crate) fn finish(self) -> OwnText {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_times_have_an_exact_spread() {
        let mut times = PuzzleTimes::default();
        assert!(times.spread().is_none());
        for ns in [3_000_123, 1_000_007, 2_000_051, 9_000_001] {
            times.record(ns);
        }
        let spread = times.spread().expect("four times were recorded");
        assert_eq!(spread.min, Duration::from_nanos(1_000_007));
        assert_eq!(spread.median, Duration::from_nanos(2_000_051));
        assert_eq!(spread.max, Duration::from_nanos(9_000_001));
        assert_eq!(times.slowest(), Some((3, Duration::from_nanos(9_000_001))));
        assert_eq!(times.total(), Duration::from_nanos(15_000_182));
    }

    #[test]
    fn past_the_exact_ones_the_spread_keeps_three_digits_and_every_time() {
        let mut times = PuzzleTimes::default();
        // 1..=3000 µs, the slowest in the middle: the first EXACT go into
        // the histogram when it takes over.
        let n = 3 * EXACT as u64;
        for i in 1..=n {
            let ns = if i == n / 2 { 50_000_000 } else { i * 1_000 };
            times.record(ns);
        }
        let spread = times.spread().expect("times were recorded");
        let close = |got: Duration, want: u64| {
            let got = got.as_nanos() as f64;
            assert!(
                (got - want as f64).abs() <= want as f64 * 1e-3,
                "{got} is not {want} to three digits"
            );
        };
        close(spread.min, 1_000);
        // The lower middle of the 3,072 times, 1,536 µs being the slowest.
        close(spread.median, 1_537_000);
        close(spread.max, 50_000_000);
        assert_eq!(
            times.slowest(),
            Some((n as usize / 2 - 1, Duration::from_nanos(50_000_000)))
        );
    }
}
