//! One run of a submission on one case ([`Run`], how it ended: [`End`]), run
//! again while a busy machine starves it ([`run_patiently`]), with the plan
//! and limits every run shares ([`plan`], [`grace`], [`TASKS`]).

use super::{lang, process, sandbox, spawner};

use std::path::PathBuf;
use std::time::Duration;

use super::process::Kill;
use super::puzzles::Timed;
use super::sandbox::Containment;
use crate::case::Limits;

/// Processes and threads a run may have at once: enough for a JVM's or a
/// compiler's, few enough to stop a fork bomb.
pub(crate) const TASKS: u32 = 256;

/// What a run of a submission may see and use: the system, `read_only`,
/// and a scratch working directory; `memory_kb` of memory (the kernel
/// stops it a little past that, the watchdog at it); `no_fork` for
/// LeetCode-style files; contained as `containment` says.
pub(crate) fn plan(
    read_only: Vec<PathBuf>,
    memory_kb: u64,
    no_fork: bool,
    containment: &Containment,
) -> sandbox::Plan {
    sandbox::Plan {
        read_only,
        writable: Vec::new(),
        cwd: working_dir(containment),
        scratch_kb: memory_kb.clamp(16 << 10, 1 << 20),
        memory_cap_kb: memory_kb + memory_kb / 4 + (16 << 10),
        tasks: TASKS,
        no_fork,
    }
}

/// Where runs start: the judge's own working directory, as a scratch
/// directory of the same path when the sandbox has a filesystem of its own
/// (so relative paths on a command line mean the same); else the judge's
/// directory itself.
pub(crate) fn working_dir(containment: &Containment) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    match spawner::protections(containment) {
        Some(Ok(protections)) if protections.filesystem.is_on() => sandbox::run_cwd(&cwd),
        _ => cwd,
    }
}

/// Extra time past a limit before a submission is killed, so the report
/// can say how far over it went.
pub(crate) fn grace(limit: Duration) -> Duration {
    limit / 4 + Duration::from_millis(100)
}

/// How a process that ended by itself, not by the watchdog or cleanly,
/// ended, in words: a stack overflow its runtime named on `stderr`, an
/// exit code or a signal. Built-in solvers, programs and `stress`'s
/// generators say it alike.
pub(crate) fn crash(exit: process::Exit, stderr: &str) -> String {
    use super::process::Exit;
    match exit {
        _ if stderr.contains("has overflowed its stack") => format!(
            "stack overflow ({})",
            match exit {
                Exit::Signal(signal) => process::describe_signal(signal),
                Exit::Exception(code) => format!("{code:#010X}"),
                Exit::Code(code) => format!("exit code {code}"),
            }
        ),
        Exit::Code(code) => format!("exited with code {code}"),
        Exit::Signal(signal) => format!("killed by {}", process::describe_signal(signal)),
        Exit::Exception(code) => format!("crashed with {}", process::describe_exception(code)),
    }
}

/// How a run ended, before its answers are looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// It exited cleanly, or (a function) answered every board and waits
    /// for the next case.
    Normal,
    /// The harness killed it, and why.
    Killed(Kill),
    /// A Rust panic, with its message and place.
    Panicked(String),
    /// Any other abnormal end, in words.
    Crashed(String),
    /// It died because an allocation failed (e.g. `std::bad_alloc`,
    /// `MemoryError`): the memory limit stopped it.
    OutOfMemory(String),
    /// It never ran: the compiler rejected it.
    NotCompiled,
}

/// One run of a submission on one case. Its answers went to the checker as
/// they came.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    /// How many puzzles got an answer before the run ended.
    pub(crate) answered: usize,
    /// The time charged against the limit: for a function (a built-in
    /// solver or a LeetCode-style file), the CPU time its driver's process
    /// spent on the boards, from each handover to its answer; for a
    /// program, its CPU time, as AcWing and POJ charge it.
    pub(crate) time: Duration,
    pub(crate) wall: Duration,
    pub(crate) cpu: Duration,
    /// Peak memory of everything it ran (see [`process::Finished`]).
    pub(crate) memory_kb: u64,
    /// Memory its runtime takes on its own, allowed on top of the limit
    /// (the JVM's; see [`lang::launch::JVM_OWN_KB`]).
    pub(crate) memory_allowance_kb: u64,
    /// Forks refused because it reached its process limit.
    pub(crate) fork_refusals: u64,
    /// Each puzzle's time, as far as it was measured one by one (see
    /// [`Timed`]).
    pub(crate) puzzle_times: Option<Timed>,
    pub(crate) end: End,
    /// What a function submission printed itself (debug output), kept apart
    /// from its answers as LeetCode does: its first [`crate::check::KEEP`]
    /// bytes. Empty for programs.
    pub(crate) stdout: String,
    /// How many lines it printed in all.
    pub(crate) stdout_lines: usize,
    /// When `stdout` is not all it printed: its last line.
    pub(crate) stdout_last_line: Option<String>,
    /// The start and the end of what it wrote to stderr during this case.
    pub(crate) stderr: String,
    /// Cases its process judged before this one (0 in a fresh process).
    pub(crate) earlier: usize,
    /// What the report should say of how it ran, e.g. that its process
    /// was started anew.
    pub(crate) notes: Vec<String>,
    /// How long it was ready to run but waited for a CPU, over the same
    /// span as `wall` (see [`process::Finished::cpu_wait`]); `None` where
    /// the kernel does not say.
    pub(crate) cpu_wait: Option<Duration>,
    /// A program printing its answers on stdout, which it may hold in a
    /// buffer that dies with it when it is killed; not a function whose
    /// answers the judge takes one call at a time.
    pub(crate) program: bool,
    /// For a program in a known language: the language, and how its
    /// runtime writes stdout into a pipe.
    pub(crate) buffering: Option<(&'static str, lang::Stdout)>,
}

/// How many times a run starved of CPU by a busy machine is run again
/// before it is given up as unjudgeable here.
const STARVED_RETRIES: usize = 2;

/// Runs `attempt` under `limits` as the machine allows: a run the machine
/// starved of CPU ([`Run::starved`]) is run again, at most
/// [`STARVED_RETRIES`] times, with a wall-clock cap that fits the share of
/// a CPU it got ([`Limits::for_share`]). Gives the run, what `attempt`
/// returned beside it, and the limits it ran under (the ones to judge it
/// by); or, when it stayed starved, why its time cannot be judged here.
pub(crate) fn run_patiently<T>(
    limits: Limits,
    mut attempt: impl FnMut(&Limits) -> anyhow::Result<(Run, T)>,
) -> anyhow::Result<Result<(Run, T, Limits), String>> {
    let mut patient = limits;
    for starved in 0.. {
        let (run, beside) = attempt(&patient)?;
        if !run.starved(&patient) {
            return Ok(Ok((run, beside, patient)));
        }
        if starved == STARVED_RETRIES {
            return Ok(Err(run.too_busy(&patient, starved + 1)));
        }
        patient = patient.for_share(run.cpu, run.wall);
    }
    unreachable!("the loop returns by its last round")
}

impl Run {
    /// A run for tests of what comes after it: it ended as `end` having
    /// answered `answered` puzzles, charged `time_ms` of CPU, with 1 MB of
    /// memory and nothing printed.
    #[cfg(test)]
    pub(crate) fn ended(end: End, answered: usize, time_ms: u64) -> Run {
        let time = Duration::from_millis(time_ms);
        Run {
            answered,
            time,
            wall: time + time / 4,
            cpu: time,
            memory_kb: 1024,
            ..Run::new(end)
        }
    }

    /// A run that ended as `end`, with nothing answered, measured or
    /// printed yet: what every run is made from, its runner filling in
    /// what it measured.
    pub(crate) fn new(end: End) -> Run {
        Run {
            answered: 0,
            time: Duration::ZERO,
            wall: Duration::ZERO,
            cpu: Duration::ZERO,
            memory_kb: 0,
            memory_allowance_kb: 0,
            fork_refusals: 0,
            puzzle_times: None,
            end,
            stdout: String::new(),
            stdout_lines: 0,
            stdout_last_line: None,
            stderr: String::new(),
            earlier: 0,
            notes: Vec::new(),
            cpu_wait: None,
            program: false,
            buffering: None,
        }
    }

    /// Whether only a machine too busy to give it a CPU took it past its
    /// wall-clock cap: its charged time under the limit, it ran past the
    /// cap (`limits.wall()`) or was stopped there, and the time it waited
    /// for a CPU ([`Run::cpu_wait`]) accounts for that. A run that ended by
    /// itself is starved when, less that wait, its wall time is within the
    /// cap: with a CPU when it was ready, it would have been in time. A
    /// run the cap stopped might have gone on for ever: it is starved when
    /// it waited a quarter of its wall time or more, as a run that sleeps
    /// or blocks does not. Such a TLE would be the machine's. Without the
    /// kernel's figure (Windows, macOS), no run is.
    pub(crate) fn starved(&self, limits: &Limits) -> bool {
        let Some(waited) = self.cpu_wait else {
            return false;
        };
        if self.time >= limits.time {
            return false;
        }
        match self.end {
            End::Killed(Kill::Wall) => waited * 4 >= self.wall,
            End::Killed(_) | End::OutOfMemory(_) | End::NotCompiled => false,
            _ => self.wall > limits.wall() && self.wall.saturating_sub(waited) <= limits.wall(),
        }
    }

    /// Why a run still [`Run::starved`] after `tries` could not be judged.
    fn too_busy(&self, limits: &Limits, tries: usize) -> String {
        use crate::words::format_ms;
        let how = match self.end {
            End::Killed(Kill::Wall) => "was stopped at",
            _ => "ran past",
        };
        format!(
            "the machine was too busy to judge this case's time: judged {tries} times, the last \
             run {how} its wall-clock cap ({}) after {} of wall time, of which it waited {} for a \
             CPU, with {} of CPU charged, under the {} limit; judge it again on a quieter \
             machine, or with fewer --jobs",
            format_ms(limits.wall()),
            format_ms(self.wall),
            format_ms(self.cpu_wait.unwrap_or_default()),
            format_ms(self.time),
            format_ms(limits.time),
        )
    }
}

impl End {
    /// A few words for how a run ended.
    pub(crate) fn in_words(&self) -> &'static str {
        match self {
            End::Normal => "it exited",
            End::Killed(Kill::Cpu | Kill::Wall | Kill::Startup) => "killed at the time limit",
            End::Killed(Kill::Memory) => "killed at the memory limit",
            End::Killed(Kill::Output) => "killed at the output limit",
            End::Killed(Kill::Interrupted) => "interrupted",
            End::Panicked(_) | End::Crashed(_) => "it crashed",
            End::OutOfMemory(_) => "out of memory",
            End::NotCompiled => "not compiled",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::puzzles::{self, OwnOutput};
    use super::*;

    #[test]
    fn own_output_keeps_its_start_its_count_and_its_last_line() {
        let mut own = OwnOutput::default();
        for i in 1..=5000 {
            // Lines split across chunks, as pipes deliver them.
            own.feed(format!("line {i:5} ").as_bytes());
            own.feed(b"of debug output\n");
        }
        own.feed(b"no newline at the end");
        let text = own.finish();
        assert_eq!(text.lines, 5001);
        assert_eq!(text.head.len(), crate::check::KEEP);
        assert!(text.head.starts_with("line     1 of debug output\n"));
        assert_eq!(text.last_line.as_deref(), Some("no newline at the end"));

        let mut short = OwnOutput::default();
        short.feed(b"one\ntwo\n");
        let text = short.finish();
        assert_eq!((text.lines, text.last_line), (2, None), "all of it is kept");
    }

    #[cfg(unix)]
    #[test]
    fn a_crash_is_said_alike_for_every_kind_of_submission() {
        use process::Exit;
        assert_eq!(crash(Exit::Code(3), "oops\n"), "exited with code 3");
        assert!(crash(Exit::Signal(libc::SIGSEGV), "").starts_with("killed by SIGSEGV"));
        let overflow = "thread 'main' has overflowed its stack\n";
        assert!(crash(Exit::Signal(libc::SIGABRT), overflow).starts_with("stack overflow (SIGABRT"));
        assert_eq!(
            crash(Exit::Code(134), overflow),
            "stack overflow (exit code 134)"
        );
        // Windows: an exception's code, in words.
        assert_eq!(
            crash(Exit::Exception(0xC000_00FD), ""),
            "crashed with 0xC00000FD (stack overflow)"
        );
        assert_eq!(
            crash(Exit::Exception(0xC000_00FD), overflow),
            "stack overflow (0xC00000FD)"
        );
    }

    /// A run under its CPU limit that took past its wall-clock cap is the
    /// machine's doing when its wait for a CPU accounts for it, whether
    /// the cap stopped it or it ended by itself between the cap and the
    /// kill; one that slept is not, nor one over its CPU limit.
    #[test]
    fn a_run_is_starved_only_when_its_wait_for_a_cpu_explains_its_wall_time() {
        let limits = Limits {
            time: Duration::from_millis(1000),
            memory_kb: 1 << 20,
            wall_factor: 2,
        };
        let ms = Duration::from_millis;
        let run = |end: End, time: u64, wall: u64, waited: Option<u64>| Run {
            wall: ms(wall),
            cpu_wait: waited.map(ms),
            ..Run::ended(end, 1, time)
        };
        let normal = || End::Normal;
        let wall = || End::Killed(Kill::Wall);
        // Ended by itself past the cap: without its 1.8 s of waiting, it
        // took 0.35 s: starved. The same wall time asleep: not.
        assert!(run(normal(), 350, 2150, Some(1800)).starved(&limits));
        assert!(!run(normal(), 350, 2150, Some(10)).starved(&limits));
        // Less its wait, still past the cap: it slept some of it.
        assert!(!run(normal(), 350, 2400, Some(300)).starved(&limits));
        // Within the cap: nothing to explain.
        assert!(!run(normal(), 350, 1900, Some(1800)).starved(&limits));
        // Over its CPU limit: TLE whatever the machine did.
        assert!(!run(normal(), 1200, 2150, Some(1800)).starved(&limits));
        // Stopped at the cap: a quarter of it waiting or more.
        assert!(run(wall(), 300, 2350, Some(600)).starved(&limits));
        assert!(!run(wall(), 300, 2350, Some(500)).starved(&limits));
        // A crash past the cap is judged again too; a memory verdict is not
        // a matter of time.
        assert!(run(End::Crashed("x".into()), 350, 2150, Some(1800)).starved(&limits));
        assert!(!run(End::Killed(Kill::Memory), 350, 2150, Some(1800)).starved(&limits));
        // Where the kernel does not say how long it waited, no run is.
        assert!(!run(wall(), 300, 2350, None).starved(&limits));
        assert!(!run(normal(), 350, 2150, None).starved(&limits));
    }

    /// A run the machine starves every time is not judged, and says so in
    /// figures: how long it waited for a CPU, and what it was charged.
    #[test]
    fn a_run_starved_every_time_is_not_judged_and_says_how_long_it_waited() {
        let limits = Limits {
            time: Duration::from_millis(1000),
            memory_kb: 1 << 20,
            wall_factor: 2,
        };
        let mut tries = 0;
        let ran = run_patiently(limits, |patient| {
            tries += 1;
            let run = Run {
                wall: patient.wall() + Duration::from_millis(100),
                cpu_wait: Some(patient.wall()),
                ..Run::ended(End::Normal, 1, 300)
            };
            Ok((run, ()))
        })
        .unwrap();
        let why = ran.unwrap_err();
        assert_eq!(tries, STARVED_RETRIES + 1);
        assert!(why.starts_with("the machine was too busy to judge this case's time"));
        assert!(why.contains("ran past its wall-clock cap"), "{why}");
        assert!(why.contains("for a CPU"), "{why}");
        assert!(why.contains("300 ms of CPU charged"), "{why}");
    }

    #[test]
    fn puzzle_times_sum_exactly_and_spread_within_a_tenth_of_a_percent() {
        let mut times = puzzles::PuzzleTimes::default();
        assert_eq!(times.spread(), None);
        for ns in [3_000, 1_000, 2_000, 1_000_000, 4_000] {
            times.record(ns);
        }
        assert_eq!(times.total(), Duration::from_nanos(1_010_000));
        let spread = times.spread().unwrap();
        let near =
            |d: Duration, ns: u64| d.as_nanos().abs_diff(u128::from(ns)) * 1000 <= u128::from(ns);
        assert!(near(spread.min, 1_000), "{spread:?}");
        assert!(near(spread.median, 3_000), "{spread:?}");
        assert!(near(spread.max, 1_000_000), "{spread:?}");
        assert_eq!(times.slowest(), Some((3, Duration::from_micros(1000))));
    }
}
