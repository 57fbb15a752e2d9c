//! A started run behind the seam: [`start`] a [`Spawn`] on this system's
//! backend, then wait on and kill the [`Child`] it gives; [`exit_of`] reads
//! how it ended.

use std::io;

use super::launch::{Exit, ExitFd, Reaped, Spawn, StdioEnd};
#[cfg(unix)]
use super::meter::Meter;
#[cfg(windows)]
use super::windows::Meter;

/// How a process ended, from its status as its backend reaped it
/// ([`Reaped::status`]).
pub(crate) fn exit_of(status: i32) -> Exit {
    #[cfg(unix)]
    if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
    #[cfg(windows)]
    super::windows_plain::exit_of(status as u32)
}

/// The running process, however this system started it.
#[cfg_attr(
    target_os = "linux",
    expect(
        clippy::large_enum_variant,
        reason = "one per running process, never held in bulk; boxing the spawner buys nothing"
    )
)]
pub(crate) enum Child {
    /// Forked by this process, which waits for it.
    #[cfg(unix)]
    Direct(super::posix::Direct),
    /// Started in the sandbox by a spawner, which stops it when asked and
    /// reports its end.
    #[cfg(target_os = "linux")]
    Spawned(super::linux::Spawned),
    /// Forked by this process under a Seatbelt profile (macOS).
    #[cfg(target_os = "macos")]
    Seatbelted(super::macos::Seatbelted),
    /// Created by this process in a Job Object of its own (Windows).
    #[cfg(windows)]
    Jobbed(super::windows::Jobbed),
}

impl Child {
    /// Becomes readable when the process exits, if there is such a thing.
    pub(crate) fn exit_fd(&self) -> Option<ExitFd> {
        match self {
            #[cfg(unix)]
            Child::Direct(direct) => direct.exit_fd(),
            #[cfg(windows)]
            Child::Jobbed(_) => None,
            #[cfg(target_os = "linux")]
            Child::Spawned(spawned) => Some(spawned.exit_fd()),
            #[cfg(target_os = "macos")]
            Child::Seatbelted(run) => run.exit_fd(),
        }
    }

    pub(crate) fn kill(&mut self) {
        match self {
            #[cfg(unix)]
            Child::Direct(direct) => direct.kill(),
            #[cfg(windows)]
            Child::Jobbed(run) => run.kill(),
            #[cfg(target_os = "linux")]
            Child::Spawned(spawned) => spawned.kill(),
            #[cfg(target_os = "macos")]
            Child::Seatbelted(run) => run.kill(),
        }
    }

    /// Once the process has exited: kills what it started and left behind,
    /// where nothing else does (a spawner's run ends with its namespace or
    /// cgroup).
    pub(crate) fn kill_leftovers(&self) {
        match self {
            // The leader is gone; anything it started goes with it.
            #[cfg(unix)]
            Child::Direct(direct) => direct.kill(),
            #[cfg(windows)]
            Child::Jobbed(run) => run.kill(),
            #[cfg(target_os = "macos")]
            Child::Seatbelted(run) => run.kill(),
            #[cfg(target_os = "linux")]
            Child::Spawned(_) => {}
        }
    }

    /// The meter of a process whose start has just been confirmed; the
    /// reason it did not start as an error. `Ok(None)` until then, and
    /// for a process whose start needed no confirming.
    pub(crate) fn try_started(&mut self) -> io::Result<Option<Meter>> {
        match self {
            #[cfg(unix)]
            Child::Direct(_) => Ok(None),
            #[cfg(windows)]
            Child::Jobbed(_) => Ok(None),
            #[cfg(target_os = "macos")]
            Child::Seatbelted(_) => Ok(None),
            #[cfg(target_os = "linux")]
            Child::Spawned(spawned) => Ok(spawned
                .try_started()?
                .map(|(pid, meters)| Meter::of(pid, Some(meters)))),
        }
    }

    /// Its end and what the kernel accounted of it, once it has exited.
    pub(crate) fn try_exit(&mut self) -> io::Result<Option<Reaped>> {
        match self {
            #[cfg(unix)]
            Child::Direct(direct) => direct.try_exit(),
            #[cfg(windows)]
            Child::Jobbed(run) => run.try_exit(),
            #[cfg(target_os = "linux")]
            Child::Spawned(spawned) => spawned.try_exit(),
            #[cfg(target_os = "macos")]
            Child::Seatbelted(run) => run.try_exit(),
        }
    }

    /// Lets go of the process, `ended` or not: one still running is killed
    /// with everything it started.
    pub(crate) fn release(self, ended: bool) {
        match self {
            // The harness stopped early: leave nothing behind.
            #[cfg(unix)]
            Child::Direct(direct) => direct.kill_and_wait(),
            #[cfg(windows)]
            Child::Jobbed(run) => run.kill_and_wait(),
            #[cfg(target_os = "linux")]
            Child::Spawned(spawned) => spawned.release(ended),
            #[cfg(target_os = "macos")]
            Child::Seatbelted(run) => run.kill_and_wait(),
        }
        let _ = ended;
    }
}

/// Starts `launch` on `stdio` (stdin, stdout, stderr, and a driver's
/// answers as fd 3 when there are four): the process and what measures
/// it. Unless `confirm`, a backend that can is only asked to start it:
/// the start is confirmed ([`Child::try_started`], which arms the meter)
/// while the pipes are served.
///
/// Every run passes here: a plan that would show the run a directory
/// holding the judge's own files (the shipped answers, the records of
/// consent, the build cache whole) is refused, whatever made it.
pub(crate) fn start(
    launch: &Spawn<'_>,
    stdio: &[&StdioEnd],
    confirm: bool,
) -> io::Result<(Child, Meter)> {
    super::super::sandbox::ensure_unseen(launch.plan)?;
    #[cfg(windows)]
    {
        let _ = confirm;
        let (run, meter) = super::windows::start(launch, stdio)?;
        Ok((Child::Jobbed(run), meter))
    }
    #[cfg(unix)]
    start_unix(launch, stdio, confirm)
}

#[cfg(unix)]
fn start_unix(
    launch: &Spawn<'_>,
    stdio: &[&StdioEnd],
    confirm: bool,
) -> io::Result<(Child, Meter)> {
    #[cfg(target_os = "linux")]
    if let Some(started) = super::linux::start(launch, stdio, confirm) {
        let (spawned, meter) = started?;
        return Ok((Child::Spawned(spawned), meter));
    }
    let _ = confirm;
    #[cfg(target_os = "macos")]
    if let Some(started) = super::macos::start(launch, stdio) {
        let run = started?;
        let meter = Meter::of(run.pid(), None);
        return Ok((Child::Seatbelted(run), meter));
    }
    let direct = super::posix::Direct::spawn(launch, stdio)?;
    let meter = Meter::of(direct.pid(), None);
    Ok((Child::Direct(direct), meter))
}
