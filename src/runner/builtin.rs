//! Built-in solvers, called in-process through LeetCode's signature, inside
//! a worker process.
//!
//! A thread stuck in an endless loop cannot be stopped from outside, and
//! left running it would steal CPU from every case after it. So solvers run
//! in a worker, this same binary started as `sudoku-judge worker`, which
//! the process layer can kill; one worker serves a job's cases one after
//! another (see `runner::Runner`), and a case that ends it leaves the next
//! a new one. Inside the worker the solver is a plain function call timed
//! around the call alone, so the timing is the solver's own and not the
//! cost of starting a process.
//!
//! The worker reads one 81-character puzzle per line on stdin and writes one
//! line per puzzle, flushed at least every 10 ms so a killed worker still
//! tells how far it got, and at each blank line, which ends a case. A board
//! of 9 rows of 9 printable characters (what every solver that works
//! leaves) is written plain, its 81 cells, a space and the nanoseconds
//! the call took: `534678912…179 2875`, which the harness compares with
//! the expected line as it is. Any other board goes as JSON,
//! `{"ns":…,"rows":["534678912",…]}`, so that whatever a broken solver
//! leaves arrives intact; `{"panic":"…"}` tells of a panic, after which it
//! stops, as a crashed program would. It serves case after case until its
//! stdin ends.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use serde::{Deserialize, Serialize};

use super::process::{self, Conversation, Input, Kill, Meter, Served};
use super::{grace, End, Limits, PuzzleLines, PuzzleTimes, Run, Session};
use crate::board::{format, Format};
use crate::case::CaseData;
use crate::check::{Checker, LineSplitter};
use crate::solver::Solver;

/// The exit code of a worker whose solver panicked, as Rust uses for panics.
const PANIC_EXIT: i32 = 101;

/// A reply as the harness reads it: an answer (`ns` and `rows`) or a panic.
/// Rows are borrowed from the line when they need no unescaping, which is
/// always for a solver that writes digits.
#[derive(Debug, Deserialize)]
struct Reply<'a> {
    ns: Option<u64>,
    #[serde(borrow)]
    rows: Option<Vec<Cow<'a, str>>>,
    panic: Option<String>,
}

/// An answer as the worker writes it, straight from the board.
#[derive(Serialize)]
struct Answer<'a> {
    ns: u64,
    rows: Rows<'a>,
}

/// A board's rows as JSON strings, written without building them first.
struct Rows<'a>(&'a [Vec<char>]);

/// One row's characters, as text.
struct Chars<'a>(&'a [char]);

impl std::fmt::Display for Chars<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|&c| f.write_char(c))
    }
}

impl Serialize for Rows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|row| RowText(row)))
    }
}

struct RowText<'a>(&'a [char]);

impl Serialize for RowText<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&Chars(self.0))
    }
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn remember_panics() {
    panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        let text = match info.location() {
            Some(at) => format!("panicked at {}:{}: {message}", at.file(), at.line()),
            None => format!("panicked: {message}"),
        };
        LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
    }));
}

/// Replies are held back at most this long, so a worker killed mid-run has
/// told how far it got, while a fast solver is not slowed (nor its timing
/// disturbed) by a write and a flush between every two puzzles.
const FLUSH_EVERY: Duration = Duration::from_millis(10);

/// The worker's side: answers every puzzle line of `input` on `output`.
/// Returns the process exit code.
pub fn serve(solver: &Solver, mut input: impl BufRead, output: impl Write) -> io::Result<i32> {
    remember_panics();
    let mut output = io::BufWriter::with_capacity(64 << 10, output);
    let mut last_flush = Instant::now();
    let mut line = String::new();
    let mut cells: Vec<char> = Vec::with_capacity(81);
    // One board for every puzzle: a fresh one each time would cost more in
    // allocation than a fast solver spends solving.
    let mut board: Vec<Vec<char>> = Vec::new();
    let mut cells_out = [0u8; 81];
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        let text = line.trim_end();
        if text.is_empty() {
            // The end of a case: every answer goes out now.
            output.flush()?;
            last_flush = Instant::now();
            continue;
        }
        cells.clear();
        cells.extend(text.chars());
        let rows = cells.len().div_ceil(9);
        board.truncate(rows);
        for (r, chunk) in cells.chunks(9).enumerate() {
            match board.get_mut(r) {
                Some(row) => {
                    row.clear();
                    row.extend_from_slice(chunk);
                }
                None => board.push(chunk.to_vec()),
            }
        }
        let started = Instant::now();
        let result = panic::catch_unwind(AssertUnwindSafe(|| (solver.solve)(&mut board)));
        let ns = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        if result.is_err() {
            let panic = LAST_PANIC
                .with(|last| last.borrow_mut().take())
                .unwrap_or_else(|| "panicked".to_string());
            serde_json::to_writer(&mut output, &serde_json::json!({ "panic": panic }))?;
            output.write_all(b"\n")?;
            output.flush()?;
            return Ok(PANIC_EXIT);
        }
        if plain_cells(&board, &mut cells_out) {
            output.write_all(&cells_out)?;
            writeln!(output, " {ns}")?;
        } else {
            serde_json::to_writer(
                &mut output,
                &Answer {
                    ns,
                    rows: Rows(&board),
                },
            )?;
            output.write_all(b"\n")?;
        }
        if last_flush.elapsed() >= FLUSH_EVERY {
            output.flush()?;
            last_flush = Instant::now();
        }
    }
    output.flush()?;
    Ok(0)
}

/// Writes `board`'s cells into `out` when it has 9 rows of 9 printable
/// ASCII characters (no space), the board of a plain reply.
fn plain_cells(board: &[Vec<char>], out: &mut [u8; 81]) -> bool {
    board.len() == 9
        && board.iter().enumerate().all(|(r, row)| {
            row.len() == 9
                && row.iter().enumerate().all(|(c, &ch)| {
                    out[r * 9 + c] = ch as u8;
                    ch.is_ascii_graphic()
                })
        })
}

/// A plain reply: the 81 cells and the nanoseconds.
fn plain_reply(line: &[u8]) -> Option<(&[u8], u64)> {
    let (cells, ns) = (line.get(..81)?, line.get(81..)?.strip_prefix(b" ")?);
    let ns = std::str::from_utf8(ns).ok()?.parse().ok()?;
    Some((cells, ns))
}

/// The harness's side of the replies: each one read as its line completes,
/// its time recorded and its board handed to the checker in the case's
/// format.
struct Replies<'c, 'a> {
    format: Format,
    checker: &'c mut Checker<'a>,
    /// The answer being handed on, reused.
    text: String,
    /// A worker killed mid-line leaves a partial reply: it is not an answer.
    lines: LineSplitter,
    answered: usize,
    times: PuzzleTimes,
    panicked: Option<String>,
}

impl Replies<'_, '_> {
    fn feed(&mut self, chunk: &[u8]) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.push(chunk, |line| self.reply(line));
        self.lines = lines;
    }

    fn reply(&mut self, line: &[u8]) {
        if line.first() != Some(&b'{') {
            let Some((cells, ns)) = plain_reply(line) else {
                return;
            };
            self.times.record(ns);
            if self.format == Format::AcWing {
                self.checker.feed_line(cells);
            } else {
                let rows: Vec<Vec<char>> = cells
                    .chunks(9)
                    .map(|row| row.iter().map(|&b| char::from(b)).collect())
                    .collect();
                let text = format::render_nth(self.format, self.answered, &rows);
                self.checker.feed(text.as_bytes());
            }
            self.answered += 1;
            return;
        }
        let Ok(reply) = serde_json::from_slice::<Reply>(line) else {
            return;
        };
        if let Some(panic) = reply.panic {
            self.panicked = Some(panic);
            return;
        }
        let (Some(ns), Some(rows)) = (reply.ns, reply.rows) else {
            return;
        };
        self.times.record(ns);
        if self.format == Format::AcWing {
            // An AcWing answer is its rows on one line.
            self.text.clear();
            rows.iter().for_each(|row| self.text.push_str(row));
            self.text.push('\n');
            self.checker.feed(self.text.as_bytes());
        } else {
            let rows: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
            let text = format::render_nth(self.format, self.answered, &rows);
            self.checker.feed(text.as_bytes());
        }
        self.answered += 1;
    }
}

/// A case fed to a worker: its boards streamed in as fast as the worker
/// takes them, its replies checked as they come; done when every board is
/// answered, so the worker can go on to the next case.
struct WorkerTalk<'x, 'c, 'a> {
    lines: PuzzleLines<'x>,
    replies: Replies<'c, 'a>,
    /// The case's wall-clock bound, from its first board.
    deadline: Instant,
}

impl Conversation for WorkerTalk<'_, '_, '_> {
    fn input(&mut self, buf: &mut [u8], _: &mut Meter) -> io::Result<Input> {
        match std::io::Read::read(&mut self.lines, buf)? {
            // The worker stays for the next case: stdin stays open.
            0 => Ok(Input::Wait),
            n => Ok(Input::Data(n)),
        }
    }

    fn stdout(&mut self, chunk: &[u8], _: &mut Meter) {
        self.replies.feed(chunk);
    }

    fn check(&mut self, _: &mut Meter) -> Option<Kill> {
        (Instant::now() > self.deadline).then_some(Kill::Wall)
    }

    fn done(&self) -> bool {
        // Every puzzle fed has its answer (a line of the case that is not
        // a puzzle ends the feed before it).
        let fed = self.lines.all_made();
        fed.is_some_and(|fed| self.replies.answered >= fed) || self.replies.panicked.is_some()
    }
}

/// Starts a worker for `solver` under `limits`.
fn start(exe: &Path, solver: &Solver, limits: &Limits) -> anyhow::Result<Session> {
    let plan = super::plan(vec![exe.to_path_buf()], limits.memory_kb, false);
    let mut spec = process::Spec::new(
        exe.to_path_buf(),
        vec![
            "sudoku-judge".into(),
            "worker".into(),
            "--solver".into(),
            solver.name.into(),
        ],
        plan,
    );
    // Bounds per case are the conversation's; the process's own are wide.
    spec.kill_after = super::SESSION_LIFETIME;
    spec.kill_above_memory_kb = Some(limits.memory_kb);
    // Generous: a reply is about 90 bytes per puzzle (a JSON one 130),
    // and a case may hold a few million.
    spec.stdout_limit = usize::MAX;
    spec.stderr_tail = 4096;
    let process = process::Process::start(spec)
        .with_context(|| format!("failed to start the solver worker {}", exe.display()))?;
    Ok(Session::new(process, *limits))
}

/// The harness's side: runs `solver` on every puzzle of `case` in a worker
/// started from `exe` (or the one in `session`, kept from earlier cases),
/// the puzzles streamed in and the answers checked as they come out. The
/// worker is left in `session` for the next case, unless the case ended it.
pub fn run_case(
    exe: &Path,
    solver: &Solver,
    session: &mut Option<Session>,
    case: &CaseData,
    limits: &Limits,
    checker: &mut Checker<'_>,
) -> anyhow::Result<Run> {
    let mut current = match session.take() {
        Some(session) => session,
        None => start(exe, solver, limits)?,
    };
    let started = Instant::now();
    let bound = limits.time + grace(limits.time);
    let meter = current.process.meter();
    meter.reset_peak();
    meter.limit_cpu_from_now(bound + grace(limits.time));
    let cpu_before = meter.process_cpu().unwrap_or_default();
    let mut talk = WorkerTalk {
        // The blank line after its boards tells the worker to send what it
        // holds: the case is over, and it waits for the next.
        lines: PuzzleLines::new(case.puzzles()?, "\n"),
        replies: Replies {
            format: case.format,
            checker,
            text: String::new(),
            lines: LineSplitter::default(),
            answered: 0,
            times: PuzzleTimes::default(),
            panicked: None,
        },
        deadline: started + bound,
    };
    let served = current
        .process
        .serve(&mut talk)
        .with_context(|| format!("failed to run the solver worker {}", exe.display()))?;
    let replies = talk.replies;
    let wall = started.elapsed();
    let meter = current.process.meter();
    let cpu = meter
        .process_cpu()
        .map_or(Duration::ZERO, |now| now.saturating_sub(cpu_before));
    let memory_kb = meter.peak_kb();
    let (end, stderr, finished) = match served {
        Served::Done => {
            let stderr = String::from_utf8_lossy(&current.process.take_stderr()).into_owned();
            let end = match &replies.panicked {
                Some(message) => End::Panicked(message.clone()),
                None => End::Normal,
            };
            current.cases += 1;
            // A worker that panicked stops, as a crashed program would.
            if replies.panicked.is_none() {
                *session = Some(current);
            }
            (end, stderr, None)
        }
        Served::Ended(finished) => {
            let stderr = String::from_utf8_lossy(&finished.stderr).into_owned();
            let end = if let Some(kill) = finished.killed {
                End::Killed(kill)
            } else if let Some(message) = &replies.panicked {
                End::Panicked(message.clone())
            } else {
                End::Crashed(super::crash(finished.exit, &stderr))
            };
            (end, stderr, Some(finished))
        }
    };
    let killed = matches!(end, End::Killed(_));
    Ok(Run {
        answered: replies.answered,
        // A killed run is charged all the time it had, not just its finished calls.
        time: if killed { wall } else { replies.times.total() },
        wall,
        // A worker that ended is measured by what the kernel counted of its
        // whole life, less what it had used before this case.
        cpu: match &finished {
            Some(f) => f.cpu.saturating_sub(cpu_before),
            None => cpu,
        },
        memory_kb: match &finished {
            Some(f) if memory_kb == 0 => f.memory_kb,
            _ => memory_kb,
        },
        memory_allowance_kb: 0,
        fork_refusals: finished.as_ref().map_or(0, |f| f.fork_refusals),
        puzzle_times: replies.times.timed(),
        end,
        stdout: String::new(),
        stdout_lines: 0,
        stdout_last_line: None,
        stderr,
        earlier: 0,
        notes: Vec::new(),
        cpu_wait: None,
        program: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver;

    const PUZZLE: &str = crate::board::EXAMPLE;
    const ANSWER: &str = crate::board::EXAMPLE_ANSWER;

    /// Serves `input` with solver `name`: the exit code and each reply
    /// line.
    fn serve_lines(name: &str, input: &str) -> (i32, Vec<String>) {
        let mut out = Vec::new();
        let code = serve(solver::find(name).unwrap(), input.as_bytes(), &mut out).unwrap();
        let _ = panic::take_hook();
        let replies = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        (code, replies)
    }

    #[test]
    fn the_worker_answers_each_line_plainly_with_its_time() {
        let (code, replies) = serve_lines("mrv", &format!("{PUZZLE}\n\n{PUZZLE}\n"));
        assert_eq!(code, 0);
        assert_eq!(replies.len(), 2);
        for reply in &replies {
            let (cells, ns) = plain_reply(reply.as_bytes()).unwrap();
            assert_eq!(cells, ANSWER.as_bytes());
            assert!(ns > 0, "{reply}");
        }
    }

    #[test]
    fn the_harness_reads_what_the_worker_writes() {
        let (_, replies) = serve_lines("mrv", &format!("{PUZZLE}\n"));
        let (cells, _) = plain_reply(replies[0].as_bytes()).unwrap();
        assert_eq!(cells, ANSWER.as_bytes());
        // A board that is not 9 rows of 9 printable characters goes as
        // JSON, and odd characters a broken solver may write survive the
        // trip.
        let mut out = [0u8; 81];
        let odd = vec![vec!['"', '\\', '\n', 'é'], vec![]];
        assert!(!plain_cells(&odd, &mut out));
        let spaced = vec![vec![' '; 9]; 9];
        assert!(!plain_cells(&spaced, &mut out));
        let text = serde_json::to_string(&Answer {
            ns: 7,
            rows: Rows(&odd),
        })
        .unwrap();
        let back: Reply = serde_json::from_str(&text).unwrap();
        assert_eq!(back.rows.unwrap(), ["\"\\\né", ""]);
    }

    #[test]
    fn the_worker_reports_a_panic_with_its_place_and_stops() {
        let (code, replies) = serve_lines("faulty-panic", &format!("{PUZZLE}\n{PUZZLE}\n"));
        assert_eq!(code, PANIC_EXIT);
        assert_eq!(replies.len(), 1);
        let reply: serde_json::Value = serde_json::from_str(&replies[0]).unwrap();
        let panic = reply["panic"].as_str().unwrap();
        assert!(
            panic.starts_with("panicked at src/solver/faulty.rs:"),
            "{panic}"
        );
        assert!(
            panic.contains("index out of bounds: the len is 9 but the index is 9"),
            "{panic}"
        );
    }
}
