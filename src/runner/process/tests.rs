//! The process runner end to end, with `sh` as the submission.

use std::io::{self, Read};
use std::time::{Duration, Instant};

use super::streams::STDERR_HEAD;
use super::watchdog::*;
use crate::runner::platform::{Exit, Meter};
use crate::runner::sandbox::Plan;

fn sh(script: &str) -> ProcessSpec {
    let mut spec = ProcessSpec::new(
        "/bin/sh".into(),
        vec!["sh".into(), "-c".into(), script.into()],
        Plan {
            cwd: std::env::temp_dir(),
            ..Plan::default()
        },
        Default::default(),
    );
    spec.kill_after = Duration::from_secs(10);
    spec.stdout_limit = 1 << 20;
    spec.stderr_tail = 1024;
    spec
}

#[test]
fn collects_output_exit_code_and_usage() {
    let (done, stdout) = run_captured(sh("cat; echo oops >&2; exit 3"), b"hello\n").unwrap();
    assert_eq!(done.exit, Exit::Code(3));
    assert_eq!(stdout, b"hello\n");
    assert_eq!(done.stderr, b"oops\n");
    assert!(done.memory_kb > 0);
    assert_eq!(done.killed, None);
}

#[test]
fn the_environment_is_the_judges_not_the_users() {
    let (_, stdout) = run_captured(sh("echo $HOME ${RUST_BACKTRACE:-unset}"), b"").unwrap();
    let text = String::from_utf8(stdout).unwrap();
    assert_eq!(
        text.trim(),
        format!("{} unset", std::env::temp_dir().display())
    );
}

#[test]
fn input_and_output_stream_through_without_being_held() {
    // 16 MB in and out, far more than a pipe holds: the input is made
    // as it is read, the output only counted, and nothing deadlocks.
    const TOTAL: usize = 16 << 20;
    let mut input = io::repeat(b'7').take(TOTAL as u64);
    let (mut seen, mut sevens) = (0, true);
    let mut count = |chunk: &[u8]| {
        seen += chunk.len();
        sevens &= chunk.iter().all(|&b| b == b'7');
    };
    let mut spec = sh("cat");
    spec.stdout_limit = 2 * TOTAL;
    let done = run(
        spec,
        &mut Stream {
            stdin: &mut input,
            stdout: &mut count,
        },
    )
    .unwrap();
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!((seen, sevens), (TOTAL, true));
}

/// Feeds one line at a time, each after the answer to the last comes
/// back on fd 3.
struct OneByOne {
    lines: Vec<&'static str>,
    sent: usize,
    answered: Vec<String>,
}

impl Conversation for OneByOne {
    fn input(&mut self, buf: &mut [u8], _: &mut Meter) -> io::Result<Input> {
        if self.sent == self.lines.len() {
            return Ok(Input::End);
        }
        if self.answered.len() < self.sent {
            return Ok(Input::Wait);
        }
        let line = self.lines[self.sent].as_bytes();
        buf[..line.len()].copy_from_slice(line);
        self.sent += 1;
        Ok(Input::Data(line.len()))
    }

    fn stdout(&mut self, _: &[u8], _: &mut Meter) {}

    fn answers(&mut self, chunk: &[u8], meter: &mut Meter) {
        assert!(meter.process_cpu().is_some());
        for line in String::from_utf8_lossy(chunk).lines() {
            self.answered.push(line.to_string());
        }
    }
}

#[test]
fn a_conversation_feeds_each_line_after_the_last_answer() {
    // Each answer comes back on fd 3; the next line waits for it.
    let mut spec = sh("while read -r line; do echo \"got $line\" >&3; done");
    spec.answers = true;
    let mut talk = OneByOne {
        lines: vec!["a\n", "b\n", "c\n"],
        sent: 0,
        answered: Vec::new(),
    };
    let done = run(spec, &mut talk).unwrap();
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(talk.answered, ["got a", "got b", "got c"]);
}

/// Stops the run once stdout has brought a whole line: which it can do
/// only if the line arrives while the process still runs.
#[derive(Default)]
struct StopOnALine {
    seen: Vec<u8>,
    stopped: bool,
}

impl Conversation for StopOnALine {
    fn input(&mut self, _: &mut [u8], _: &mut Meter) -> io::Result<Input> {
        Ok(Input::End)
    }

    fn stdout(&mut self, chunk: &[u8], _: &mut Meter) {
        self.seen.extend_from_slice(chunk);
    }

    fn check(&mut self, _: &mut Meter) -> Option<Kill> {
        self.stopped = self.seen.ends_with(b"\n");
        self.stopped.then_some(Kill::Interrupted)
    }
}

#[test]
fn output_reaches_the_callback_while_the_process_runs() {
    // It prints, then sleeps far past the test: the conversation stops
    // it on seeing the line, long before its deadline.
    let mut spec = sh("echo early; sleep 30");
    spec.kill_after = Duration::from_secs(20);
    let mut talk = StopOnALine::default();
    let done = run(spec, &mut talk).unwrap();
    assert!(talk.stopped, "the line came only when the process ended");
    assert_eq!(done.killed, Some(Kill::Interrupted));
    assert_eq!(talk.seen, b"early\n");
}

#[cfg(unix)]
#[test]
fn a_sleeper_and_its_children_are_killed_at_the_deadline() {
    // The background child keeps stdout open; killing the group closes it.
    let mut spec = sh("sleep 30 & sleep 30");
    spec.kill_after = Duration::from_millis(200);
    let started = Instant::now();
    let (done, _) = run_captured(spec, b"").unwrap();
    assert_eq!(done.killed, Some(Kill::Wall));
    assert_eq!(done.exit, Exit::Signal(libc::SIGKILL));
    // A backstop, not a timing: both sleepers block for 30 s, so only a run
    // left to them (or a hang) takes 10 s, however busy the machine.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the run was not cut short"
    );
}

#[test]
fn stderr_keeps_its_first_line_and_its_end() {
    let mut spec = sh("echo first >&2; yes middle | head -n 20000 >&2; echo last >&2");
    spec.stderr_tail = 100;
    let (done, _) = run_captured(spec, b"").unwrap();
    let text = String::from_utf8(done.stderr).unwrap();
    assert!(text.starts_with("first\nmiddle"), "{text}");
    assert!(text.contains(" bytes left out ...]\n"), "{text}");
    assert!(text.ends_with("middle\nlast\n"), "{text}");
    assert!(text.len() < STDERR_HEAD + 200, "{}", text.len());
}

#[test]
fn endless_output_is_cut_at_the_limit() {
    let mut spec = sh("yes");
    spec.stdout_limit = 1000;
    let (done, stdout) = run_captured(spec, b"").unwrap();
    assert_eq!(done.killed, Some(Kill::Output));
    assert_eq!(stdout.len(), 1000);
}

#[test]
fn a_process_that_never_reads_stdin_does_not_block() {
    let input = vec![b'x'; 8 << 20];
    let (done, _) = run_captured(sh("exit 0"), &input).unwrap();
    assert_eq!(done.exit, Exit::Code(0));
}

/// Input that fails once the process has said it runs.
#[derive(Default)]
struct BrokenOnceStarted {
    started: bool,
}

impl Conversation for BrokenOnceStarted {
    fn input(&mut self, _: &mut [u8], _: &mut Meter) -> io::Result<Input> {
        if self.started {
            Err(io::Error::other("the case file went away"))
        } else {
            Ok(Input::Wait)
        }
    }

    fn stdout(&mut self, chunk: &[u8], _: &mut Meter) {
        self.started |= chunk.contains(&b'\n');
    }
}

/// Whether a process runs with exactly `argv` (a zombie has no
/// command line, so it does not count).
fn running(argv: &[u8]) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline")).is_ok_and(|cmdline| cmdline == argv)
    })
}

#[test]
fn a_failing_input_is_a_harness_error_and_kills_the_process() {
    // A sleep no other test runs, so that it is this test's to find.
    const ARGV: &[u8] = b"sleep\x0030.1450\x00";
    let mut talk = BrokenOnceStarted::default();
    let error = run(sh("echo started; exec sleep 30.1450"), &mut talk).unwrap_err();
    assert_eq!(error.to_string(), "the case file went away");
    assert!(talk.started);
    let gone = Instant::now();
    while running(ARGV) {
        assert!(
            gone.elapsed() < Duration::from_secs(20),
            "the process outlived the error"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_busy_loop_is_killed_by_its_cpu_time() {
    let mut spec = sh("while :; do :; done");
    spec.kill_after_cpu = Some(Duration::from_millis(100));
    // However busy the machine, it spins until its CPU time is up.
    spec.kill_after = Duration::from_secs(120);
    let (done, _) = run_captured(spec, b"").unwrap();
    assert_eq!(done.killed, Some(Kill::Cpu));
    assert!(done.cpu >= Duration::from_millis(100), "{:?}", done.cpu);
}

#[test]
fn a_growing_process_is_killed_above_its_memory_bound() {
    // A shell variable doubled until it is far above the bound.
    let mut spec = sh("x=0123456789abcdef; while :; do x=$x$x; done");
    spec.kill_above_memory_kb = Some(64 * 1024);
    let (done, _) = run_captured(spec, b"").unwrap();
    assert_eq!(done.killed, Some(Kill::Memory));
    assert!(done.memory_kb > 64 * 1024, "{}", done.memory_kb);
}

#[test]
fn a_crash_is_a_named_signal() {
    let (done, _) = run_captured(sh("kill -SEGV $$"), b"").unwrap();
    assert_eq!(done.exit, Exit::Signal(libc::SIGSEGV));
    assert!(describe_signal(libc::SIGSEGV).starts_with("SIGSEGV (segmentation fault"));
}

/// How long a run waited for a CPU is known however it ends, not only when
/// the wall-clock cap stops it: here it exits by itself, at the lowest
/// priority, beside a spinner at the normal one on every CPU, and so spends
/// most of its life waiting for one.
#[cfg(target_os = "linux")]
#[test]
fn the_wait_for_a_cpu_is_measured_when_a_run_ends_by_itself() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut spinners: Vec<_> = (0..cpus)
        .map(|_| {
            std::process::Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .spawn()
                .unwrap()
        })
        .collect();
    let mut spec = sh("");
    spec.program = "/usr/bin/nice".into();
    let spin = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done";
    spec.argv = ["nice", "-n", "19", "sh", "-c", spin]
        .iter()
        .map(Into::into)
        .collect();
    spec.kill_after = Duration::from_secs(60);
    let done = run_captured(spec, b"").map(|(done, _)| done);
    for spinner in &mut spinners {
        let _ = spinner.kill();
        let _ = spinner.wait();
    }
    let done = done.unwrap();
    assert_eq!((done.exit, done.killed), (Exit::Code(0), None));
    let waited = done.cpu_wait.expect("Linux counts the wait");
    assert!(waited > Duration::ZERO, "{done:?}");
}
