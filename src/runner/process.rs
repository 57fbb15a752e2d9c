//! Running one untrusted process to completion, whatever it does.
//!
//! - It starts through a spawner (`runner::spawner`), inside the sandbox
//!   (`runner::sandbox`): its own PID, mount, network and IPC namespaces and
//!   a cgroup, as far as the kernel allows. Without a spawner (tests, other
//!   systems) it is forked here, in a process group of its own.
//! - A watchdog stops it at a wall-clock deadline, when the CPU time or the
//!   memory of its whole tree passes its bound (read from its cgroup, or
//!   from `/proc` for its own process, every few milliseconds), when the
//!   conversation with it says so, or when the user interrupts the run
//!   ([`interrupt`]). `RLIMIT_CPU`, `RLIMIT_AS` and the cgroup's memory cap
//!   are kernel backstops behind it, and cores are never dumped.
//! - Input and output stream: stdin is fed as the process takes it, and
//!   stdout (and a driver's answer channel, fd 3) handed on chunk by chunk
//!   as it arrives, so a case of a million puzzles is judged while it runs.
//!   Stdout is cut at the output limit; of stderr, its start and its end are
//!   kept (a Java stack overflow names itself on its first line, then
//!   prints a thousand frames).
//!   A [`Conversation`] decides what to feed and when: a whole file at
//!   once, or one board at a time, each after the answer to the last.
//! - One thread does it all with `poll(2)`: feeding stdin, draining the
//!   outputs, noticing the exit and the watchdog's rounds. A process that
//!   never reads, or floods stderr, cannot stall it, and no helper thread
//!   is left behind blocked on a pipe.
//! - CPU time and peak memory come from the kernel's accounting of the run
//!   (its cgroup, else `wait4`'s rusage), not from polling.
//!
//! Unix only: this is where the platform code lives.

use std::ffi::OsString;
use std::io::{self, Read};
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
use super::sandbox::cgroup::{Cgroup, CgroupMeter};
use super::sandbox::{Plan, SpawnRequest};
use super::spawner::{self, Spawner};
use super::sys::{pidfd_open, set_limits, try_wait4, Rlimits};

/// What a spawner reports a run's cgroup as.
#[cfg(target_os = "linux")]
type RunCgroup = Cgroup;
#[cfg(not(target_os = "linux"))]
type RunCgroup = ();

/// What to run and within which bounds.
pub struct Spec {
    /// An absolute path: nothing is looked up on `PATH` inside the sandbox.
    pub program: PathBuf,
    /// `argv[0]`, then the arguments.
    pub argv: Vec<OsString>,
    /// The whole environment (see `sandbox::environment`).
    pub env: Vec<(OsString, OsString)>,
    /// What it sees and may use, and where it starts.
    pub plan: Plan,
    /// Wall-clock time after which it is killed.
    pub kill_after: Duration,
    /// CPU time of its whole tree after which it is killed.
    pub kill_after_cpu: Option<Duration>,
    /// Memory of its whole tree, in KB, past which it is killed.
    pub kill_above_memory_kb: Option<u64>,
    /// `RLIMIT_CPU`, rounded up to whole seconds.
    pub cpu_limit: Option<Duration>,
    /// `RLIMIT_AS`, in bytes.
    pub address_space_limit: Option<u64>,
    /// Output past this many bytes, on stdout or on the answer channel,
    /// kills it (the output limit).
    pub stdout_limit: usize,
    /// How much of the end of stderr to keep (its first [`STDERR_HEAD`]
    /// bytes are kept too).
    pub stderr_tail: usize,
    /// Whether it gets an answer channel as fd 3 (a LeetCode driver's).
    pub answers: bool,
}

impl Spec {
    /// `program` with `argv`, in `plan`, with generous bounds to narrow.
    pub fn new(program: PathBuf, argv: Vec<OsString>, plan: Plan) -> Spec {
        let env = super::sandbox::environment(&plan.cwd, &[]);
        Spec {
            program,
            argv,
            env,
            plan,
            kill_after: Duration::from_secs(60),
            kill_after_cpu: None,
            kill_above_memory_kb: None,
            cpu_limit: None,
            address_space_limit: None,
            stdout_limit: 64 << 20,
            stderr_tail: 8 << 10,
            answers: false,
        }
    }
}

/// What a [`Conversation`] has for stdin now.
pub enum Input {
    /// This many bytes were put in the buffer.
    Data(usize),
    /// Nothing until the process answers.
    Wait,
    /// No more: close stdin.
    End,
}

/// The judge's side of the exchange with a running process: what to feed
/// it, what to do with what it prints, and when to stop it early.
pub trait Conversation {
    /// Fills `buf` with the next input, if there is any now.
    fn input(&mut self, buf: &mut [u8], meter: &mut Meter) -> io::Result<Input>;
    /// A chunk of stdout, in order.
    fn stdout(&mut self, chunk: &[u8]);
    /// A chunk of the answer channel (fd 3), in order.
    fn answers(&mut self, _chunk: &[u8], _meter: &mut Meter) {}
    /// Asked at every watchdog round: a reason to stop the run now.
    fn check(&mut self, _meter: &mut Meter) -> Option<Kill> {
        None
    }
    /// Whether this exchange is over while the process lives on (a case
    /// whose boards are all answered); a program's never is.
    fn done(&self) -> bool {
        false
    }
}

/// A plain exchange: all of `stdin` fed as fast as it is taken, stdout
/// handed to a callback.
pub struct Stream<'a> {
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn FnMut(&[u8]),
}

/// The next input read from `stdin` into `buf`: data, or its end.
pub fn read_input(stdin: &mut dyn Read, buf: &mut [u8]) -> io::Result<Input> {
    loop {
        match stdin.read(buf) {
            Ok(0) => return Ok(Input::End),
            Ok(n) => return Ok(Input::Data(n)),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

impl Conversation for Stream<'_> {
    fn input(&mut self, buf: &mut [u8], _: &mut Meter) -> io::Result<Input> {
        read_input(self.stdin, buf)
    }

    fn stdout(&mut self, chunk: &[u8]) {
        (self.stdout)(chunk);
    }
}

/// Why the watchdog killed a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kill {
    /// It ran past [`Spec::kill_after`] of wall-clock time, or its
    /// conversation's own wall-clock bound.
    Wall,
    /// It used more CPU time than its bound.
    Cpu,
    /// Its memory passed its bound, or the kernel's cap stopped it.
    Memory,
    /// Its output passed [`Spec::stdout_limit`].
    Output,
    /// It did not get to its first board in time (a LeetCode driver
    /// starting its runtime and loading the solution).
    Startup,
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
    /// CPU time of the whole run: every process in its cgroup, else every
    /// process waited for.
    pub cpu: Duration,
    /// Peak memory of the whole run, in KB: the most its cgroup's
    /// processes held together (anonymous, tmpfs and shared memory,
    /// sampled as it ran), or the largest resident set among them, if more.
    pub memory_kb: u64,
    /// The start and the end of what it wrote to stderr, with what was
    /// left out between them said in a line of its own.
    pub stderr: Vec<u8>,
    /// Why the harness killed it, if it did.
    pub killed: Option<Kill>,
    /// Forks refused because the run reached its process limit.
    pub fork_refusals: u64,
    /// When the wall-clock cap stopped it: how long its process had been
    /// ready to run but waiting for a CPU during the exchange, as the
    /// kernel's scheduler counted it. Long waits mean a busy machine, not
    /// a slow or sleeping submission.
    pub cpu_wait: Option<Duration>,
}

/// The signal that interrupted the run (SIGINT, SIGTERM, SIGHUP), or 0.
static INTERRUPTED: AtomicI32 = AtomicI32::new(0);

/// Asks every running and future [`run`] to kill its process at once, the
/// judge having received `signal`; for a signal handler. Safe to call from
/// any thread.
pub fn interrupt(signal: i32) {
    // A signal wins over a restart asked for before it.
    let _ = INTERRUPTED.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| {
        (now == 0 || now == RESTART).then_some(signal)
    });
}

/// Stands in [`INTERRUPTED`] for "stop this run to start it again" (`test
/// --watch`, when a file changes during a run): no signal has this number.
const RESTART: i32 = -1;

/// Stops every running [`run`] as [`interrupt`] does, to judge again;
/// [`resume`] clears it. A signal's interruption is kept.
pub fn restart() {
    let _ = INTERRUPTED.compare_exchange(0, RESTART, Ordering::SeqCst, Ordering::SeqCst);
}

/// Whether [`restart`] stopped the runs (and no signal since).
pub fn restarting() -> bool {
    INTERRUPTED.load(Ordering::SeqCst) == RESTART
}

/// Lets runs go on after a [`restart`]; a signal's interruption stays.
pub fn resume() {
    let _ = INTERRUPTED.compare_exchange(RESTART, 0, Ordering::SeqCst, Ordering::SeqCst);
}

/// Whether [`interrupt`] (or [`restart`]) was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst) != 0
}

/// The signal [`interrupt`] was called with, if it was.
pub fn interrupting_signal() -> Option<i32> {
    Some(INTERRUPTED.load(Ordering::SeqCst)).filter(|&s| s > 0)
}

/// How often the watchdog looks at the process's CPU time and memory.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// Without a pidfd the exit is noticed by asking: this often at most.
const EXIT_CHECK_EVERY: Duration = Duration::from_millis(1);

/// How long to wait for the pipes to close once the run is over. Only a
/// process that escaped (there is no PID namespace) can hold them longer.
const PIPE_GRACE: Duration = Duration::from_millis(500);

/// How long a spawner may take to report a run it was told to kill. The
/// kernel tears down a fork bomb's 256 processes in milliseconds, but on a
/// machine busy with other runs that has been seen to take over 5 s: this
/// is a bound for a spawner that is broken, not a measure of a healthy one.
const KILL_GRACE: Duration = Duration::from_secs(20);

/// Bytes moved per read or write.
const CHUNK: usize = 64 * 1024;

/// How much of the start of stderr is kept.
pub const STDERR_HEAD: usize = 2048;

/// The start and the end of a stream, within bounds whatever its length.
#[derive(Default)]
struct Ends {
    head: Vec<u8>,
    tail: Vec<u8>,
    /// Bytes dropped between the two.
    skipped: usize,
}

impl Ends {
    fn push(&mut self, mut chunk: &[u8], tail_size: usize) {
        let room = STDERR_HEAD.saturating_sub(self.head.len());
        let (head, rest) = chunk.split_at(chunk.len().min(room));
        self.head.extend_from_slice(head);
        chunk = rest;
        self.tail.extend_from_slice(chunk);
        if self.tail.len() > tail_size {
            let excess = self.tail.len() - tail_size;
            self.tail.drain(..excess);
            self.skipped += excess;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.skipped > 0 {
            self.head.extend_from_slice(
                format!("\n[... {} bytes left out ...]\n", self.skipped).as_bytes(),
            );
        }
        self.head.extend_from_slice(&self.tail);
        self.head
    }
}

/// Reads what the kernel says of a running process: the CPU clock of the
/// submission's own process, and the CPU time and memory of its whole run.
pub struct Meter {
    pid: i32,
    clock: Option<libc::clockid_t>,
    #[cfg(target_os = "linux")]
    cgroup: Option<CgroupMeter>,
    /// The most memory seen by sampling, for when no peak is kept.
    seen_kb: u64,
}

impl Meter {
    /// A meter for a process whose start is still to be confirmed: it
    /// reads nothing until it is replaced.
    fn pending() -> Meter {
        Meter {
            pid: -1,
            clock: None,
            #[cfg(target_os = "linux")]
            cgroup: None,
            seen_kb: 0,
        }
    }

    /// A meter for the process `pid`, and for the cgroup a spawner
    /// started it in, if any.
    fn of(pid: i32, cgroup: Option<RunCgroup>) -> Meter {
        #[cfg(target_os = "linux")]
        return Meter::new(pid, cgroup.as_ref());
        #[cfg(not(target_os = "linux"))]
        {
            let _ = cgroup;
            Meter::new(pid)
        }
    }

    fn new(pid: i32, #[cfg(target_os = "linux")] cgroup: Option<&Cgroup>) -> Meter {
        let mut clock = 0;
        // SAFETY: clock_getcpuclockid writes one clockid_t.
        let clock = (unsafe { libc::clock_getcpuclockid(pid, &mut clock) } == 0).then_some(clock);
        Meter {
            pid,
            clock,
            #[cfg(target_os = "linux")]
            cgroup: cgroup.and_then(|c| c.meter().ok()),
            seen_kb: 0,
        }
    }

    /// CPU time of the submission's own process, all its threads, from the
    /// kernel's clock for it: exact to the nanosecond even while it runs,
    /// and out of the submission's reach. `None` once it is gone.
    pub fn process_cpu(&self) -> Option<Duration> {
        let clock = self.clock?;
        // SAFETY: timespec is plain data; clock_gettime writes it.
        let mut now: libc::timespec = unsafe { std::mem::zeroed() };
        // SAFETY: a live timespec for the kernel to fill.
        if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
            return None;
        }
        Some(Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
    }

    /// [`Meter::process_cpu`] once the process's main thread has stopped
    /// running, waiting at most 2 ms for it. The kernel adds a running
    /// thread's time to the process's clock only at a tick or when the
    /// thread stops, so a driver read the moment it has written an answer
    /// would have its last moments of work, up to a tick (1 to 4 ms),
    /// counted to the next board. A driver stops as soon as it waits for
    /// its next board.
    pub fn settled_cpu(&self) -> Option<Duration> {
        let deadline = Instant::now() + Duration::from_millis(2);
        while main_thread_running(self.pid) && Instant::now() < deadline {
            std::thread::yield_now();
        }
        self.process_cpu()
    }

    /// How long the process's main thread has been ready to run but
    /// waiting for a CPU, in all: the second field of
    /// `/proc/PID/schedstat`. `None` where the kernel does not keep it.
    pub fn cpu_wait(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/schedstat", self.pid)).ok()?;
        let waited: u64 = stat.split_whitespace().nth(1)?.parse().ok()?;
        Some(Duration::from_nanos(waited))
    }

    /// Starts a new count of the peak memory: of the process's peak
    /// resident set (the kernel's `VmHWM`, reset through `clear_refs`) and
    /// of the samples, for a process that serves case after case.
    pub fn reset_peak(&mut self) {
        self.seen_kb = 0;
        let _ = std::fs::write(format!("/proc/{}/clear_refs", self.pid), "5");
    }

    /// The peak memory since the last reset (or the start), in KB: the
    /// process's peak resident set, or the most the samples saw of the
    /// whole run, if more.
    pub fn peak_kb(&self) -> u64 {
        let hwm = std::fs::read_to_string(format!("/proc/{}/status", self.pid))
            .ok()
            .and_then(|status| {
                let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
            .unwrap_or(0);
        hwm.max(self.seen_kb)
    }

    /// Holds the process to `more` CPU time from now with `RLIMIT_CPU`, a
    /// backstop the kernel enforces, for a process that serves case after
    /// case (whose CPU time adds up across them).
    #[cfg(target_os = "linux")]
    pub fn limit_cpu_from_now(&self, more: Duration) {
        let now = self.process_cpu().unwrap_or_default();
        let seconds = (now + more).as_secs() + 1;
        let limit = libc::rlimit {
            rlim_cur: seconds,
            rlim_max: seconds,
        };
        // SAFETY: prlimit reads the live struct; no old value is asked for.
        unsafe { libc::prlimit(self.pid, libc::RLIMIT_CPU, &limit, std::ptr::null_mut()) };
    }

    #[cfg(not(target_os = "linux"))]
    pub fn limit_cpu_from_now(&self, _more: Duration) {}

    /// CPU time and memory (KB) of the whole run now: its cgroup's, else
    /// its own process's as `/proc` says.
    fn sample(&mut self) -> Option<(Duration, u64)> {
        #[cfg(target_os = "linux")]
        if let Some(cgroup) = &mut self.cgroup {
            let sample = (cgroup.cpu().ok()?, cgroup.memory_kb().ok()?);
            self.seen_kb = self.seen_kb.max(sample.1);
            return Some(sample);
        }
        let sample = proc_sample(self.pid)?;
        self.seen_kb = self.seen_kb.max(sample.1);
        Some(sample)
    }
}

/// Whether the process's main thread is running or ready to run, as
/// `/proc/PID/stat` says; false when it cannot be read.
fn main_thread_running(pid: i32) -> bool {
    proc_stat(pid).is_some_and(|fields| fields.starts_with('R'))
}

/// The fields of `/proc/PID/stat` from the state (field 3 of proc(5)) on.
/// `None` once the process is gone, or where there is no `/proc`.
fn proc_stat(pid: i32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses; fields resume after the last ')'.
    Some(stat.get(stat.rfind(')')? + 2..)?.to_string())
}

/// What `/proc/PID/stat` says of a running process: CPU time and resident
/// memory. `None` once it is gone, or where there is no `/proc`.
fn proc_sample(pid: i32) -> Option<(Duration, u64)> {
    let stat = proc_stat(pid)?;
    let fields: Vec<&str> = stat.split(' ').collect();
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

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own, with integer arguments only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// One step of `read(2)` or `write(2)` on a non-blocking descriptor:
/// `Ok(None)` when it would block.
fn transfer(result: libc::ssize_t) -> io::Result<Option<usize>> {
    if result >= 0 {
        return Ok(Some(result as usize));
    }
    let error = io::Error::last_os_error();
    match error.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
        _ => Err(error),
    }
}

fn read_some(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<Option<usize>> {
    // SAFETY: buf is a live, writable buffer of buf.len() bytes.
    transfer(unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) })
}

fn write_some(fd: &OwnedFd, buf: &[u8]) -> io::Result<Option<usize>> {
    // SAFETY: buf is a live buffer of buf.len() bytes.
    transfer(unsafe { libc::write(fd.as_raw_fd(), buf.as_ptr().cast(), buf.len()) })
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
}

/// A pipe: (read end, write end), both closed on exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: fds is a live array of two ints for the new descriptors.
    #[cfg(target_os = "linux")]
    let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    // SAFETY: as above; descriptors are marked close-on-exec just after.
    #[cfg(not(target_os = "linux"))]
    let r = unsafe { libc::pipe(fds.as_mut_ptr()) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just made both; nothing else owns them.
    let pair = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    #[cfg(not(target_os = "linux"))]
    for fd in [&pair.0, &pair.1] {
        // SAFETY: fcntl on a descriptor we own.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    Ok(pair)
}

/// The running process, however it was started.
#[expect(
    clippy::large_enum_variant,
    reason = "one per running process, never held in bulk; boxing the spawner buys nothing"
)]
enum Child {
    /// Forked by this process, which waits for it.
    Direct {
        pidfd: Option<OwnedFd>,
        process: std::process::Child,
    },
    /// Started by a spawner, which stops it when asked and reports its end.
    Spawned {
        spawner: Spawner,
        /// When the spawner was told to stop it.
        killed_at: Option<Instant>,
        /// Whether the spawner has confirmed the start yet.
        start: Start,
    },
}

/// Where a spawned process's start stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Asked for; the spawner's word is still to come.
    Pending,
    Confirmed,
    /// It did not start; the spawner is fine and can serve another.
    Refused,
}

/// A process reaped, with what the kernel accounted of it: the raw
/// material of a [`Finished`].
struct Reaped {
    /// As `wait4` returns it.
    status: i32,
    cpu: Duration,
    max_rss_kb: u64,
    /// Memory its cgroup still held at the end, when a spawner read it.
    held_kb: u64,
    /// From the start to the exit, when a spawner timed it.
    wall: Option<Duration>,
    oom_kills: u64,
    fork_refusals: u64,
}

impl Child {
    /// Becomes readable when the process exits, if there is such a thing.
    fn exit_fd(&self) -> Option<RawFd> {
        match self {
            Child::Direct { pidfd, .. } => pidfd.as_ref().map(|fd| fd.as_raw_fd()),
            Child::Spawned { spawner, .. } => Some(spawner.exit_fd()),
        }
    }

    fn kill(&mut self) {
        match self {
            Child::Direct { process, .. } => {
                // SAFETY: kill(2) takes no pointers; the group is ours until reaped.
                unsafe { libc::kill(-(process.id() as i32), libc::SIGKILL) };
            }
            Child::Spawned {
                spawner, killed_at, ..
            } => {
                if killed_at.is_none() {
                    spawner.kill();
                    *killed_at = Some(Instant::now());
                }
            }
        }
    }

    /// The pid and cgroup of a spawned process whose start has just been
    /// confirmed; the reason it did not start as an error.
    fn try_started(&mut self) -> io::Result<Option<(i32, Option<RunCgroup>)>> {
        let Child::Spawned { spawner, start, .. } = self else {
            return Ok(None);
        };
        if *start != Start::Pending {
            return Ok(None);
        }
        match spawner.try_started() {
            Ok(Some(started)) => {
                *start = Start::Confirmed;
                Ok(Some(started))
            }
            Ok(None) => Ok(None),
            Err(error) => {
                *start = Start::Refused;
                Err(error)
            }
        }
    }

    fn try_exit(&mut self) -> io::Result<Option<Reaped>> {
        match self {
            Child::Direct { process, .. } => Ok(try_wait4(process.id() as i32)?.map(
                |(status, usage)| Reaped {
                    status,
                    cpu: timeval(usage.ru_utime) + timeval(usage.ru_stime),
                    max_rss_kb: u64::try_from(usage.ru_maxrss).unwrap_or(0),
                    held_kb: 0,
                    wall: None,
                    oom_kills: 0,
                    fork_refusals: 0,
                },
            )),
            Child::Spawned {
                spawner,
                killed_at,
                start,
            } => {
                // Its end is reported after its start, which is heard first.
                if *start != Start::Pending {
                    if let Some(ended) = spawner.try_exit()? {
                        return Ok(Some(Reaped {
                            status: ended.status,
                            cpu: Duration::from_nanos(ended.cpu_ns),
                            max_rss_kb: ended.max_rss_kb,
                            held_kb: ended.held_kb,
                            wall: Some(Duration::from_nanos(ended.wall_ns)),
                            oom_kills: ended.oom_kills,
                            fork_refusals: ended.fork_refusals,
                        }));
                    }
                }
                // No wait without a deadline: a spawner that does not
                // report a run it was told to stop is itself stopped.
                if killed_at.is_some_and(|at| at.elapsed() > KILL_GRACE) {
                    return Err(io::Error::other(
                        "the judge's spawner did not report the end of a run it was told to stop",
                    ));
                }
                Ok(None)
            }
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
            &mut Stream {
                stdin: &mut &stdin[..],
                stdout: &mut keep,
            },
        )?
    };
    Ok((finished, out))
}

/// The descriptors the harness keeps: its ends of the pipes.
struct Pipes {
    stdin: Option<OwnedFd>,
    stdout: Option<OwnedFd>,
    stderr: Option<OwnedFd>,
    answers: Option<OwnedFd>,
}

/// Starts `spec`; its ends of the pipes, the process and what measures it.
/// Unless `confirm`, a spawner is only asked to start it: the start is
/// confirmed (and the meter armed) while the pipes are served.
fn start(spec: &Spec, confirm: bool) -> io::Result<(Child, Pipes, Meter)> {
    let (child_stdin, stdin) = pipe()?;
    let (stdout, child_stdout) = pipe()?;
    let (stderr, child_stderr) = pipe()?;
    let answers = spec.answers.then(pipe).transpose()?;
    if let Some((_, write)) = &answers {
        // A JVM cannot take a descriptor by number: it opens /dev/fd/3,
        // which checks the pipe's own permissions against the sandbox's
        // user.
        // SAFETY: fchmod on a descriptor we own.
        unsafe { libc::fchmod(write.as_raw_fd(), 0o622) };
    }
    let mut stdio = vec![&child_stdin, &child_stdout, &child_stderr];
    if let Some((_, write)) = &answers {
        stdio.push(write);
    }
    let limits = Rlimits {
        cpu_seconds: spec
            .cpu_limit
            .map(|d| d.as_secs() + u64::from(d.subsec_nanos() > 0)),
        address_space: spec.address_space_limit,
        tasks: None,
    };
    let pipes = |answers: Option<(OwnedFd, OwnedFd)>| Pipes {
        stdin: Some(stdin),
        stdout: Some(stdout),
        stderr: Some(stderr),
        answers: answers.map(|(read, _)| read),
    };
    if let Some(spawner) = spawner::take() {
        let mut spawner = spawner?;
        let launch = SpawnRequest::new(
            spec.program.as_os_str(),
            &spec.argv,
            &spec.env,
            limits,
            spec.plan.clone(),
        );
        if !confirm {
            spawner.launch(&launch, &stdio)?;
            let child = Child::Spawned {
                spawner,
                killed_at: None,
                start: Start::Pending,
            };
            return Ok((child, pipes(answers), Meter::pending()));
        }
        let (pid, cgroup) = match spawner.spawn(&launch, &stdio) {
            Ok(started) => started,
            Err(error) => {
                // The program did not start; the spawner is fine.
                spawner::give_back(spawner);
                return Err(error);
            }
        };
        drop(stdio);
        let child = Child::Spawned {
            spawner,
            killed_at: None,
            start: Start::Confirmed,
        };
        return Ok((child, pipes(answers), Meter::of(pid, cgroup)));
    }
    let mut command = Command::new(&spec.program);
    if let Some((first, rest)) = spec.argv.split_first() {
        command.arg0(first).args(rest);
    }
    command
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)));
    if spec.plan.cwd.is_dir() {
        command.current_dir(&spec.plan.cwd);
    }
    command
        .stdin(Stdio::from(child_stdin.try_clone()?))
        .stdout(Stdio::from(child_stdout.try_clone()?))
        .stderr(Stdio::from(child_stderr.try_clone()?))
        .process_group(0);
    let answers_fd = answers.as_ref().map(|(_, write)| write.as_raw_fd());
    // SAFETY: the closure runs between fork and exec and only calls
    // setrlimit and dup2, which are async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if let Some(fd) = answers_fd {
                if libc::dup2(fd, 3) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            set_limits(limits)
        });
    }
    let process = command.spawn()?;
    drop(stdio);
    let pid = process.id() as i32;
    let meter = Meter::of(pid, None);
    let child = Child::Direct {
        pidfd: pidfd_open(pid),
        process,
    };
    Ok((child, pipes(answers), meter))
}

/// Runs `spec` to the end, talking with it through `conversation`, and
/// reports how it went. An `Err` means the harness could not run it at all
/// (e.g. the program does not exist) or could not read the input it was to
/// feed; the process is gone either way.
pub fn run(spec: Spec, conversation: &mut dyn Conversation) -> io::Result<Finished> {
    let mut process = Process::begin(spec, false)?;
    loop {
        if let Served::Ended(finished) = process.serve(conversation)? {
            return Ok(finished);
        }
    }
}

/// What came of one exchange with a [`Process`].
pub enum Served {
    /// The conversation is done and the process lives on, for the next.
    Done,
    /// The process ended (exited, crashed or was killed).
    Ended(Finished),
}

/// A running process that may serve several exchanges in turn (a driver
/// judging case after case, with the state its solution keeps), or one to
/// its end ([`run`]). Dropped, it is killed, with everything it started.
pub struct Process {
    child: Option<Child>,
    pipes: Pipes,
    meter: Meter,
    bounds: Bounds,
    started: Instant,
    /// Input made by a conversation but not yet taken by the process.
    pending: Vec<u8>,
    pending_at: usize,
    pending_end: usize,
    chunk: Vec<u8>,
    /// Stderr since the current exchange began.
    errors: Ends,
    killed: Option<Kill>,
    ended: Option<(Reaped, Duration)>,
    /// The scheduler's wait count of the process when the current
    /// exchange began, and its growth until the wall-clock cap struck.
    wait_at_start: Option<Duration>,
    cpu_wait: Option<Duration>,
}

/// The bounds of a [`Spec`] that outlive its start.
struct Bounds {
    kill_after: Duration,
    kill_after_cpu: Option<Duration>,
    kill_above_memory_kb: Option<u64>,
    stdout_limit: usize,
    stderr_tail: usize,
}

impl Drop for Process {
    fn drop(&mut self) {
        match self.child.take() {
            // The harness stopped early: leave nothing behind.
            Some(Child::Direct { mut process, .. }) => {
                // SAFETY: kill(2) takes no pointers.
                unsafe { libc::kill(-(process.id() as i32), libc::SIGKILL) };
                let _ = process.wait();
            }
            Some(Child::Spawned { spawner, start, .. })
                if self.ended.is_some() || start == Start::Refused =>
            {
                spawner::give_back(spawner)
            }
            // Dropping the spawner ends it and, with it, anything it started.
            Some(Child::Spawned { spawner, .. }) => drop(spawner),
            None => {}
        }
    }
}

impl Process {
    /// Starts `spec`.
    pub fn start(spec: Spec) -> io::Result<Process> {
        Process::begin(spec, true)
    }

    /// Starts `spec`, or with a spawner and not `confirm`, asks for it to
    /// be started: whether it did is then heard by [`Process::serve`],
    /// which meanwhile feeds it.
    fn begin(spec: Spec, confirm: bool) -> io::Result<Process> {
        let started = Instant::now();
        let (child, pipes, meter) = start(&spec, confirm)?;
        for fd in [&pipes.stdin, &pipes.stdout, &pipes.stderr, &pipes.answers]
            .into_iter()
            .flatten()
        {
            set_nonblocking(fd.as_raw_fd())?;
        }
        Ok(Process {
            child: Some(child),
            pipes,
            meter,
            bounds: Bounds {
                kill_after: spec.kill_after,
                kill_after_cpu: spec.kill_after_cpu,
                kill_above_memory_kb: spec.kill_above_memory_kb,
                stdout_limit: spec.stdout_limit,
                stderr_tail: spec.stderr_tail,
            },
            started,
            pending: vec![0; CHUNK],
            pending_at: 0,
            pending_end: 0,
            chunk: vec![0; CHUNK],
            errors: Ends::default(),
            killed: None,
            wait_at_start: None,
            cpu_wait: None,
            ended: None,
        })
    }

    /// What measures it.
    pub fn meter(&mut self) -> &mut Meter {
        &mut self.meter
    }

    /// Whether it has ended.
    pub fn has_ended(&self) -> bool {
        self.ended.is_some()
    }

    fn child(&mut self) -> &mut Child {
        self.child
            .as_mut()
            .expect("the child lives as long as the process")
    }

    /// Records the first reason to kill and has the process killed; later
    /// reasons only find it dying.
    fn kill(&mut self, why: Kill) {
        if self.killed.is_none() {
            if why == Kill::Wall {
                self.cpu_wait = self
                    .meter
                    .cpu_wait()
                    .map(|now| now.saturating_sub(self.wait_at_start.unwrap_or_default()));
            }
            self.killed = Some(why);
            self.child().kill();
        }
    }

    /// Talks with the process through `conversation` until the
    /// conversation is done ([`Served::Done`], the process lives on) or the
    /// process has ended ([`Served::Ended`]). Each exchange has its own
    /// output limit, and its own stderr in what the end reports.
    pub fn serve(&mut self, conversation: &mut dyn Conversation) -> io::Result<Served> {
        let exit_fd = self.child().exit_fd();
        let bounds = &self.bounds;
        let watch_usage = bounds.kill_after_cpu.is_some() || bounds.kill_above_memory_kb.is_some();
        let (mut stdout_bytes, mut answer_bytes) = (0, 0);
        let limit = bounds.stdout_limit;
        let tail_size = bounds.stderr_tail;
        self.errors = Ends::default();
        self.wait_at_start = self.meter.cpu_wait();
        let mut drain_until: Option<Instant> = None;
        let mut next_sample = Instant::now() + WATCH_EVERY;

        loop {
            let now = Instant::now();
            if let Some((pid, cgroup)) = self.child().try_started()? {
                self.meter = Meter::of(pid, cgroup);
            }
            if self.ended.is_none() {
                if let Some(end) = self.child().try_exit()? {
                    self.ended = Some((end, now - self.started));
                    self.pipes.stdin = None;
                    drain_until = Some(now + PIPE_GRACE);
                    if let Some(Child::Direct { process, .. }) = &self.child {
                        // The leader is gone; anything it started goes with it.
                        // SAFETY: kill(2) takes no pointers.
                        unsafe { libc::kill(-(process.id() as i32), libc::SIGKILL) };
                    }
                }
            }
            if let Some(until) = drain_until {
                let open = self.pipes.stdout.is_some()
                    || self.pipes.stderr.is_some()
                    || self.pipes.answers.is_some();
                if !open || now >= until {
                    return Ok(Served::Ended(self.finished()));
                }
            } else if conversation.done() && self.killed.is_none() {
                // What it printed before its last answer belongs to this
                // exchange: take what is already there.
                let Process {
                    pipes,
                    chunk,
                    errors,
                    ..
                } = self;
                let mut over = false;
                while pipes.stdout.as_ref().is_some_and(readable) {
                    over |= drain(&mut pipes.stdout, chunk, &mut stdout_bytes, limit, |c| {
                        conversation.stdout(c)
                    });
                }
                let mut ignored = 0;
                while pipes.stderr.as_ref().is_some_and(readable) {
                    drain(&mut pipes.stderr, chunk, &mut ignored, usize::MAX, |c| {
                        errors.push(c, tail_size)
                    });
                }
                if !over {
                    return Ok(Served::Done);
                }
                // Printing past the limit ends it, answers or not.
                self.kill(Kill::Output);
            } else if interrupted() {
                self.kill(Kill::Interrupted);
            } else if now - self.started >= self.bounds.kill_after {
                self.kill(Kill::Wall);
            } else if now >= next_sample {
                next_sample = now + WATCH_EVERY;
                if let Some(why) = conversation.check(&mut self.meter) {
                    self.kill(why);
                }
                if watch_usage {
                    if let Some((cpu, memory_kb)) = self.meter.sample() {
                        if self.bounds.kill_after_cpu.is_some_and(|limit| cpu >= limit) {
                            self.kill(Kill::Cpu);
                        } else if self
                            .bounds
                            .kill_above_memory_kb
                            .is_some_and(|limit| memory_kb > limit)
                        {
                            self.kill(Kill::Memory);
                        }
                    }
                }
            }

            // Keep the next piece of input ready; at its end, close stdin.
            if self.pipes.stdin.is_some() && self.pending_at == self.pending_end {
                match conversation.input(&mut self.pending, &mut self.meter)? {
                    Input::Data(n) => (self.pending_at, self.pending_end) = (0, n),
                    Input::Wait => {}
                    Input::End => self.pipes.stdin = None,
                }
            }
            let feeding = self.pipes.stdin.is_some() && self.pending_at < self.pending_end;

            let mut fds = [libc::pollfd {
                fd: -1,
                events: 0,
                revents: 0,
            }; 5];
            let watched = [
                (self.pipes.stdin.as_ref().filter(|_| feeding), libc::POLLOUT),
                (self.pipes.stdout.as_ref(), libc::POLLIN),
                (self.pipes.stderr.as_ref(), libc::POLLIN),
                (self.pipes.answers.as_ref(), libc::POLLIN),
            ];
            for (slot, (fd, events)) in fds.iter_mut().zip(watched) {
                if let Some(fd) = fd {
                    slot.fd = fd.as_raw_fd();
                    slot.events = events;
                }
            }
            if let Some(fd) = exit_fd.filter(|_| self.ended.is_none()) {
                fds[4].fd = fd;
                fds[4].events = libc::POLLIN;
            }
            // Wake for the watchdog's round (which also notices Ctrl-C), the
            // deadline, the end of the grace, or, without a pidfd, to ask
            // whether the process has exited.
            let wake = match drain_until {
                Some(until) => until,
                None => {
                    let mut wake = (now + WATCH_EVERY).min(self.started + self.bounds.kill_after);
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
            // SAFETY: fds is a live array of 5 pollfds; negative fds are ignored.
            let ready = unsafe { libc::poll(fds.as_mut_ptr(), 5, timeout_ms as libc::c_int) };
            if ready < 0 {
                let error = io::Error::last_os_error();
                if error.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(error);
            }
            let is_ready = |i: usize| fds[i].revents != 0;

            if is_ready(0) {
                if let Some(fd) = &self.pipes.stdin {
                    match write_some(fd, &self.pending[self.pending_at..self.pending_end]) {
                        Ok(Some(n)) => self.pending_at += n,
                        Ok(None) => {}
                        // The process closed its stdin: what it did not read is dropped.
                        Err(_) => {
                            self.pipes.stdin = None;
                            (self.pending_at, self.pending_end) = (0, 0);
                        }
                    }
                }
            }
            let Process {
                pipes,
                chunk,
                meter,
                errors,
                ..
            } = self;
            let mut over = false;
            if is_ready(1) {
                over |= drain(&mut pipes.stdout, chunk, &mut stdout_bytes, limit, |c| {
                    conversation.stdout(c)
                });
            }
            if is_ready(3) {
                over |= drain(&mut pipes.answers, chunk, &mut answer_bytes, limit, |c| {
                    conversation.answers(c, meter)
                });
            }
            if is_ready(2) {
                let mut ignored = 0;
                drain(&mut pipes.stderr, chunk, &mut ignored, usize::MAX, |c| {
                    errors.push(c, tail_size)
                });
            }
            if over {
                self.kill(Kill::Output);
            }
        }
    }

    /// The report of a process that has ended.
    fn finished(&mut self) -> Finished {
        let (end, noticed) = self.ended.as_ref().expect("it has ended");
        let exit = if libc::WIFSIGNALED(end.status) {
            Exit::Signal(libc::WTERMSIG(end.status))
        } else {
            Exit::Code(libc::WEXITSTATUS(end.status))
        };
        let mut killed = self.killed;
        // The kernel's memory cap stopped some of it: that is the memory
        // limit too, and the cause of whatever came after. Unless it had
        // already reached the process limit and the judge then stopped it:
        // a fork bomb fills the memory with the kernel's bookkeeping for its
        // processes, so the process limit came first, and whether the memory
        // cap also struck before the time ran out is a matter of timing.
        let forks_came_first = end.fork_refusals > 0 && killed.is_some();
        if end.oom_kills > 0 && killed != Some(Kill::Interrupted) && !forks_came_first {
            killed = Some(Kill::Memory);
        }
        Finished {
            exit,
            wall: end.wall.unwrap_or(*noticed),
            cpu: end.cpu,
            memory_kb: end.max_rss_kb.max(self.meter.seen_kb).max(end.held_kb),
            stderr: std::mem::take(&mut self.errors).finish(),
            killed,
            fork_refusals: end.fork_refusals,
            cpu_wait: self.cpu_wait,
        }
    }

    /// The stderr of the exchange just served, for a process that lives on.
    pub fn take_stderr(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.errors).finish()
    }

    /// Ends a process that is done serving: closes its stdin, gives it a
    /// moment to exit, then kills it.
    pub fn close(mut self) -> io::Result<Finished> {
        self.pipes.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(1);
        struct Closing(Instant);
        impl Conversation for Closing {
            fn input(&mut self, _: &mut [u8], _: &mut Meter) -> io::Result<Input> {
                Ok(Input::End)
            }
            fn stdout(&mut self, _: &[u8]) {}
            fn check(&mut self, _: &mut Meter) -> Option<Kill> {
                (Instant::now() > self.0).then_some(Kill::Wall)
            }
        }
        loop {
            if let Served::Ended(finished) = self.serve(&mut Closing(deadline))? {
                return Ok(finished);
            }
        }
    }
}

/// Whether `fd` has something to read now.
fn readable(fd: &OwnedFd) -> bool {
    let mut ready = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one live pollfd, no waiting.
    unsafe { libc::poll(&mut ready, 1, 0) > 0 && ready.revents & libc::POLLIN != 0 }
}

/// Reads what is ready on `slot` and hands it on, within `limit` bytes in
/// all: `true` when it passed the limit (and the stream is dropped).
fn drain(
    slot: &mut Option<OwnedFd>,
    chunk: &mut [u8],
    counted: &mut usize,
    limit: usize,
    mut hand_on: impl FnMut(&[u8]),
) -> bool {
    let Some(fd) = slot else { return false };
    match read_some(fd, chunk) {
        Ok(None) => false,
        Ok(Some(0)) | Err(_) => {
            *slot = None;
            false
        }
        Ok(Some(n)) => {
            let room = limit - *counted;
            let take = n.min(room);
            if take > 0 {
                hand_on(&chunk[..take]);
                *counted += take;
            }
            if n > room {
                *slot = None;
                return true;
            }
            false
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
        let mut spec = Spec::new(
            "/bin/sh".into(),
            vec!["sh".into(), "-c".into(), script.into()],
            Plan {
                cwd: std::env::temp_dir(),
                ..Plan::default()
            },
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

        fn stdout(&mut self, _: &[u8]) {}

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

        fn stdout(&mut self, chunk: &[u8]) {
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

        fn stdout(&mut self, chunk: &[u8]) {
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
}
