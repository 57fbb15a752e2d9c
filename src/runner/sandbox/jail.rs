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
//! submission in its own memory, `posix_spawn`-style ([`super::child::start`]); the
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
//!
//! Each process and lifetime has a room of its own, as nsjail and
//! go-sandbox keep theirs: this file is the spawner's bookkeeping;
//! [`super::namespaces`] the spawner's own namespaces; [`super::root`] the
//! root filesystem; [`super::init`] the run's init; [`super::child`] the
//! submission's process from clone to exec; [`super::running`] a run under
//! way and its end; [`super::failure`] why a run did not start.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd as _, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use nix::sched::CloneFlags;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{Gid, Pid, Uid};

use super::cgroup::{Cgroup, CgroupLimits, Hierarchy};
use super::child::{clone_into, launch_plain, Cloned, Exec};
use super::failure::{Failure, Stage};
use super::init::{init, receive_from_init, FromInit};
use super::namespaces::{loopback_up, make_namespaces};
use super::root::BaseRoot;
use super::running::{chown_tree, give_back, Running};
use super::seccomp::{NoFork, NoKeyrings};
use super::{ExitReport, Layer, Mode, Plan, Protections, SpawnRequest};
use crate::runner::sys::Rlimits;

/// Submissions of job N run as uid and gid `BOX_ID + N` when the judge is
/// root, as isolate's boxes do.
const BOX_ID: u32 = 60000;

/// Tasks of a spawner's user namespace that are not the run's: the
/// spawner, the run's init, the init of a sandbox made ahead, and inits
/// of earlier runs not yet reaped.
const TASKS_SLACK: u64 = 8;

/// How long a run's init may take to set up before it is given up.
const SETUP_DEADLINE: Duration = Duration::from_secs(10);

/// The spawner's containment, set up once.
pub(crate) struct Jail {
    pub protections: Protections,
    /// Fresh namespaces per run: PID, mount and IPC.
    per_run: bool,
    pub(super) filesystem: bool,
    /// The part of every run's root that does not change between runs,
    /// built once in the spawner's own mount namespace.
    pub(super) base: Option<BaseRoot>,
    cgroups: Option<Hierarchy>,
    /// Cgroups of runs that are entirely gone, for later runs.
    spare_cgroups: Vec<Cgroup>,
    pub(super) no_fork: Option<NoFork>,
    pub(super) no_keyrings: Option<NoKeyrings>,
    /// Where no cgroup limits a run's tasks, but the run is a user of its
    /// own: how many tasks of that user are not the run's (its init, the
    /// spawner, a sandbox made ahead), to add to the run's `RLIMIT_NPROC`.
    pub(super) tasks_slack: Option<u64>,
    /// The ids submissions run as, when the judge is root.
    pub(super) drop_to: Option<(Uid, Gid)>,
    /// The ids inside the namespaces that scratch directories belong to.
    pub(super) owner: (u32, u32),
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
            let flags = (!wait).then_some(WaitPidFlag::WNOHANG);
            if waitpid(Pid::from_raw(init), flags) == Ok(WaitStatus::StillAlive) {
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

impl Jail {
    /// Sets up the spawner's containment for `mode`, as far as the kernel
    /// allows; `exe` (this program) is run once to prove the per-run
    /// layers; `cgroups` is where the judge found its runs' cgroups may go.
    pub fn enter(mode: Mode, slot: u32, exe: &Path, cgroups: Result<Hierarchy, String>) -> Jail {
        let mut jail = Jail {
            protections: Protections::off(),
            per_run: false,
            filesystem: false,
            base: None,
            cgroups: None,
            spare_cgroups: Vec::new(),
            no_fork: None,
            no_keyrings: None,
            tasks_slack: None,
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
        protections.accounting = match cgroups {
            Ok(hierarchy) => {
                hierarchy.sweep_stale();
                protections.cgroup_version = Some(hierarchy.describe());
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
        protections.keyrings = match (
            NoKeyrings::new(),
            crate::runner::sys::join_new_session_keyring(),
        ) {
            (Ok(filter), Ok(())) => {
                jail.no_keyrings = Some(filter);
                Layer::On
            }
            // A kernel without keyrings has none to reach.
            (Ok(_), Err(e)) if e.raw_os_error() == Some(libc::ENOSYS) => Layer::On,
            (Err(why), _) => Layer::Missing(format!("cannot build the seccomp filter: {why}")),
            (_, Err(e)) => Layer::Missing(format!("cannot leave the judge's session keyring: {e}")),
        };
        jail.protections = protections;
        jail.probe(exe);
        jail.limit_tasks();
        jail
    }

    /// Settles how a run's tasks are limited, once the probe has said
    /// which layers hold: by its cgroup; else by `RLIMIT_NPROC`, where the
    /// run is a user of its own (a box user of the judge's, or the user
    /// namespace of this spawner, which runs one run at a time: since
    /// Linux 5.14 the kernel counts a user's tasks per user namespace).
    fn limit_tasks(&mut self) {
        self.tasks_slack = None;
        self.protections.tasks = if self.cgroups.is_some() {
            Layer::On
        } else if self.drop_to.is_some() {
            self.tasks_slack = Some(0);
            Layer::On
        } else if self.per_run && self.protections.user_namespace {
            self.tasks_slack = Some(TASKS_SLACK);
            Layer::On
        } else {
            Layer::Missing(
                "no cgroup counts a run's tasks, and the run shares the judge's user".into(),
            )
        };
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
                    stop_asked: None,
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
            stop_asked: None,
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
        // Our own child, not yet reaped.
        let _ = kill(Pid::from_raw(prepared.init), Signal::SIGKILL);
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
            // Our own child, not yet reaped.
            let _ = kill(Pid::from_raw(init), Signal::SIGKILL);
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
        let pid = match clone_into(flags) {
            Ok(Cloned::Parent(pid)) => pid,
            Ok(Cloned::Child) => {
                drop(ours);
                init(&theirs, plan, cgroup.as_ref(), self);
            }
            Err(error) => {
                cleanup(cgroup, &lent);
                return Err(Failure::io(
                    Stage::Namespaces,
                    "cannot make PID, mount and IPC namespaces",
                    &error,
                ));
            }
        };
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
