//! The submission's process from its clone (or fork) to its exec, and
//! everything it needs made beforehand ([`Exec`]).
//!
//! Nothing between the clone and the exec allocates, as in go-sandbox's
//! `forkexec`: the C strings, the `argv` and `envp` pointer arrays, the
//! limits, the ids and the seccomp programs are all made before, and the
//! process makes raw `libc` calls on them only. A process cloned with
//! `CLONE_VM` shares its parent's heap, and one forked from a process
//! with other threads may find the allocator's lock held by a thread that
//! is not there: neither may touch the heap. For the same reason a failure
//! is not put in words there: the process writes which [`Step`] failed
//! and its errno to a pipe, and the parent, which reads the pipe to its
//! end (the exec closes it), says what that means ([`Exec::failure`]).

use std::ffi::{CStr, CString};
use std::io;
use std::marker::PhantomData;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt as _;

use nix::sys::signal::{kill, Signal};
use nix::sys::wait::waitpid;
use nix::unistd::{Gid, Pid, Uid};

use super::cgroup::Cgroup;
use super::failure::{read_report, Failure, Stage, Step};
use super::plan::SpawnRequest;
use super::seccomp::{NoFork, NoKeyrings};
use crate::runner::sys::{Resource, Rlimits};

/// The most descriptors a run starts with: stdin, stdout, stderr and a
/// driver's answers.
const MAX_STDIO: usize = 4;

/// What the spawner's containment adds to every run's start.
#[derive(Clone, Copy)]
pub(super) struct Confinement<'a> {
    /// Where the run is a user of its own and no cgroup counts its tasks:
    /// how many of that user's tasks are not the run's.
    pub(super) tasks_slack: Option<u64>,
    /// The ids the run becomes, when the judge is root.
    pub(super) drop_to: Option<(Uid, Gid)>,
    pub(super) no_fork: Option<&'a NoFork>,
    pub(super) keyrings: Option<&'a NoKeyrings>,
}

/// Everything the submission's process needs between its start and exec,
/// made before it starts.
pub(super) struct Exec<'a> {
    program: CString,
    /// Owned here; `argv` points into them.
    _args: Vec<CString>,
    /// `argv`, ending with a null pointer.
    argv: Vec<*const libc::c_char>,
    _vars: Vec<CString>,
    envp: Vec<*const libc::c_char>,
    cwd: CString,
    limits: [(Resource, Option<u64>); 6],
    drop_to: Option<(libc::uid_t, libc::gid_t)>,
    /// Whether the run gets a session keyring of its own.
    new_keyring: bool,
    /// The seccomp programs, in the order they are installed; each points
    /// into a filter of the jail's, which outlives this value.
    filters: Vec<(Step, libc::sock_fprog)>,
    _jail: PhantomData<&'a ()>,
}

fn cstring(bytes: Vec<u8>) -> Result<CString, Failure> {
    CString::new(bytes)
        .map_err(|_| Failure::new(Stage::Exec, "a command line holds a NUL byte", libc::EINVAL))
}

/// `strings` as C strings, and the null-terminated array of pointers to
/// them that `execve` takes.
fn c_array(
    strings: impl Iterator<Item = Vec<u8>>,
) -> Result<(Vec<CString>, Vec<*const libc::c_char>), Failure> {
    let owned = strings.map(cstring).collect::<Result<Vec<_>, _>>()?;
    let pointers = owned
        .iter()
        .map(|s| s.as_ptr())
        .chain([std::ptr::null()])
        .collect();
    Ok((owned, pointers))
}

/// The kernel's form of a seccomp program, pointing into `program`.
fn fprog(program: &[seccompiler::sock_filter]) -> libc::sock_fprog {
    libc::sock_fprog {
        len: program.len() as libc::c_ushort,
        // The kernel only reads it; seccompiler's instruction is the
        // kernel's `struct sock_filter`, as libc's is.
        filter: program.as_ptr().cast_mut().cast(),
    }
}

impl<'a> Exec<'a> {
    pub(super) fn new(
        launch: &SpawnRequest,
        confinement: Confinement<'a>,
    ) -> Result<Self, Failure> {
        let (args, argv) = c_array(launch.argv.iter().cloned())?;
        let vars = launch
            .env
            .iter()
            .map(|(k, v)| [&k[..], b"=", &v[..]].concat());
        let (vars, envp) = c_array(vars)?;
        let limits = Rlimits {
            tasks: confinement
                .tasks_slack
                .map(|slack| u64::from(launch.plan.tasks) + slack),
            ..launch.limits
        };
        let keyrings = confinement
            .keyrings
            .map(|f| (Step::KeyringFilter, f.programs()));
        let no_fork = confinement
            .no_fork
            .filter(|_| launch.plan.no_fork)
            .map(|f| (Step::ProcessFilter, f.programs()));
        let filters = keyrings
            .into_iter()
            .chain(no_fork)
            .flat_map(|(step, programs)| programs.iter().map(move |p| (step, fprog(p))))
            .collect();
        Ok(Exec {
            program: cstring(launch.program.clone())?,
            _args: args,
            argv,
            _vars: vars,
            envp,
            cwd: cstring(launch.plan.cwd.as_os_str().as_bytes().to_vec())?,
            limits: limits.settings(),
            drop_to: confinement
                .drop_to
                .map(|(uid, gid)| (uid.as_raw(), gid.as_raw())),
            new_keyring: confinement.keyrings.is_some(),
            filters,
            _jail: PhantomData,
        })
    }

    /// What a failure at `step` with `errno`, as the submission's process
    /// reported it, means, in words.
    pub(super) fn failure(&self, step: Step, errno: i32) -> Failure {
        let error = io::Error::from_raw_os_error(errno);
        let (stage, what) = match step {
            Step::JoinCgroup => (Stage::Cgroup, "cannot join the run's cgroup".to_string()),
            Step::Descriptors => (Stage::Exec, "cannot give it its descriptors".into()),
            Step::EnterRoot => (Stage::Filesystem, "cannot enter the run's root".into()),
            Step::Chdir => (
                Stage::Exec,
                format!("cannot enter {}", self.cwd.to_string_lossy()),
            ),
            Step::Limits => (Stage::Exec, "cannot set the limits".into()),
            Step::Setgroups => (Stage::Exec, "setgroups".into()),
            Step::Setresgid => (Stage::Exec, "setresgid".into()),
            Step::Setresuid => (Stage::Exec, "setresuid".into()),
            Step::NoNewPrivs => (Stage::Exec, "no_new_privs".into()),
            Step::KeyringFilter => (Stage::Exec, "cannot apply the keyring filter".into()),
            Step::ProcessFilter => (Stage::Exec, "cannot apply the process filter".into()),
            Step::Exec => {
                let hint = match (errno, self.drop_to) {
                    (libc::EACCES, Some((uid, _))) => format!(
                        "; the sandbox runs submissions as uid {uid}, which must be able to read \
                         and run it (chmod o+rx), or judge with --sandbox off"
                    ),
                    _ => String::new(),
                };
                let program = self.program.to_string_lossy();
                (Stage::Program, format!("cannot run {program}{hint}"))
            }
        };
        Failure::io(stage, &what, &error)
    }
}

/// The descriptors the submission's process works with, as plain numbers
/// made before it starts.
struct Fds<'a> {
    stdio: &'a [RawFd],
    procs: &'a [RawFd],
    report: RawFd,
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

/// A pipe whose write end the submission's process holds until its exec
/// closes it.
fn report_pipe() -> Result<(OwnedFd, OwnedFd), Failure> {
    nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
        .map_err(|e| Failure::nix(Stage::Exec, "cannot make a pipe", e))
}

/// The numbers of `stdio` and `procs`, for the process to use without
/// the heap; at most [`MAX_STDIO`] of `stdio`.
fn numbers(stdio: &[OwnedFd], procs: &[OwnedFd]) -> Result<(Vec<RawFd>, Vec<RawFd>), Failure> {
    if stdio.len() > MAX_STDIO {
        return Err(Failure::new(
            Stage::Exec,
            "too many descriptors",
            libc::EINVAL,
        ));
    }
    let raw = |fds: &[OwnedFd]| fds.iter().map(|fd| fd.as_raw_fd()).collect();
    Ok((raw(stdio), raw(procs)))
}

/// Starts the submission as a plain child in a process group of its own.
pub(super) fn launch_plain(
    exec: &Exec<'_>,
    stdio: Vec<OwnedFd>,
    cgroup: Option<&Cgroup>,
) -> Result<i32, Failure> {
    let procs = open_procs(cgroup)?;
    let (stdio_raw, procs_raw) = numbers(&stdio, &procs)?;
    let (errors, report) = report_pipe()?;
    let fds = Fds {
        stdio: &stdio_raw,
        procs: &procs_raw,
        report: report.as_raw_fd(),
    };
    // SAFETY: the child makes only raw, allocation-free system calls on
    // what was made above, and ends by exec or _exit.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        let error = io::Error::last_os_error();
        return Err(Failure::io(Stage::Exec, "cannot fork", &error));
    }
    if pid == 0 {
        // SAFETY: setpgid on ourselves.
        unsafe { libc::setpgid(0, 0) };
        exec_child(exec, &fds);
    }
    drop(report);
    drop(stdio);
    let failure = match read_report(&errors) {
        Ok(None) => return Ok(pid),
        Ok(Some((step, errno))) => exec.failure(step, errno),
        Err(failure) => failure,
    };
    let pid = Pid::from_raw(pid);
    let _ = kill(pid, Signal::SIGKILL);
    let _ = waitpid(pid, None);
    Err(failure)
}

/// The calling thread's errno.
fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// `Err` with the step and the errno when a raw call returned below zero.
fn check(step: Step, result: libc::c_long) -> Result<(), (Step, i32)> {
    if result < 0 {
        Err((step, errno()))
    } else {
        Ok(())
    }
}

/// The submission's side of the fork: descriptors, directory, limits,
/// privileges, filters, exec. Never returns: on a failure it reports the
/// step and errno on `fds.report` and exits.
fn exec_child(exec: &Exec<'_>, fds: &Fds<'_>) -> ! {
    // A copy of the report pipe above the descriptors the run gets, which
    // the moves to 0-3 cannot overwrite; closed at exec as the original.
    // SAFETY: fcntl on a descriptor we hold.
    let report = match unsafe { libc::fcntl(fds.report, libc::F_DUPFD_CLOEXEC, 64) } {
        copy if copy >= 0 => copy,
        _ => fds.report,
    };
    // SAFETY: raw system calls on live, NUL-terminated strings and arrays
    // that `Exec` made before the fork, and on descriptors we hold.
    let Err((step, errno)) = unsafe { prepare_and_exec(exec, fds) };
    let bytes = step.report(errno);
    // SAFETY: writes a live buffer, then ends without unwinding.
    unsafe {
        libc::write(report, bytes.as_ptr().cast(), bytes.len());
        libc::_exit(127)
    }
}

/// What [`exec_child`] does, up to a failure.
///
/// # Safety
/// Only in the submission's process, after its clone or fork.
unsafe fn prepare_and_exec(
    exec: &Exec<'_>,
    fds: &Fds<'_>,
) -> Result<std::convert::Infallible, (Step, i32)> {
    for fd in fds.procs {
        if libc::write(*fd, b"0".as_ptr().cast(), 1) != 1 {
            return Err((Step::JoinCgroup, errno()));
        }
    }
    // Move the descriptors out of the way, then into 0, 1, 2 (and 3).
    let mut high = [0 as RawFd; MAX_STDIO];
    for (slot, fd) in high.iter_mut().zip(fds.stdio) {
        *slot = libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, 64);
        check(Step::Descriptors, (*slot).into())?;
    }
    for (target, fd) in high[..fds.stdio.len()].iter().enumerate() {
        // dup2 clears CLOEXEC on the copy.
        check(Step::Descriptors, libc::dup2(*fd, target as RawFd).into())?;
    }
    close_from(fds.stdio.len() as RawFd);
    check(Step::Chdir, libc::chdir(exec.cwd.as_ptr()).into())?;
    for (resource, value) in exec.limits {
        if let Some(value) = value {
            let limit = libc::rlimit {
                rlim_cur: value,
                rlim_max: value,
            };
            check(Step::Limits, libc::setrlimit(resource, &limit).into())?;
        }
    }
    if let Some((uid, gid)) = exec.drop_to {
        check(Step::Setgroups, libc::setgroups(0, std::ptr::null()).into())?;
        check(Step::Setresgid, libc::setresgid(gid, gid, gid).into())?;
        check(Step::Setresuid, libc::setresuid(uid, uid, uid).into())?;
    }
    if exec.new_keyring {
        // The spawner's own session keyring is already a fresh one; this
        // one is the run's alone.
        libc::syscall(
            libc::SYS_keyctl,
            libc::KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        );
    }
    check(
        Step::NoNewPrivs,
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0).into(),
    )?;
    for (step, program) in &exec.filters {
        let installed = libc::prctl(
            libc::PR_SET_SECCOMP,
            libc::SECCOMP_MODE_FILTER,
            program as *const libc::sock_fprog,
        );
        check(*step, installed.into())?;
    }
    libc::execve(
        exec.program.as_ptr(),
        exec.argv.as_ptr(),
        exec.envp.as_ptr(),
    );
    Err((Step::Exec, errno()))
}

/// Marks every descriptor from `first` on to close at exec.
fn close_from(first: RawFd) {
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
struct Start<'a> {
    exec: &'a Exec<'a>,
    fds: Fds<'a>,
    root: Option<&'a CStr>,
    /// Its pid as the spawner sees it, written by the process itself.
    outer: i32,
}

/// Room for the stack of the submission's process until its exec: a few
/// raw calls, and no more.
const START_STACK: usize = 64 << 10;

/// Starts the submission from the init, which waits until it has exec'd
/// or failed to; returns its pid in the namespace and as the spawner
/// sees it.
///
/// The process is cloned with `CLONE_VM | CLONE_VFORK`, as `posix_spawn`
/// does: it runs in the init's memory on a stack of its own, while the
/// init is stopped, until its exec. Forking a copy of the init instead,
/// and tearing that copy down again at the exec, cost more than all the
/// rest of starting a run. It does not touch the init's heap.
pub(super) fn start(
    exec: &Exec<'_>,
    stdio: Vec<OwnedFd>,
    procs: &[OwnedFd],
    root: Option<&CStr>,
) -> Result<(i32, i32), Failure> {
    let (stdio_raw, procs_raw) = numbers(&stdio, procs)?;
    let (errors, report) = report_pipe()?;
    let mut start = Start {
        exec,
        fds: Fds {
            stdio: &stdio_raw,
            procs: &procs_raw,
            report: report.as_raw_fd(),
        },
        root,
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
    let failure = match read_report(&errors) {
        Ok(None) => return Ok((pid, outer)),
        Ok(Some((step, errno))) => exec.failure(step, errno),
        Err(failure) => failure,
    };
    // Reaps our own child, which has exited.
    let _ = waitpid(Pid::from_raw(pid), None);
    Err(failure)
}

/// The submission's process before its exec: it notes its pid as the
/// spawner sees it, enters the run's root, and execs. Never returns.
fn start_child(start: &mut Start<'_>) -> ! {
    // SAFETY: raw calls on live buffers and C strings; the failure, if
    // any, goes to the report pipe in `exec_child`'s way.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        // The host's /proc is still mounted here, and names us in its
        // namespace.
        let mut link = [0u8; 16];
        let n = libc::readlink(c"/proc/self".as_ptr(), link.as_mut_ptr().cast(), link.len());
        start.outer = link[..n.max(0) as usize]
            .iter()
            .try_fold(0i32, |pid, &digit| {
                digit
                    .is_ascii_digit()
                    .then(|| pid.wrapping_mul(10) + i32::from(digit - b'0'))
            })
            .unwrap_or(0);
        // The run's root becomes the process's root. The rest of the
        // mount namespace stays mounted but out of reach: nothing leads
        // there from the new root, `/proc/self/mountinfo` shows only what
        // is below it, and the submission has no capability to change
        // roots again. (Detaching the old root instead, with `pivot_root`,
        // costs a few milliseconds per run in the kernel's teardown, for
        // nothing the submission could reach.)
        if let Some(root) = start.root {
            let entered = libc::chdir(root.as_ptr()) == 0
                && libc::chroot(c".".as_ptr()) == 0
                && libc::chdir(c"/".as_ptr()) == 0;
            if !entered {
                let report = Step::EnterRoot.report(errno());
                libc::write(start.fds.report, report.as_ptr().cast(), report.len());
                libc::_exit(127)
            }
        }
    }
    exec_child(start.exec, &start.fds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::sandbox::Plan;

    fn request(program: &str, cwd: &str) -> SpawnRequest {
        SpawnRequest {
            program: program.as_bytes().to_vec(),
            argv: vec![program.as_bytes().to_vec()],
            env: vec![(b"A".to_vec(), b"b".to_vec())],
            limits: Rlimits::default(),
            plan: Plan {
                cwd: cwd.into(),
                ..Plan::default()
            },
        }
    }

    fn null_stdio() -> Vec<OwnedFd> {
        (0..3)
            .map(|_| std::fs::File::create("/dev/null").unwrap().into())
            .collect()
    }

    /// Forked from this test process, which has other threads: safe only
    /// because nothing between the fork and the exec allocates.
    fn launch(request: &SpawnRequest) -> Result<i32, Failure> {
        let confinement = Confinement {
            tasks_slack: None,
            drop_to: None,
            no_fork: None,
            keyrings: None,
        };
        let exec = Exec::new(request, confinement)?;
        launch_plain(&exec, null_stdio(), None)
    }

    #[test]
    fn a_failure_before_exec_names_its_step_and_errno_in_the_parents_words() {
        let missing = launch(&request("/nonexistent/prog", "/")).unwrap_err();
        assert_eq!(
            (missing.stage, missing.errno),
            (Stage::Program, libc::ENOENT)
        );
        assert!(
            missing
                .message
                .starts_with("cannot run /nonexistent/prog: "),
            "{}",
            missing.message
        );
        let nowhere = launch(&request("/bin/true", "/nonexistent/dir")).unwrap_err();
        assert_eq!((nowhere.stage, nowhere.errno), (Stage::Exec, libc::ENOENT));
        assert!(
            nowhere
                .message
                .starts_with("cannot enter /nonexistent/dir: "),
            "{}",
            nowhere.message
        );
        let pid = launch(&request("/bin/true", "/")).unwrap();
        let status = waitpid(Pid::from_raw(pid), None).unwrap();
        assert_eq!(
            status,
            nix::sys::wait::WaitStatus::Exited(Pid::from_raw(pid), 0)
        );
    }

    #[test]
    fn every_step_is_put_in_words_with_its_errno() {
        let confinement = Confinement {
            tasks_slack: None,
            drop_to: Some((Uid::from_raw(60001), Gid::from_raw(60001))),
            no_fork: None,
            keyrings: None,
        };
        let exec = Exec::new(&request("/box/prog", "/box"), confinement).unwrap();
        let refused = exec.failure(Step::Exec, libc::EACCES);
        assert_eq!(refused.stage, Stage::Program);
        assert!(refused.message.contains("uid 60001"), "{}", refused.message);
        let texts: Vec<String> = Step::ALL
            .iter()
            .map(|step| exec.failure(*step, libc::EPERM).message)
            .collect();
        for text in &texts {
            assert!(
                text.ends_with(&io::Error::from_raw_os_error(libc::EPERM).to_string()),
                "{text}"
            );
        }
        let unique: std::collections::BTreeSet<_> = texts.iter().collect();
        assert_eq!(unique.len(), texts.len(), "{texts:?}");
    }
}
