//! Submissions that run as processes of their own: a program speaking the
//! AcWing 166 format on stdin and stdout, and what a LeetCode-style file's
//! driver (`function.rs`) shares with it: how a process's end is said, and
//! the bounds of its spec.
//!
//! Programs are charged their CPU time, as AcWing and POJ charge it, for
//! every process they start, and held to twice the limit in wall time so a
//! program that sleeps cannot hang the run.

use std::io::{self, Read};
use std::time::Duration;

use anyhow::Context as _;

use super::lang::launch::{Launch, Runtime};
use super::lang::{self, Language};
use super::process::{self, Conversation, Exit, Input, Meter};
use super::puzzles::Arrivals;
use super::run::{grace, End, Run};
use crate::board::Format;
use crate::case::CaseData;
use crate::case::Limits;
use crate::check::Checker;

/// An AcWing case's bytes as a judge would send them: without a UTF-8
/// byte-order mark, with LF line ends, and closed by `end`. (A judge never
/// sends a mark or a CR, and a `scanf` program would read the mark as part
/// of its first line; every judge sends the `end`, and the textbook
/// `while (cin >> s, s != "end")` never stops without it, so a case file
/// that lacks it, accepted with a warning, still gets it.)
struct AsJudgesSend<R> {
    inner: R,
    started: bool,
    /// The start of the line being sent, enough to tell `end`, and
    /// whether the line is longer than that.
    line: Vec<u8>,
    long_line: bool,
    /// Whether an `end` line was sent.
    seen_end: bool,
    /// The last byte sent.
    last: Option<u8>,
    /// What is still to be sent after the case's own bytes.
    closing: Option<&'static [u8]>,
}

impl<R> AsJudgesSend<R> {
    fn new(inner: R) -> Self {
        Self {
            inner,
            started: false,
            line: Vec::new(),
            long_line: false,
            seen_end: false,
            last: None,
            closing: None,
        }
    }

    fn is_end(&self) -> bool {
        !self.long_line && self.line.trim_ascii() == b"end"
    }

    /// Notes what was sent, to know at the end whether `end` was.
    fn sent(&mut self, data: &[u8]) {
        for &b in data {
            if b == b'\n' {
                self.seen_end |= self.is_end();
                self.line.clear();
                self.long_line = false;
            } else if self.line.len() < 16 {
                self.line.push(b);
            } else {
                self.long_line = true;
            }
        }
        if let Some(&b) = data.last() {
            self.last = Some(b);
        }
    }
}

impl<R: Read> Read for AsJudgesSend<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(closing) = self.closing {
                let n = closing.len().min(out.len());
                out[..n].copy_from_slice(&closing[..n]);
                self.closing = Some(&closing[n..]);
                return Ok(n);
            }
            let n = self.inner.read(out)?;
            let mut data = &out[..n];
            if !self.started && n > 0 {
                self.started = true;
                data = data.strip_prefix("\u{feff}".as_bytes()).unwrap_or(data);
            }
            // Drop every CR that ends a line (a CR split from its LF by
            // the chunking is kept; lines are trimmed by every reader).
            let mut kept = Vec::with_capacity(data.len());
            for (i, &b) in data.iter().enumerate() {
                if b != b'\r' || data.get(i + 1) != Some(&b'\n') {
                    kept.push(b);
                }
            }
            if n == 0 {
                if self.seen_end || self.is_end() {
                    return Ok(0);
                }
                self.seen_end = true;
                self.closing = Some(match self.last {
                    None | Some(b'\n') => &b"end\n"[..],
                    Some(_) => &b"\nend\n"[..],
                });
                continue;
            }
            if !kept.is_empty() {
                self.sent(&kept);
                out[..kept.len()].copy_from_slice(&kept);
                return Ok(kept.len());
            }
        }
    }
}

/// How a process ended, in the words of the verdict: a kill, a clean exit,
/// or a crash with the cause its runtime gave on stderr.
pub(super) fn end_of(launch: &Launch, finished: &process::Finished, stderr: &str) -> End {
    match (finished.killed, finished.exit) {
        (Some(kill), _) => End::Killed(kill),
        (None, Exit::Code(0)) => End::Normal,
        (None, exit) => match lang::out_of_memory(stderr, launch.language) {
            Some(line) => End::OutOfMemory(line),
            None if stderr.contains("has overflowed its stack") => {
                End::Crashed(super::run::crash(exit, stderr))
            }
            None => {
                let how = super::run::crash(exit, stderr);
                End::Crashed(
                    match lang::crash_cause(stderr, launch.language, launch.source.as_ref()) {
                        Some(cause) => format!("{how}: {cause}"),
                        None => how,
                    },
                )
            }
        },
    }
}

/// The spec both kinds share: memory bound and backstops, output limit.
pub(super) fn bounded_spec(
    launch: &Launch,
    case: &CaseData,
    limits: &Limits,
    function: bool,
) -> process::ProcessSpec {
    let mut spec = launch.spec(limits, function);
    spec.kill_above_memory_kb = Some(limits.memory_kb + launch.memory_allowance_kb(limits));
    // The JVM reserves far more address space than it uses, and a program
    // given with --cmd may be any runtime: only native builds get the
    // address-space backstop.
    spec.address_space_limit = match launch.runtime {
        Runtime::Exec { .. } if launch.language.is_some_and(Language::is_native) => {
            Some(limits.memory_kb * 1024 * 2 + (512 << 20))
        }
        _ => None,
    };
    spec.stdout_limit = Limits::output_bytes(case.puzzles);
    spec
}

/// Runs a program on one case under `limits`, in a process of its own,
/// streaming the case in and its answers to `checker`.
pub(crate) fn run_program(
    launch: &Launch,
    case: &CaseData,
    limits: &Limits,
    checker: &mut Checker<'_>,
) -> anyhow::Result<Run> {
    let mut spec = bounded_spec(launch, case, limits, false);
    spec.kill_after = limits.wall() + grace(limits.time);
    spec.kill_after_cpu = Some(limits.time + grace(limits.time));
    spec.cpu_limit = Some(spec.kill_after + Duration::from_secs(1));
    // A program gets an AcWing case as the judge sends it; any other case
    // is converted to AcWing lines.
    let mut raw;
    let mut lines;
    let stdin: &mut dyn Read = if case.format == Format::AcWing {
        raw = AsJudgesSend::new(case.input.open()?);
        &mut raw
    } else {
        lines = super::puzzles::PuzzleLines::new(case.puzzles()?, "end\n");
        &mut lines
    };
    let mut timed = AnswersTimed {
        stdin,
        checker,
        arrivals: Arrivals::default(),
    };
    let finished = process::run(spec, &mut timed)
        .with_context(|| format!("failed to run {}", launch.label))?;
    let stderr = String::from_utf8_lossy(&finished.stderr).into_owned();
    let answered = timed.checker.answered();
    let puzzle_times = timed.arrivals.timed(answered, finished.cpu);
    Ok(Run {
        answered,
        time: finished.cpu,
        wall: finished.wall,
        cpu: finished.cpu,
        memory_kb: finished.memory_kb,
        memory_allowance_kb: launch.memory_allowance_kb(limits),
        fork_refusals: finished.fork_refusals,
        puzzle_times,
        cpu_wait: finished.cpu_wait,
        program: true,
        buffering: launch.language.map(|l| (l.spec().name, l.spec().stdout)),
        end: end_of(launch, &finished, &stderr),
        stderr,
        ..Run::new(End::Normal)
    })
}

/// A program's exchange: all of its input fed as fast as it is taken, and
/// the arrival of each answer timed by the program's CPU clock (see
/// [`Arrivals`]; the first includes the program's start): CPU, as the case
/// is charged, so no puzzle's time exceeds the case's, and a busy machine
/// does not lengthen it.
struct AnswersTimed<'s, 'c, 'a> {
    stdin: &'s mut dyn Read,
    checker: &'c mut Checker<'a>,
    arrivals: Arrivals,
}

impl Conversation for AnswersTimed<'_, '_, '_> {
    fn input(&mut self, buf: &mut [u8], _: &mut Meter) -> io::Result<Input> {
        process::read_input(self.stdin, buf)
    }

    fn stdout(&mut self, chunk: &[u8], meter: &mut Meter) {
        let before = self.checker.answered();
        self.checker.feed(chunk);
        let new = self.checker.answered() - before;
        if new > 0 {
            self.arrivals.arrived(before, new, meter.process_cpu());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_get_no_byte_order_mark_and_lf_line_ends() {
        let mut sent = String::new();
        AsJudgesSend::new("\u{feff}1.3\r\n...\r\nend\r\n".as_bytes())
            .read_to_string(&mut sent)
            .unwrap();
        assert_eq!(sent, "1.3\n...\nend\n");
    }

    #[test]
    fn programs_get_the_end_a_case_file_lacks() {
        let sent = |case: &str| {
            let mut sent = String::new();
            AsJudgesSend::new(case.as_bytes())
                .read_to_string(&mut sent)
                .unwrap();
            sent
        };
        assert_eq!(sent("1.3\n"), "1.3\nend\n");
        assert_eq!(sent("1.3"), "1.3\nend\n");
        assert_eq!(sent("1.3\nend"), "1.3\nend");
        assert_eq!(sent("1.3\nend \n\n"), "1.3\nend \n\n");
        assert_eq!(sent("1.3\r\n\r\n"), "1.3\n\nend\n");
        // A line that only starts like `end` is not one.
        assert_eq!(sent("endless\n"), "endless\nend\n");
    }
}
