//! The watchdog's surface: a process's [`ProcessSpec`], the [`Conversation`]
//! it has with the judge, the [`Process`] it supervises, and how it ended
//! ([`Finished`], [`Kill`]).

use super::streams;

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::super::platform::{self, Child, Reaped, Spawn};
use super::super::platform::{Exit, Meter};
use super::super::sandbox::{Containment, Plan};
use super::super::sys::Rlimits;
use super::streams::{Ends, Pipes};

/// The environment variable that names a LeetCode driver's answer channel:
/// a path the driver opens for writing, on every OS the same way, so that
/// no driver needs to know how the judge made it (`/dev/fd/3` on Unix, a
/// named pipe made for the run on Windows).
pub(crate) const ANSWERS_VAR: &str = "SUDOKU_JUDGE_ANSWERS";

/// What to run and within which bounds.
pub(crate) struct ProcessSpec {
    /// An absolute path: nothing is looked up on `PATH` inside the sandbox.
    pub(crate) program: PathBuf,
    /// `argv[0]`, then the arguments.
    pub(crate) argv: Vec<OsString>,
    /// The whole environment (see `sandbox::environment`).
    pub(crate) env: Vec<(OsString, OsString)>,
    /// What it sees and may use, and where it starts.
    pub(crate) plan: Plan,
    /// Wall-clock time after which it is killed.
    pub(crate) kill_after: Duration,
    /// CPU time of its whole tree after which it is killed.
    pub(crate) kill_after_cpu: Option<Duration>,
    /// Memory of its whole tree, in KB, past which it is killed.
    pub(crate) kill_above_memory_kb: Option<u64>,
    /// `RLIMIT_CPU`, rounded up to whole seconds.
    pub(crate) cpu_limit: Option<Duration>,
    /// `RLIMIT_AS`, in bytes.
    pub(crate) address_space_limit: Option<u64>,
    /// `RLIMIT_FSIZE`, in bytes: the largest file it may write.
    pub(crate) file_size_limit: Option<u64>,
    /// Output past this many bytes, on stdout or on the answer channel,
    /// kills it (the output limit).
    pub(crate) stdout_limit: usize,
    /// How much of the end of stderr to keep (its first [`super::streams::STDERR_HEAD`]
    /// bytes are kept too).
    pub(crate) stderr_tail: usize,
    /// Whether it gets an answer channel (a LeetCode driver's): fd 3 on
    /// Unix; on Windows a named pipe, whose path replaces [`ANSWERS_VAR`]'s
    /// value in its environment.
    pub(crate) answers: bool,
    pub(crate) containment: Containment,
}

impl ProcessSpec {
    /// `program` with `argv`, in `plan`, with generous bounds to narrow.
    pub(crate) fn new(
        program: PathBuf,
        argv: Vec<OsString>,
        plan: Plan,
        containment: Containment,
    ) -> ProcessSpec {
        let env = super::super::sandbox::environment(&plan.cwd, &[]);
        ProcessSpec {
            program,
            argv,
            env,
            plan,
            kill_after: Duration::from_secs(60),
            kill_after_cpu: None,
            kill_above_memory_kb: None,
            cpu_limit: None,
            address_space_limit: None,
            file_size_limit: None,
            stdout_limit: 64 << 20,
            stderr_tail: 8 << 10,
            answers: false,
            containment,
        }
    }
}

/// What a [`Conversation`] has for stdin now.
pub(crate) enum Input {
    /// This many bytes were put in the buffer.
    Data(usize),
    /// Nothing until the process answers.
    Wait,
    /// No more: close stdin.
    End,
}

/// The judge's side of the exchange with a running process: what to feed
/// it, what to do with what it prints, and when to stop it early.
pub(crate) trait Conversation {
    /// Fills `buf` with the next input, if there is any now.
    fn input(&mut self, buf: &mut [u8], meter: &mut Meter) -> io::Result<Input>;
    /// A chunk of stdout, in order.
    fn stdout(&mut self, chunk: &[u8], meter: &mut Meter);
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
pub(crate) struct Stream<'a> {
    pub(crate) stdin: &'a mut dyn Read,
    pub(crate) stdout: &'a mut dyn FnMut(&[u8]),
}

/// The next input read from `stdin` into `buf`: data, or its end.
pub(crate) fn read_input(stdin: &mut dyn Read, buf: &mut [u8]) -> io::Result<Input> {
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

    fn stdout(&mut self, chunk: &[u8], _: &mut Meter) {
        (self.stdout)(chunk);
    }
}

/// Why the watchdog killed a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kill {
    /// It ran past [`ProcessSpec::kill_after`] of wall-clock time, or its
    /// conversation's own wall-clock bound.
    Wall,
    /// It used more CPU time than its bound.
    Cpu,
    /// Its memory passed its bound, or the kernel's cap stopped it.
    Memory,
    /// Its output passed [`ProcessSpec::stdout_limit`].
    Output,
    /// It did not get to its first board in time (a LeetCode driver
    /// starting its runtime and loading the solution).
    Startup,
    /// The user interrupted the run.
    Interrupted,
}

/// A finished process and what the kernel measured of it.
#[derive(Debug)]
pub(crate) struct Finished {
    pub(crate) exit: Exit,
    pub(crate) wall: Duration,
    /// CPU time of the whole run: every process in its cgroup, else every
    /// process waited for.
    pub(crate) cpu: Duration,
    /// Peak memory of the whole run, in KB: the most its cgroup's
    /// processes held together (anonymous, tmpfs and shared memory,
    /// sampled as it ran), or the largest resident set among them, if more.
    pub(crate) memory_kb: u64,
    /// The start and the end of what it wrote to stderr, with what was
    /// left out between them said in a line of its own.
    pub(crate) stderr: Vec<u8>,
    /// Why the harness killed it, if it did.
    pub(crate) killed: Option<Kill>,
    /// Forks refused because the run reached its process limit.
    pub(crate) fork_refusals: u64,
    /// How long the run had been ready to run but waiting for a CPU
    /// during the exchange, as the kernel's scheduler counted it (see
    /// [`Meter::cpu_wait`]), however it ended; `None` where the kernel
    /// does not say. Long waits mean a busy machine, not a slow or
    /// sleeping submission.
    pub(crate) cpu_wait: Option<Duration>,
}

/// [`run`] with the whole of stdin given and the whole of stdout (up to its
/// limit) kept, for small runs such as a compiler's.
pub(crate) fn run_captured(spec: ProcessSpec, stdin: &[u8]) -> io::Result<(Finished, Vec<u8>)> {
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

/// Runs `spec` to the end, talking with it through `conversation`, and
/// reports how it went. An `Err` means the harness could not run it at all
/// (e.g. the program does not exist) or could not read the input it was to
/// feed; the process is gone either way.
pub(crate) fn run(spec: ProcessSpec, conversation: &mut dyn Conversation) -> io::Result<Finished> {
    let mut process = Process::begin(spec, false)?;
    loop {
        if let Served::Ended(finished) = process.serve(conversation)? {
            return Ok(finished);
        }
    }
}

/// What came of one exchange with a [`Process`].
pub(crate) enum Served {
    /// The conversation is done and the process lives on, for the next.
    Done,
    /// The process ended (exited, crashed or was killed).
    Ended(Finished),
}

/// A running process that may serve several exchanges in turn (a driver
/// judging case after case, with the state its solution keeps), or one to
/// its end ([`run`]). Dropped, it is killed, with everything it started.
pub(crate) struct Process {
    child: Option<Child>,
    pub(super) pipes: Pipes,
    pub(super) meter: Meter,
    pub(super) bounds: Bounds,
    pub(super) started: Instant,
    /// Input made by a conversation but not yet taken by the process.
    pub(super) pending: Vec<u8>,
    pub(super) pending_at: usize,
    pub(super) pending_end: usize,
    pub(super) chunk: Vec<u8>,
    /// Stderr since the current exchange began.
    pub(super) errors: Ends,
    pub(super) killed: Option<Kill>,
    pub(super) ended: Option<(Reaped, Duration)>,
    /// How long the run waited for a CPU until the harness killed it, if
    /// it did (see [`Meter::waited`]).
    cpu_wait: Option<Duration>,
}

/// The bounds of a [`ProcessSpec`] that outlive its start.
pub(super) struct Bounds {
    pub(super) kill_after: Duration,
    pub(super) kill_after_cpu: Option<Duration>,
    pub(super) kill_above_memory_kb: Option<u64>,
    pub(super) stdout_limit: usize,
    pub(super) stderr_tail: usize,
}

/// The limits the kernel holds `spec`'s process to.
fn rlimits(spec: &ProcessSpec) -> Rlimits {
    Rlimits {
        cpu_seconds: spec
            .cpu_limit
            .map(|d| d.as_secs() + u64::from(d.subsec_nanos() > 0)),
        address_space: spec.address_space_limit,
        tasks: None,
        file_size: spec.file_size_limit,
        open_files: None,
    }
}

/// Starts `spec` on pipes of its own: the process, the harness's ends of
/// the pipes, and what measures it.
#[cfg(unix)]
fn start_child(spec: &ProcessSpec, confirm: bool) -> io::Result<(Child, Pipes, Meter)> {
    use super::streams::{pipe, set_nonblocking};
    let (child_stdin, stdin) = pipe()?;
    let (stdout, child_stdout) = pipe()?;
    let (stderr, child_stderr) = pipe()?;
    let answers = spec.answers.then(pipe).transpose()?;
    let mut stdio = vec![&child_stdin, &child_stdout, &child_stderr];
    if let Some((_, write)) = &answers {
        // A JVM cannot take a descriptor by number: it opens /dev/fd/3,
        // which checks the pipe's own permissions against the sandbox's
        // user.
        let _ = nix::sys::stat::fchmod(write, nix::sys::stat::Mode::from_bits_truncate(0o622));
        stdio.push(write);
    }
    let launch = Spawn {
        program: &spec.program,
        argv: &spec.argv,
        env: &spec.env,
        plan: &spec.plan,
        limits: rlimits(spec),
        containment: &spec.containment,
    };
    let (child, meter) = platform::start(&launch, &stdio, confirm)?;
    let pipes = Pipes {
        stdin: Some(stdin),
        stdout: Some(stdout),
        stderr: Some(stderr),
        answers: answers.map(|(read, _)| read),
    };
    for fd in [&pipes.stdout, &pipes.stderr, &pipes.answers]
        .into_iter()
        .flatten()
    {
        set_nonblocking(fd)?;
    }
    if let Some(fd) = &pipes.stdin {
        set_nonblocking(fd)?;
    }
    Ok((child, pipes, meter))
}

/// Starts `spec` on pipes of its own (Windows): the process, the
/// harness's ends of the pipes, each served by a thread, and what
/// measures it. A driver's answer channel is a named pipe made for this
/// run, whose name its environment's [`ANSWERS_VAR`] gives in place of
/// Unix's `/dev/fd/3`.
///
/// [`ANSWERS_VAR`]: crate::runner::lang::launch::ANSWERS_VAR
#[cfg(windows)]
fn start_child(spec: &ProcessSpec, _confirm: bool) -> io::Result<(Child, Pipes, Meter)> {
    use super::threads::{answer_pipe_name, Inbound, Outbound, Wake};
    use crate::runner::sys::{answer_pipe, pipe};
    let (child_stdin, stdin) = pipe()?;
    let (stdout, child_stdout) = pipe()?;
    let (stderr, child_stderr) = pipe()?;
    let mut env = spec.env.clone();
    let answers = if spec.answers {
        let name = answer_pipe_name();
        let server = answer_pipe(&name)?;
        env.retain(|(key, _)| !key.eq_ignore_ascii_case(ANSWERS_VAR));
        env.push((ANSWERS_VAR.into(), name.clone()));
        Some((server, name))
    } else {
        None
    };
    let launch = Spawn {
        program: &spec.program,
        argv: &spec.argv,
        env: &env,
        plan: &spec.plan,
        limits: rlimits(spec),
        containment: &spec.containment,
    };
    let wake = Wake::new();
    let answers = answers
        .map(|(server, name)| Inbound::spawn_named(server, name, &wake))
        .transpose()?;
    let (child, meter) = platform::start(
        &launch,
        &[&child_stdin, &child_stdout, &child_stderr],
        false,
    )?;
    // The child has its own copies: with the judge's closed, a read sees
    // the end when the child's are gone.
    drop((child_stdin, child_stdout, child_stderr));
    let pipes = Pipes {
        stdin: Some(Outbound::spawn(stdin, &wake)?),
        stdout: Some(Inbound::spawn(stdout, &wake)?),
        stderr: Some(Inbound::spawn(stderr, &wake)?),
        answers,
        wake,
    };
    Ok((child, pipes, meter))
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Some(child) = self.child.take() {
            child.release(self.ended.is_some());
        }
        streams::give_back(std::mem::take(&mut self.pending));
        streams::give_back(std::mem::take(&mut self.chunk));
    }
}

impl Process {
    /// Starts `spec`.
    pub(crate) fn start(spec: ProcessSpec) -> io::Result<Process> {
        Process::begin(spec, true)
    }

    /// Starts `spec`, or with a spawner and not `confirm`, asks for it to
    /// be started: whether it did is then heard by [`Process::serve`],
    /// which meanwhile feeds it.
    fn begin(spec: ProcessSpec, confirm: bool) -> io::Result<Process> {
        let started = Instant::now();
        let (child, pipes, meter) = start_child(&spec, confirm)?;
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
            pending: streams::buffer(),
            pending_at: 0,
            pending_end: 0,
            chunk: streams::buffer(),
            errors: Ends::default(),
            killed: None,
            cpu_wait: None,
            ended: None,
        })
    }

    /// What measures it.
    pub(crate) fn meter(&mut self) -> &mut Meter {
        &mut self.meter
    }

    pub(super) fn child(&mut self) -> &mut Child {
        self.child
            .as_mut()
            .expect("the child lives as long as the process")
    }

    /// Records the first reason to kill and has the process killed; later
    /// reasons only find it dying.
    pub(super) fn kill(&mut self, why: Kill) {
        if self.killed.is_none() {
            self.cpu_wait = self.meter.waited();
            self.killed = Some(why);
            self.child().kill();
        }
    }

    /// The report of a process that has ended.
    pub(super) fn finished(&mut self) -> Finished {
        let (end, noticed) = self.ended.as_ref().expect("it has ended");
        let exit = platform::exit_of(end.status);
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
            cpu_wait: match self.killed {
                Some(_) => self.cpu_wait,
                None => self.meter.waited(),
            },
        }
    }

    /// The stderr of the exchange just served, for a process that lives on.
    pub(crate) fn take_stderr(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.errors).finish()
    }

    /// Ends a process that is done serving: closes its stdin, gives it a
    /// moment to exit, then kills it.
    pub(crate) fn close(mut self) -> io::Result<Finished> {
        self.pipes.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(1);
        struct Closing(Instant);
        impl Conversation for Closing {
            fn input(&mut self, _: &mut [u8], _: &mut Meter) -> io::Result<Input> {
                Ok(Input::End)
            }
            fn stdout(&mut self, _: &[u8], _: &mut Meter) {}
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

/// The conventional name of a signal, with what it usually means for a
/// submission, e.g. `SIGSEGV (segmentation fault)`.
#[cfg(unix)]
pub(crate) fn describe_signal(signal: i32) -> String {
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

/// Windows has no signals that end a process: only a number to say.
#[cfg(not(unix))]
pub(crate) fn describe_signal(signal: i32) -> String {
    format!("signal {signal}")
}
