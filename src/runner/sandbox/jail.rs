//! The spawner's side of containment: the namespaces it makes once, and
//! how it starts each run inside them.
//!
//! Once per spawner ([`Jail::enter`]): a user namespace when the judge is
//! not root, then mount, network and UTS namespaces of the spawner's own
//! (its mounts private, its loopback up), the cgroup hierarchy, and a probe
//! run that tries every per-run layer end to end, dropping the ones the
//! kernel refuses and saying why ([`Protections`]).
//!
//! Once per spawner too, the part of every run's root that never changes
//! ([`BaseRoot`]: an empty tmpfs with read-only binds of the system and a
//! minimal `/dev`), in its own mount namespace, where every run's copy of
//! that namespace finds it.
//!
//! Per run: a cgroup (a spare one of an earlier run when there is one),
//! then a `clone` into fresh PID, mount and IPC namespaces. The clone is
//! the namespace's init. Made ahead, while the case before runs
//! ([`Jail::prepare_ahead`]), it adds the run's own part to the root (the
//! run's files, a scratch working directory, `/tmp`, `/dev/shm`, `/proc`)
//! and waits for the command. Given it ([`Jail::launch`]), it starts the
//! submission in its own memory, `posix_spawn`-style ([`start`]); the
//! submission joins the cgroup, changes into the new root and execs:
//! unprivileged, with `no_new_privs`, its limits, and for LeetCode-style
//! files the process filter. The init then only reaps, reports how the
//! submission ended, and exits, at which the kernel kills whatever else is
//! left in the namespace. It cannot be signalled from inside (an init
//! ignores signals it has no handler for), nor traced (it is not
//! dumpable).
//!
//! Without namespaces the submission is forked directly, in a process
//! group of its own, and the spawner, a child subreaper, kills whatever it
//! left behind after it exits.
//!
//! The spawner is single-threaded, so forking it and running Rust in the
//! child is safe; the child only ends by exec or `_exit`.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::mount::{mount, MsFlags};
use nix::sched::CloneFlags;
use nix::sys::statvfs::{statvfs, FsFlags};
use nix::unistd::{Gid, Uid};
use serde::{Deserialize, Serialize};

use super::cgroup::{Cgroup, CgroupLimits, Hierarchy};
use super::seccomp::NoFork;
use super::{ExitReport, Layer, Mode, Plan, Protections, SpawnRequest, SYSTEM_PATHS};
use crate::runner::sys::Rlimits;

/// Submissions of job N run as uid and gid `BOX_ID + N` when the judge is
/// root, as isolate's boxes do.
const BOX_ID: u32 = 60000;

/// How long a run's init may take to set up before it is given up.
const SETUP_DEADLINE: Duration = Duration::from_secs(10);

/// Devices every run gets, bound from the host's.
const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// The step at which starting a run failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Stage {
    Cgroup,
    Namespaces,
    Filesystem,
    /// Setting up the submission's process, up to its exec.
    Exec,
    /// The exec itself: the kernel refused the program.
    Program,
}

/// Why a run did not start.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Failure {
    pub stage: Stage,
    /// The `errno` behind it, or 0.
    pub errno: i32,
    pub message: String,
}

impl Failure {
    fn new(stage: Stage, error: impl std::fmt::Display, errno: i32) -> Failure {
        Failure {
            stage,
            errno,
            message: error.to_string(),
        }
    }

    fn io(stage: Stage, what: &str, error: &io::Error) -> Failure {
        Failure::new(
            stage,
            format!("{what}: {error}"),
            error.raw_os_error().unwrap_or(0),
        )
    }

    fn nix(stage: Stage, what: &str, error: nix::Error) -> Failure {
        Failure::new(stage, format!("{what}: {}", error.desc()), error as i32)
    }

    pub fn into_io(self) -> io::Error {
        match self.stage {
            Stage::Program if self.errno > 0 => {
                let refused = io::Error::from_raw_os_error(self.errno);
                io::Error::new(refused.kind(), super::ProgramRefused(refused))
            }
            Stage::Exec | Stage::Program if self.errno > 0 => {
                io::Error::from_raw_os_error(self.errno)
            }
            _ => io::Error::other(self.message),
        }
    }
}

/// What the init tells the spawner.
#[derive(Debug, Serialize, Deserialize)]
enum FromInit {
    /// The root is ready, and the init waits for the command.
    Ready,
    /// The submission has started (its exec succeeded); its pid as the
    /// spawner sees it.
    Started {
        pid: i32,
    },
    Failed(Failure),
    /// The submission ended (as `wait` reported) and everything else it
    /// left in the namespace is killed and reaped, with their rusage.
    Exited {
        status: i32,
        cpu_ns: u64,
        max_rss_kb: u64,
        /// Memory the run still held in its cgroup when it was over
        /// (its `/tmp` and `/dev/shm`), in KB.
        held_kb: u64,
    },
}

/// The spawner's containment, set up once.
pub(crate) struct Jail {
    pub protections: Protections,
    /// Fresh namespaces per run: PID, mount and IPC.
    per_run: bool,
    filesystem: bool,
    /// The part of every run's root that does not change between runs,
    /// built once in the spawner's own mount namespace.
    base: Option<BaseRoot>,
    cgroups: Option<Hierarchy>,
    /// Cgroups of runs that are entirely gone, for later runs.
    spare_cgroups: Vec<Cgroup>,
    no_fork: Option<NoFork>,
    /// The ids submissions run as, when the judge is root.
    drop_to: Option<(Uid, Gid)>,
    /// The ids inside the namespaces that scratch directories belong to.
    owner: (u32, u32),
    runs: u64,
    /// The sandbox for the next run: made, or being made by its init.
    ready: Option<Prepared>,
    /// Runs and sandboxes let go, whose inits are still to be reaped.
    retired: Vec<Retired>,
}

/// What is left of a run or an unused sandbox: an init on its way out
/// (its namespaces end with it), then a cgroup to remove and directories
/// to give back. Reaped when the kernel is done, off any run's time.
struct Retired {
    init: Option<i32>,
    pidfd: Option<OwnedFd>,
    cgroup: Option<Cgroup>,
    lent: Vec<(PathBuf, Uid, Gid)>,
}

impl Retired {
    /// Whether it is all gone now; cleans up what it can, and puts its
    /// cgroup among the `spare` ones for a later run.
    fn reap(&mut self, wait: bool, spare: &mut Vec<Cgroup>) -> bool {
        if let Some(init) = self.init {
            let flags = if wait { 0 } else { libc::WNOHANG };
            // SAFETY: waitpid on our own child.
            let r = unsafe { libc::waitpid(init, std::ptr::null_mut(), flags) };
            if r == 0 {
                return false;
            }
            self.init = None;
            self.pidfd = None;
        }
        if let Some(cgroup) = self.cgroup.take() {
            // Without a PID namespace, something of the run may be left.
            cgroup.kill_all();
            spare.push(cgroup);
        }
        give_back(&std::mem::take(&mut self.lent));
        true
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        if let Some(ready) = self.ready.take() {
            self.retire_prepared(ready);
        }
        let mut spare = std::mem::take(&mut self.spare_cgroups);
        for retired in &mut self.retired {
            retired.reap(true, &mut spare);
        }
        for cgroup in spare {
            let _ = cgroup.remove();
        }
    }
}

/// A run's sandbox, made before its command is known: its cgroup, and an
/// init that has built the root and waits on its socket for the command
/// and its descriptors. Making it while the judge is busy with the last
/// run keeps it off the time a case takes.
struct Prepared {
    plan: Plan,
    init: i32,
    pidfd: Option<OwnedFd>,
    /// The init's socket, both ways: its word that the sandbox is ready,
    /// then the command, then how the run started and ended.
    from_init: OwnedFd,
    /// Whether the init has said that the sandbox is ready.
    ready: bool,
    cgroup: Option<Cgroup>,
    lent: Vec<(PathBuf, Uid, Gid)>,
}

impl Prepared {
    /// Takes the init's word that the sandbox is ready, waiting at most
    /// `deadline` for it (zero: only if it is there).
    fn ready(&mut self, deadline: Duration) -> Result<(), Failure> {
        if self.ready {
            return Ok(());
        }
        match receive_from_init(&self.from_init, deadline) {
            Ok(FromInit::Ready) => {
                self.ready = true;
                Ok(())
            }
            Ok(FromInit::Failed(failure)) => Err(failure),
            Err(error) if error.kind() == io::ErrorKind::TimedOut && deadline.is_zero() => Ok(()),
            Ok(FromInit::Started { .. } | FromInit::Exited { .. }) | Err(_) => Err(Failure::new(
                Stage::Namespaces,
                "the run's init ended before it was ready",
                0,
            )),
        }
    }
}

/// A run under way, as the spawner tracks it.
pub(crate) struct Running {
    /// The submission's process, as the spawner and the judge see it.
    pub pid: i32,
    /// The init of its namespace, when it has one.
    init: Option<i32>,
    /// Readable at the exit of the init, or of the submission without one.
    pidfd: Option<OwnedFd>,
    from_init: Option<OwnedFd>,
    pub cgroup: Option<Cgroup>,
    started: Instant,
    lent: Vec<(PathBuf, Uid, Gid)>,
    /// The report, once made; the run is cleaned up after it is sent.
    ended: Option<ExitReport>,
}

fn cstring(bytes: &[u8]) -> Result<CString, Failure> {
    CString::new(bytes.to_vec())
        .map_err(|_| Failure::new(Stage::Exec, "a command line holds a NUL byte", libc::EINVAL))
}

/// Everything the submission's process needs between its start and exec.
struct Exec<'a> {
    program: CString,
    argv: Vec<CString>,
    envp: Vec<CString>,
    cwd: CString,
    limits: Rlimits,
    drop_to: Option<(Uid, Gid)>,
    no_fork: Option<&'a NoFork>,
}

impl<'a> Exec<'a> {
    fn new(launch: &SpawnRequest, jail: &'a Jail) -> Result<Exec<'a>, Failure> {
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
            limits: launch.limits,
            drop_to: jail.drop_to,
            no_fork: if launch.plan.no_fork {
                jail.no_fork.as_ref()
            } else {
                None
            },
        })
    }
}

impl Jail {
    /// Sets up the spawner's containment for `mode`, as far as the kernel
    /// allows; `exe` (this program) is run once to prove the per-run layers.
    pub fn enter(mode: Mode, slot: u32, exe: &Path) -> Jail {
        let mut jail = Jail {
            protections: Protections::off(),
            per_run: false,
            filesystem: false,
            base: None,
            cgroups: None,
            spare_cgroups: Vec::new(),
            no_fork: None,
            drop_to: None,
            owner: (Uid::current().as_raw(), Gid::current().as_raw()),
            runs: 0,
            ready: None,
            retired: Vec::new(),
        };
        // Whatever a run leaves behind, outside a PID namespace, becomes
        // the spawner's child, to be killed.
        let _ = nix::sys::prctl::set_child_subreaper(true);
        if mode == Mode::Off {
            return jail;
        }
        let root = Uid::effective().is_root();
        let mut protections = Protections {
            mode,
            user_namespace: !root,
            ..Protections::off()
        };
        match make_namespaces(root) {
            Ok(()) => {
                protections.network = Layer::On;
                protections.processes = Layer::On;
                protections.filesystem = Layer::On;
                protections.ipc = Layer::On;
                // A loopback that is down is still no way out.
                let _ = loopback_up();
                jail.per_run = true;
            }
            Err(why) => {
                protections.user_namespace = false;
                for layer in [
                    &mut protections.processes,
                    &mut protections.filesystem,
                    &mut protections.network,
                    &mut protections.ipc,
                ] {
                    *layer = Layer::Missing(why.clone());
                }
            }
        }
        if root {
            let id = BOX_ID + slot % 1000;
            jail.drop_to = Some((Uid::from_raw(id), Gid::from_raw(id)));
            jail.owner = (id, id);
        }
        if jail.per_run {
            BaseRoot::sweep_stale();
            match BaseRoot::build() {
                Ok(base) => {
                    jail.base = Some(base);
                    jail.filesystem = true;
                }
                Err(failure) => protections.filesystem = Layer::Missing(failure.message),
            }
        }
        protections.accounting = match Hierarchy::detect() {
            Ok(hierarchy) => {
                hierarchy.sweep_stale();
                protections.cgroup_version = Some(hierarchy.version.name().to_string());
                jail.cgroups = Some(hierarchy);
                Layer::On
            }
            Err(why) => Layer::Missing(why),
        };
        protections.no_fork = match NoFork::new() {
            Ok(filter) => {
                jail.no_fork = Some(filter);
                Layer::On
            }
            Err(why) => Layer::Missing(format!("cannot build the seccomp filter: {why}")),
        };
        jail.protections = protections;
        jail.probe(exe);
        jail
    }

    /// Starts `exe --version` with every layer in force, dropping the ones
    /// that fail, until it starts or none is left to drop.
    fn probe(&mut self, exe: &Path) {
        for _ in 0..4 {
            let launch = SpawnRequest {
                program: exe.as_os_str().as_bytes().to_vec(),
                argv: vec![b"sudoku-judge".to_vec(), b"--version".to_vec()],
                env: Vec::new(),
                limits: Rlimits::default(),
                plan: Plan {
                    read_only: vec![exe.to_path_buf()],
                    // The scratch directory exists only in a root of the
                    // sandbox's own; without one, the probe starts where
                    // every system has a directory.
                    cwd: if self.filesystem {
                        super::FALLBACK_CWD.into()
                    } else {
                        "/".into()
                    },
                    scratch_kb: 1024,
                    memory_cap_kb: 256 << 10,
                    tasks: 16,
                    ..Plan::default()
                },
            };
            let stdio = match (0..3)
                .map(|_| fs::OpenOptions::new().write(true).open("/dev/null"))
                .collect::<io::Result<Vec<_>>>()
            {
                Ok(files) => files.into_iter().map(OwnedFd::from).collect(),
                Err(_) => return,
            };
            let launched = self.launch(&launch, stdio);
            // What it made ahead is for no run: the probe's plan is its own,
            // and the layers it was made with may be dropped below.
            if let Some(ready) = self.ready.take() {
                self.retire_prepared(ready);
            }
            let failure = match launched {
                Ok(mut running) => {
                    let result = running.wait_blocking();
                    self.retire(running);
                    match result {
                        Ok(_) => return,
                        Err(error) => Failure::io(Stage::Exec, "the probe run failed", &error),
                    }
                }
                Err(failure) => failure,
            };
            let why = failure.message;
            match failure.stage {
                Stage::Cgroup if self.cgroups.is_some() => {
                    self.cgroups = None;
                    self.protections.cgroup_version = None;
                    self.protections.accounting = Layer::Missing(why);
                }
                Stage::Filesystem if self.filesystem => {
                    self.filesystem = false;
                    self.base = None;
                    self.protections.filesystem = Layer::Missing(why);
                }
                Stage::Namespaces | Stage::Exec | Stage::Program if self.per_run => {
                    self.per_run = false;
                    self.filesystem = false;
                    self.base = None;
                    for layer in [
                        &mut self.protections.processes,
                        &mut self.protections.filesystem,
                        &mut self.protections.ipc,
                    ] {
                        *layer = Layer::Missing(why.clone());
                    }
                }
                _ => return,
            }
        }
    }

    /// Starts one run on `stdio` (stdin, stdout, stderr, and a driver's
    /// answers as fd 3 when there are four).
    pub fn launch(
        &mut self,
        launch: &SpawnRequest,
        stdio: Vec<OwnedFd>,
    ) -> Result<Running, Failure> {
        if !self.per_run {
            self.runs += 1;
            let cgroup = self.cgroup(&launch.plan)?;
            let lent = self.lend(&launch.plan.writable);
            let exec = Exec::new(launch, self)?;
            let started = Instant::now();
            return match launch_plain(&exec, stdio, cgroup.as_ref()) {
                Ok(pid) => Ok(Running {
                    pid,
                    init: None,
                    pidfd: crate::runner::sys::pidfd_open(pid),
                    from_init: None,
                    cgroup,
                    started,
                    lent,
                    ended: None,
                }),
                Err(failure) => {
                    give_back(&lent);
                    if let Some(cgroup) = cgroup {
                        cgroup.kill_all();
                        let _ = cgroup.remove();
                    }
                    Err(failure)
                }
            };
        }
        let mut prepared = match self.ready.take() {
            Some(ready) if ready.plan == launch.plan => ready,
            other => {
                if let Some(other) = other {
                    self.retire_prepared(other);
                }
                self.prepare(&launch.plan)?
            }
        };
        if let Err(failure) = prepared.ready(SETUP_DEADLINE) {
            self.retire_prepared(prepared);
            return Err(failure);
        }
        let command = serde_json::to_vec(launch)
            .map_err(|e| Failure::new(Stage::Exec, format!("cannot encode the command: {e}"), 0))?;
        let fds: Vec<RawFd> = stdio.iter().map(|fd| fd.as_raw_fd()).collect();
        let started = Instant::now();
        let sent = crate::runner::sys::send(&prepared.from_init, &command, &fds);
        drop(stdio);
        // The next case's sandbox is made while this one starts and runs.
        // Not after its start is confirmed: the init that confirms it may
        // wait for a CPU behind the submission itself.
        if sent.is_ok() {
            self.prepare_ahead(&launch.plan);
        }
        let heard = sent.and_then(|()| receive_from_init(&prepared.from_init, SETUP_DEADLINE));
        let pid = match heard {
            Ok(FromInit::Started { pid }) => Ok(pid),
            Ok(FromInit::Failed(failure)) => Err(failure),
            Ok(FromInit::Ready | FromInit::Exited { .. }) => {
                Err(Failure::new(Stage::Exec, "the submission did not start", 0))
            }
            Err(error) => Err(Failure::io(
                Stage::Exec,
                "the submission did not start",
                &error,
            )),
        };
        let pid = match pid {
            Ok(pid) => pid,
            Err(failure) => {
                self.retire_prepared(prepared);
                return Err(failure);
            }
        };
        let Prepared {
            init,
            pidfd,
            from_init,
            cgroup,
            lent,
            ..
        } = prepared;
        Ok(Running {
            pid,
            init: Some(init),
            pidfd,
            from_init: Some(from_init),
            cgroup,
            started,
            lent,
            ended: None,
        })
    }

    /// Starts making the sandbox for the next run, when it will likely
    /// look like the last (every case of a submission does): its init
    /// builds it while the last run goes on. A compile's, which writes a
    /// directory of its own, is never made ahead.
    fn prepare_ahead(&mut self, plan: &Plan) {
        if self.per_run && self.ready.is_none() && plan.writable.is_empty() {
            self.ready = self.prepare(plan).ok();
        }
    }

    /// Lets go of a sandbox that will not be used.
    fn retire_prepared(&mut self, prepared: Prepared) {
        // SAFETY: kill(2) on our own child, not yet reaped.
        unsafe { libc::kill(prepared.init, libc::SIGKILL) };
        self.retired.push(Retired {
            init: Some(prepared.init),
            pidfd: prepared.pidfd,
            cgroup: prepared.cgroup,
            lent: prepared.lent,
        });
    }

    /// Lets go of a run whose report has been sent.
    pub fn retire(&mut self, mut running: Running) {
        let init = running.init.take();
        if let Some(init) = init {
            // It exits by itself once it has reported; this only makes sure.
            // SAFETY: kill(2) on our own child, not yet reaped.
            unsafe { libc::kill(init, libc::SIGKILL) };
        }
        self.retired.push(Retired {
            init,
            pidfd: running.pidfd.take(),
            cgroup: running.cgroup.take(),
            lent: std::mem::take(&mut running.lent),
        });
        running.ended.get_or_insert_with(ExitReport::default);
    }

    /// Tends to the background: takes the word of a sandbox being made,
    /// and reaps what was let go.
    pub fn tend(&mut self) {
        if let Some(mut ready) = self.ready.take() {
            match ready.ready(Duration::ZERO) {
                Ok(()) => self.ready = Some(ready),
                Err(_) => self.retire_prepared(ready),
            }
        }
        let spare = &mut self.spare_cgroups;
        self.retired
            .retain_mut(|retired| !retired.reap(false, spare));
    }

    /// Descriptors that become readable when the background moves on.
    pub fn background_fds(&self) -> Vec<RawFd> {
        let mut fds: Vec<RawFd> = self
            .retired
            .iter()
            .filter_map(|r| r.pidfd.as_ref().map(|fd| fd.as_raw_fd()))
            .collect();
        if let Some(ready) = self.ready.as_ref().filter(|r| !r.ready) {
            fds.push(ready.from_init.as_raw_fd());
        }
        fds
    }

    fn cgroup(&mut self, plan: &Plan) -> Result<Option<Cgroup>, Failure> {
        let Some(hierarchy) = &self.cgroups else {
            return Ok(None);
        };
        let limits = CgroupLimits {
            memory_bytes: plan.memory_cap_kb.saturating_mul(1024),
            pids: plan.tasks,
        };
        while let Some(spare) = self.spare_cgroups.pop() {
            match spare.clone().reuse(limits) {
                Ok(cgroup) => return Ok(Some(cgroup)),
                Err(_) => {
                    spare.kill_all();
                    let _ = spare.remove();
                }
            }
        }
        self.runs += 1;
        hierarchy
            .create(&format!("{}-{}", std::process::id(), self.runs), limits)
            .map(Some)
            .map_err(|e| Failure::io(Stage::Cgroup, "cannot make the run's cgroup", &e))
    }

    /// Hands the writable directories to the box's user for the run (when
    /// the judge is root and runs submissions as another user).
    fn lend(&self, dirs: &[PathBuf]) -> Vec<(PathBuf, Uid, Gid)> {
        let Some((uid, gid)) = self.drop_to else {
            return Vec::new();
        };
        let mut lent = Vec::new();
        for dir in dirs {
            let Ok(meta) = fs::metadata(dir) else {
                continue;
            };
            use std::os::unix::fs::MetadataExt as _;
            let owner = (Uid::from_raw(meta.uid()), Gid::from_raw(meta.gid()));
            chown_tree(dir, uid, gid);
            lent.push((dir.clone(), owner.0, owner.1));
        }
        lent
    }

    /// Starts making a run's sandbox for `plan`, up to the point where only
    /// its command is missing: the init does the work, and says when it is
    /// done ([`Prepared::ready`]).
    fn prepare(&mut self, plan: &Plan) -> Result<Prepared, Failure> {
        let cgroup = self.cgroup(plan)?;
        let lent = self.lend(&plan.writable);
        let cleanup = |cgroup: Option<Cgroup>, lent: &[(PathBuf, Uid, Gid)]| {
            if let Some(cgroup) = cgroup {
                let _ = cgroup.remove();
            }
            give_back(lent);
        };
        let (ours, theirs) = match crate::runner::sys::socket_pair() {
            Ok(sockets) => sockets,
            Err(e) => {
                cleanup(cgroup, &lent);
                return Err(Failure::io(
                    Stage::Namespaces,
                    "cannot make a socket pair",
                    &e,
                ));
            }
        };
        let flags = CloneFlags::CLONE_NEWPID | CloneFlags::CLONE_NEWNS | CloneFlags::CLONE_NEWIPC;
        // SAFETY: a fork-like clone (no new stack, SIGCHLD to the parent)
        // of this single-threaded process; the child only ends by _exit.
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
        if pid < 0 {
            let error = io::Error::last_os_error();
            cleanup(cgroup, &lent);
            return Err(Failure::io(
                Stage::Namespaces,
                "cannot make PID, mount and IPC namespaces",
                &error,
            ));
        }
        if pid == 0 {
            drop(ours);
            init(&theirs, plan, cgroup.as_ref(), self);
        }
        let pid = pid as i32;
        drop(theirs);
        Ok(Prepared {
            plan: plan.clone(),
            init: pid,
            pidfd: crate::runner::sys::pidfd_open(pid),
            from_init: ours,
            ready: false,
            cgroup,
            lent,
        })
    }
}

fn kill_and_reap(pid: i32) {
    // SAFETY: kill and waitpid on our own child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), 0);
    }
}

/// Returns lent directories to their owners.
fn give_back(lent: &[(PathBuf, Uid, Gid)]) {
    for (dir, uid, gid) in lent {
        chown_tree(dir, *uid, *gid);
    }
}

fn chown_tree(dir: &Path, uid: Uid, gid: Gid) {
    let _ = nix::unistd::chown(dir, Some(uid), Some(gid));
    for entry in walkdir::WalkDir::new(dir)
        .min_depth(1)
        .follow_links(false)
        .into_iter()
        .flatten()
    {
        let _ = nix::unistd::fchownat(
            nix::fcntl::AT_FDCWD,
            entry.path(),
            Some(uid),
            Some(gid),
            nix::fcntl::AtFlags::AT_SYMLINK_NOFOLLOW,
        );
    }
}

/// The spawner's own namespaces: user (when not root), mount, network, UTS.
fn make_namespaces(root: bool) -> Result<(), String> {
    let (uid, gid) = (Uid::current(), Gid::current());
    let mut flags = CloneFlags::CLONE_NEWNS | CloneFlags::CLONE_NEWNET | CloneFlags::CLONE_NEWUTS;
    if !root {
        flags |= CloneFlags::CLONE_NEWUSER;
    }
    nix::sched::unshare(flags).map_err(|e| {
        format!(
            "the kernel refused new namespaces ({}){}",
            e.desc(),
            if root {
                ""
            } else {
                "; unprivileged user namespaces may be disabled (sysctl \
                 kernel.unprivileged_userns_clone, or an AppArmor policy)"
            }
        )
    })?;
    if !root {
        // The same ids inside as outside: files keep their owners.
        let write = |file: &str, text: String| {
            fs::write(file, text).map_err(|e| format!("cannot write {file}: {e}"))
        };
        write("/proc/self/setgroups", "deny".into())?;
        write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
        write("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
    }
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .map_err(|e| format!("cannot make the mounts private: {}", e.desc()))?;
    let _ = nix::unistd::sethostname("sudoku-judge");
    Ok(())
}

/// Brings up the network namespace's loopback.
fn loopback_up() -> io::Result<()> {
    // SAFETY: socket(2) with integer arguments; the descriptor is owned below.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: just made; nothing else owns it.
    let socket = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: ifreq is plain data; all-zero is a valid value.
    let mut request: libc::ifreq = unsafe { std::mem::zeroed() };
    for (slot, byte) in request.ifr_name.iter_mut().zip(b"lo\0") {
        *slot = *byte as libc::c_char;
    }
    // SAFETY: SIOCGIFFLAGS and SIOCSIFFLAGS read and write the live ifreq.
    unsafe {
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCGIFFLAGS, &mut request) < 0 {
            return Err(io::Error::last_os_error());
        }
        request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCSIFFLAGS, &request) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Starts the submission as a plain child in a process group of its own.
fn launch_plain(
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

/// Opens the `cgroup.procs` files of `cgroup`, for the submission to join
/// it just before exec: what the sandbox does to set a run up is not
/// charged to the run.
fn open_procs(cgroup: Option<&Cgroup>) -> Result<Vec<OwnedFd>, Failure> {
    cgroup
        .map(Cgroup::procs_files)
        .unwrap_or_default()
        .iter()
        .map(|file| {
            fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_CLOEXEC)
                .open(file)
                .map(OwnedFd::from)
                .map_err(|e| {
                    Failure::io(
                        Stage::Cgroup,
                        &format!("cannot open {}", file.display()),
                        &e,
                    )
                })
        })
        .collect()
}

/// Moves the calling process into the cgroup whose `cgroup.procs` files
/// are open on `procs`.
fn join(procs: &[OwnedFd]) -> Result<(), Failure> {
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

/// Writes a failure where the parent reads it: stage, errno, message.
fn report_failure(fd: &OwnedFd, failure: &Failure) {
    let text = serde_json::to_vec(failure).unwrap_or_default();
    // SAFETY: writes a live buffer to a descriptor we own.
    unsafe {
        libc::write(fd.as_raw_fd(), text.as_ptr().cast(), text.len());
    }
}

/// What the child wrote before it exec'd, if anything: nothing (end of
/// file at its exec) means it started.
fn read_failure(fd: &OwnedFd) -> Option<Failure> {
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: reads into a live buffer from a descriptor we own.
        let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        match n {
            0 => break,
            n if n > 0 => text.extend_from_slice(&buf[..n as usize]),
            _ if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted => {}
            _ => break,
        }
    }
    (!text.is_empty()).then(|| {
        serde_json::from_slice(&text)
            .unwrap_or_else(|_| Failure::new(Stage::Exec, "the submission did not start", 0))
    })
}

/// The submission's side of the fork: descriptors, directory, limits,
/// privileges, filter, exec. Never returns.
fn exec_child(exec: &Exec<'_>, stdio: &[OwnedFd], procs: &[OwnedFd], report: &OwnedFd) -> ! {
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
        nix::sys::prctl::set_no_new_privs()
            .map_err(|e| Failure::nix(Stage::Exec, "no_new_privs", e))?;
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

/// Sends one message to the spawner.
fn tell(socket: &OwnedFd, message: &FromInit) {
    let text = serde_json::to_vec(message).unwrap_or_default();
    let _ = crate::runner::sys::send(socket, &text, &[]);
}

/// Receives the init's next message within `deadline`.
fn receive_from_init(socket: &OwnedFd, deadline: Duration) -> io::Result<FromInit> {
    let message = crate::runner::sys::receive_within(socket, 64 << 10, deadline)?
        .ok_or_else(|| io::Error::other("the run's init went away"))?;
    serde_json::from_slice(&message.0).map_err(|e| io::Error::other(e.to_string()))
}

/// The init of a run's namespaces. Never returns.
fn init(socket: &OwnedFd, plan: &Plan, cgroup: Option<&Cgroup>, jail: &Jail) -> ! {
    let result = (|| -> Result<(), Failure> {
        let procs = open_procs(cgroup)?;
        let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
        let _ = nix::sys::prctl::set_dumpable(false);
        let root = match &jail.base {
            Some(base) if jail.filesystem => Some(build_root(&base.path, plan, jail.owner)?),
            _ => None,
        };
        if let Some(root) = &root {
            seal_root(root)?;
        }
        tell(socket, &FromInit::Ready);
        let Ok(Some((command, stdio))) = crate::runner::sys::receive(socket, 256 << 10) else {
            // The spawner let this sandbox go unused.
            return Ok(());
        };
        let launch: SpawnRequest = serde_json::from_slice(&command)
            .map_err(|e| Failure::new(Stage::Exec, format!("a malformed command: {e}"), 0))?;
        let exec = Exec::new(&launch, jail)?;
        let (submission, outer) = start(&exec, stdio, &procs, root.as_deref())?;
        drop(procs);
        tell(socket, &FromInit::Started { pid: outer });
        // Reap everything that ends here, until the submission does.
        let status = loop {
            let mut status = 0;
            // SAFETY: waits for any child of ours.
            let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
            if pid == submission {
                break status;
            }
            if pid < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
                return Ok(());
            }
        };
        // Then whatever it left behind: every other process of the
        // namespace, killed at once and reaped, so their time is counted.
        // SAFETY: kill(2) and waitpid(2) take no pointers that outlive the calls.
        unsafe {
            libc::kill(-1, libc::SIGKILL);
            while libc::waitpid(-1, std::ptr::null_mut(), 0) > 0 {}
        }
        // SAFETY: rusage is plain data for the kernel to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: a live rusage.
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
        let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        tell(
            socket,
            &FromInit::Exited {
                status,
                cpu_ns: (micros(usage.ru_utime) + micros(usage.ru_stime)) * 1000,
                max_rss_kb: usage.ru_maxrss as u64,
                held_kb: held_kb(cgroup),
            },
        );
        Ok(())
    })();
    if let Err(failure) = result {
        tell(socket, &FromInit::Failed(failure));
        // SAFETY: ends the init; the kernel ends the namespace with it.
        unsafe { libc::_exit(1) };
    }
    // SAFETY: as above.
    unsafe { libc::_exit(0) }
}

/// What the submission's process needs between its clone and its exec,
/// all made by the init beforehand, and where it leaves its pid.
struct Start<'a> {
    exec: &'a Exec<'a>,
    stdio: &'a [OwnedFd],
    procs: &'a [OwnedFd],
    root: Option<&'a Path>,
    report: &'a OwnedFd,
    /// Its pid as the spawner sees it, written by the process itself.
    outer: i32,
}

/// Room for the stack of the submission's process until its exec: the
/// Rust between clone and exec, and the words of a failure.
const START_STACK: usize = 256 << 10;

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
fn start(
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
fn start_child(start: &mut Start<'_>) -> ! {
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

/// The flags a bind mount must keep when it is made read-only: in a user
/// namespace the kernel refuses to clear those the source mount has.
fn kept_flags(path: &Path) -> MsFlags {
    let Ok(stat) = statvfs(path) else {
        return MsFlags::empty();
    };
    let flags = stat.flags();
    let mut kept = MsFlags::empty();
    for (fs_flag, ms_flag) in [
        (FsFlags::ST_NOSUID, MsFlags::MS_NOSUID),
        (FsFlags::ST_NODEV, MsFlags::MS_NODEV),
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if flags.contains(fs_flag) {
            kept |= ms_flag;
        }
    }
    kept
}

/// A source to bind, opened before the new root covers its path.
struct Source {
    fd: OwnedFd,
    target: PathBuf,
    dir: bool,
    writable: bool,
    device: bool,
}

impl Source {
    fn open(path: &Path, target: &Path, writable: bool, device: bool) -> io::Result<Source> {
        let file = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_CLOEXEC)
            .open(path)?;
        let dir = file.metadata()?.is_dir();
        Ok(Source {
            fd: OwnedFd::from(file),
            target: target.to_path_buf(),
            dir,
            writable,
            device,
        })
    }

    /// Binds it at its target under `root`.
    fn bind(&self, root: &Path) -> Result<(), Failure> {
        let at = inside(root, &self.target);
        mountpoint(&at, self.dir)?;
        let from = PathBuf::from(format!("/proc/self/fd/{}", self.fd.as_raw_fd()));
        let fail = |what: &str, e: nix::Error| {
            Failure::nix(
                Stage::Filesystem,
                &format!("cannot {what} {}", self.target.display()),
                e,
            )
        };
        mount(
            Some(&from),
            &at,
            None::<&str>,
            MsFlags::MS_BIND,
            None::<&str>,
        )
        .map_err(|e| fail("bind", e))?;
        let mut flags =
            MsFlags::MS_BIND | MsFlags::MS_REMOUNT | MsFlags::MS_NOSUID | kept_flags(&at);
        if self.device {
            flags |= MsFlags::MS_NOEXEC;
        } else {
            flags |= MsFlags::MS_NODEV;
        }
        if !self.writable {
            flags |= MsFlags::MS_RDONLY;
        }
        mount(None::<&str>, &at, None::<&str>, flags, None::<&str>)
            .map_err(|e| fail("make read-only", e))
    }
}

/// `path` (absolute) under `root`.
fn inside(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

/// Makes `at` a directory or an empty file to mount on, with its parents.
fn mountpoint(at: &Path, dir: bool) -> Result<(), Failure> {
    let fail = |e: io::Error| {
        Failure::io(
            Stage::Filesystem,
            &format!("cannot make {}", at.display()),
            &e,
        )
    };
    if let Some(parent) = at.parent() {
        if !parent.exists() {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o755)
                .create(parent)
                .map_err(fail)?;
        }
    }
    if at.exists() {
        return Ok(());
    }
    let made = if dir {
        fs::DirBuilder::new().mode(0o755).create(at)
    } else {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .open(at)
            .map(drop)
    };
    match made {
        // Another run's init made it in the shared base just now.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        made => made.map_err(fail),
    }
}

fn tmpfs(at: &Path, options: &str, extra: MsFlags) -> Result<(), Failure> {
    mountpoint(at, true)?;
    mount(
        Some("tmpfs"),
        at,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | extra,
        Some(options),
    )
    .map_err(|e| {
        Failure::nix(
            Stage::Filesystem,
            &format!("cannot mount a tmpfs at {}", at.display()),
            e,
        )
    })
}

/// The part of every run's root that is the same for all runs: an empty
/// tmpfs holding read-only binds of the system directories and a minimal
/// `/dev`. The spawner builds it once, in its own mount namespace, in a
/// hidden directory of its own under the temporary directory (covered
/// there, so nothing of it shows outside); each run's mount namespace
/// starts as a copy of the spawner's, so it has the base without a mount
/// of its own, and its init adds only what is the run's
/// ([`build_root`]). Building the whole root per run cost more than all
/// the rest of a run's containment.
struct BaseRoot {
    path: PathBuf,
}

impl BaseRoot {
    const PREFIX: &'static str = ".sudoku-judge-root-";

    fn build() -> Result<BaseRoot, Failure> {
        let fail = |what: &str, e: &io::Error| Failure::io(Stage::Filesystem, what, e);
        let dir = tempfile::Builder::new()
            .prefix(&format!("{}{}-", Self::PREFIX, std::process::id()))
            .tempdir()
            .map_err(|e| fail("cannot make a directory for the runs' root", &e))?
            .keep();
        let base = BaseRoot { path: dir };
        let root = &base.path;
        // Directories made for one plan stay for the next (they are only
        // empty mount points), hence room for many.
        tmpfs(root, "size=1m,nr_inodes=65536,mode=0755", MsFlags::empty())?;
        for dir in SYSTEM_PATHS {
            let path = Path::new(dir);
            match fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = fs::read_link(path).map_err(|e| fail(dir, &e))?;
                    std::os::unix::fs::symlink(target, inside(root, path))
                        .map_err(|e| fail(dir, &e))?;
                }
                Ok(meta) if meta.is_dir() => Source::open(path, path, false, false)
                    .map_err(|e| fail(dir, &e))?
                    .bind(root)?,
                _ => {}
            }
        }
        let dev = root.join("dev");
        tmpfs(&dev, "size=64k,nr_inodes=64,mode=0755", MsFlags::MS_NOEXEC)?;
        for name in DEVICES {
            let path = Path::new("/dev").join(name);
            Source::open(&path, &path, true, true)
                .map_err(|e| fail(&format!("{}", path.display()), &e))?
                .bind(root)?;
        }
        for (name, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            std::os::unix::fs::symlink(target, dev.join(name)).map_err(|e| fail(name, &e))?;
        }
        for at in [dev.join("shm"), root.join("tmp"), root.join("proc")] {
            mountpoint(&at, true)?;
        }
        // Every run shares this /dev: no run may leave anything there.
        mount(
            None::<&str>,
            &dev,
            None::<&str>,
            MsFlags::MS_REMOUNT
                | MsFlags::MS_RDONLY
                | MsFlags::MS_NOSUID
                | MsFlags::MS_NODEV
                | MsFlags::MS_NOEXEC,
            None::<&str>,
        )
        .map_err(|e| Failure::nix(Stage::Filesystem, "cannot make /dev read-only", e))?;
        Ok(base)
    }

    /// Removes the directories of spawners that are gone (killed before
    /// they could clean up): empty, since what covered them went with
    /// their mount namespace.
    fn sweep_stale() {
        let Ok(entries) = fs::read_dir(std::env::temp_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name
                .to_str()
                .and_then(|n| n.strip_prefix(Self::PREFIX))
                .and_then(|rest| rest.split('-').next())
            else {
                continue;
            };
            if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
                let _ = fs::remove_dir(entry.path());
            }
        }
    }
}

impl Drop for BaseRoot {
    fn drop(&mut self) {
        let _ = nix::mount::umount2(&self.path, nix::mount::MntFlags::MNT_DETACH);
        let _ = fs::remove_dir(&self.path);
    }
}

/// Builds a run's root on the spawner's [`BaseRoot`] (at `root`, in the
/// run's own copy of it): `/tmp` and `/dev/shm`, a scratch working
/// directory, the plan's paths bound, and a `/proc` of the run's PID
/// namespace.
fn build_root(root: &Path, plan: &Plan, (uid, gid): (u32, u32)) -> Result<PathBuf, Failure> {
    let fail = |what: &str, e: &io::Error| Failure::io(Stage::Filesystem, what, e);
    let mut own: Vec<(&PathBuf, bool)> = plan
        .read_only
        .iter()
        .map(|p| (p, false))
        .chain(plan.writable.iter().map(|p| (p, true)))
        .filter(|(p, _)| !super::is_system_path(p))
        .collect();
    own.sort_by_key(|(p, _)| p.components().count());
    let mut plan_sources: Vec<Source> = Vec::new();
    for (path, writable) in own {
        if plan_sources.iter().any(|s| path.starts_with(&s.target)) {
            continue;
        }
        plan_sources.push(
            Source::open(path, path, writable, false)
                .map_err(|e| fail(&format!("{}", path.display()), &e))?,
        );
    }
    let scratch = format!(
        "size={}k,nr_inodes=16384,mode=0755,uid={uid},gid={gid}",
        plan.scratch_kb.max(64)
    );
    let shared = format!(
        "size={}k,nr_inodes=16384,mode=1777",
        plan.scratch_kb.max(64)
    );
    tmpfs(&root.join("tmp"), &shared, MsFlags::empty())?;
    mount(
        Some(&root.join("tmp")),
        &root.join("dev/shm"),
        None::<&str>,
        MsFlags::MS_BIND,
        None::<&str>,
    )
    .map_err(|e| Failure::nix(Stage::Filesystem, "cannot bind /dev/shm", e))?;
    if !plan.writable.iter().any(|w| plan.cwd.starts_with(w)) {
        tmpfs(&inside(root, &plan.cwd), &scratch, MsFlags::empty())?;
    }
    for source in &plan_sources {
        source.bind(root)?;
    }
    let proc = root.join("proc");
    let proc_flags = MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC;
    // hidepid keeps the judge's init out of the submission's sight where
    // they are different users.
    mount(
        Some("proc"),
        &proc,
        Some("proc"),
        proc_flags,
        Some("hidepid=2"),
    )
    .or_else(|_| mount(Some("proc"), &proc, Some("proc"), proc_flags, None::<&str>))
    .map_err(|e| Failure::nix(Stage::Filesystem, "cannot mount /proc", e))?;
    Ok(root.to_path_buf())
}

/// Makes the run's root read-only, now that it is built: its own mount of
/// the base, not the base itself, which the spawner and other runs share.
fn seal_root(root: &Path) -> Result<(), Failure> {
    mount(
        None::<&str>,
        root,
        None::<&str>,
        MsFlags::MS_REMOUNT
            | MsFlags::MS_BIND
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV,
        None::<&str>,
    )
    .map_err(|e| Failure::nix(Stage::Filesystem, "cannot make the root read-only", e))
}

/// The memory a run's cgroup still holds once its processes are gone:
/// files it left in a tmpfs and shared memory, which its last sample may
/// have missed (a program that writes them and exits at once). Read by a
/// run's init before its namespace, and its tmpfs with it, goes.
fn held_kb(cgroup: Option<&Cgroup>) -> u64 {
    cgroup
        .and_then(|cgroup| cgroup.memory_kb().ok())
        .unwrap_or(0)
}

/// Makes `root` the calling process's root. The rest of the mount
/// namespace stays mounted but out of reach: nothing leads there from the
/// new root, `/proc/self/mountinfo` shows only what is below it, and the
/// submission has no capability to change roots again. (Detaching the
/// old root instead, with `pivot_root`, costs a few milliseconds per run
/// in the kernel's teardown, for nothing the submission could reach.)
fn enter_root(root: &Path) -> Result<(), Failure> {
    nix::unistd::chdir(root).map_err(|e| Failure::nix(Stage::Filesystem, "chdir", e))?;
    nix::unistd::chroot(".").map_err(|e| Failure::nix(Stage::Filesystem, "chroot", e))?;
    nix::unistd::chdir("/").map_err(|e| Failure::nix(Stage::Filesystem, "chdir", e))
}

impl Running {
    /// Descriptors that become readable when the run moves on: its exit
    /// (pidfd) and the init's messages.
    pub fn fds(&self) -> [RawFd; 2] {
        [
            self.pidfd.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
            self.from_init.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
        ]
    }

    /// Kills everything of the run.
    pub fn kill(&self) {
        match self.init {
            // SAFETY: kill(2) on our own child, not yet reaped: its
            // namespace, and everything in it, goes with it.
            Some(init) => unsafe {
                libc::kill(init, libc::SIGKILL);
            },
            None => {
                // SAFETY: kill(2) on the submission's process group.
                unsafe { libc::kill(-self.pid, libc::SIGKILL) };
                if let Some(cgroup) = &self.cgroup {
                    cgroup.kill_all();
                }
            }
        }
    }

    /// Takes in the init's messages; `Ok(Some)` once the run is over and
    /// everything it started is dead.
    pub fn poll(&mut self) -> io::Result<Option<ExitReport>> {
        if let Some(ended) = self.ended {
            return Ok(Some(ended));
        }
        if let Some(ended) = self.report()? {
            return Ok(Some(ended));
        }
        let waited = self.init.unwrap_or(self.pid);
        let Some((status, usage)) = crate::runner::sys::try_wait4(waited)? else {
            return Ok(None);
        };
        // The init may have sent its report and exited since it was last
        // looked for: read it before taking the exit for a kill.
        if self.init.is_some() {
            if let Some(ended) = self.report()? {
                self.init = None;
                self.pidfd = None;
                return Ok(Some(ended));
            }
        }
        self.pidfd = None;
        let status = match self.init.take() {
            // The init died before the submission ended: it was killed
            // (the judge stopped the run), and everything with it.
            Some(_) => libc::SIGKILL,
            None => {
                // SAFETY: kill(2) on the submission's process group.
                unsafe { libc::kill(-self.pid, libc::SIGKILL) };
                if let Some(cgroup) = &self.cgroup {
                    cgroup.kill_all();
                }
                sweep_orphans();
                status
            }
        };
        let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        let cpu_ns = (micros(usage.ru_utime) + micros(usage.ru_stime)) * 1000;
        Ok(Some(self.finish(
            status,
            cpu_ns,
            usage.ru_maxrss as u64,
            None,
        )))
    }

    /// The init's report of the run's end, if it has come.
    fn report(&mut self) -> io::Result<Option<ExitReport>> {
        let Some(socket) = &self.from_init else {
            return Ok(None);
        };
        match crate::runner::sys::receive_within(socket, 64 << 10, Duration::ZERO) {
            Ok(Some((message, _))) => {
                if let Ok(FromInit::Exited {
                    status,
                    cpu_ns,
                    max_rss_kb,
                    held_kb,
                }) = serde_json::from_slice(&message)
                {
                    return Ok(Some(self.finish(status, cpu_ns, max_rss_kb, Some(held_kb))));
                }
                Ok(None)
            }
            // The init is gone without a report: its exit says more.
            Ok(None) => {
                self.from_init = None;
                Ok(None)
            }
            Err(error) if error.kind() == io::ErrorKind::TimedOut => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The report of a run whose processes are all gone; `held_by_init`
    /// is its init's last reading of the memory, which without one (no
    /// namespace, or an init that died first) is taken here.
    fn finish(
        &mut self,
        status: i32,
        cpu_ns: u64,
        max_rss_kb: u64,
        held_by_init: Option<u64>,
    ) -> ExitReport {
        let mut ended = ExitReport {
            status,
            cpu_ns,
            max_rss_kb,
            wall_ns: self.started.elapsed().as_nanos() as u64,
            oom_kills: 0,
            fork_refusals: 0,
            held_kb: held_by_init.unwrap_or_else(|| held_kb(self.cgroup.as_ref())),
        };
        if let Some(counted) = self.cgroup.as_ref().and_then(|c| c.usage().ok()) {
            ended.cpu_ns = counted.cpu.as_nanos() as u64;
            ended.oom_kills = counted.oom_kills;
            ended.fork_refusals = counted.fork_refusals;
        }
        self.ended = Some(ended);
        ended
    }

    /// Waits for the end, however long it takes: for the probe only.
    fn wait_blocking(&mut self) -> io::Result<ExitReport> {
        loop {
            if let Some(ended) = self.poll()? {
                if !libc::WIFEXITED(ended.status) || libc::WEXITSTATUS(ended.status) != 0 {
                    return Err(io::Error::other(format!(
                        "it ended with status {}",
                        ended.status
                    )));
                }
                return Ok(ended);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn tear_down(&mut self) {
        if let Some(init) = self.init.take() {
            kill_and_reap(init);
        } else if self.ended.is_none() {
            self.kill();
            // SAFETY: reaps our own child.
            unsafe { libc::waitpid(self.pid, std::ptr::null_mut(), 0) };
        }
        if let Some(cgroup) = self.cgroup.take() {
            cgroup.kill_all();
            let _ = cgroup.remove();
        }
        give_back(&std::mem::take(&mut self.lent));
    }
}

/// A run dropped without being retired (the spawner failed) is killed
/// and cleaned up at once.
impl Drop for Running {
    fn drop(&mut self) {
        self.tear_down();
    }
}

/// Kills and reaps every process that was reparented to the spawner (a
/// child subreaper) because its parent ended: what a run started outside a
/// PID namespace, in a session of its own.
fn sweep_orphans() {
    // Usually there is none: no child at all is left to wait for.
    // SAFETY: waitpid with WNOHANG on any child of ours.
    let none = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } < 0
        && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD);
    if none {
        return;
    }
    let me = std::process::id().to_string();
    for _ in 0..50 {
        let mut found = false;
        if let Ok(entries) = fs::read_dir("/proc") {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(pid) = name.to_str().and_then(|n| n.parse::<i32>().ok()) else {
                    continue;
                };
                let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
                    continue;
                };
                // Field 4 (ppid) comes after the name, which ends at the last ')'.
                let ppid = stat
                    .rfind(')')
                    .and_then(|at| stat[at + 2..].split(' ').nth(1));
                if ppid == Some(me.as_str()) {
                    found = true;
                    // SAFETY: kill(2) on a child of ours, then its group.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                        libc::kill(-pid, libc::SIGKILL);
                    }
                }
            }
        }
        // SAFETY: reaps any child of ours that has ended.
        while unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
        if !found {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
