//! Running one untrusted process to completion, whatever it does.
//!
//! - It gets its own process group, so a kill reaches every child it starts,
//!   and the group is killed when the leader ends: no process outlives a run.
//! - A watchdog kills the group at a wall-clock deadline, when the leader's
//!   CPU time or resident memory passes its bound (read from `/proc` every
//!   few milliseconds), or when the user presses Ctrl-C ([`interrupt`]).
//!   `RLIMIT_CPU` and `RLIMIT_AS` are kernel backstops behind it, and cores
//!   are never dumped.
//! - Stdin is written on one thread while stdout and stderr are drained on
//!   others, so a process that never reads, or floods stderr, cannot
//!   deadlock the harness. Stdout is capped (the output limit) and only the
//!   tail of stderr is kept, so the harness's memory stays bounded.
//! - CPU time and peak memory come from the kernel's accounting of this one
//!   child (`wait4`'s rusage), not from polling.
//!
//! Unix only: this is where the platform code lives.

use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt as _;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What to run and within which bounds.
pub struct Spec {
    pub command: Command,
    pub stdin: Vec<u8>,
    /// Wall-clock time after which the process group is killed.
    pub kill_after: Duration,
    /// CPU time of the leader after which the group is killed.
    pub kill_after_cpu: Option<Duration>,
    /// Resident memory of the leader, in KB, past which the group is killed.
    pub kill_above_memory_kb: Option<u64>,
    /// `RLIMIT_CPU`, in whole seconds, rounded up.
    pub cpu_limit: Option<Duration>,
    /// `RLIMIT_AS`, in bytes.
    pub address_space_limit: Option<u64>,
    /// Stdout beyond this many bytes kills the process (output limit).
    pub stdout_limit: usize,
    /// How much of the end of stderr to keep.
    pub stderr_tail: usize,
}

/// Why the watchdog killed a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    /// It ran past [`Spec::kill_after`] of wall-clock time.
    Wall,
    /// It used more than [`Spec::kill_after_cpu`] of CPU time.
    Cpu,
    /// Its resident memory passed [`Spec::kill_above_memory_kb`].
    Memory,
    /// Its stdout passed [`Spec::stdout_limit`].
    Output,
    /// The user interrupted the run.
    Interrupted,
}

/// How the process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

/// A finished process and what the kernel measured of it.
#[derive(Debug)]
pub struct Finished {
    pub exit: Exit,
    pub wall: Duration,
    pub cpu: Duration,
    pub max_rss_kb: u64,
    pub stdout: Vec<u8>,
    pub stderr_tail: Vec<u8>,
    /// Why the harness killed it, if it did.
    pub killed: Option<Kill>,
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every running and future [`run`] to kill its process at once; for
/// a Ctrl-C handler. Safe to call from any thread.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// How often the watchdog looks at the process.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// What `/proc/PID/stat` says of a running process: CPU time and resident
/// memory. `None` once it is gone, or where there is no `/proc`.
fn sample(pid: i32) -> Option<(Duration, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses; fields resume after the last ')'.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split(' ').collect();
    // Fields 14 and 15 (utime, stime) and 24 (rss) of proc(5), counted from
    // the state, field 3, which is fields[0] here.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let rss_pages: u64 = fields.get(21)?.parse().ok()?;
    // SAFETY: sysconf takes no pointers.
    let (hz, page) = unsafe {
        (
            libc::sysconf(libc::_SC_CLK_TCK),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    let hz = u64::try_from(hz).ok().filter(|&h| h > 0)?;
    let page_kb = u64::try_from(page).ok()? / 1024;
    Some((
        Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / hz),
        rss_pages * page_kb,
    ))
}

/// How long to wait for the pipes to close once the process group is dead.
/// Only a grandchild that escaped into a new session can hold them longer.
const PIPE_GRACE: Duration = Duration::from_millis(500);

fn kill_group(pgid: i32) {
    // SAFETY: kill(2) takes no pointers; a stale group only yields ESRCH.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type Resource = libc::c_int;

fn set_limit(resource: Resource, value: u64) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: setrlimit reads the struct we pass and is async-signal-safe.
    if unsafe { libc::setrlimit(resource, &limit) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Reads `pipe` to its end into `sink`, keeping at most `limit` bytes: the
/// first ones (`keep_tail == false`) or the last ones. Returns whether more
/// came than was kept.
fn drain(mut pipe: impl Read, sink: &Mutex<Vec<u8>>, limit: usize, keep_tail: bool) -> bool {
    let mut buf = [0u8; 64 * 1024];
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) => return false,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        let mut kept = sink.lock().unwrap_or_else(|e| e.into_inner());
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > limit {
            if !keep_tail {
                kept.truncate(limit);
                return true;
            }
            let excess = kept.len() - limit;
            kept.drain(..excess);
        }
    }
}

/// Runs `spec` to the end and reports how it went. An `Err` means the
/// harness could not run it at all (e.g. the program does not exist).
pub fn run(spec: Spec) -> io::Result<Finished> {
    let Spec {
        mut command,
        stdin,
        kill_after,
        kill_after_cpu,
        kill_above_memory_kb,
        cpu_limit,
        address_space_limit,
        stdout_limit,
        stderr_tail,
    } = spec;
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let cpu_seconds = cpu_limit.map(|d| d.as_secs() + u64::from(d.subsec_nanos() > 0));
    // SAFETY: the closure runs between fork and exec and only calls
    // setrlimit, which is async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            set_limit(libc::RLIMIT_CORE, 0)?;
            if let Some(seconds) = cpu_seconds {
                set_limit(libc::RLIMIT_CPU, seconds)?;
            }
            if let Some(bytes) = address_space_limit {
                set_limit(libc::RLIMIT_AS, bytes)?;
            }
            Ok(())
        });
    }

    let start = Instant::now();
    let mut child = command.spawn()?;
    let pid = child.id() as i32;

    let mut child_stdin = child.stdin.take().expect("stdin is piped");
    // Not joined: a process that never reads leaves this blocked until it dies.
    thread::spawn(move || {
        let _ = child_stdin.write_all(&stdin);
    });

    let stdout = Arc::new(Mutex::new(Vec::new()));
    let stderr = Arc::new(Mutex::new(Vec::new()));
    // The first reason to kill wins; later ones only see the group gone.
    let killed: Arc<Mutex<Option<Kill>>> = Arc::new(Mutex::new(None));
    let kill = {
        let killed = Arc::clone(&killed);
        move |why: Kill| {
            let mut first = killed.lock().unwrap_or_else(|e| e.into_inner());
            if first.is_none() {
                *first = Some(why);
                kill_group(pid);
            }
        }
    };
    let (done_tx, done_rx) = mpsc::channel::<()>();
    {
        let (pipe, sink, kill, done) = (
            child.stdout.take().expect("stdout is piped"),
            Arc::clone(&stdout),
            kill.clone(),
            done_tx.clone(),
        );
        thread::spawn(move || {
            if drain(pipe, &sink, stdout_limit, false) {
                kill(Kill::Output);
            }
            drop(done);
        });
    }
    {
        let (pipe, sink, done) = (
            child.stderr.take().expect("stderr is piped"),
            Arc::clone(&stderr),
            done_tx,
        );
        thread::spawn(move || {
            drain(pipe, &sink, stderr_tail, true);
            drop(done);
        });
    }

    let (stop_watchdog, watchdog_rx) = mpsc::channel::<()>();
    let watchdog = thread::spawn(move || {
        let watch_usage = kill_after_cpu.is_some() || kill_above_memory_kb.is_some();
        loop {
            match watchdog_rx.recv_timeout(WATCH_EVERY) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                _ => return,
            }
            if interrupted() {
                return kill(Kill::Interrupted);
            }
            if start.elapsed() >= kill_after {
                return kill(Kill::Wall);
            }
            if let Some((cpu, rss_kb)) = watch_usage.then(|| sample(pid)).flatten() {
                if kill_after_cpu.is_some_and(|limit| cpu >= limit) {
                    return kill(Kill::Cpu);
                }
                if kill_above_memory_kb.is_some_and(|limit| rss_kb > limit) {
                    return kill(Kill::Memory);
                }
            }
        }
    });

    let (status, usage) = wait4(pid)?;
    let wall = start.elapsed();
    drop(stop_watchdog);
    let _ = watchdog.join();
    // The leader is gone; anything it started goes with it.
    kill_group(pid);
    // Both drain threads hang up when their pipes close.
    let deadline = Instant::now() + PIPE_GRACE;
    while let Err(mpsc::RecvTimeoutError::Timeout) =
        done_rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        if Instant::now() >= deadline {
            break;
        }
    }

    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    let take = |sink: &Mutex<Vec<u8>>| {
        std::mem::take(&mut *sink.lock().unwrap_or_else(|e| e.into_inner()))
    };
    let killed = *killed.lock().unwrap_or_else(|e| e.into_inner());
    Ok(Finished {
        exit,
        wall,
        cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
        max_rss_kb: u64::try_from(usage.ru_maxrss).unwrap_or(0),
        stdout: take(&stdout),
        stderr_tail: take(&stderr),
        killed,
    })
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// Waits for `pid` and returns its status with its own resource usage.
fn wait4(pid: i32) -> io::Result<(i32, libc::rusage)> {
    let mut status = 0;
    // SAFETY: rusage is plain data; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals of the right types.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

/// The conventional name of a signal, with what it usually means for a
/// submission, e.g. `SIGSEGV (segmentation fault)`.
pub fn describe_signal(signal: i32) -> String {
    let (name, meaning) = match signal {
        libc::SIGSEGV => (
            "SIGSEGV",
            "segmentation fault: a bad pointer or index, or a stack overflow",
        ),
        libc::SIGABRT => (
            "SIGABRT",
            "aborted, e.g. by a failed assertion or an uncaught exception",
        ),
        libc::SIGFPE => ("SIGFPE", "arithmetic error, e.g. division by zero"),
        libc::SIGBUS => ("SIGBUS", "bus error: misaligned or unmapped memory"),
        libc::SIGILL => ("SIGILL", "illegal instruction"),
        libc::SIGKILL => ("SIGKILL", "killed"),
        libc::SIGXCPU => ("SIGXCPU", "CPU time limit reached"),
        libc::SIGPIPE => ("SIGPIPE", "wrote to a closed pipe"),
        libc::SIGTERM => ("SIGTERM", "terminated"),
        _ => return format!("signal {signal}"),
    };
    format!("{name} ({meaning})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Spec {
        let mut command = Command::new("sh");
        command.arg("-c").arg(script);
        Spec {
            command,
            stdin: Vec::new(),
            kill_after: Duration::from_secs(10),
            kill_after_cpu: None,
            kill_above_memory_kb: None,
            cpu_limit: None,
            address_space_limit: None,
            stdout_limit: 1 << 20,
            stderr_tail: 1024,
        }
    }

    #[test]
    fn collects_output_exit_code_and_usage() {
        let mut spec = sh("cat; echo oops >&2; exit 3");
        spec.stdin = b"hello\n".to_vec();
        let done = run(spec).unwrap();
        assert_eq!(done.exit, Exit::Code(3));
        assert_eq!(done.stdout, b"hello\n");
        assert_eq!(done.stderr_tail, b"oops\n");
        assert!(done.max_rss_kb > 0);
        assert_eq!(done.killed, None);
    }

    #[test]
    fn a_sleeper_and_its_children_are_killed_at_the_deadline() {
        // The background child keeps stdout open; killing the group closes it.
        let mut spec = sh("sleep 30 & sleep 30");
        spec.kill_after = Duration::from_millis(200);
        let started = Instant::now();
        let done = run(spec).unwrap();
        assert_eq!(done.killed, Some(Kill::Wall));
        assert_eq!(done.exit, Exit::Signal(libc::SIGKILL));
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the run was not cut short"
        );
    }

    #[test]
    fn endless_output_is_cut_at_the_limit() {
        let mut spec = sh("yes");
        spec.stdout_limit = 1000;
        let done = run(spec).unwrap();
        assert_eq!(done.killed, Some(Kill::Output));
        assert_eq!(done.stdout.len(), 1000);
    }

    #[test]
    fn a_process_that_never_reads_stdin_does_not_block() {
        let mut spec = sh("exit 0");
        spec.stdin = vec![b'x'; 8 << 20];
        assert_eq!(run(spec).unwrap().exit, Exit::Code(0));
    }

    #[test]
    fn a_busy_loop_is_killed_by_its_cpu_time() {
        let mut spec = sh("while :; do :; done");
        spec.kill_after_cpu = Some(Duration::from_millis(100));
        let done = run(spec).unwrap();
        assert_eq!(done.killed, Some(Kill::Cpu));
        assert!(done.cpu >= Duration::from_millis(100), "{:?}", done.cpu);
    }

    #[test]
    fn a_growing_process_is_killed_above_its_memory_bound() {
        // A shell variable doubled until it is far above the bound.
        let mut spec = sh("x=0123456789abcdef; while :; do x=$x$x; done");
        spec.kill_above_memory_kb = Some(64 * 1024);
        let done = run(spec).unwrap();
        assert_eq!(done.killed, Some(Kill::Memory));
        assert!(done.max_rss_kb > 64 * 1024, "{}", done.max_rss_kb);
    }

    #[test]
    fn a_crash_is_a_named_signal() {
        let done = run(sh("kill -SEGV $$")).unwrap();
        assert_eq!(done.exit, Exit::Signal(libc::SIGSEGV));
        assert!(describe_signal(libc::SIGSEGV).starts_with("SIGSEGV (segmentation fault"));
    }
}
