//! The platform seam: how a run is started, watched, accounted and killed
//! on this operating system. The watchdog ([`super::process`]) and
//! everything above it start, end, kill and measure a run only through
//! here: [`start`] a [`Launch`], then ask its [`Child`] for its end, kill
//! it, and read its [`Meter`].
//!
//! The pipes a run talks through are not behind this seam: the watchdog
//! makes and serves them itself and hands the child's ends over as
//! [`StdioEnd`]s. On Unix its `streams` makes them with `pipe2` (or `pipe`
//! and `fcntl`), sets them non-blocking with `fcntl` and polls them with
//! `poll(2)`, through `nix`, and it `fchmod`s a driver's answer pipe; on
//! Windows it takes them from [`super::sys`] and serves each on a thread.
//!
//! One backend per OS, chosen at compile time; each is a file:
//!
//! - [`posix`]: what every Unix has. A process group per run, killed as a
//!   group; CPU time and peak memory from `wait4`'s rusage;
//!   `RLIMIT_CPU`, `RLIMIT_AS` and `RLIMIT_FSIZE` set between fork and
//!   exec. The fallback on Linux where no spawner is enabled (tests), and
//!   what a macOS backend builds on.
//! - `linux`: a spawner ([`crate::runner::spawner`]) that starts the run
//!   in the sandbox ([`crate::runner::sandbox`]): namespaces, cgroups,
//!   seccomp, `/proc`, the spawner's socket protocol. Everything
//!   Linux-only in starting, ending and measuring a run is behind it.
//! - `macos`: the POSIX run, with `RLIMIT_NOFILE`, in a scratch
//!   directory of its own, under a Seatbelt profile (`seatbelt`, made as
//!   text) that `/usr/bin/sandbox-exec` applies: no network, writes only
//!   in its scratch. No memory cap, task limit or process namespace:
//!   macOS has none.
//! - [`meter`]: what the kernel says of a running process: its own CPU
//!   clock, and on Linux the cgroup, `/proc` and what a run's init
//!   samples.
//! - `windows`: a Job Object per run (kill on close, a process limit, a
//!   job memory limit, CPU time and peak memory from the job's
//!   accounting), the process created suspended with only its own pipes
//!   inherited. Its figures are made in [`windows_plain`], which is plain
//!   arithmetic, compiled and tested on every OS.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(unix)]
mod meter;
#[cfg(unix)]
mod posix;
// Tested on every Unix: the profile names Unix paths.
#[cfg(any(target_os = "macos", all(test, unix)))]
mod seatbelt;
#[cfg(windows)]
mod windows;
#[cfg_attr(
    not(any(windows, test)),
    expect(
        dead_code,
        reason = "the Windows backend's figures, tested on every OS"
    )
)]
pub(crate) mod windows_plain;

#[cfg(target_os = "macos")]
pub(crate) use macos::protections;
#[cfg(windows)]
pub(crate) use windows::protections;

use std::ffi::OsString;
use std::io;
#[cfg(unix)]
use std::os::fd::{OwnedFd, RawFd};
use std::path::Path;
use std::time::Duration;

use super::sandbox::Plan;
use super::sys::Rlimits;
#[cfg(unix)]
pub use meter::Meter;
#[cfg(windows)]
pub use windows::Meter;
pub use windows_plain::describe_exception;

/// The child's end of one of its pipes, as this system hands it over.
#[cfg(unix)]
pub(crate) type StdioEnd = OwnedFd;
#[cfg(windows)]
pub(crate) type StdioEnd = std::os::windows::io::OwnedHandle;

/// What becomes readable when a process exits, where there is such a
/// thing: a pidfd. Windows' process handle is waited on otherwise.
#[cfg(unix)]
pub(crate) type ExitFd = RawFd;
#[cfg(windows)]
pub(crate) type ExitFd = std::convert::Infallible;

/// How the process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    /// A Unix signal ended it.
    Signal(i32),
    /// An exception ended it (Windows): its `NTSTATUS`, e.g. 0xC0000005.
    Exception(u32),
}

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
    windows_plain::exit_of(status as u32)
}

/// What to start: the command, what it may see, and the limits the
/// kernel holds it to.
pub(crate) struct Launch<'a> {
    /// An absolute path.
    pub program: &'a Path,
    /// Including `argv[0]`.
    pub argv: &'a [OsString],
    /// The whole environment.
    pub env: &'a [(OsString, OsString)],
    pub plan: &'a Plan,
    pub limits: Rlimits,
}

/// What a backend tells the meter of a run it started, beside the
/// process itself: on Linux, the run's cgroup or what its init samples.
#[cfg(target_os = "linux")]
type RunMeters = super::spawner::Meters;
#[cfg(all(unix, not(target_os = "linux")))]
type RunMeters = ();

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
    Direct(posix::Direct),
    /// Started in the sandbox by a spawner, which stops it when asked and
    /// reports its end.
    #[cfg(target_os = "linux")]
    Spawned(linux::Spawned),
    /// Forked by this process under a Seatbelt profile (macOS).
    #[cfg(target_os = "macos")]
    Seatbelted(macos::Seatbelted),
    /// Created by this process in a Job Object of its own (Windows).
    #[cfg(windows)]
    Jobbed(windows::Jobbed),
}

/// A process reaped, with what the kernel accounted of it: the raw
/// material of the watchdog's report of a run.
pub(crate) struct Reaped {
    /// As `wait4` returns it; on Windows, the exit code's bits.
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
    launch: &Launch<'_>,
    stdio: &[&StdioEnd],
    confirm: bool,
) -> io::Result<(Child, Meter)> {
    super::sandbox::ensure_unseen(launch.plan)?;
    #[cfg(windows)]
    {
        let _ = confirm;
        let (run, meter) = windows::start(launch, stdio)?;
        Ok((Child::Jobbed(run), meter))
    }
    #[cfg(unix)]
    start_unix(launch, stdio, confirm)
}

#[cfg(unix)]
fn start_unix(
    launch: &Launch<'_>,
    stdio: &[&StdioEnd],
    confirm: bool,
) -> io::Result<(Child, Meter)> {
    #[cfg(target_os = "linux")]
    if let Some(started) = linux::start(launch, stdio, confirm) {
        let (spawned, meter) = started?;
        return Ok((Child::Spawned(spawned), meter));
    }
    let _ = confirm;
    #[cfg(target_os = "macos")]
    if let Some(started) = macos::start(launch, stdio) {
        let run = started?;
        let meter = Meter::of(run.pid(), None);
        return Ok((Child::Seatbelted(run), meter));
    }
    let direct = posix::Direct::spawn(launch, stdio)?;
    let meter = Meter::of(direct.pid(), None);
    Ok((Child::Direct(direct), meter))
}
