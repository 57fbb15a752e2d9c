//! Running one untrusted process to completion, whatever it does.
//!
//! - It gets its own process group, so a kill reaches every child it starts,
//!   and the group is killed when the leader ends: no process outlives a run.
//! - A watchdog kills the group at a wall-clock deadline, when the leader's
//!   CPU time or resident memory passes its bound (read from `/proc` every
//!   few milliseconds), or when the user presses Ctrl-C ([`interrupt`]).
//!   `RLIMIT_CPU` and `RLIMIT_AS` are kernel backstops behind it, and cores
//!   are never dumped.
//! - Input and output stream: stdin is fed from a reader as the process
//!   takes it, and stdout is handed to a callback chunk by chunk as it
//!   arrives, so a case of a million puzzles is judged while it runs and the
//!   harness never holds the whole input or output. Stdout is cut at the
//!   output limit and only the tail of stderr is kept.
//! - One thread does it all with `poll(2)`: feeding stdin, draining stdout
//!   and stderr, noticing the exit (through a pidfd where the kernel has
//!   them) and the watchdog's rounds. A process that never reads, or floods
//!   stderr, cannot stall it, and no helper thread is left behind blocked on
//!   a pipe that an escaped grandchild still holds.
//! - CPU time and peak memory come from the kernel's accounting of this one
//!   child (`wait4`'s rusage), not from polling.
//!
//! Unix only: this is where the platform code lives.

use std::io::{self, Read};
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::process::CommandExt as _;
use std::process::{Command, Stdio};

use super::spawner::{self, Spawner};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What to run and within which spec.
pub struct Spec {
    pub command: Command,
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

/// Where the process's stdin comes from and where its stdout goes.
pub struct Io<'a> {
    /// Read as the process takes its input; at its end stdin is closed.
    pub stdin: &'a mut dyn Read,
    /// Called with each chunk of stdout as it arrives, in order, for at
    /// most [`Spec::stdout_limit`] bytes in all.
    pub stdout: &'a mut dyn FnMut(&[u8]),
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
    /// How many bytes of stdout were handed on (at most the limit).
    pub stdout_bytes: usize,
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

/// How often the watchdog looks at the process's CPU time and memory.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// Without a pidfd the exit is noticed by asking: this often at most.
const EXIT_CHECK_EVERY: Duration = Duration::from_millis(1);

/// How long to wait for the pipes to close once the process group is dead.
/// Only a grandchild that escaped into a new session can hold them longer.
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// Bytes moved per read or write.
const CHUNK: usize = 64 * 1024;

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

/// Sets the limits of a submission between fork and exec: no core dumps,
/// and the CPU and address-space backstops.
pub(crate) fn limit_child(command: &mut Command, limits: Rlimits) {
    // SAFETY: the closure runs between fork and exec and only calls
    // setrlimit, which is async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            set_limit(libc::RLIMIT_CORE, 0)?;
            if let Some(seconds) = limits.cpu_seconds {
                set_limit(libc::RLIMIT_CPU, seconds)?;
            }
            if let Some(bytes) = limits.address_space {
                set_limit(libc::RLIMIT_AS, bytes)?;
            }
            Ok(())
        });
    }
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own, with integer arguments only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A descriptor that becomes readable when `pid` exits, so the exit wakes
/// the loop at once rather than at its next round. Linux 5.3 and later.
#[cfg(target_os = "linux")]
pub(crate) fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes two integers and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let fd = RawFd::try_from(fd).ok().filter(|&fd| fd >= 0)?;
    // SAFETY: the kernel just gave us this descriptor; nothing else owns it.
    Some(unsafe { OwnedFd::from_raw_fd(fd) })
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn pidfd_open(_pid: i32) -> Option<OwnedFd> {
    None
}

/// `read(2)` on a non-blocking descriptor: `Ok(None)` when nothing is ready.
fn read_some(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<Option<usize>> {
    // SAFETY: buf is a live, writable buffer of buf.len() bytes.
    let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
    if n >= 0 {
        return Ok(Some(n as usize));
    }
    let error = io::Error::last_os_error();
    match error.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
        _ => Err(error),
    }
}

/// `write(2)` on a non-blocking descriptor: `Ok(None)` when the pipe is full.
fn write_some(fd: &OwnedFd, buf: &[u8]) -> io::Result<Option<usize>> {
    // SAFETY: buf is a live buffer of buf.len() bytes.
    let n = unsafe { libc::write(fd.as_raw_fd(), buf.as_ptr().cast(), buf.len()) };
    if n >= 0 {
        return Ok(Some(n as usize));
    }
    let error = io::Error::last_os_error();
    match error.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
        _ => Err(error),
    }
}

/// `wait4(2)` without blocking: the status and the child's own resource
/// usage once it has exited.
pub(crate) fn try_wait4(pid: i32) -> io::Result<Option<(i32, libc::rusage)>> {
    let mut status = 0;
    // SAFETY: rusage is plain data; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live locals of the right types.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            return Ok(Some((status, usage)));
        }
        if r == 0 {
            return Ok(None);
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// Runs `spec` to the end, feeding stdin from `io.stdin` and handing stdout
/// to `io.stdout` as it comes, and reports how it went. An `Err` means the
/// harness could not run it at all (e.g. the program does not exist) or
/// could not read the input it was to feed; the process is gone either way.
pub fn run(mut spec: Spec, io: Io<'_>) -> io::Result<Finished> {
    let limits = Rlimits {
        cpu_seconds: spec
            .cpu_limit
            .map(|d| d.as_secs() + u64::from(d.subsec_nanos() > 0)),
        address_space: spec.address_space_limit,
    };
    let start = Instant::now();
    let (child, pipes) = match spawner::take() {
        Some(spawner) => {
            let mut spawner = spawner?;
            let (child_stdin, stdin) = pipe()?;
            let (stdout, child_stdout) = pipe()?;
            let (stderr, child_stderr) = pipe()?;
            let pid = match spawner.spawn(
                &spec.command,
                [&child_stdin, &child_stdout, &child_stderr],
                limits,
            ) {
                Ok(pid) => pid,
                Err(error) => {
                    // The program did not start; the spawner is fine.
                    spawner::give_back(spawner);
                    return Err(error);
                }
            };
            let pipes = Pipes {
                stdin: Some(stdin),
                stdout: Some(stdout),
                stderr: Some(stderr),
            };
            (Child::Spawned { pid, spawner }, pipes)
        }
        None => {
            let command = &mut spec.command;
            command
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .process_group(0);
            limit_child(command, limits);
            let mut child = command.spawn()?;
            let pipes = Pipes {
                stdin: child.stdin.take().map(OwnedFd::from),
                stdout: child.stdout.take().map(OwnedFd::from),
                stderr: child.stderr.take().map(OwnedFd::from),
            };
            (
                Child::Direct {
                    pidfd: pidfd_open(child.id() as i32),
                    process: child,
                },
                pipes,
            )
        }
    };
    let mut child = child;
    let pid = child.pid();
    let result = watch(&mut child, start, pipes, &spec, io);
    match (child, &result) {
        // The harness failed, not the process: leave nothing behind.
        (Child::Direct { mut process, .. }, Err(_)) => {
            kill_group(pid);
            let _ = process.wait();
        }
        // Dropping the spawner ends it and, with it, anything it started.
        (Child::Spawned { spawner, .. }, Err(_)) => {
            kill_group(pid);
            drop(spawner);
        }
        (Child::Spawned { spawner, .. }, Ok(_)) => spawner::give_back(spawner),
        _ => {}
    }
    result
}

/// A pipe: (read end, write end), both closed on exec. Only the spawner,
/// which is Linux's, needs one made here.
#[cfg(target_os = "linux")]
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fds is a live array of two ints for the new descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just made both; nothing else owns them.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

#[cfg(not(target_os = "linux"))]
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "pipes for a spawner need Linux",
    ))
}

/// The running process, however it was started.
enum Child {
    /// Forked by this process, which waits for it.
    Direct {
        pidfd: Option<OwnedFd>,
        process: std::process::Child,
    },
    /// Forked by a spawner, which reports its exit.
    Spawned { pid: i32, spawner: Spawner },
}

/// How a process ended, as the kernel accounted it.
pub(crate) struct Ended {
    /// As `wait4` returns it.
    pub status: i32,
    pub cpu: Duration,
    pub max_rss_kb: u64,
    /// From the fork to the exit, when a spawner started the process and
    /// timed it.
    pub wall: Option<Duration>,
}

/// Limits set in the child between fork and exec.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Rlimits {
    /// `RLIMIT_CPU`, whole seconds.
    pub cpu_seconds: Option<u64>,
    /// `RLIMIT_AS`, bytes.
    pub address_space: Option<u64>,
}

impl Child {
    fn pid(&self) -> i32 {
        match self {
            Child::Direct { process, .. } => process.id() as i32,
            Child::Spawned { pid, .. } => *pid,
        }
    }

    /// Becomes readable when the process exits, if there is such a thing.
    fn exit_fd(&self) -> Option<RawFd> {
        match self {
            Child::Direct { pidfd, .. } => pidfd.as_ref().map(|fd| fd.as_raw_fd()),
            Child::Spawned { spawner, .. } => Some(spawner.exit_fd()),
        }
    }

    fn try_exit(&mut self) -> io::Result<Option<Ended>> {
        match self {
            Child::Direct { process, .. } => Ok(try_wait4(process.id() as i32)?.map(
                |(status, usage)| Ended {
                    status,
                    cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
                    max_rss_kb: u64::try_from(usage.ru_maxrss).unwrap_or(0),
                    wall: None,
                },
            )),
            Child::Spawned { spawner, .. } => spawner.try_exit(),
        }
    }
}

/// [`run`] with the whole of stdin given and the whole of stdout (up to its
/// limit) kept, for small runs such as a compiler's.
pub fn run_captured(spec: Spec, stdin: &[u8]) -> io::Result<(Finished, Vec<u8>)> {
    let mut out = Vec::new();
    let finished = {
        let mut keep = |chunk: &[u8]| out.extend_from_slice(chunk);
        run(
            spec,
            Io {
                stdin: &mut &stdin[..],
                stdout: &mut keep,
            },
        )?
    };
    Ok((finished, out))
}

struct Pipes {
    stdin: Option<OwnedFd>,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
}

/// Records the first reason to kill and kills the group; later reasons only
/// find it dying.
fn kill(killed: &mut Option<Kill>, why: Kill, pid: i32) {
    if killed.is_none() {
        *killed = Some(why);
        kill_group(pid);
    }
}

/// The poll loop: moves input and output, watches the limits, and returns
/// once the leader has exited and its pipes have closed (or the grace for
/// them is over).
fn watch(
    process: &mut Child,
    start: Instant,
    pipes: Pipes,
    spec: &Spec,
    io: Io<'_>,
) -> io::Result<Finished> {
    let pid = process.pid();
    let Pipes {
        mut stdin,
        mut stdout,
        mut stderr,
    } = pipes;
    for fd in [&stdin, &stdout, &stderr].into_iter().flatten() {
        set_nonblocking(fd.as_raw_fd())?;
    }
    let exit_fd = process.exit_fd();
    let watch_usage = spec.kill_after_cpu.is_some() || spec.kill_above_memory_kb.is_some();

    // Input read from `io.stdin` but not yet taken by the process.
    let mut pending: Vec<u8> = Vec::with_capacity(CHUNK);
    let mut pending_at = 0;
    let mut chunk = vec![0u8; CHUNK];
    let mut stdout_bytes = 0;
    let mut tail: Vec<u8> = Vec::new();
    let mut killed = None;
    let mut ended: Option<(Ended, Duration)> = None;
    let mut drain_until: Option<Instant> = None;
    let mut next_sample = start + WATCH_EVERY;

    loop {
        let now = Instant::now();
        if ended.is_none() {
            if let Some(end) = process.try_exit()? {
                ended = Some((end, now - start));
                // The leader is gone; anything it started goes with it.
                kill_group(pid);
                stdin = None;
                drain_until = Some(now + PIPE_GRACE);
            }
        }
        if let Some(until) = drain_until {
            if (stdout.is_none() && stderr.is_none()) || now >= until {
                break;
            }
        } else if interrupted() {
            kill(&mut killed, Kill::Interrupted, pid);
        } else if now - start >= spec.kill_after {
            kill(&mut killed, Kill::Wall, pid);
        } else if watch_usage && now >= next_sample {
            next_sample = now + WATCH_EVERY;
            if let Some((cpu, rss_kb)) = sample(pid) {
                if spec.kill_after_cpu.is_some_and(|limit| cpu >= limit) {
                    kill(&mut killed, Kill::Cpu, pid);
                } else if spec
                    .kill_above_memory_kb
                    .is_some_and(|limit| rss_kb > limit)
                {
                    kill(&mut killed, Kill::Memory, pid);
                }
            }
        }

        // Keep the next piece of input ready; at its end, close stdin.
        if stdin.is_some() && pending_at == pending.len() {
            pending.resize(CHUNK, 0);
            let n = loop {
                match io.stdin.read(&mut pending) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => break other?,
                }
            };
            pending.truncate(n);
            pending_at = 0;
            if n == 0 {
                stdin = None;
            }
        }

        let mut fds = [libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        }; 4];
        let watched = [
            (stdin.as_ref().map(|fd| fd.as_raw_fd()), libc::POLLOUT),
            (stdout.as_ref().map(|fd| fd.as_raw_fd()), libc::POLLIN),
            (stderr.as_ref().map(|fd| fd.as_raw_fd()), libc::POLLIN),
            (exit_fd.filter(|_| ended.is_none()), libc::POLLIN),
        ];
        for (slot, (fd, events)) in fds.iter_mut().zip(watched) {
            if let Some(fd) = fd {
                slot.fd = fd;
                slot.events = events;
            }
        }
        // Wake for the watchdog's round (which also notices Ctrl-C), the
        // deadline, the end of the grace, or, without a pidfd, to ask
        // whether the leader has exited.
        let wake = match drain_until {
            Some(until) => until,
            None => {
                let mut wake = (now + WATCH_EVERY).min(start + spec.kill_after);
                if exit_fd.is_none() {
                    wake = wake.min(now + EXIT_CHECK_EVERY);
                }
                wake
            }
        };
        let timeout_ms = wake
            .saturating_duration_since(Instant::now())
            .as_micros()
            .div_ceil(1000);
        // SAFETY: fds is a live array of 4 pollfds; negative fds are ignored.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 4, timeout_ms as libc::c_int) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error);
        }
        let is_ready = |i: usize| fds[i].revents != 0;

        if is_ready(0) {
            if let Some(fd) = &stdin {
                match write_some(fd, &pending[pending_at..]) {
                    Ok(Some(n)) => pending_at += n,
                    Ok(None) => {}
                    // The process closed its stdin: what it did not read is dropped.
                    Err(_) => {
                        stdin = None;
                        pending.clear();
                        pending_at = 0;
                    }
                }
            }
        }
        if is_ready(1) {
            if let Some(fd) = &stdout {
                match read_some(fd, &mut chunk) {
                    Ok(None) => {}
                    Ok(Some(0)) | Err(_) => stdout = None,
                    Ok(Some(n)) => {
                        let room = spec.stdout_limit - stdout_bytes;
                        let take = n.min(room);
                        if take > 0 {
                            (io.stdout)(&chunk[..take]);
                            stdout_bytes += take;
                        }
                        if n > room {
                            kill(&mut killed, Kill::Output, pid);
                            stdout = None;
                        }
                    }
                }
            }
        }
        if is_ready(2) {
            if let Some(fd) = &stderr {
                match read_some(fd, &mut chunk) {
                    Ok(None) => {}
                    Ok(Some(0)) | Err(_) => stderr = None,
                    Ok(Some(n)) => {
                        tail.extend_from_slice(&chunk[..n]);
                        if tail.len() > spec.stderr_tail {
                            let excess = tail.len() - spec.stderr_tail;
                            tail.drain(..excess);
                        }
                    }
                }
            }
        }
    }

    let (end, noticed) = ended.expect("the loop ends after the exit");
    let exit = if libc::WIFSIGNALED(end.status) {
        Exit::Signal(libc::WTERMSIG(end.status))
    } else {
        Exit::Code(libc::WEXITSTATUS(end.status))
    };
    Ok(Finished {
        exit,
        wall: end.wall.unwrap_or(noticed),
        cpu: end.cpu,
        max_rss_kb: end.max_rss_kb,
        stdout_bytes,
        stderr_tail: tail,
        killed,
    })
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
        let (done, stdout) = run_captured(sh("cat; echo oops >&2; exit 3"), b"hello\n").unwrap();
        assert_eq!(done.exit, Exit::Code(3));
        assert_eq!(stdout, b"hello\n");
        assert_eq!(done.stdout_bytes, 6);
        assert_eq!(done.stderr_tail, b"oops\n");
        assert!(done.max_rss_kb > 0);
        assert_eq!(done.killed, None);
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
            Io {
                stdin: &mut input,
                stdout: &mut count,
            },
        )
        .unwrap();
        assert_eq!(done.exit, Exit::Code(0));
        assert_eq!((seen, sevens), (TOTAL, true));
        assert_eq!(done.stdout_bytes, TOTAL);
    }

    #[test]
    fn output_reaches_the_callback_while_the_process_runs() {
        // It prints, then sleeps until killed: the line was handed on before.
        let mut spec = sh("echo early; sleep 30");
        spec.kill_after = Duration::from_millis(300);
        let (done, stdout) = run_captured(spec, b"").unwrap();
        assert_eq!(done.killed, Some(Kill::Wall));
        assert_eq!(stdout, b"early\n");
    }

    #[test]
    fn a_sleeper_and_its_children_are_killed_at_the_deadline() {
        // The background child keeps stdout open; killing the group closes it.
        let mut spec = sh("sleep 30 & sleep 30");
        spec.kill_after = Duration::from_millis(200);
        let started = Instant::now();
        let (done, _) = run_captured(spec, b"").unwrap();
        assert_eq!(done.killed, Some(Kill::Wall));
        assert_eq!(done.exit, Exit::Signal(libc::SIGKILL));
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the run was not cut short"
        );
    }

    #[test]
    fn a_grandchild_in_its_own_session_cannot_hold_the_run() {
        // setsid takes the grandchild out of the process group, so the kill
        // misses it and it keeps stdout open: the run still ends, after the
        // grace for the pipes.
        let mut spec = sh("setsid sleep 3 & echo done");
        spec.kill_after = Duration::from_secs(10);
        let started = Instant::now();
        let (done, stdout) = run_captured(spec, b"").unwrap();
        assert_eq!(done.exit, Exit::Code(0));
        assert_eq!(stdout, b"done\n");
        assert!(
            started.elapsed() < Duration::from_millis(2500),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn endless_output_is_cut_at_the_limit() {
        let mut spec = sh("yes");
        spec.stdout_limit = 1000;
        let (done, stdout) = run_captured(spec, b"").unwrap();
        assert_eq!(done.killed, Some(Kill::Output));
        assert_eq!(stdout.len(), 1000);
        assert_eq!(done.stdout_bytes, 1000);
    }

    #[test]
    fn a_process_that_never_reads_stdin_does_not_block() {
        let input = vec![b'x'; 8 << 20];
        let (done, _) = run_captured(sh("exit 0"), &input).unwrap();
        assert_eq!(done.exit, Exit::Code(0));
    }

    #[test]
    fn a_failing_input_is_a_harness_error_and_kills_the_process() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("the case file went away"))
            }
        }
        let error = run(
            sh("sleep 30"),
            Io {
                stdin: &mut Broken,
                stdout: &mut |_| {},
            },
        )
        .unwrap_err();
        assert_eq!(error.to_string(), "the case file went away");
    }

    #[test]
    fn a_busy_loop_is_killed_by_its_cpu_time() {
        let mut spec = sh("while :; do :; done");
        spec.kill_after_cpu = Some(Duration::from_millis(100));
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
        assert!(done.max_rss_kb > 64 * 1024, "{}", done.max_rss_kb);
    }

    #[test]
    fn a_crash_is_a_named_signal() {
        let (done, _) = run_captured(sh("kill -SEGV $$"), b"").unwrap();
        assert_eq!(done.exit, Exit::Signal(libc::SIGSEGV));
        assert!(describe_signal(libc::SIGSEGV).starts_with("SIGSEGV (segmentation fault"));
    }
}
