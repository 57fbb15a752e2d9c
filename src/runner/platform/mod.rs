//! The platform seam: how a run is started, watched, accounted and killed
//! on this operating system. The watchdog ([`super::process`]) and
//! everything above it start, end, kill and measure a run only through
//! here: [`start`] a [`Spawn`], then ask its [`Child`] for its end, kill
//! it, and read its [`Meter`].
//!
//! The pipes a run talks through are not behind this seam: the watchdog
//! makes and serves them itself and hands the child's ends over as
//! [`StdioEnd`](launch::StdioEnd)s. On Unix its `streams` makes them with `pipe2` (or `pipe`
//! and `fcntl`), sets them non-blocking with `fcntl` and polls them with
//! `poll(2)`, through `nix`, and it `fchmod`s a driver's answer pipe; on
//! Windows it takes them from [`super::sys`] and serves each on a thread.
//!
//! One backend per OS, chosen at compile time; each is a file:
//!
//! - [`posix`]: what every Unix has. A process group per run, killed as a
//!   group; CPU time and peak memory from `wait4`'s rusage;
//!   `RLIMIT_CPU`, `RLIMIT_AS` and `RLIMIT_FSIZE` set between fork and
//!   exec. The fallback on Linux where a run's containment names no
//!   spawner (tests), and what a macOS backend builds on.
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

mod child;
mod launch;
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
#[cfg(unix)]
pub(crate) use meter::Meter;
#[cfg(windows)]
pub(crate) use windows::protections;
#[cfg(windows)]
pub(crate) use windows::Meter;
pub(crate) use windows_plain::describe_exception;

pub(crate) use child::{exit_of, start, Child};
pub(crate) use launch::Exit;
pub(crate) use launch::{ExitFd, Reaped, Spawn};
