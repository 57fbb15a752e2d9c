//! Functions: a LeetCode-style file behind its language's driver (see
//! `drivers/`), or a built-in solver in its worker (see `builtin.rs`), which
//! speaks the same protocol. Both run here, one way.
//!
//! A function is charged the time spent on the boards, and the measure is
//! out of the submission's reach: the judge hands the driver the case's
//! boards as fast as it takes them and reads the kernel's CPU clock of the
//! driver's process when the first is handed over and as each answer comes
//! back. Nothing the
//! submission does to its own clocks changes that, it cannot start
//! processes that would work off that clock (the sandbox's process filter),
//! and starting the interpreter or the JVM, before the first board, is not
//! charged. The driver writes answers on a channel of their own (the path
//! in [`ANSWERS_VAR`]), so what the submission prints on stdout (debug
//! output) never corrupts them and is reported apart.

use std::io;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::external::{bounded_spec, end_of};
use super::lang::launch::{Launch, ANSWERS_PATH, ANSWERS_VAR};
use super::process::{self, Conversation, Input, Kill, Meter, Served};
use super::puzzles::{Arrivals, OwnOutput, OwnText};
use super::run::{grace, End, Run};
use super::session::Session;
use crate::case::Limits;
use crate::case::{Boards, CaseData};
use crate::check::{Checker, LineSplitter};

/// How long a driver may take to start (load its runtime and the
/// solution) before its first board; not charged, but not unbounded.
pub(crate) const STARTUP: Duration = Duration::from_secs(10);

/// The exchange with a driver over one case: once it has said `ready`,
/// the case's boards handed over as fast as it takes them, and each answer
/// timed as it arrives (see [`Arrivals`]): the driver's CPU clock from the
/// first board on. A driver waiting for its next board spends nothing, so
/// the clock charges only the calls, and the boards it holds ahead never
/// wait for the judge to read an answer. Done when every board of the case
/// is answered; the driver waits for the next case's.
struct BoardsAhead<'b, 'c, 'a> {
    boards: Boards<'b>,
    checker: &'c mut Checker<'a>,
    limit: Duration,
    /// The wall-clock cap from the first board (see [`Limits::wall`]).
    wall: Duration,
    puzzles: usize,
    lines: LineSplitter,
    /// Whether the driver has said `ready` (the session keeps it).
    ready: bool,
    /// When the driver was started, for its start-up bound.
    spawned: Instant,
    /// Boards handed over, and answered.
    sent: usize,
    answered: usize,
    /// When the first board was handed over.
    first: Option<Instant>,
    arrivals: Arrivals,
    charged: Duration,
    own: OwnOutput,
    /// The rows of the last answer, kept from board to board: a case may
    /// hold a million.
    rows: Vec<Vec<char>>,
    /// A board that could not be read from the case: the harness's failure.
    failure: Option<anyhow::Error>,
}

impl BoardsAhead<'_, '_, '_> {
    /// The CPU clock since which the driver works on boards not yet
    /// answered, if it holds any.
    fn open(&self) -> Option<Duration> {
        (self.sent > self.answered).then(|| self.arrivals.last())
    }

    /// Charged so far, the boards being solved included.
    fn charged_now(&self, meter: &Meter) -> Duration {
        let open = self
            .open()
            .and_then(|at| Some(meter.process_cpu()?.saturating_sub(at)))
            .unwrap_or_default();
        self.charged + open
    }

    fn answer(&mut self, line: &[u8]) {
        let line = without_cr(line);
        if !self.ready {
            self.ready = line == b"ready";
            return;
        }
        if self.answered == self.sent {
            return;
        }
        let text = String::from_utf8_lossy(line);
        let mut rows = std::mem::take(&mut self.rows);
        rows.truncate(text.split('/').count());
        for (n, part) in text.split('/').enumerate() {
            match rows.get_mut(n) {
                Some(row) => row.clear(),
                None => rows.push(Vec::new()),
            }
            rows[n].extend(part.chars());
        }
        self.checker.feed_board(&rows);
        self.rows = rows;
        self.answered += 1;
    }
}

impl Conversation for BoardsAhead<'_, '_, '_> {
    fn input(&mut self, buf: &mut [u8], meter: &mut Meter) -> io::Result<Input> {
        if !self.ready || self.failure.is_some() {
            return Ok(Input::Wait);
        }
        // As many whole lines as the buffer holds: a board's line is 82
        // bytes, and a pipe takes a write of at most its buffer whole.
        let mut len = 0;
        while len + 82 <= buf.len() {
            let line = match self.boards.next() {
                Some(Ok((_, board))) => board.to_line() + "\n",
                Some(Err(error)) => {
                    self.failure = Some(error);
                    break;
                }
                None => break,
            };
            buf[len..len + line.len()].copy_from_slice(line.as_bytes());
            len += line.len();
            if self.first.is_none() {
                // The driver waits for its first board: its clock is still.
                self.first = Some(Instant::now());
                self.arrivals.start(meter.settled_cpu().unwrap_or_default());
                // Its wall time counts from here, and so does its wait
                // for a CPU: starting the runtime is not the solution's.
                meter.count_waits_from_now();
            }
            self.sent += 1;
        }
        Ok(if len == 0 {
            Input::Wait
        } else {
            Input::Data(len)
        })
    }

    fn stdout(&mut self, chunk: &[u8], _: &mut Meter) {
        self.own.feed(chunk);
    }

    fn answers(&mut self, chunk: &[u8], meter: &mut Meter) {
        let before = self.answered;
        let mut lines = std::mem::take(&mut self.lines);
        lines.push(chunk, |line| self.answer(line));
        self.lines = lines;
        let new = self.answered - before;
        if new > 0 {
            // A driver that has answered every board it holds stops, and
            // its clock settles; one that holds more runs on.
            let now = match self.answered == self.sent {
                true => meter.settled_cpu(),
                false => meter.process_cpu(),
            };
            self.charged += self.arrivals.arrived(before, new, now);
        }
    }

    fn check(&mut self, meter: &mut Meter) -> Option<Kill> {
        let over = self.limit + grace(self.limit);
        if !self.ready {
            return (self.spawned.elapsed() > STARTUP).then_some(Kill::Startup);
        }
        if self.charged_now(meter) > over {
            return Some(Kill::Cpu);
        }
        // A solution that sleeps or waits uses no CPU: held to twice the
        // limit in wall time from its first board, as programs are.
        let waited = self.first.map_or(Duration::ZERO, |first| first.elapsed());
        (waited > self.wall + grace(self.limit)).then_some(Kill::Wall)
    }

    fn done(&self) -> bool {
        self.answered >= self.puzzles || self.failure.is_some()
    }
}

/// Starts a function's driver under `limits`, its answer channel named in
/// its environment.
fn start_driver(launch: &Launch, case: &CaseData, limits: &Limits) -> anyhow::Result<Session> {
    let mut spec = bounded_spec(launch, case, limits, true);
    spec.answers = true;
    spec.env.push((ANSWERS_VAR.into(), ANSWERS_PATH.into()));
    // Bounds per case are the conversation's (and the kernel's CPU limit,
    // set afresh for each case); the process's own are wide.
    spec.kill_after = super::session::SESSION_LIFETIME;
    spec.stdout_limit = Limits::output_bytes(case.puzzles.max(1 << 16));
    let process =
        process::Process::start(spec).with_context(|| format!("failed to run {}", launch.label))?;
    Ok(Session::new(process, *limits))
}

/// Runs a function on one case under `limits`, in its driver: the one in
/// `session`, kept from earlier cases with whatever state the solution
/// keeps, or a new one. The driver is left in `session` for the next case,
/// unless the case ended it.
pub(crate) fn run_function(
    launch: &Launch,
    session: &mut Option<Session>,
    case: &CaseData,
    limits: &Limits,
    checker: &mut Checker<'_>,
) -> anyhow::Result<Run> {
    let mut current = match session.take() {
        Some(session) => session,
        None => start_driver(launch, case, limits)?,
    };
    let meter = current.process.meter();
    meter.reset_peak();
    meter.limit_cpu_from_now(limits.time + grace(limits.time) * 2);
    let cpu_before = meter.process_cpu().unwrap_or_default();
    let spawned = current.started;
    let mut talk = BoardsAhead {
        boards: case.puzzles()?,
        checker,
        limit: limits.time,
        wall: limits.wall(),
        puzzles: case.puzzles,
        lines: LineSplitter::default(),
        ready: current.ready,
        spawned,
        sent: 0,
        answered: 0,
        first: None,
        arrivals: Arrivals::default(),
        charged: Duration::ZERO,
        own: OwnOutput::default(),
        rows: Vec::new(),
        failure: None,
    };
    let served = current
        .process
        .serve(&mut talk)
        .with_context(|| format!("failed to run {}", launch.label))?;
    if let Some(error) = talk.failure.take() {
        return Err(error);
    }
    current.ready = talk.ready;
    let open = talk.open();
    let mut run = measured(talk, current.process.meter(), cpu_before);
    run.memory_allowance_kb = launch.memory_allowance_kb(limits);
    match served {
        Served::Done => {
            run.cpu_wait = current.process.meter().waited();
            run.stderr = String::from_utf8_lossy(&current.process.take_stderr()).into_owned();
            current.cases += 1;
            *session = Some(current);
        }
        Served::Ended(finished) => {
            ended(&mut run, launch, &finished, cpu_before, case, limits, open);
        }
    }
    Ok(run)
}

/// What a case's exchange measured, with the driver still there to read.
fn measured(talk: BoardsAhead, meter: &Meter, cpu_before: Duration) -> Run {
    let OwnText {
        head: stdout,
        lines: stdout_lines,
        last_line: stdout_last_line,
    } = talk.own.finish();
    Run {
        answered: talk.answered,
        time: talk.charged,
        // Wall time from the first board on: starting the runtime is not
        // the solution's.
        wall: talk.first.map_or(Duration::ZERO, |first| first.elapsed()),
        cpu: meter
            .process_cpu()
            .map_or(Duration::ZERO, |now| now.saturating_sub(cpu_before)),
        memory_kb: meter.peak_kb(),
        puzzle_times: talk.arrivals.timed(talk.answered, talk.charged),
        stdout,
        stdout_lines,
        stdout_last_line,
        ..Run::new(End::Normal)
    }
}

/// Completes `run` for a driver that ended during the case: how it ended
/// and what the kernel counted of it. `open` is the CPU clock since which
/// it worked on boards not yet answered, if it held any.
fn ended(
    run: &mut Run,
    launch: &Launch,
    finished: &process::Finished,
    cpu_before: Duration,
    case: &CaseData,
    limits: &Limits,
    open: Option<Duration>,
) {
    run.stderr = String::from_utf8_lossy(&finished.stderr).into_owned();
    run.end = end_of(launch, finished, &run.stderr);
    // A driver that ended is measured by what the kernel counted of its
    // whole life, less what it had used before this case.
    run.cpu = finished.cpu.saturating_sub(cpu_before);
    if run.memory_kb == 0 {
        run.memory_kb = finished.memory_kb;
    }
    run.fork_refusals = finished.fork_refusals;
    run.cpu_wait = finished.cpu_wait;
    if run.end == End::Normal && run.answered < case.puzzles {
        run.end = End::Crashed("the driver ended before every board was answered".into());
    }
    // A board cut short, by a kill or a crash, is charged the CPU the
    // driver used on it up to then, as a program is charged what it used
    // before it was stopped: what the kernel counted of the driver's whole
    // life, less its clock at the handover.
    if let Some(at) = open {
        run.time += finished.cpu.saturating_sub(at);
        if matches!(run.end, End::Killed(Kill::Cpu)) {
            run.time = run.time.max(limits.time + grace(limits.time));
        }
    }
    if run.wall == Duration::ZERO {
        run.wall = finished.wall;
    }
}

/// A driver's line without the CR a Windows C runtime writes before its
/// newline (C, C++, Python and Ruby open the channel in text mode there).
fn without_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::without_cr;

    #[test]
    fn a_line_ended_the_windows_way_is_the_same_line() {
        assert_eq!(without_cr(b"ready\r"), b"ready");
        assert_eq!(without_cr(b"ready"), b"ready");
        assert_eq!(without_cr(b"123/456\r"), b"123/456");
        // Only the one before the newline.
        assert_eq!(without_cr(b"\r1\r\r"), b"\r1\r");
    }
}
