//! The system calls that the watchdog, the spawner and the sandbox all
//! make: resource limits set between fork and exec, waiting on a process
//! by pid or pidfd, and messages with descriptors over a Unix socket. Kept
//! below the three so that none imports another for them.
//!
//! This is where the judge's raw system calls live, each behind a safe
//! function: the rest of the judge uses these and `nix`'s wrappers, and
//! may not use `unsafe` (the crate denies it), except the submission's
//! process between its clone and its exec (`sandbox::child`), which may
//! not allocate and so makes raw calls of its own.
//!
//! [`posix`] holds the calls every Unix has; `linux` those only Linux
//! has (namespaces, pidfds, `SCM_RIGHTS` sockets, memory files),
//! `macos` those only macOS has (a process's usage by pid), and `windows`
//! Windows' (Job Objects, processes created with a handle list, named
//! pipes), re-exported here so that callers name one module.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
mod posix;
#[cfg(windows)]
mod windows;

#[cfg(target_os = "linux")]
pub(crate) use linux::*;
#[cfg(target_os = "macos")]
pub(crate) use macos::*;
#[cfg(windows)]
pub(crate) use windows::*;

#[cfg(all(unix, not(target_os = "linux")))]
pub(crate) use posix::pidfd_open;
pub(crate) use posix::Rlimits;
#[cfg(target_os = "linux")]
pub(crate) use posix::{exit_now, release_free_heap, wait4, Resource};
#[cfg(unix)]
pub(crate) use posix::{kill_group, limit_between_fork_and_exec, poll, readable, try_wait4};
