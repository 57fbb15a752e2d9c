//! The calls every Unix has: resource limits ([`Rlimits`]) set between
//! fork and exec (on Windows only their figures), waiting on a process,
//! polling, killing a group.

#[cfg(unix)]
use std::io;
#[cfg(unix)]
use std::os::fd::{AsRawFd, RawFd};

use serde::{Deserialize, Serialize};

/// The type of a resource's number in `setrlimit(2)`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) type Resource = libc::__rlimit_resource_t;
#[cfg(all(unix, not(all(target_os = "linux", target_env = "gnu"))))]
pub(crate) type Resource = libc::c_int;

#[cfg(unix)]
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

/// Limits set in the child between fork and exec (on Windows, the CPU
/// limit becomes its job's).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub(crate) struct Rlimits {
    /// `RLIMIT_CPU`, whole seconds.
    pub(crate) cpu_seconds: Option<u64>,
    /// `RLIMIT_AS`, bytes.
    pub(crate) address_space: Option<u64>,
    /// `RLIMIT_NPROC`: tasks of the user the run is, where that user is
    /// the run's own (set by the sandbox, where no cgroup counts them).
    #[serde(default)]
    pub(crate) tasks: Option<u64>,
    /// `RLIMIT_FSIZE`, bytes: the largest file it may write (a compile's,
    /// on the user's disk).
    #[serde(default)]
    pub(crate) file_size: Option<u64>,
    /// `RLIMIT_NOFILE`: descriptors open at once (set where no sandbox
    /// bounds a run otherwise: macOS).
    #[serde(default)]
    pub(crate) open_files: Option<u64>,
}

/// Sets the limits of a submission between fork and exec: no core dumps,
/// and the CPU, address-space and file-size backstops.
#[cfg(unix)]
pub(crate) fn set_limits(limits: Rlimits) -> io::Result<()> {
    for (resource, value) in limits.settings() {
        if let Some(value) = value {
            set_limit(resource, value)?;
        }
    }
    Ok(())
}

#[cfg(unix)]
impl Rlimits {
    /// Each limit a submission is started under, by resource, in the
    /// order they are set: no core dumps, and the backstops asked for.
    pub(crate) fn settings(&self) -> [(Resource, Option<u64>); 6] {
        [
            (libc::RLIMIT_CORE, Some(0)),
            (libc::RLIMIT_CPU, self.cpu_seconds),
            (libc::RLIMIT_AS, self.address_space),
            (libc::RLIMIT_NPROC, self.tasks),
            (libc::RLIMIT_FSIZE, self.file_size),
            (libc::RLIMIT_NOFILE, self.open_files),
        ]
    }
}

/// Without pidfds, an exit is noticed by looking.
#[cfg(all(unix, not(target_os = "linux")))]
pub(crate) fn pidfd_open(_pid: i32) -> Option<std::os::fd::OwnedFd> {
    None
}

#[cfg(unix)]
/// `wait4(2)` for the child `pid` (-1: any child), blocking or only
/// looking: the pid that ended, its status as `wait(2)` gives it, and its
/// resource usage (its own and that of the children it waited for).
/// `Ok(None)` while none has ended and `block` is false; `ECHILD` when
/// there is no such child.
pub(crate) fn wait4(pid: i32, block: bool) -> io::Result<Option<(i32, i32, libc::rusage)>> {
    let mut status = 0;
    // SAFETY: rusage is plain data; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: both pointers are to live locals of the right types.
        match unsafe { libc::wait4(pid, &mut status, flags, &mut usage) } {
            0 => return Ok(None),
            ..0 => {
                let error = io::Error::last_os_error();
                if error.kind() != io::ErrorKind::Interrupted {
                    return Err(error);
                }
            }
            ended => return Ok(Some((ended, status, usage))),
        }
    }
}

#[cfg(unix)]
/// [`wait4`] for `pid` without blocking: its status and its own resource
/// usage once it has exited.
pub(crate) fn try_wait4(pid: i32) -> io::Result<Option<(i32, libc::rusage)>> {
    Ok(wait4(pid, false)?.map(|(_, status, usage)| (status, usage)))
}

#[cfg(unix)]
/// `poll(2)` on `fds` for at most `timeout_ms` (negative: no bound);
/// descriptors given as -1 are skipped. How many are ready; an error of
/// kind `Interrupted` when a signal cut the wait short.
pub(crate) fn poll(fds: &mut [libc::pollfd], timeout_ms: i32) -> io::Result<usize> {
    // SAFETY: fds is a live, writable slice of pollfds of the length given;
    // the kernel checks the descriptors themselves.
    let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
    if ready < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(ready as usize)
}

#[cfg(unix)]
/// Whether `fd` has something to read now, or its other end has closed:
/// a read would not block.
pub(crate) fn readable(fd: &impl AsRawFd) -> bool {
    let mut ready = [libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    }];
    poll(&mut ready, 0).is_ok_and(|n| n > 0) && ready[0].revents != 0
}

#[cfg(unix)]
/// Kills the process group `pgid`: a process that leads one, and
/// everything it started that did not leave it.
pub(crate) fn kill_group(pgid: i32) {
    use nix::sys::signal::{killpg, Signal};
    let _ = killpg(nix::unistd::Pid::from_raw(pgid), Signal::SIGKILL);
}

/// Ends the calling process at once with `code`: no destructors, no
/// `atexit` handlers, no buffers flushed, as a forked child that is not
/// the program it copied must end. Only the spawner forks such children:
/// Linux's.
#[cfg(target_os = "linux")]
pub(crate) fn exit_now(code: i32) -> ! {
    // SAFETY: _exit(2) takes no pointers and does not return.
    unsafe { libc::_exit(code) }
}

/// Gives the heap's free pages back to the system, so that a process
/// forked from this one later does not start with a copy of them (a
/// spawner, Linux's).
#[cfg(target_os = "linux")]
pub(crate) fn release_free_heap() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only releases free heap pages.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(unix)]
/// Sets `command` up to run, between its fork and its exec, with
/// `answers` as its fd 3 (if given) and under `limits`.
pub(crate) fn limit_between_fork_and_exec(
    command: &mut std::process::Command,
    answers: Option<RawFd>,
    limits: Rlimits,
) {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: the closure runs between fork and exec and only calls
    // setrlimit and dup2, which are async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if let Some(fd) = answers {
                if libc::dup2(fd, 3) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            set_limits(limits)
        });
    }
}
