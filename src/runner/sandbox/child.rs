//! The submission's process from its clone to its exec: what it needs
//! made beforehand ([`Exec`]), joining its cgroup, its descriptors,
//! limits, privileges and filter. Also the plain fork used where the
//! kernel grants no namespaces.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use nix::unistd::{Gid, Uid};

use super::cgroup::Cgroup;
use super::failure::{read_failure, report_failure, Failure, Stage};
use super::jail::Jail;
use super::root::enter_root;
use super::running::kill_and_reap;
use super::seccomp::{NoFork, NoKeyrings};
use super::SpawnRequest;
use crate::runner::sys::Rlimits;

pub(super) fn cstring(bytes: &[u8]) -> Result<CString, Failure> {
    CString::new(bytes.to_vec())
        .map_err(|_| Failure::new(Stage::Exec, "a command line holds a NUL byte", libc::EINVAL))
}

/// Everything the submission's process needs between its start and exec.
pub(super) struct Exec<'a> {
    pub(super) program: CString,
    pub(super) argv: Vec<CString>,
    pub(super) envp: Vec<CString>,
    pub(super) cwd: CString,
    pub(super) limits: Rlimits,
    pub(super) drop_to: Option<(Uid, Gid)>,
    pub(super) no_fork: Option<&'a NoFork>,
    pub(super) keyrings: Option<&'a NoKeyrings>,
}

impl<'a> Exec<'a> {
    pub(super) fn new(launch: &SpawnRequest, jail: &'a Jail) -> Result<Exec<'a>, Failure> {
        Ok(Exec {
            program: cstring(&launch.program)?,
            argv: launch
                .argv
                .iter()
                .map(|a| cstring(a))
                .collect::<Result<_, _>>()?,
            envp: launch
                .env
                .iter()
                .map(|(k, v)| cstring(&[&k[..], b"=", &v[..]].concat()))
                .collect::<Result<_, _>>()?,
            cwd: cstring(launch.plan.cwd.as_os_str().as_bytes())?,
            limits: Rlimits {
                tasks: jail
                    .tasks_slack
                    .map(|slack| u64::from(launch.plan.tasks) + slack),
                ..launch.limits
            },
            drop_to: jail.drop_to,
            keyrings: jail.no_keyrings.as_ref(),
            no_fork: if launch.plan.no_fork {
                jail.no_fork.as_ref()
            } else {
                None
            },
        })
    }
}

/// Which side of a [`clone_into`] this is.
pub(super) enum Cloned {
    /// The parent, with the child's pid.
    Parent(i32),
    /// The child, which must end by exec or `_exit`.
    Child,
}

/// Clones the spawner, `fork`-like (no new stack, SIGCHLD to the parent),
/// into the new namespaces `flags` name: how a run's init starts. The
/// spawner is single-threaded, so the child may run Rust; it must end by
/// exec or `_exit`, never by returning.
pub(super) fn clone_into(flags: nix::sched::CloneFlags) -> io::Result<Cloned> {
    // SAFETY: a fork-like clone of this single-threaded process; the
    // caller ends the child by exec or _exit.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            flags.bits() as libc::c_ulong | libc::SIGCHLD as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    match pid {
        ..0 => Err(io::Error::last_os_error()),
        0 => Ok(Cloned::Child),
        pid => Ok(Cloned::Parent(pid as i32)),
    }
}

/// Starts the submission as a plain child in a process group of its own.
pub(super) fn launch_plain(
    exec: &Exec<'_>,
    stdio: Vec<OwnedFd>,
    cgroup: Option<&Cgroup>,
) -> Result<i32, Failure> {
    let procs = open_procs(cgroup)?;
    let (errors, report) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| Failure::nix(Stage::Exec, "cannot make a pipe", e))?;
    // SAFETY: fork of this single-threaded process; the child only ends by
    // exec or _exit.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        let error = io::Error::last_os_error();
        return Err(Failure::io(Stage::Exec, "cannot fork", &error));
    }
    if pid == 0 {
        drop(errors);
        // SAFETY: setpgid on ourselves.
        unsafe { libc::setpgid(0, 0) };
        exec_child(exec, &stdio, &procs, &report);
    }
    drop(report);
    drop(stdio);
    match read_failure(&errors) {
        Some(failure) => {
            kill_and_reap(pid);
            Err(failure)
        }
        None => Ok(pid),
    }
}

/// The `cgroup.procs` (or `tasks`) files of `cgroup`, open for the
/// submission to join it just before exec: what the sandbox does to set a
/// run up is not charged to the run.
pub(super) fn open_procs(cgroup: Option<&Cgroup>) -> Result<Vec<OwnedFd>, Failure> {
    let Some(cgroup) = cgroup else {
        return Ok(Vec::new());
    };
    cgroup.open_procs_files().map_err(|(file, e)| {
        Failure::io(
            Stage::Cgroup,
            &format!("cannot open {}", file.display()),
            &e,
        )
    })
}

/// Moves the calling process into the cgroup whose `cgroup.procs` files
/// are open on `procs`.
pub(super) fn join(procs: &[OwnedFd]) -> Result<(), Failure> {
    for fd in procs {
        // SAFETY: writes one byte from a live buffer to a descriptor we own.
        if unsafe { libc::write(fd.as_raw_fd(), b"0".as_ptr().cast(), 1) } != 1 {
            let error = io::Error::last_os_error();
            return Err(Failure::io(
                Stage::Cgroup,
                "cannot join the run's cgroup",
                &error,
            ));
        }
    }
    Ok(())
}

/// The submission's side of the fork: descriptors, directory, limits,
/// privileges, filter, exec. Never returns.
pub(super) fn exec_child(
    exec: &Exec<'_>,
    stdio: &[OwnedFd],
    procs: &[OwnedFd],
    report: &OwnedFd,
) -> ! {
    let failure = (|| -> Result<(), Failure> {
        join(procs)?;
        // Move the descriptors out of the way, then into 0, 1, 2 (and 3).
        let mut high = Vec::with_capacity(stdio.len());
        for fd in stdio {
            // SAFETY: fcntl on a descriptor we own.
            let moved = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 64) };
            if moved < 0 {
                return Err(Failure::io(Stage::Exec, "dup", &io::Error::last_os_error()));
            }
            high.push(moved);
        }
        for (target, fd) in high.iter().enumerate() {
            // SAFETY: dup2 onto the standard descriptors; it clears CLOEXEC.
            if unsafe { libc::dup2(*fd, target as RawFd) } < 0 {
                return Err(Failure::io(
                    Stage::Exec,
                    "dup2",
                    &io::Error::last_os_error(),
                ));
            }
        }
        close_from(high.len() as RawFd);
        nix::unistd::chdir(exec.cwd.as_c_str()).map_err(|e| {
            Failure::nix(
                Stage::Exec,
                &format!("cannot enter {}", exec.cwd.to_string_lossy()),
                e,
            )
        })?;
        crate::runner::sys::set_limits(exec.limits)
            .map_err(|e| Failure::io(Stage::Exec, "cannot set the limits", &e))?;
        if let Some((uid, gid)) = exec.drop_to {
            nix::unistd::setgroups(&[]).map_err(|e| Failure::nix(Stage::Exec, "setgroups", e))?;
            nix::unistd::setresgid(gid, gid, gid)
                .map_err(|e| Failure::nix(Stage::Exec, "setresgid", e))?;
            nix::unistd::setresuid(uid, uid, uid)
                .map_err(|e| Failure::nix(Stage::Exec, "setresuid", e))?;
        }
        if exec.keyrings.is_some() {
            // The spawner's own session keyring is already a fresh one;
            // this one is the run's alone.
            let _ = crate::runner::sys::join_new_session_keyring();
        }
        nix::sys::prctl::set_no_new_privs()
            .map_err(|e| Failure::nix(Stage::Exec, "no_new_privs", e))?;
        if let Some(filter) = exec.keyrings {
            filter
                .apply()
                .map_err(|e| Failure::io(Stage::Exec, "cannot apply the keyring filter", &e))?;
        }
        if let Some(filter) = exec.no_fork {
            filter
                .apply()
                .map_err(|e| Failure::io(Stage::Exec, "cannot apply the process filter", &e))?;
        }
        let error = nix::unistd::execve(&exec.program, &exec.argv, &exec.envp)
            .expect_err("execve returns only on failure");
        let program = exec.program.to_string_lossy();
        let hint = match (error, exec.drop_to) {
            (nix::Error::EACCES, Some((uid, _))) => format!(
                "; the sandbox runs submissions as uid {uid}, which must be able to read and run \
                 it (chmod o+rx), or judge with --sandbox off"
            ),
            _ => String::new(),
        };
        Err(Failure::nix(
            Stage::Program,
            &format!("cannot run {program}{hint}"),
            error,
        ))
    })()
    .expect_err("the closure ends in exec or an error");
    report_failure(report, &failure);
    // SAFETY: ends the child without unwinding.
    unsafe { libc::_exit(127) }
}

/// Marks every descriptor from `first` on to close at exec.
pub(super) fn close_from(first: RawFd) {
    // SAFETY: close_range with CLOSE_RANGE_CLOEXEC only sets flags.
    let r = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if r != 0 {
        // Before Linux 5.11: one by one, as far as descriptors usually go.
        for fd in first..4096 {
            // SAFETY: fcntl on a number that may or may not be open.
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
    }
}

/// What the submission's process needs between its clone and its exec,
/// all made by the init beforehand, and where it leaves its pid.
pub(super) struct Start<'a> {
    pub(super) exec: &'a Exec<'a>,
    pub(super) stdio: &'a [OwnedFd],
    pub(super) procs: &'a [OwnedFd],
    pub(super) root: Option<&'a Path>,
    pub(super) report: &'a OwnedFd,
    /// Its pid as the spawner sees it, written by the process itself.
    pub(super) outer: i32,
}

/// Room for the stack of the submission's process until its exec: the
/// Rust between clone and exec, and the words of a failure.
pub(super) const START_STACK: usize = 256 << 10;

/// Starts the submission from the init, which waits until it has exec'd
/// or failed to; returns its pid in the namespace and as the spawner
/// sees it.
///
/// The process is cloned with `CLONE_VM | CLONE_VFORK`, as `posix_spawn`
/// does: it runs in the init's memory on a stack of its own, while the
/// init is stopped, until its exec. Forking a copy of the init instead,
/// and tearing that copy down again at the exec, cost more than all the
/// rest of starting a run. The init is single-threaded and stopped
/// meanwhile, so nothing else uses its heap or thread-local state.
pub(super) fn start(
    exec: &Exec<'_>,
    stdio: Vec<OwnedFd>,
    procs: &[OwnedFd],
    root: Option<&Path>,
) -> Result<(i32, i32), Failure> {
    let (errors, report) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| Failure::nix(Stage::Namespaces, "pipe", e))?;
    let mut start = Start {
        exec,
        stdio: &stdio,
        procs,
        root,
        report: &report,
        outer: 0,
    };
    let mut stack: Vec<u8> = Vec::with_capacity(START_STACK);
    // The stack grows down from its end, kept 16-byte aligned.
    let top = (stack.as_mut_ptr() as usize + START_STACK) & !15;
    extern "C" fn child(arg: *mut libc::c_void) -> libc::c_int {
        // SAFETY: `arg` is the init's live `Start`, which the init does
        // not touch until this process has exec'd or ended.
        let start = unsafe { &mut *arg.cast::<Start<'_>>() };
        start_child(start)
    }
    // SAFETY: the child runs `child` on its own stack in the init's
    // memory, and the init is suspended (CLONE_VFORK) until it execs or
    // exits; `start` and `stack` outlive that.
    let pid = unsafe {
        libc::clone(
            child,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&raw mut start).cast(),
        )
    };
    if pid < 0 {
        let error = io::Error::last_os_error();
        return Err(Failure::io(Stage::Namespaces, "cannot clone", &error));
    }
    let outer = start.outer;
    drop(stack);
    drop(report);
    drop(stdio);
    match read_failure(&errors) {
        Some(failure) => {
            // SAFETY: reaps our own child, which has exited.
            unsafe { libc::waitpid(pid, std::ptr::null_mut(), 0) };
            Err(failure)
        }
        None => Ok((pid, outer)),
    }
}

/// The submission's process before its exec: it notes its pid as the
/// spawner sees it, enters the run's root, and execs. Never returns.
pub(super) fn start_child(start: &mut Start<'_>) -> ! {
    let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
    // The host's /proc is still mounted here, and names us in its
    // namespace. A stack buffer: nothing here needs the heap.
    let mut link = [0u8; 16];
    // SAFETY: readlink into a live buffer of the given length.
    let n = unsafe { libc::readlink(c"/proc/self".as_ptr(), link.as_mut_ptr().cast(), link.len()) };
    start.outer = std::str::from_utf8(&link[..n.max(0) as usize])
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(0);
    if let Some(root) = start.root {
        if let Err(failure) = enter_root(root) {
            report_failure(start.report, &failure);
            // SAFETY: ends the process without running anything.
            unsafe { libc::_exit(127) }
        }
    }
    exec_child(start.exec, start.stdio, start.procs, start.report)
}
