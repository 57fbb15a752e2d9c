//! The running process, however it was started: by a spawner, inside the
//! sandbox, or forked here ([`super::direct`]); how it is started, stopped,
//! and its end heard.

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::time::{Duration, Instant};

use super::direct::{Direct, Stdio3};
use super::meter::Meter;
use super::streams::{pipe, Pipes};
use super::{RunMeters, Spec};
use crate::runner::sandbox::SpawnRequest;
use crate::runner::spawner::{self, Spawner};
use crate::runner::sys::Rlimits;

/// How long a spawner may take to report a run it was told to kill. The
/// kernel tears down a fork bomb's 256 processes in milliseconds, but on a
/// machine busy with other runs that has been seen to take over 5 s: this
/// is a bound for a spawner that is broken, not a measure of a healthy one.
const KILL_GRACE: Duration = Duration::from_secs(20);

/// The running process, however it was started.
#[expect(
    clippy::large_enum_variant,
    reason = "one per running process, never held in bulk; boxing the spawner buys nothing"
)]
pub(super) enum Child {
    /// Forked by this process, which waits for it.
    Direct(Direct),
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
pub(super) enum Start {
    /// Asked for; the spawner's word is still to come.
    Pending,
    Confirmed,
    /// It did not start; the spawner is fine and can serve another.
    Refused,
}

/// A process reaped, with what the kernel accounted of it: the raw
/// material of a [`super::Finished`].
pub(super) struct Reaped {
    /// As `wait4` returns it.
    pub status: i32,
    pub cpu: Duration,
    pub max_rss_kb: u64,
    /// Memory its cgroup still held at the end, when a spawner read it.
    pub held_kb: u64,
    /// From the start to the exit, when a spawner timed it.
    pub wall: Option<Duration>,
    pub oom_kills: u64,
    pub fork_refusals: u64,
}

impl Child {
    /// Becomes readable when the process exits, if there is such a thing.
    pub(super) fn exit_fd(&self) -> Option<RawFd> {
        match self {
            Child::Direct(direct) => direct.exit_fd(),
            Child::Spawned { spawner, .. } => Some(spawner.exit_fd()),
        }
    }

    pub(super) fn kill(&mut self) {
        match self {
            Child::Direct(direct) => direct.kill(),
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

    /// Once the process has exited: kills what it started and left behind,
    /// where nothing else does (a spawner's run ends with its namespace or
    /// cgroup).
    pub(super) fn kill_leftovers(&self) {
        if let Child::Direct(direct) = self {
            // The leader is gone; anything it started goes with it.
            direct.kill();
        }
    }

    /// The pid and meters of a spawned process whose start has just been
    /// confirmed; the reason it did not start as an error.
    pub(super) fn try_started(&mut self) -> io::Result<Option<(i32, RunMeters)>> {
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

    pub(super) fn try_exit(&mut self) -> io::Result<Option<Reaped>> {
        match self {
            Child::Direct(direct) => direct.try_exit(),
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

    /// Lets go of the process, `ended` or not: one still running is killed
    /// with everything it started, and a spawner that is known to be fine
    /// goes back for the next run.
    pub(super) fn release(self, ended: bool) {
        match self {
            // The harness stopped early: leave nothing behind.
            Child::Direct(direct) => direct.kill_and_wait(),
            Child::Spawned { spawner, start, .. } if ended || start == Start::Refused => {
                spawner::give_back(spawner)
            }
            // Dropping the spawner ends it and, with it, anything it started.
            Child::Spawned { spawner, .. } => drop(spawner),
        }
    }
}

/// Starts `spec`; its ends of the pipes, the process and what measures it.
/// Unless `confirm`, a spawner is only asked to start it: the start is
/// confirmed (and the meter armed) while the pipes are served.
pub(super) fn start(spec: &Spec, confirm: bool) -> io::Result<(Child, Pipes, Meter)> {
    let (child_stdin, stdin) = pipe()?;
    let (stdout, child_stdout) = pipe()?;
    let (stderr, child_stderr) = pipe()?;
    let answers = spec.answers.then(pipe).transpose()?;
    if let Some((_, write)) = &answers {
        // A JVM cannot take a descriptor by number: it opens /dev/fd/3,
        // which checks the pipe's own permissions against the sandbox's
        // user.
        let _ = nix::sys::stat::fchmod(write, nix::sys::stat::Mode::from_bits_truncate(0o622));
    }
    let limits = Rlimits {
        cpu_seconds: spec
            .cpu_limit
            .map(|d| d.as_secs() + u64::from(d.subsec_nanos() > 0)),
        address_space: spec.address_space_limit,
        tasks: None,
        file_size: spec.file_size_limit,
    };
    let pipes = |answers: Option<(OwnedFd, OwnedFd)>| Pipes {
        stdin: Some(stdin),
        stdout: Some(stdout),
        stderr: Some(stderr),
        answers: answers.map(|(read, _)| read),
    };
    let Some(spawner) = spawner::take() else {
        let direct = Direct::spawn(
            spec,
            Stdio3 {
                stdin: &child_stdin,
                stdout: &child_stdout,
                stderr: &child_stderr,
                answers: answers.as_ref().map(|(_, write)| write),
            },
            limits,
        )?;
        let meter = Meter::of(direct.pid(), None);
        return Ok((Child::Direct(direct), pipes(answers), meter));
    };
    let mut spawner = spawner?;
    let mut stdio = vec![&child_stdin, &child_stdout, &child_stderr];
    if let Some((_, write)) = &answers {
        stdio.push(write);
    }
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
    let (pid, meters) = match spawner.spawn(&launch, &stdio) {
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
    Ok((child, pipes(answers), Meter::of(pid, Some(meters))))
}
