//! The Linux backend: a run started in the sandbox by a spawner
//! ([`crate::runner::spawner`]), which stops it when asked and reports its end
//! with what its cgroup or its init counted. Where a run's containment
//! names no spawner (tests), it is forked as on any Unix ([`super::posix`]).

use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::time::{Duration, Instant};

use super::launch::{Reaped, RunMeters, Spawn};
use super::meter::Meter;
use crate::runner::sandbox::SpawnRequest;
use crate::runner::spawner::{self, Spawner};

/// How long a spawner may take to report a run it was told to kill. The
/// kernel tears down a fork bomb's 256 processes in milliseconds, but on a
/// machine busy with other runs that has been seen to take over 5 s: this
/// is a bound for a spawner that is broken, not a measure of a healthy one.
const KILL_GRACE: Duration = Duration::from_secs(20);

/// A run a spawner started.
pub(crate) struct Spawned {
    spawner: Spawner,
    /// When the spawner was told to stop it.
    killed_at: Option<Instant>,
    /// Whether the spawner has confirmed the start yet.
    start: Start,
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

/// Starts `launch` through a spawner; `None` when its containment names
/// none. Unless `confirm`, only asks for it: the meter is armed when
/// the start is confirmed.
pub(super) fn start(
    launch: &Spawn<'_>,
    stdio: &[&OwnedFd],
    confirm: bool,
) -> Option<io::Result<(Spawned, Meter)>> {
    let spawner = spawner::take(launch.containment)?;
    Some(spawner.and_then(|mut spawner| {
        let request = SpawnRequest::new(
            launch.program.as_os_str(),
            launch.argv,
            launch.env,
            launch.limits,
            launch.plan.clone(),
        );
        if !confirm {
            spawner.launch(&request, stdio)?;
            return Ok((Spawned::new(spawner, Start::Pending), Meter::pending()));
        }
        match spawner.spawn(&request, stdio) {
            Ok((pid, meters)) => Ok((
                Spawned::new(spawner, Start::Confirmed),
                Meter::of(pid, Some(meters)),
            )),
            Err(error) => {
                // The program did not start; the spawner is fine.
                spawner::give_back(spawner);
                Err(error)
            }
        }
    }))
}

impl Spawned {
    fn new(spawner: Spawner, start: Start) -> Spawned {
        Spawned {
            spawner,
            killed_at: None,
            start,
        }
    }

    pub(super) fn exit_fd(&self) -> RawFd {
        self.spawner.exit_fd()
    }

    pub(super) fn kill(&mut self) {
        if self.killed_at.is_none() {
            self.spawner.kill();
            self.killed_at = Some(Instant::now());
        }
    }

    /// The pid and meters of the run once its start is confirmed; the
    /// reason it did not start as an error.
    pub(super) fn try_started(&mut self) -> io::Result<Option<(i32, RunMeters)>> {
        if self.start != Start::Pending {
            return Ok(None);
        }
        match self.spawner.try_started() {
            Ok(Some(started)) => {
                self.start = Start::Confirmed;
                Ok(Some(started))
            }
            Ok(None) => Ok(None),
            Err(error) => {
                self.start = Start::Refused;
                Err(error)
            }
        }
    }

    pub(super) fn try_exit(&mut self) -> io::Result<Option<Reaped>> {
        // Its end is reported after its start, which is heard first.
        if self.start != Start::Pending {
            if let Some(ended) = self.spawner.try_exit()? {
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
        // No wait without a deadline: a spawner that does not report a
        // run it was told to stop is itself stopped.
        if self.killed_at.is_some_and(|at| at.elapsed() > KILL_GRACE) {
            return Err(io::Error::other(
                "the judge's spawner did not report the end of a run it was told to stop",
            ));
        }
        Ok(None)
    }

    /// Lets go of the run: a spawner that is known to be fine goes back
    /// for the next run; dropping one ends it and, with it, anything it
    /// started.
    pub(super) fn release(self, ended: bool) {
        if ended || self.start == Start::Refused {
            spawner::give_back(self.spawner);
        }
    }
}
