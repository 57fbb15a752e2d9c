//! What a backend is handed and hands back: the [`Spawn`] of a run, the
//! pipe ends it is given ([`StdioEnd`]), and the [`Reaped`] process with
//! how it ended ([`Exit`]).

use std::ffi::OsString;
#[cfg(unix)]
use std::os::fd::{OwnedFd, RawFd};
use std::path::Path;
use std::time::Duration;

use super::super::sandbox::{Containment, Plan};
use super::super::sys::Rlimits;

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
pub(crate) enum Exit {
    Code(i32),
    /// A Unix signal ended it.
    #[cfg_attr(windows, allow(dead_code))]
    Signal(i32),
    /// An exception ended it (Windows): its `NTSTATUS`, e.g. 0xC0000005.
    Exception(u32),
}

/// What to start: the command, what it may see, and the limits the
/// kernel holds it to.
pub(crate) struct Spawn<'a> {
    /// An absolute path.
    pub(crate) program: &'a Path,
    /// Including `argv[0]`.
    pub(crate) argv: &'a [OsString],
    /// The whole environment.
    pub(crate) env: &'a [(OsString, OsString)],
    pub(crate) plan: &'a Plan,
    pub(crate) limits: Rlimits,
    /// Windows holds every run in a Job Object, whatever it says.
    #[cfg_attr(windows, allow(dead_code))]
    pub(crate) containment: &'a Containment,
}

/// What a backend tells the meter of a run it started, beside the
/// process itself: on Linux, the run's cgroup or what its init samples.
#[cfg(target_os = "linux")]
pub(super) type RunMeters = super::super::spawner::Meters;
#[cfg(all(unix, not(target_os = "linux")))]
pub(super) type RunMeters = ();

/// A process reaped, with what the kernel accounted of it: the raw
/// material of the watchdog's report of a run.
pub(crate) struct Reaped {
    /// As `wait4` returns it; on Windows, the exit code's bits.
    pub(crate) status: i32,
    pub(crate) cpu: Duration,
    pub(crate) max_rss_kb: u64,
    /// Memory its cgroup still held at the end, when a spawner read it.
    pub(crate) held_kb: u64,
    /// From the start to the exit, when a spawner timed it.
    pub(crate) wall: Option<Duration>,
    pub(crate) oom_kills: u64,
    pub(crate) fork_refusals: u64,
}
